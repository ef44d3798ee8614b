"""Scaled dot-product attention and rotary positions (RoPE), on plain lists.

One head of attention, for a sentence of n tokens:

    scores = Q Kᵀ / √d_k          how much query i likes key j
    + causal mask                  −∞ where j comes after i (token i cannot see the future)
    A = softmax, row by row        weights ≥ 0 that sum to 1 on every row
    O = A V                        row i: the weighted average of the values

Q, K, V are matrices with one row per token (lists of rows). The mask is
written with −∞ (float("-inf")), as in the papers; the softmax turns it
into a weight of exactly 0 and never lets a NaN out, because the diagonal
is never masked so every row keeps a finite maximum. Keys can also be hidden
from every query (`keep`): padding, or words taken out of a sentence.

This is the one attention of core/: the mini transformer's simplified head
(no W_k, no W_v, no √d_k) is attention() with the token vectors as keys and
values and scale=False.

RoPE turns each pair of dimensions of a query or key by an angle that grows
with the token's position, so the score between two tokens depends on how
far apart they are, not on where they sit.
"""

import math

from core.linalg import dot, matmul, transpose
from core.softmax import softmax

MASKED = float("-inf")


def dot_scores(Q, K):
    """I punteggi Q Kᵀ: la cella (i, j) è il prodotto scalare della query i con la chiave j."""
    return matmul(Q, transpose(K))


def scaled_scores(Q, K):
    """I punteggi divisi per √d_k, perché la softmax non dia quasi tutto il peso a un token solo.

    Q Kᵀ / √d_k. Without the division, dot products of long vectors grow
    like √d_k and the softmax would put almost all the weight on one token.
    """
    d_k = len(K[0])
    return [[s / math.sqrt(d_k) for s in row] for row in dot_scores(Q, K)]


def causal_mask(n):
    """La maschera causale n × n: 0 sulla diagonale e sotto, −∞ sopra (il futuro)."""
    return [[0.0 if j <= i else MASKED for j in range(n)] for i in range(n)]


def is_visible(i, j, causal=True):
    """Se il token i può guardare il token j (con la maschera causale, solo se j ≤ i)."""
    return j <= i or not causal


def apply_mask(scores, mask):
    """Punteggi più maschera, cella per cella: una cella mascherata diventa −∞."""
    return [[s + m for s, m in zip(row, mrow)] for row, mrow in zip(scores, mask)]


def softmax_rows(scores):
    """La softmax di ogni riga per conto suo: ogni riga del risultato somma a 1."""
    return [softmax(row) for row in scores]


def attend(A, V):
    """O = A V: la riga i è la media delle righe di V pesata con i pesi aᵢⱼ."""
    return matmul(A, V)


def attention_weights(Q, K, causal=True, scale=True, keep=None):
    """I pesi A = softmax(Q Kᵀ / √d_k + maschera), riga per riga (con scale=False senza √d_k).

    keep, one flag per key, hides the keys whose flag is false from every
    query. A query left with no key to look at (padding that sees only
    padding) gets a row of zeros: it has nothing to average."""
    scores = scaled_scores(Q, K) if scale else dot_scores(Q, K)
    if causal:
        scores = apply_mask(scores, causal_mask(len(Q)))
    if keep is not None:
        scores = apply_mask(scores, [[0.0 if k else MASKED for k in keep]] * len(Q))
    return [softmax(row) if max(row) > MASKED else [0.0] * len(row) for row in scores]


def attention(Q, K, V, causal=True, scale=True, keep=None):
    """Un'attention intera: i pesi A = softmax(Q Kᵀ / √d_k + maschera) e l'uscita O = A V."""
    A = attention_weights(Q, K, causal, scale, keep)
    return A, attend(A, V)


def head(X, W_q, W_k, W_v, causal=True):
    """Una testa di attention sui vettori X dei token, con ogni matrice intermedia per nome."""
    Q, K, V = matmul(X, W_q), matmul(X, W_k), matmul(X, W_v)
    A, O = attention(Q, K, V, causal)
    return {"Q": Q, "K": K, "V": V, "scores": dot_scores(Q, K), "scaled": scaled_scores(Q, K), "A": A, "O": O}


def concat_columns(*blocks):
    """[O¹ | O² | …]: le righe di più matrici messe una accanto all'altra."""
    return [sum(rows, []) for rows in zip(*blocks)]


def multi_head(X, heads, causal=True, W_o=None):
    """Più teste, ciascuna con le sue W_q, W_k, W_v, sullo stesso X; le uscite affiancate e mescolate da W_o.

    Several heads, each with its own (W_q, W_k, W_v), run one after the
    other on the same X; their outputs are put side by side and, if W_o is
    given, mixed back by one more matrix. Returns every head (as head()
    gives it), the outputs side by side ("concat") and the result ("out").
    """
    each = [head(X, *weights, causal=causal) for weights in heads]
    concat = concat_columns(*(h["O"] for h in each))
    return {"heads": each, "concat": concat, "out": matmul(concat, W_o) if W_o is not None else concat}


def comparisons(n, causal=True):
    """Quanti prodotti scalari fa una testa su n token: n(n + 1)/2 con la maschera, n² senza.

    Dot products of one head on n tokens: 1 + 2 + … + n = n(n + 1)/2 with
    the mask, n² without.
    """
    return n * (n + 1) // 2 if causal else n * n


# --- positions -------------------------------------------------------------


def rotate(pair, angle):
    """Il vettore 2D (x, y) ruotato di un angolo in radianti, in senso antiorario."""
    x, y = pair
    c, s = math.cos(angle), math.sin(angle)
    return [c * x - s * y, s * x + c * y]


def rope_frequencies(d, base=10000.0):
    """Le frequenze di RoPE θᵢ = base^(−2i/d): la prima coppia gira di 1 radiante per posizione.

    θᵢ = base^(−2i/d) for i = 0 … d/2 − 1: the first pair turns by 1
    radian per position, the last ones almost not at all.
    """
    if d % 2:
        raise ValueError("RoPE vuole un numero pari di dimensioni")
    return [base ** (-2 * i / d) for i in range(d // 2)]


def rope(v, position, base=10000.0, frequencies=None):
    """RoPE: ogni coppia di dimensioni (2i, 2i + 1) di v ruotata di posizione · θᵢ.

    Pairs are adjacent dimensions, as in the RoFormer paper (Llama's code
    pairs dimension i with i + d/2 instead: the same idea, shuffled)."""
    thetas = frequencies if frequencies is not None else rope_frequencies(len(v), base)
    out = []
    for i, theta in enumerate(thetas):
        out += rotate(v[2 * i : 2 * i + 2], position * theta)
    return out


def rope_score(q, k, m, n, base=10000.0, frequencies=None):
    """Il punteggio ⟨rope(q, m), rope(k, n)⟩, che dipende solo dalla distanza m − n.

    ⟨rope(q, m), rope(k, n)⟩: depends on m − n only, because turning both
    vectors by the same angle leaves their dot product unchanged.
    """
    return dot(rope(q, m, base, frequencies), rope(k, n, base, frequencies))
