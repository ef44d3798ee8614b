"""Histogram counts and Gaussian samples: what the standard library's
`statistics` does not give. The mean and the spread are its own: fmean
(x̄ = Σ xᵢ / n, with math.fsum) and pstdev / pvariance (the population
ones, ÷ n, numpy's default).

Plain lists of numbers in, numbers out, as in the rest of core/.
"""

import math


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
