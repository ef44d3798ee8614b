"""The layers of the trainable transformer (core.transformer), each with its
backward next to it, on matrices of N rows, one per token.

Vectors are rows: a row x (d numbers) times a matrix W (d × k) is x·W.
For Y = X·W the backward is ∂X = ∂Y·Wᵀ and ∂W = Xᵀ·∂Y; for the softmax of
a row, ∂s = a ⊙ (∂a − (a·∂a)); for the loss, ∂z = (p − onehot)/N.

Each cell of a product is one math.sumprod over two rows, whose loop runs
in C; map() runs the loop over the cells in C too, and the second matrix is
passed by its columns, taken once per matrix with zip. Where ReLU leaves a
hidden unit at exactly 0, the products skip it (times_active): the terms
left out are exact zeros and sumprod adds the others in the same order, so
every result is the same number to the last bit.
"""

import math
from dataclasses import dataclass
from itertools import compress, repeat
from operator import add, mul

from core.attention import rope_frequencies
from core.linalg import transpose
from core.softmax import softmax

sumprod = math.sumprod
EPS = 1e-5  # inside RMSNorm's square root, as in core.normalization
GELU_C, GELU_A = math.sqrt(2 / math.pi), 0.044715  # GELU's tanh form, as in GPT-2


# --- matrix products on rows ---------------------------------------------------


def times_columns(X, cols):
    """Il prodotto X·W, data la lista delle colonne di W.

    Cell (n, j) = row n of X · column j of W, one sumprod per cell.
    """
    return [list(map(sumprod, repeat(x), cols)) for x in X]


def times_active(X, masks, W):
    """Il prodotto X·W dove la riga n di X vale 0 fuori da masks[n]: si moltiplica solo il resto.

    The terms left out are exact zeros, and sumprod adds the others in the
    same order: the same number to the last bit.
    """
    zero = [0.0] * len(W[0])
    return [
        list(map(sumprod, repeat(list(compress(x, on))), zip(*compress(W, on)))) or list(zero)
        for x, on in zip(X, masks)
    ]


def add_rows(X, Y):
    """La somma X + Y di due matrici della stessa forma, riga per riga."""
    return [list(map(add, x, y)) for x, y in zip(X, Y)]


def split_columns(M, widths):
    """Le fette di colonne consecutive di una matrice, larghe widths: [M₁ | M₂ | …] → M₁, M₂, …."""
    out, start = [], 0
    for w in widths:
        out.append([row[start : start + w] for row in M])
        start += w
    return out


# --- RMSNorm ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NormCache:
    """Una RMSNorm su N righe: l'uscita gain ⊙ x̂, le righe x̂ = x·r e i fattori r = 1/√(media di x² + ε)."""

    output: list
    xhat: list
    inv: list


def rms_norm_rows(X, gain):
    """La RMSNorm di ogni riga (core.normalization.rms_norm): x̂ = x/√(media di x² + ε), poi gain ⊙ x̂."""
    d = len(gain)
    Y, Xhat, inv = [], [], []
    for x in X:
        r = 1.0 / math.sqrt(sumprod(x, x) / d + EPS)
        xh = [v * r for v in x]
        Xhat.append(xh)
        inv.append(r)
        Y.append(list(map(mul, xh, gain)))
    return NormCache(Y, Xhat, inv)


def rms_norm_rows_backward(dY, norm, gain):
    """Il gradiente della RMSNorm: ∂x = (∂x̂ − x̂·(x̂·∂x̂)/d)/rms, con ∂x̂ = gain ⊙ ∂y.

    And ∂gain = Σ over the rows of ∂y ⊙ x̂.
    """
    d = len(gain)
    dX = []
    for dy, xh, r in zip(dY, norm.xhat, norm.inv):
        dxh = list(map(mul, dy, gain))
        along = sumprod(xh, dxh) / d
        dX.append([r * (a - b * along) for a, b in zip(dxh, xh)])
    return dX, list(map(sumprod, zip(*dY), zip(*norm.xhat)))


# --- RoPE ----------------------------------------------------------------------------


def rope_tables(config, T):
    """Coseni e seni di posizione·θᵢ per le posizioni da 0 a T − 1.

    One entry per pair of dimensions of the whole row: the same θᵢ repeated
    for every head.
    """
    thetas = rope_frequencies(config.d_head) * config.n_heads
    cos = [[math.cos(t * th) for th in thetas] for t in range(T)]
    sin = [[math.sin(t * th) for th in thetas] for t in range(T)]
    return cos, sin


def rope_rows(X, cos, sin, T, inverse=False):
    """RoPE su ogni riga: ogni coppia (x₂ᵢ, x₂ᵢ₊₁) girata di posizione·θᵢ (riga n in posizione n mod T).

    core.attention.rope on every row of X. A rotation's transpose is the
    rotation by minus the angle, so inverse=True carries a gradient back.
    """
    sign = -1.0 if inverse else 1.0
    out = []
    for n, row in enumerate(X):
        c, s = cos[n % T], sin[n % T]
        out.append(
            [
                v
                for x, y, cc, ss in zip(row[0::2], row[1::2], c, s)
                for v in (cc * x - sign * ss * y, sign * ss * x + cc * y)
            ]
        )
    return out


# --- causal attention, head by head ------------------------------------------------


def causal_scores(q, keys):
    """I punteggi di una query di una testa sulle chiavi che vede: q·kⱼ/√d_head per ogni kⱼ in keys.

    The query of position i is given the keys 0 … i: those after i are not
    scored at all, and that is the causal mask (weight 0).
    """
    scale = 1.0 / math.sqrt(len(q))
    return [sumprod(q, kj) * scale for kj in keys]


def causal_weights(q, k):
    """I pesi di attention di una testa su una sequenza: softmax causale di q kᵀ/√d_head.

    A is T × T, with exact zeros above the diagonal (the keys after the query).
    """
    T = len(q)
    return [softmax(causal_scores(q[i], k[: i + 1])) + [0.0] * (T - i - 1) for i in range(T)]


def head_slices(M, rows, config):
    """Le righe `rows` di una matrice N × d tagliate testa per testa: T righe per ogni testa."""
    dh = config.d_head
    return [[M[n][h * dh : (h + 1) * dh] for n in rows] for h in range(config.n_heads)]


def attention_forward(Q, K, V, config, T):
    """L'attention causale a più teste su N = B·T righe: ogni sequenza e ogni testa per conto suo.

    Returns O (N × d), the heads' outputs side by side, and the weights
    A[b][h] (T × T). Row i of O, column c of head h, is Aʰᵢ · (column c of V
    in this sequence): one sumprod per cell, all the heads of a row in one map.
    """
    dh = config.d_head
    O, weights = [], []
    for start in range(0, len(Q), T):
        rows = range(start, start + T)
        maps = [causal_weights(q, k) for q, k in zip(head_slices(Q, rows, config), head_slices(K, rows, config))]
        weights.append(maps)
        V_cols = transpose(V[start : start + T])
        for i in range(T):
            O.append(list(map(sumprod, [A[i] for A in maps for _ in range(dh)], V_cols)))
    return O, weights


def attention_backward(Q, K, V, weights, dO, config, T):
    """Il gradiente dell'attention: ∂Q, ∂K, ∂V (N × d ciascuno) da ∂O, testa per testa.

    Per head: ∂A = ∂O·vᵀ (only j ≤ i), ∂S = A ⊙ (∂A − rowsum(A ⊙ ∂A)),
    ∂q = ∂S·k/√d, ∂k = ∂Sᵀ·q/√d, ∂v = Aᵀ·∂O; the scale is folded into ∂S.
    """
    dh = config.d_head
    scale = 1.0 / math.sqrt(dh)
    dQ, dK, dV = [], [], []
    for b, start in enumerate(range(0, len(Q), T)):
        rows = range(start, start + T)
        dS_heads = []
        for A, do, v in zip(weights[b], head_slices(dO, rows, config), head_slices(V, rows, config)):
            dS = []
            for i in range(T):
                a = A[i][: i + 1]
                dA = [sumprod(do[i], vj) for vj in v[: i + 1]]
                along = sumprod(a, dA)
                dS.append([w * (g - along) * scale for w, g in zip(a, dA)] + [0.0] * (T - i - 1))
            dS_heads.append(dS)
        Q_cols, K_cols, dO_cols = (transpose(M[start : start + T]) for M in (Q, K, dO))
        dS_cols = [transpose(dS) for dS in dS_heads]
        A_cols = [transpose(A) for A in weights[b]]
        for i in range(T):
            dQ.append(list(map(sumprod, [dS[i] for dS in dS_heads for _ in range(dh)], K_cols)))
            dK.append(list(map(sumprod, [c[i] for c in dS_cols for _ in range(dh)], Q_cols)))
            dV.append(list(map(sumprod, [c[i] for c in A_cols for _ in range(dh)], dO_cols)))
    return dQ, dK, dV


# --- the feed-forward -------------------------------------------------------------------


def activation_forward(H, kind):
    """L'attivazione su ogni numero: ReLU max(0, h), oppure GELU ½h(1 + tanh(√(2/π)(h + 0,044715h³)))."""
    if kind == "relu":
        return [[h if h > 0.0 else 0.0 for h in row] for row in H]
    tanh = math.tanh
    return [[0.5 * h * (1.0 + tanh(GELU_C * (h + GELU_A * h * h * h))) for h in row] for row in H]


def gelu_slope(h):
    """La derivata della GELU: ½(1 + t) + ½h(1 − t²)·√(2/π)(1 + 3·0,044715h²), con t la sua tanh."""
    t = math.tanh(GELU_C * (h + GELU_A * h * h * h))
    return 0.5 * (1.0 + t) + 0.5 * h * (1.0 - t * t) * GELU_C * (1.0 + 3 * GELU_A * h * h)


def relu_masks(H):
    """Quali unità nascoste sono attive (h > 0), riga per riga: dove la ReLU lascia passare."""
    return [[h > 0.0 for h in row] for row in H]


@dataclass(frozen=True, slots=True)
class FeedForwardCache:
    """Il feed-forward di N righe: la norma u, hidden = u·W₁, active = act(hidden), out = active·W₂, x + out.

    masks: the units ReLU lets through (None with GELU).
    """

    norm: NormCache
    hidden: list
    active: list
    masks: list | None
    out: list
    output: list


def feed_forward(p, X, kind):
    """La seconda metà di un blocco: x + act(RMSNorm(x)·gain₂·W₁)·W₂, riga per riga."""
    norm = rms_norm_rows(X, p["norm_ffn"])
    hidden = times_columns(norm.output, transpose(p["W_1"]))
    active = activation_forward(hidden, kind)
    masks = relu_masks(hidden) if kind == "relu" else None
    out = times_active(active, masks, p["W_2"]) if masks else times_columns(active, transpose(p["W_2"]))
    return FeedForwardCache(norm, hidden, active, masks, out, add_rows(X, out))


def feed_forward_backward(p, ffn, dX, kind):
    """Il gradiente del feed-forward act(u·W₁)·W₂: ∂u, ∂W₁ e ∂W₂.

    ∂W₂ = actᵀ·∂out, ∂act = ∂out·W₂ᵀ, ∂h = act′(h) ⊙ ∂act, ∂W₁ = uᵀ·∂h,
    ∂u = ∂h·W₁ᵀ. With ReLU, act′ is 0 on an inactive unit: there ∂h is 0
    and is not even computed, and every product skips it (times_active).
    """
    H, U2, masks = ffn.hidden, ffn.norm.output, ffn.masks
    if kind == "relu":
        unit_masks = transpose(masks)
        dW2 = times_active(transpose(ffn.active), unit_masks, dX)
        d_hidden = [[sumprod(g, w) if active else 0.0 for active, w in zip(on, p["W_2"])] for g, on in zip(dX, masks)]
        dW1 = transpose(times_active(transpose(d_hidden), unit_masks, U2))
        return times_active(d_hidden, masks, transpose(p["W_1"])), dW1, dW2
    dW2 = times_columns(transpose(ffn.active), transpose(dX))
    d_act = times_columns(dX, p["W_2"])
    d_hidden = [[g * gelu_slope(h) for h, g in zip(hr, gr)] for hr, gr in zip(H, d_act)]
    dW1 = times_columns(transpose(U2), transpose(d_hidden))
    return times_columns(d_hidden, p["W_1"]), dW1, dW2


# --- the loss ------------------------------------------------------------------------------


def cross_entropy_rows(logits, targets):
    """La loss media −log softmax(z)[target] sulle righe, e il suo gradiente (p − onehot)/N rispetto ai logit."""
    N, total, dZ = len(logits), 0.0, []
    exp = math.exp
    for z, y in zip(logits, targets):
        top = max(z)
        exps = [exp(v - top) for v in z]
        s = sum(exps)
        total += top + math.log(s) - z[y]
        p = [e / s / N for e in exps]
        p[y] -= 1.0 / N
        dZ.append(p)
    return total / N, dZ
