"""A deep stack of small tanh layers, with or without the residual
connection and RMSNorm, and the gradient that reaches each depth.

Layer ℓ maps h to tanh(W_ℓ·h) (plain) or h + tanh(W_ℓ·h) (residual);
norm="pre" normalises h before W, norm="post" normalises the layer's output.
The output is y = Σ h_L; stack_backward() applies the chain rule layer by layer.
"""

import math

from core.linalg import seeded_rng
from core.normalization import rms_norm, rms_norm_backward
from core.stats import gaussian_sample

D = 8  # wide enough to behave like a layer, small enough to stay well under a millisecond per layer
EPS = 1e-5


DRAWN = {}  # seed → the longest draw made with it (the last 16 seeds)


def normals(seed, n):
    """I primi n numeri di N(0, 1) estratti con questo seme: gaussian_sample(n, seeded_rng(seed)).

    The draw is one sequence, and its first n numbers do not depend on how
    many come after: the longest drawn per seed is kept and cut, so a
    deeper or shallower stack with the same seed draws nothing again."""
    drawn = DRAWN.get(seed)
    if drawn is None or len(drawn) < n:
        if len(DRAWN) >= 16:
            del DRAWN[next(iter(DRAWN))]
        drawn = DRAWN[seed] = gaussian_sample(n, seeded_rng(seed))
    return drawn[:n]


def draw_stack(seed, layers, sigma):
    """Il vettore d'ingresso e una matrice D×D per strato, con valori estratti da N(0, σ²/D)."""
    # one draw for all (the same numbers as one per row: D is even, so no pair is split)
    numbers = normals(seed, D + layers * D * D)
    root = math.sqrt(D)
    w = [v * sigma / root for v in numbers[D:]]
    rows = [w[i : i + D] for i in range(0, len(w), D)]
    return numbers[:D], [rows[i : i + D] for i in range(0, len(rows), D)]


def stack_forward(x, weights, residual, norm):
    """Il forward della pila di strati: y è la somma dell'ultimo h; il nastro tiene ciò che serve al backward."""
    h, tape = list(x), []
    for w in weights:
        u = rms_norm(h, EPS) if norm == "pre" else h
        t = [math.tanh(math.sumprod(row, u)) for row in w]  # W·u, each row's sum in C with extended precision
        out = [a + b for a, b in zip(h, t)] if residual else t
        tape.append((h, t, out))
        h = rms_norm(out, EPS) if norm == "post" else out
    return math.fsum(h), tape


def stack_backward(weights, tape, residual, norm):
    """La norma di ∂y/∂h a ogni profondità, dall'ingresso all'uscita, con la regola della catena."""
    g = [1.0] * D
    sizes = [math.hypot(*g)]
    for w, (h, t, out) in zip(reversed(weights), reversed(tape)):
        columns = list(zip(*w))
        if norm == "post":
            g = rms_norm_backward(out, g, EPS)
        gz = [gi * (1 - ti * ti) for gi, ti in zip(g, t)]  # through tanh: its slope is 1 − tanh²
        gu = [math.sumprod(column, gz) for column in columns]  # through W: Wᵀ·g, a column of W at a time
        if norm == "pre":
            gu = rms_norm_backward(h, gu, EPS)
        g = [a + b for a, b in zip(g, gu)] if residual else gu  # the direct branch adds g itself
        sizes.append(math.hypot(*g))
    return g, sizes[::-1]


def gradient_sizes(x, weights, residual, norm):
    """La norma del gradiente a ogni profondità, con o senza la connessione residua."""
    return stack_backward(weights, stack_forward(x, weights, residual, norm)[1], residual, norm)[1]
