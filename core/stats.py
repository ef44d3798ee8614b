"""The mean and the spread of a list of numbers, histogram counts and Gaussian samples.

fmean, pvariance and pstdev are the standard library's `statistics`
functions of those names, in floating point: importing `statistics` (with
fractions, decimal and numbers) costs about 50 ms in the browser's Python, on
every page that needs it, before the lab can answer. The mean is theirs bit
for bit; the spread agrees to a few units in the last place (theirs is
computed in exact fractions, then rounded).

Plain lists of numbers in, numbers out, as in the rest of core/.
"""

import math


def fmean(xs):
    """La media x̄ = Σ xᵢ / n, con la somma arrotondata una volta sola (math.fsum)."""
    xs = xs if isinstance(xs, (list, tuple)) else list(xs)
    if not xs:
        raise ValueError("la media di nessun valore non esiste")
    return math.fsum(xs) / len(xs)


def _squared_deviations(xs, mu):
    """La somma dei quadrati degli scarti Σ (xᵢ − μ)², come s²·q, e il numero n dei valori.

    s is a power of two near the largest deviation, so that no square under-
    or overflows (q is summed with math.fsum). Around μ = x̄ the rounding of x̄
    itself is corrected: Σ (xᵢ − x̄) is 0 only in exact arithmetic, and its
    square over n is taken off (as `statistics` does).
    """
    xs = xs if isinstance(xs, (list, tuple)) else list(xs)
    if not xs:
        raise ValueError("la varianza di nessun valore non esiste")
    centre = fmean(xs) if mu is None else mu
    deviations = [x - centre for x in xs]
    scale = 2.0 ** math.frexp(max(map(abs, deviations)))[1]  # exact: dividing by it only moves exponents
    scaled = [d / scale for d in deviations]
    q = math.fsum(d * d for d in scaled)
    if mu is None:
        q -= math.fsum(scaled) ** 2 / len(xs)
    return scale, max(0.0, q), len(xs)


def pvariance(xs, mu=None):
    """La varianza della popolazione σ² = Σ (xᵢ − μ)² / n (÷ n, come numpy), attorno a μ = x̄ se non è data."""
    s, q, n = _squared_deviations(xs, mu)
    return s * s * (q / n)


def pstdev(xs, mu=None):
    """La deviazione standard della popolazione σ = √(Σ (xᵢ − μ)² / n) (vedi pvariance)."""
    s, q, n = _squared_deviations(xs, mu)
    return s * math.sqrt(q / n)


def bin_edges(lo, hi, bins):
    """I bins + 1 bordi delle classi, equidistanti da lo a hi."""
    if not hi > lo or bins < 1:
        raise ValueError(f"intervallo o numero di classi non valido: [{lo}, {hi}], {bins}")
    return [lo + (hi - lo) * i / bins for i in range(bins)] + [hi]


def bin_counts(xs, lo, hi, bins):
    """Quanti valori cadono in ciascuna delle bins classi uguali di [lo, hi].

    As numpy.histogram: each class holds [left, right), the last one also its
    right edge; values outside [lo, hi] are not counted.
    """
    bin_edges(lo, hi, bins)
    counts = [0] * bins
    width = (hi - lo) / bins
    for x in xs:
        if lo <= x <= hi:
            counts[min(bins - 1, int((x - lo) / width))] += 1
    return counts


def gaussian_sample(n, rng):
    """n numeri indipendenti dalla normale standard N(0, 1).

    Box–Muller: from two uniform numbers u, v the pair
    √(−2 ln u)·(cos 2πv, sin 2πv) is two independent normal numbers. Written
    as one loop over pairs because it is about three times faster than
    calling rng.gauss n times, and the high-dimension lab draws hundreds of
    thousands of them on every change. rng is a random.Random (seeded).
    """
    uniform = rng.random
    out = []
    append = out.append
    log, sqrt, cos, sin, tau = math.log, math.sqrt, math.cos, math.sin, math.tau
    for _ in range((n + 1) // 2):
        radius = sqrt(-2.0 * log(1.0 - uniform()))  # 1 − u lies in (0, 1]: log never sees 0
        angle = tau * uniform()
        append(radius * cos(angle))
        append(radius * sin(angle))
    del out[n:]
    return out
