"""One layer applied to a whole sentence, of any length: the sentence is a
matrix X with one row per token, and the layer is Y = X·W. W does not know
how many rows X has; only the attention table, n × n, grows with the
sentence, and it is computed from X, not learned (core.attention's
attention_weights(X, X)).

The loss used here is the squared error L = ½ Σᵢ mᵢ‖yᵢ − tᵢ‖², where tᵢ is
the target of row i and mᵢ is 1 for a real token, 0 for padding. Its
gradient with respect to W is Xᵀ·diag(m)·(Y − T): a (2 × n)(n × 2) product,
which is the sum over the rows of each row's suggestion xᵢᵀ·eᵢ.
"""

import math

from .linalg import matmul, outer, transpose


def layer(X, W):
    """Lo strato Y = X·W: ogni riga di X passa per gli stessi pesi."""
    return matmul(X, W)


def errors(X, W, T):
    """Gli errori E = X·W − T, una riga per token."""
    return [[y - t for y, t in zip(yr, tr)] for yr, tr in zip(layer(X, W), T)]


def squared_loss(X, W, T, mask=None):
    """La loss L = ½ Σᵢ mᵢ‖xᵢW − tᵢ‖² (le righe di padding, con mᵢ = 0, non contano)."""
    mask = mask or [1] * len(X)
    return 0.5 * math.fsum(m * e * e for m, row in zip(mask, errors(X, W, T)) for e in row)


def row_suggestions(X, W, T, mask=None):
    """Il contributo di ogni riga al gradiente, mᵢ·xᵢᵀeᵢ: una matrice della forma di W."""
    mask = mask or [1] * len(X)
    return [[[m * v for v in r] for r in outer(x, e)] for m, x, e in zip(mask, X, errors(X, W, T))]


def weight_gradient(X, W, T, mask=None):
    """Il gradiente ∂L/∂W = Xᵀ·diag(m)·E: d × k qualunque sia n."""
    mask = mask or [1] * len(X)
    masked = [[m * e for e in row] for m, row in zip(mask, errors(X, W, T))]
    return matmul(transpose(X), masked)
