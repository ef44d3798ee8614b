"""Embeddings learned by predicting the next token: a tiny model in which a
token's meaning can only come from the company it keeps.

Every token a has an input vector E_in[a] and an output vector E_out[a]
(both of d numbers). The score of b as the token after a is the dot product
E_in[a] · E_out[b]; the softmax of the scores gives the probabilities. The
loss is the mean cross-entropy over all (current, next) pairs of the corpus,
and training is plain full-batch gradient descent. Two tokens that are
followed by the same tokens receive the same kind of correction, so their
input vectors drift towards each other.
"""

import math
import random

from .descent import sgd_update
from .linalg import cosine, transpose
from .softmax import softmax_steps


def pair_counts(ids, n):
    """La tabella C[a][b]: quante volte b viene subito dopo a nella sequenza di ID."""
    C = [[0] * n for _ in range(n)]
    for a, b in zip(ids, ids[1:]):
        C[a][b] += 1
    return C


def init_embeddings(n, d, rng, spread=0.5):
    """Una tabella n × d di numeri estratti da una normale (σ = spread)."""
    return [[rng.gauss(0.0, spread) for _ in range(d)] for _ in range(n)]


def loss_and_gradients(E_in, E_out, C):
    """La cross-entropy media e i suoi gradienti rispetto a E_in ed E_out.

    For a current token a seen nₐ times, the gradient of the scores is
    (nₐ·p − C[a]) / N (N = all pairs); it reaches E_in[a] through E_out and
    E_out[b] through E_in[a]."""
    n, d = len(E_in), len(E_in[0])
    total = sum(map(sum, C))
    out_cols = transpose(E_out)
    loss, D = 0.0, [[0.0] * n for _ in range(n)]
    G_in = [[0.0] * d for _ in range(n)]
    for a in range(n):
        seen = sum(C[a])
        if not seen:
            continue
        scores = [math.sumprod(E_in[a], e) for e in E_out]
        steps = softmax_steps(scores)
        top, exps, norm = steps["max"], steps["exps"], steps["total"]
        # −Σ_b C[a][b]·log p_b, with log p_b = z_b − top − log Σ exp
        loss -= (math.sumprod(C[a], scores) - seen * (top + math.log(norm))) / total
        D[a] = [(seen * e / norm - c) / total for e, c in zip(exps, C[a])]
        G_in[a] = [math.sumprod(D[a], col) for col in out_cols]
    d_cols, in_cols = transpose(D), transpose(E_in)
    G_out = [[math.sumprod(dc, ic) for ic in in_cols] for dc in d_cols]
    return loss, G_in, G_out


def initial_tables(n, d, seed):
    """Le tabelle casuali (con seme) E_in ed E_out da cui parte il training."""
    rng = random.Random(seed)
    return init_embeddings(n, d, rng), init_embeddings(n, d, rng)


def train_embeddings(ids, n, d, steps, eta, seed):
    """La discesa del gradiente da tabelle casuali con seme: le tabelle e la loss a ogni passo.

    Gradient descent from seeded random tables. Returns the input tables
    after 0, 1, …, steps updates and the loss at each of them. Each step
    uses the gradients computed with the loss of the tables it updates, so
    a run can stop and resume anywhere with the same numbers.
    """
    E_in, E_out = initial_tables(n, d, seed)
    C = pair_counts(ids, n)
    loss, G_in, G_out = loss_and_gradients(E_in, E_out, C)
    tables, losses = [E_in], [loss]
    for _ in range(steps):
        E_in, E_out = sgd_update(E_in, G_in, eta), sgd_update(E_out, G_out, eta)
        loss, G_in, G_out = loss_and_gradients(E_in, E_out, C)
        tables.append(E_in)
        losses.append(loss)
    return tables, losses


def similarity(E, a, b):
    """Il coseno tra i vettori dei token a e b."""
    return cosine(E[a], E[b])
