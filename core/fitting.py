"""Curves made of ReLU elbows, and the least-squares fit of their slopes.

A piecewise-linear function on the real line is a sum of elbows:

    f(x) = c + s₀·x + s₁·ReLU(x − e₁) + … + sₙ·ReLU(x − eₙ)

c and s₀ give the line it starts on; at each elbow position eᵢ the slope
changes by sᵢ (ReLU(x − e) is 0 before e and x − e after it). Given the
elbow positions, f is linear in (c, s₀, s₁, …, sₙ), so the best ones for a
target sampled on a grid come from linear least squares. The same curves
are the broken lines with corners at the elbows, and in that form
(fit_broken_line) the least squares take one pass over the grid.
"""

import math


def from_points(points):
    """La forma a gomiti della spezzata che passa per i punti dati, ordinati per x.

    The elbow form of the broken line through points (x₀, y₀), …, (xₘ, yₘ),
    sorted by x with distinct x: returns (c, s₀, elbows, slopes).

    Segment j has slope mⱼ = (yⱼ₊₁ − yⱼ)/(xⱼ₊₁ − xⱼ); the line starts with
    s₀ = m₀ through (x₀, y₀), so c = y₀ − m₀·x₀, and every inner point xⱼ is
    an elbow where the slope changes by mⱼ − mⱼ₋₁.
    """
    if len(points) < 2:
        raise ValueError("servono almeno due punti")
    xs = [x for x, _ in points]
    if any(b <= a for a, b in zip(xs, xs[1:])):
        raise ValueError("i punti devono avere x crescenti e diverse")
    m = [(y1 - y0) / (x1 - x0) for (x0, y0), (x1, y1) in zip(points, points[1:])]
    c = points[0][1] - m[0] * points[0][0]
    return c, m[0], xs[1:-1], [b - a for a, b in zip(m, m[1:])]


def grid(a, b, n):
    """n equally spaced points from a to b, both included."""
    if n < 2:
        raise ValueError("una griglia ha almeno due punti")
    return [a + (b - a) * i / (n - 1) for i in range(n)]


def even_elbows(a, b, n):
    """n posizioni di gomiti che tagliano [a, b] in n + 1 pezzi uguali."""
    return [a + (b - a) * k / (n + 1) for k in range(1, n + 1)]


def mse(ys, targets):
    """L'errore quadratico medio: la media di (yᵢ − tᵢ)²."""
    if len(ys) != len(targets) or not ys:
        raise ValueError("servono due liste della stessa lunghezza, non vuote")
    gaps = [y - t for y, t in zip(ys, targets)]
    return math.sumprod(gaps, gaps) / len(ys)  # Σ gap², in C with extended precision


def broken_line(xs, knots, heights):
    """La spezzata per i punti (nodo, altezza), letta in ogni x della griglia.

    xs sorted, inside [knots[0], knots[-1]]: one walk along both lists, each
    x read on the segment it falls in, (1 − t)·hⱼ + t·hⱼ₊₁."""
    out, j, last = [], 0, len(knots) - 2
    for x in xs:
        while j < last and x > knots[j + 1]:
            j += 1
        t = (x - knots[j]) / (knots[j + 1] - knots[j])
        out.append((1 - t) * heights[j] + t * heights[j + 1])
    return out


def fit_broken_line(xs, ys, knots):
    """Le altezze nei nodi della spezzata più vicina ai dati, con i minimi quadrati.

    A broken line with corners at the knots k₀ < k₁ < … < kₘ is Σ hⱼ·φⱼ(x),
    where the «hat» φⱼ is 1 at kⱼ, 0 at every other knot and straight in
    between. A grid x between kⱼ and kⱼ₊₁ sees only two hats, φⱼ = 1 − t and
    φⱼ₊₁ = t (t = (x − kⱼ)/(kⱼ₊₁ − kⱼ)), so the normal equations ΦᵀΦ·h = Φᵀy
    are tridiagonal: one pass over the grid writes them, one sweep down and
    one back up solve them (Thomas's algorithm). These are the curves made of
    elbows at the inner knots, so from_points of the knots and these heights
    is the least-squares fit of c, s₀ and the slopes (numpy's lstsq on the
    columns 1, x, ReLU(x − eᵢ) in tests/test_core_fitting.py), but the cost
    grows with the grid only: a QR of those columns costs grid × elbows².
    xs sorted, inside [k₀, kₘ]; every hat must touch some x."""
    m = len(knots)
    if m < 2 or any(b <= a for a, b in zip(knots, knots[1:])):
        raise ValueError("servono almeno due nodi, in ordine crescente e diversi")
    if xs[0] < knots[0] or xs[-1] > knots[-1]:
        raise ValueError("la griglia deve stare tra il primo e l'ultimo nodo")
    diag, off, rhs = [0.0] * m, [0.0] * (m - 1), [0.0] * m
    j = 0
    for x, y in zip(xs, ys, strict=True):
        while j < m - 2 and x > knots[j + 1]:
            j += 1
        t = (x - knots[j]) / (knots[j + 1] - knots[j])
        s = 1 - t
        diag[j] += s * s
        diag[j + 1] += t * t
        off[j] += s * t
        rhs[j] += s * y
        rhs[j + 1] += t * y

    def undetermined(j):
        where = f"{knots[j]:g}".replace(".", ",")
        return ValueError(f"nessun punto della griglia vicino al nodo in x = {where}: la spezzata non è determinata")

    if diag[0] <= 0:
        raise undetermined(0)
    for j in range(1, m):  # down: eliminate the entry under the diagonal
        w = off[j - 1] / diag[j - 1]
        alone = diag[j]
        diag[j] -= w * off[j - 1]
        rhs[j] -= w * rhs[j - 1]
        if diag[j] <= 1e-12 * alone:  # nothing left to fix this height (or no grid point touched it)
            raise undetermined(j)
    heights = [0.0] * m
    heights[-1] = rhs[-1] / diag[-1]
    for j in reversed(range(m - 1)):  # up: each height from the one after it
        heights[j] = (rhs[j] - off[j] * heights[j + 1]) / diag[j]
    return heights
