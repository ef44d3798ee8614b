"""Vectors and matrices as plain lists: the linear algebra of chapter 9B.

A vector is a list of numbers; a matrix is a list of rows, each a list of
the same length. Shapes are checked, and a mismatch raises ShapeError with
a message that names both shapes.

One convention for every product in core/: a matrix acts on a vector from
the left, M·v (matvec), one dot product per row of M. Tokens are the rows of
a matrix X, so a layer applied to every token is X·W (matmul); applied to a
single token x it is x·W = Wᵀ·x, written matvec(transpose(W), x): the same
numbers, and no second function for them.
"""

import math
import random

from .stats import gaussian_sample


class ShapeError(ValueError):
    """Due operandi con forme che non combaciano."""


def shape(m):
    """La forma (righe, colonne) di una matrice."""
    return len(m), len(m[0]) if m else 0


def check_same_length(a, b):
    """Controlla che due vettori abbiano la stessa lunghezza, altrimenti ShapeError."""
    if len(a) != len(b):
        raise ShapeError(f"vettori di lunghezza diversa: {len(a)} e {len(b)}")


def add(a, b):
    """a + b, elemento per elemento."""
    check_same_length(a, b)
    return [x + y for x, y in zip(a, b)]


def sub(a, b):
    """a − b, elemento per elemento."""
    check_same_length(a, b)
    return [x - y for x, y in zip(a, b)]


def scale(k, a):
    """k·a: ogni elemento moltiplicato per il numero k."""
    return [k * x for x in a]


def dot(a, b):
    """Il prodotto scalare a · b = Σ aᵢbᵢ: si moltiplica a coppie e si somma.

    math.sumprod does it in C with extended precision: fast enough for
    thousands of dimensions in the browser."""
    check_same_length(a, b)
    return math.sumprod(a, b)


def norm(a):
    """La norma |a| = √(a · a), la lunghezza della freccia."""
    return math.sqrt(dot(a, a))


def unit(a):
    """Il versore a / |a|: stessa direzione, lunghezza 1 (un vettore nullo non ha direzione)."""
    n = norm(a)
    if n == 0:
        raise ZeroDivisionError("il vettore nullo non ha una direzione")
    return scale(1 / n, a)


def cosine(a, b):
    """Il coseno cos θ = a · b / (|a| |b|), tra −1 e 1 (non esiste per un vettore nullo)."""
    na, nb = norm(a), norm(b)
    if na == 0 or nb == 0:
        raise ZeroDivisionError("il coseno con un vettore nullo non è definito")
    return max(-1.0, min(1.0, dot(a, b) / (na * nb)))


def projection(b, a):
    """L'ombra di b sulla retta di a: (a · b / a · a)·a."""
    aa = dot(a, a)
    if aa == 0:
        raise ZeroDivisionError("non si proietta su un vettore nullo")
    return scale(dot(a, b) / aa, a)


def transpose(m):
    """La trasposta: le righe diventano colonne."""
    return [list(col) for col in zip(*m)]


def column(m, j):
    """La colonna j di una matrice, come vettore."""
    return [row[j] for row in m]


def matvec(m, v):
    """M·v: un prodotto scalare per ogni riga di M."""
    if shape(m)[1] != len(v):
        raise ShapeError(f"una matrice {shape(m)[0]} × {shape(m)[1]} non si moltiplica per un vettore di {len(v)}")
    return [dot(row, v) for row in m]


def matvec_by_columns(m, v):
    """M·v letto per colonne: v₁·(colonna 1) + v₂·(colonna 2) + …, con lo stesso risultato."""
    if shape(m)[1] != len(v):
        raise ShapeError(f"una matrice {shape(m)[0]} × {shape(m)[1]} non si moltiplica per un vettore di {len(v)}")
    out = [0.0] * len(m)
    for j, vj in enumerate(v):
        out = add(out, scale(vj, column(m, j)))
    return out


def matmul(a, b):
    """Il prodotto A·B: la cella (i, j) è la riga i di A per la colonna j di B."""
    (n, k), (k2, p) = shape(a), shape(b)
    if k != k2:
        raise ShapeError(f"[{n} × {k}]·[{k2} × {p}]: le dimensioni interne {k} e {k2} devono essere uguali")
    cols = transpose(b)
    return [[dot(row, col) for col in cols] for row in a]


def outer(u, v):
    """Il prodotto esterno u·vᵀ: la tabella con uᵢvⱼ nella cella (i, j), di rango 1."""
    return [[x * y for y in v] for x in u]


def one_hot(i, n):
    """Un vettore di n zeri con un 1 in posizione i."""
    if not 0 <= i < n:
        raise IndexError(f"posizione {i} fuori da 0…{n - 1}")
    return [1.0 if j == i else 0.0 for j in range(n)]


def random_direction(d, rng):
    """Una direzione estratta uniformemente sulla sfera in d dimensioni.

    A direction drawn uniformly on the sphere in d dimensions (Gaussian
    coordinates, normalised). rng is a random.Random, so results are seeded.
    """
    while True:
        v = gaussian_sample(d, rng)
        n = norm(v)
        if n > 0:
            return scale(1 / n, v)


def random_directions(n, d, rng):
    """n direzioni a caso in d dimensioni, scritte sugli assi più comodi per loro.

    A rotation of the whole space changes no angle, so the axes can be
    chosen to fit the directions: the first along axis 1, the second in the
    plane of axes 1–2, the k-th (from 0) in the first k + 1 axes. Its k
    coordinates on the axes already used are Gaussian, as before; the part
    of it that sticks out of them has the length of a Gaussian vector in the
    other d − k dimensions, √χ² with d − k degrees of freedom, drawn in one
    go (χ²ₘ = gammavariate(m/2, 2)). From the d-th on, every axis is in use
    and a direction is drawn as random_direction() draws it. This is
    Bartlett's decomposition: the cosines have exactly the joint
    distribution of n random_direction(d) (tests/test_core_linalg.py
    compares them), from about n²/2 random numbers instead of n·d, and each
    vector has min(n, d) coordinates, so a cosine costs min(n, d) products,
    not d."""
    m = min(n, d)
    out = []
    while len(out) < n:
        k = len(out)
        if k >= d:
            out.append(random_direction(d, rng))
            continue
        v = gaussian_sample(k, rng) + [math.sqrt(rng.gammavariate((d - k) / 2, 2.0))] + [0.0] * (m - k - 1)
        size = norm(v)
        if size > 0:
            out.append(scale(1 / size, v))
    return out


def seeded_rng(seed):
    """Un generatore casuale che con lo stesso seme dà sempre gli stessi numeri."""
    return random.Random(seed)
