"""Principal component analysis by power iteration, in plain Python: enough
to draw a handful of embedding vectors on a plane.

The points are centred; the first principal direction is the unit vector
along which their spread (variance) is largest, i.e. the top eigenvector of
the covariance matrix C = XᵀX / n. Power iteration finds it by multiplying a
vector by C (here by a power of C) again and again; the next direction is found the same way after
removing the first one from C (deflation).
"""

import math

from core.stats import fmean

from .linalg import dot, matmul, matvec, norm, scale


def centred(points):
    """I punti meno la loro media, e la media."""
    d = len(points[0])
    mean = [fmean([p[k] for p in points]) for k in range(d)]
    return [[x - m for x, m in zip(p, mean)] for p in points], mean


def covariance(points):
    """La matrice di covarianza C = XᵀX / n di punti già centrati (d × d)."""
    n, d = len(points), len(points[0])
    cols = [[p[k] for p in points] for k in range(d)]
    return [[math.sumprod(cols[i], cols[j]) / n for j in range(d)] for i in range(d)]


def top_eigenvector(C, iterations=200, tolerance=1e-14, squarings=4):
    """L'autovettore unitario della matrice simmetrica C con l'autovalore più grande, e l'autovalore.

    The unit eigenvector of the symmetric matrix C with the largest
    eigenvalue, and that eigenvalue.

    Power iteration on C^(2^squarings) instead of C: the same eigenvectors,
    but the gap between the first eigenvalue and the others is raised to the
    power 2^squarings, so a handful of iterations are enough. It starts from a
    fixed vector, so the result is deterministic."""
    d = len(C)
    M = C
    for _ in range(squarings):
        M = matmul(M, M)
        biggest = max(abs(x) for row in M for x in row)
        if biggest == 0:
            break
        M = [[x / biggest for x in row] for row in M]  # keeps the powers from overflowing
    v = [1.0 + 0.1 * k for k in range(d)]
    v = scale(1 / norm(v), v)
    for _ in range(iterations):
        w = matvec(M, v)
        size = norm(w)
        if size == 0:
            return v, 0.0
        w = scale(1 / size, w)
        done = max(abs(a - b) for a, b in zip(w, v)) < tolerance
        v = w
        if done:
            break
    return v, dot(v, matvec(C, v))


def total_variance(points):
    """La somma delle varianze lungo tutti gli assi (la traccia della covarianza)."""
    return math.fsum(sum(x * x for x in p) for p in centred(points)[0]) / len(points)


def principal_directions(points, k=2, iterations=500):
    """Le prime k direzioni principali (vettori unitari) e la varianza lungo ciascuna.

    The first k principal directions (unit vectors, each with its largest
    component positive) and the variances along them.
    """
    C = covariance(centred(points)[0])
    directions, variances = [], []
    for _ in range(k):
        v, lam = top_eigenvector(C, iterations)
        if max(v, key=abs) < 0:  # an eigenvector's sign is arbitrary: fix it, so the drawing never mirrors
            v = scale(-1.0, v)
        directions.append(v)
        variances.append(lam)
        C = [[c - lam * a * b for c, b in zip(row, v)] for row, a in zip(C, v)]
    return directions, variances


def orient(directions, reference):
    """Gira ogni direzione che punta al contrario di quella di riferimento, perché il disegno non si specchi.

    Flip each direction that points away from the matching reference
    direction (negative dot product): two similar clouds of points, drawn
    with oriented directions, do not appear mirrored.
    """
    return [scale(-1.0, v) if dot(v, r) < 0 else v for v, r in zip(directions, reference)]


def project(points, directions):
    """Le coordinate dei punti centrati lungo ogni direzione."""
    return [[dot(p, v) for v in directions] for p in centred(points)[0]]
