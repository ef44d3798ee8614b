"""Large quantities written the Italian way: counts in words (6,74 miliardi),
powers of ten (8,4 × 10²²), bytes (13,5 GB), durations (7,8 giorni).

Each keeps about three significant digits: enough to read, few enough that
the reader is not asked to trust the last ones.
"""

import math

from .html import NBSP
from .html import mark_shortened
from .html import num

SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def significant(x, sig=3):
    """x with sig significant digits, as num() writes it (6,74; 131; 2.000): its decimals follow from its
    size, so no quantity holds it to a number of decimals."""
    if x == 0 or not math.isfinite(x):
        return num(float(x), 0)
    digits = sig - 1 - math.floor(math.log10(abs(x)) + 1e-12)  # negative: round to tens, hundreds, …
    text = num(round(float(x), digits), max(0, digits))
    mark_shortened()
    return text.rstrip("0").rstrip(",") if "," in text else text


def sci(x, digits=1, quantity=None):
    """x as a power of ten: 8,4e22 → «8,4 × 10²²» (digits after the comma); quantity as num()'s."""
    if x == 0 or not math.isfinite(x):
        return num(float(x), digits, quantity=quantity)
    # Python's own scientific notation rounds the mantissa and fixes the exponent
    # in one go (9,97 → 1,0 × 10¹), even for subnormal numbers
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    return f"{num(float(mantissa), digits, quantity=quantity)} × 10{str(int(exponent)).translate(SUPERSCRIPT)}"


SCALES = ((1e9, "miliardo", "miliardi"), (1e6, "milione", "milioni"))


def big(x, sig=3):
    """A count in words: 131.072.000 → «131 milioni», 6,74e9 → «6,74 miliardi»,
    2e12 → «2.000 miliardi». Below a million the number in full, from 10¹⁵ up
    a power of ten."""
    if not math.isfinite(x) or abs(x) >= 1e15:
        return sci(x)
    for scale, one, many in SCALES:
        if abs(x) >= scale * 0.9995:
            text = significant(x / scale, sig)
            return f"{text} {one if text == '1' else many}"
    return num(round(x)) if abs(x) >= 100 or float(x).is_integer() else significant(x, sig)


UNITS = ((1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB"))


def data_size(n_bytes, sig=3):
    """Bytes in decimal units, as disks and GPUs are sold: 1,35e10 → «13,5 GB» (number and unit joined
    by a non-breaking space)."""
    for scale, unit in UNITS:
        if abs(n_bytes) >= scale * 0.9995:
            return f"{significant(n_bytes / scale, sig)}{NBSP}{unit}"
    return f"{significant(n_bytes, sig)}{NBSP}byte"


def duration(hours, sig=2):
    """A time given in hours, in the unit that reads best: minuti, ore,
    giorni, anni (of 365 days)."""
    for scale, one, many in ((24 * 365, "anno", "anni"), (24, "giorno", "giorni"), (1, "ora", "ore")):
        if hours >= scale * 0.9995:
            text = significant(hours / scale, sig)
            return f"{text} {one if text == '1' else many}"
    text = significant(hours * 60, sig)
    return f"{text} {'minuto' if text == '1' else 'minuti'}"


__all__ = ["big", "data_size", "duration", "sci", "significant"]
