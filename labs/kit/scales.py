"""Scales of a chart: data ranges, ticks written the Italian way (powers of ten on a log axis), and the map
from data to pixels."""

import math

from .html import digits_apart
from .html import num


def finite(v):
    return isinstance(v, (int, float)) and math.isfinite(v)


NUMBERS = {int, float}


def all_finite(values):
    """Whether every value is an int or a float, none infinite or nan: the
    same as all(map(finite, values)) for ints and floats, checked in C (a
    curve has hundreds of points, redrawn at every change). False, never
    wrong, for anything else (a bool, a huge int, a sum that overflows):
    the caller then checks value by value."""
    try:
        return set(map(type, values)) <= NUMBERS and math.isfinite(sum(values))
    except OverflowError:  # an int too large for a float
        return False


def finite_points(points):
    """The (x, y) points whose coordinates are both finite numbers, in order."""
    if points and all_finite([x for x, _ in points]) and all_finite([y for _, y in points]):
        return list(points)
    return [(x, y) for x, y in points if finite(x) and finite(y)]


def decimals(step):
    """The decimals needed to write multiples of step (0.25 → 2, 50 → 0)."""
    for d in range(10):
        if abs(round(step, d) - step) <= 1e-9 * abs(step):
            return d
    return 10


def nice_ticks(lo, hi, count=5):
    """Round tick values (steps of 1, 2, 2.5 or 5 × 10ᵏ) covering [lo, hi],
    about count of them, and the number of decimals they need."""
    span = hi - lo
    if not span > 0:
        return [lo], 2
    magnitude = 10 ** math.floor(math.log10(span / count))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if span / (m * magnitude) <= count)
    first = math.ceil(lo / step - 1e-9)
    ticks = [round(k * step, 12) for k in range(first, math.floor(hi / step + 1e-9) + 1)]
    return ticks, decimals(step)


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_label(value):
    """A power of ten for a log axis: 0,01 … 10.000 in full, else 10⁻⁵."""
    k = round(math.log10(value))
    if -3 <= k <= 4:
        return num(10.0**k, max(0, -k))
    return "10" + str(k).translate(SUPERSCRIPT)


def is_power_of_ten(v):
    return v > 0 and abs(math.log10(v) - round(math.log10(v))) < 1e-9


def log_ticks(lo, hi):
    return [10.0**k for k in range(math.ceil(math.log10(lo) - 1e-9), math.floor(math.log10(hi) + 1e-9) + 1)]


class Scale:
    """Data value → pixel along one axis, linear or logarithmic."""

    def __init__(self, lo, hi, start, end, log=False):
        if log and not 0 < lo < hi:
            raise ValueError("una scala logaritmica vuole 0 < minimo < massimo")
        if not lo < hi:
            lo, hi = lo - 0.5, hi + 0.5
        self.lo, self.hi, self.start, self.end, self.log = lo, hi, start, end, log

    def __call__(self, v):
        if self.log:
            t = (math.log10(v) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo)) if v > 0 else -10
        else:
            t = (v - self.lo) / (self.hi - self.lo)
        # far-away values stay far away (the plot clips them) but finite and short
        return self.start + max(-10.0, min(11.0, t)) * (self.end - self.start)

    def many(self, values):
        """[self(v) for v in values] for finite numbers, in one pass (a curve has hundreds of points)."""
        if self.log:
            lo = math.log10(self.lo)
            width = math.log10(self.hi) - lo
            ts = [(math.log10(v) - lo) / width if v > 0 else -10 for v in values]
        else:
            lo, width = self.lo, self.hi - self.lo
            ts = [(v - lo) / width for v in values]
        start, span = self.start, self.end - self.start
        return [start + ((t if t < 11.0 else 11.0) if t > -10.0 else -10.0) * span for t in ts]

    def ticks(self, given=None, count=5):
        """(value, label) pairs: given ones (values or pairs), else automatic."""
        if given is not None:
            pairs = [t if isinstance(t, tuple) else (t, None) for t in given]
            digits = max((decimals(v) for v, label in pairs if label is None and finite(v)), default=0)
            digits = digits_apart([v for v, label in pairs if label is None], min(digits, 6), 10)
            return [
                (
                    v,
                    label
                    if label is not None
                    else power_label(v)
                    if self.log and is_power_of_ten(v)
                    else num(float(v), digits),
                )
                for v, label in pairs
            ]
        if self.log:
            return [(v, power_label(v)) for v in log_ticks(self.lo, self.hi)]
        values, digits = nice_ticks(self.lo, self.hi, count)
        return [(v, num(float(v), digits)) for v in values]


def data_range(values, fixed, log=False, pad=0.05):
    """The axis range: fixed if given, else the data's with a little room."""
    if fixed is not None:
        return fixed
    if log or not all_finite(values):
        values = [v for v in values if finite(v) and (v > 0 or not log)]
    if not values:
        return (0.1, 1.0) if log else (0.0, 1.0)
    lo, hi = min(values), max(values)
    if log:
        low, high = math.floor(math.log10(lo) + 1e-9), math.ceil(math.log10(hi) - 1e-9)
        return 10.0**low, 10.0 ** max(high, low + 1)
    if hi == lo:
        return lo - 1, hi + 1
    room = (hi - lo) * pad
    return lo - room, hi + room


__all__ = ["Scale", "data_range", "nice_ticks"]
