"""A decoder-only transformer that really trains, in plain Python lists.

Vectors are rows, as in the rest of core/: a token's vector x (d numbers)
times a matrix W (d × k) gives x·W, k numbers. A batch of B sequences of T
tokens is handled as one matrix of N = B·T rows, one per token; only
attention looks across the rows of the same sequence.

The forward pass, for every token of every sequence:

    x  = E[token] (+ P[position] with learned positions)           embedding
    for each block:
        u  = RMSNorm(x)·gain₁                                         pre-norm
        q, k, v = u·W_q, u·W_k, u·W_v   (RoPE turns q and k)         split in heads
        a  = softmax(q·kⱼ/√d_head) over j ≤ i, o = Σⱼ aⱼ·vⱼ           per head, causal
        x  = x + [o¹ | o² | …]·W_o                                    residual
        u  = RMSNorm(x)·gain₂
        x  = x + act(u·W₁)·W₂        act = ReLU or GELU, W₁ is d × 4d  residual
    z  = RMSNorm(x)·gain_f · Eᵀ  (tied head) or · W_out               logits
    loss = mean over all N tokens of −log softmax(z)[next token]

The backward pass is written by hand, one layer at a time, with whole
matrices: for Y = X·W it is ∂X = ∂Y·Wᵀ and ∂W = Xᵀ·∂Y; for the softmax of
a row, ∂s = a ⊙ (∂a − (a·∂a)); for the loss, ∂z = (p − onehot)/N. It gives
the gradient of every parameter tensor, with the same names and shapes as
the parameters. There is no scalar autograd graph (core.autograd): one
Python object per multiplication would make a step take seconds, where
rows multiplied by math.sumprod, whose loop runs in C, take milliseconds.

Speed, with every number unchanged. In Pyodide (the reader's browser)
sumprod costs about 0.06 µs per product, most of it the fused multiply-add
that keeps its sum exact, which WebAssembly has to emulate; so a step costs
about as much as its products, and the products are what is saved:
- ReLU leaves about half of the hidden units at exactly 0, and the four
  products of the feed-forward that pass through them skip them
  (times_active). The terms left out are exact zeros and sumprod adds the
  others in the same order: the same number to the last bit.
- map(sumprod, …) runs the loop over the cells in C, the columns of a
  matrix are taken once per product (zip, in C), all the heads of a row of
  attention are computed in one map, Adam runs on each tensor as one list.

Parameters are a dict name → matrix (list of rows) or vector (list), so a
view can show any of them next to its gradient. Training is Adam (or plain
SGD) with a warm-up + cosine learning rate (core.schedules) and clipping
of the global gradient norm. Every random draw comes from a random.Random
with a stated seed: the same seed gives the same model, the same batches,
the same losses.
"""

import math
from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import add, mul

from core.attention import concat_columns, rope_frequencies, softmax_row
from core.linalg import seeded_rng, transpose
from core.losses import softmax
from core.schedules import warmup_cosine_lr
from core.stats import gaussian_sample

sumprod = math.sumprod
EPS = 1e-5            # inside RMSNorm's square root, as in core.normalization
INIT_STD = 0.1        # small random weights: the first logits are near 0, the first loss near log V
GELU_C, GELU_A = math.sqrt(2 / math.pi), 0.044715   # GELU's tanh form, as in GPT-2


@dataclass(frozen=True)
class TransformerConfig:
    """La forma del modello: dimensioni, teste, blocchi, contesto, attivazione, posizioni, testa di uscita.

    d_model must split evenly into n_heads heads (and, with RoPE, each head
    into pairs of dimensions).
    """
    vocab_size: int
    d_model: int = 16
    n_heads: int = 2
    n_layers: int = 1
    context: int = 8
    ffn_mult: int = 4
    activation: str = "relu"      # "relu" | "gelu"
    positions: str = "learned"    # "learned" | "rope"
    tied: bool = True             # output head = token embedding transposed
    seed: int = 0

    def __post_init__(self):
        if self.activation not in ("relu", "gelu"):
            raise ValueError(f"attivazione sconosciuta: {self.activation!r} (relu o gelu)")
        if self.positions not in ("learned", "rope"):
            raise ValueError(f"posizioni sconosciute: {self.positions!r} (learned o rope)")
        if min(self.vocab_size, self.d_model, self.n_heads, self.n_layers, self.context, self.ffn_mult) < 1:
            raise ValueError("vocabolario, dimensioni, teste, blocchi e contesto devono essere almeno 1")
        if self.d_model % self.n_heads:
            raise ValueError(f"{self.d_model} dimensioni non si dividono in {self.n_heads} teste uguali")
        if self.positions == "rope" and self.d_head % 2:
            raise ValueError("RoPE vuole teste con un numero pari di dimensioni")

    @property
    def d_head(self):
        return self.d_model // self.n_heads

    @property
    def d_ffn(self):
        return self.ffn_mult * self.d_model


# --- parameters --------------------------------------------------------------

def param_shapes(config):
    """La forma di ogni parametro per nome, in un ordine fisso: (righe, colonne) o (n,)."""
    d, f, V = config.d_model, config.d_ffn, config.vocab_size
    shapes = {"tok_emb": (V, d)}
    if config.positions == "learned":
        shapes["pos_emb"] = (config.context, d)
    for layer in range(config.n_layers):
        b = f"block{layer}."
        shapes |= {b + "norm_attn": (d,), b + "W_q": (d, d), b + "W_k": (d, d), b + "W_v": (d, d),
                   b + "W_o": (d, d), b + "norm_ffn": (d,), b + "W_1": (d, f), b + "W_2": (f, d)}
    shapes["norm_final"] = (d,)
    if not config.tied:
        shapes["W_out"] = (d, V)
    return shapes


PARTS = {"tok_emb": "token_embedding", "pos_emb": "position_embedding", "W_q": "attention", "W_k": "attention",
         "W_v": "attention", "W_o": "attention", "W_1": "feed_forward", "W_2": "feed_forward", "W_out": "head"}


def part_of(name):
    """La parte del modello a cui appartiene un parametro: "block1.W_k" → "attention"."""
    leaf = name.split(".")[-1]
    return "norms" if leaf.startswith("norm") else PARTS[leaf]


def param_count(config):
    """Quanti numeri ha ogni parte del modello, e il totale.

    A tied head adds nothing: it reuses the token embedding.
    """
    counts = dict.fromkeys(["token_embedding", "position_embedding", "attention", "feed_forward", "norms",
                            "head"], 0)
    for name, shape in param_shapes(config).items():
        counts[part_of(name)] += math.prod(shape)
    counts["total"] = sum(counts.values())
    return counts


def init_params(config):
    """I pesi iniziali dal seme: i guadagni della RMSNorm a 1, gli altri numeri piccoli e a caso.

    Every other entry is drawn from N(0, INIT_STD²), except W_o and W_2 — the
    two that write into the residual stream — which are shrunk by
    1/√(2·n_layers) so that the stream does not grow with depth.
    """
    rng = seeded_rng(config.seed)
    params = {}
    for name, shape in param_shapes(config).items():
        if len(shape) == 1:
            params[name] = [1.0] * shape[0]
            continue
        std = INIT_STD / math.sqrt(2 * config.n_layers) if name.endswith(("W_o", "W_2")) else INIT_STD
        params[name] = [[std * g for g in gaussian_sample(shape[1], rng)] for _ in range(shape[0])]
    return params


# --- fast matrix helpers -----------------------------------------------------
# Each cell of a product is one math.sumprod over two rows: the loop over the
# inner index runs in C, and map() runs the loop over the cells in C too. The
# second matrix is passed by its columns, taken once per matrix with zip
# (in C), not once per cell.

def times_columns(X, cols):
    """Il prodotto X·W, data la lista delle colonne di W.

    Cell (n, j) = row n of X · column j of W, one sumprod per cell.
    """
    return [list(map(sumprod, repeat(x), cols)) for x in X]


def times_active(X, masks, W):
    """Il prodotto X·W dove la riga n di X vale 0 fuori da masks[n]: si moltiplica solo il resto.

    ReLU leaves about half of the hidden units at exactly 0, and the products
    of the feed-forward pass through them four times (forward, ∂W₂, ∂W₁ and
    ∂ of its input). Row n keeps only its active entries and the rows of W
    they meet (itertools.compress, in C), so each sumprod is about half as
    long. The terms left out are exact zeros, and sumprod adds the others in
    the same order: the result is the same number to the last bit.
    """
    zero = [0.0] * len(W[0])
    return [list(map(sumprod, repeat(list(compress(x, on))), zip(*compress(W, on)))) or list(zero)
            for x, on in zip(X, masks)]


def add_rows(X, Y):
    """La somma X + Y di due matrici della stessa forma, riga per riga."""
    return [list(map(add, x, y)) for x, y in zip(X, Y)]


def split_columns(M, widths):
    """Le fette di colonne consecutive di una matrice: [M₁ | M₂ | …] → M₁, M₂, ….

    The rows of M cut into consecutive slices of the given widths.
    """
    out, start = [], 0
    for w in widths:
        out.append([row[start:start + w] for row in M])
        start += w
    return out


# --- layers: forward and backward --------------------------------------------

def rms_norm_rows(X, gain):
    """La RMSNorm di ogni riga: x̂ = x/√(media di x² + ε), poi gain ⊙ x̂.

    core.normalization.rms_norm, row by row. Returns y, x̂ and the factors
    1/√(…) that the backward pass needs.
    """
    d = len(gain)
    Y, Xhat, inv = [], [], []
    for x in X:
        r = 1.0 / math.sqrt(sumprod(x, x) / d + EPS)
        xh = [v * r for v in x]
        Xhat.append(xh)
        inv.append(r)
        Y.append(list(map(mul, xh, gain)))
    return Y, Xhat, inv


def rms_norm_rows_backward(dY, Xhat, inv, gain):
    """Il gradiente della RMSNorm: ∂x = (∂x̂ − x̂·(x̂·∂x̂)/d)/rms, con ∂x̂ = gain ⊙ ∂y.

    And ∂gain = Σ over the rows of ∂y ⊙ x̂.
    """
    d = len(gain)
    dX = []
    for dy, xh, r in zip(dY, Xhat, inv):
        dxh = list(map(mul, dy, gain))
        along = sumprod(xh, dxh) / d
        dX.append([r * (a - b * along) for a, b in zip(dxh, xh)])
    return dX, list(map(sumprod, zip(*dY), zip(*Xhat)))


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
        out.append([v for x, y, cc, ss in zip(row[0::2], row[1::2], c, s)
                    for v in (cc * x - sign * ss * y, sign * ss * x + cc * y)])
    return out


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
    return [softmax_row(causal_scores(q[i], k[:i + 1])) + [0.0] * (T - i - 1) for i in range(T)]


def head_slices(M, rows, config):
    """Le righe `rows` di una matrice N × d tagliate testa per testa: T righe per ogni testa."""
    dh = config.d_head
    return [[M[n][h * dh:(h + 1) * dh] for n in rows] for h in range(config.n_heads)]


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
        V_cols = transpose(V[start:start + T])
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
                a = A[i][:i + 1]
                dA = [sumprod(do[i], vj) for vj in v[:i + 1]]
                along = sumprod(a, dA)
                dS.append([w * (g - along) * scale for w, g in zip(a, dA)] + [0.0] * (T - i - 1))
            dS_heads.append(dS)
        Q_cols, K_cols, dO_cols = (transpose(M[start:start + T]) for M in (Q, K, dO))
        dS_cols = [transpose(dS) for dS in dS_heads]
        A_cols = [transpose(A) for A in weights[b]]
        for i in range(T):
            dQ.append(list(map(sumprod, [dS[i] for dS in dS_heads for _ in range(dh)], K_cols)))
            dK.append(list(map(sumprod, [c[i] for c in dS_cols for _ in range(dh)], Q_cols)))
            dV.append(list(map(sumprod, [c[i] for c in A_cols for _ in range(dh)], dO_cols)))
    return dQ, dK, dV


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


def block_params(params, layer):
    """I parametri di un blocco, con i loro nomi brevi (W_q, norm_ffn, …)."""
    prefix = f"block{layer}."
    return {name.removeprefix(prefix): t for name, t in params.items() if name.startswith(prefix)}


def feed_forward(p, X, kind):
    """La seconda metà di un blocco: x + act(RMSNorm(x)·gain₂·W₁)·W₂, riga per riga.

    Returns every intermediate by name, the block's output as "output".
    """
    U, Xhat, inv = rms_norm_rows(X, p["norm_ffn"])
    hidden = times_columns(U, transpose(p["W_1"]))
    active = activation_forward(hidden, kind)
    masks = relu_masks(hidden) if kind == "relu" else None
    out = times_active(active, masks, p["W_2"]) if masks else times_columns(active, transpose(p["W_2"]))
    return {"normed_ffn": U, "xhat_ffn": Xhat, "inv_ffn": inv, "hidden": hidden, "active": active,
            "masks": masks, "ffn_out": out, "output": add_rows(X, out)}


def block_forward(params, layer, X, config, T, rope):
    """Un blocco pre-norm su N righe: attention e poi feed-forward, ciascuno sommato al flusso residuo.

    Returns the new X and everything the backward pass (and a view) needs.
    """
    p, d = block_params(params, layer), config.d_model
    U1, Xhat1, inv1 = rms_norm_rows(X, p["norm_attn"])
    Q, K, V = split_columns(times_columns(U1, transpose(p["W_q"]) + transpose(p["W_k"]) + transpose(p["W_v"])),
                            [d, d, d])
    if rope:
        Q, K = rope_rows(Q, *rope, T), rope_rows(K, *rope, T)
    O, weights = attention_forward(Q, K, V, config, T)
    attn_out = times_columns(O, transpose(p["W_o"]))
    X_mid = add_rows(X, attn_out)
    ffn = feed_forward(p, X_mid, config.activation)
    return ffn["output"], {"input": X, "normed_attn": U1, "xhat_attn": Xhat1, "inv_attn": inv1, "Q": Q, "K": K,
                           "V": V, "attention": weights, "heads_out": O, "attn_out": attn_out, "after_attn": X_mid,
                           **ffn}


def block_last_row(params, layer, X, config, rope):
    """L'uscita del blocco per l'ultima riga soltanto: la riga n dipende dalle righe ≤ n, e basta questa.

    Block_forward's last output row, to the last bit: the keys and values
    of every row (the last query looks at all of them), then the query,
    attention, W_o and the feed-forward for the last row alone. X is one
    sequence.
    """
    p, T, d, dh = block_params(params, layer), len(X), config.d_model, config.d_head
    U, _, _ = rms_norm_rows(X, p["norm_attn"])
    K, V = split_columns(times_columns(U, transpose(p["W_k"]) + transpose(p["W_v"])), [d, d])
    q = times_columns(U[-1:], transpose(p["W_q"]))
    if rope:
        cos, sin = rope
        q, K = rope_rows(q, cos[T - 1:], sin[T - 1:], 1), rope_rows(K, cos, sin, T)
    a = [softmax_row(causal_scores(q[0][h * dh:(h + 1) * dh], keys))
         for h, keys in enumerate(head_slices(K, range(T), config))]
    o = list(map(sumprod, [w for w in a for _ in range(dh)], transpose(V)))
    x_mid = add_rows(X[-1:], times_columns([o], transpose(p["W_o"])))
    return feed_forward(p, x_mid, config.activation)["output"]


def feed_forward_backward(p, cache, dX, kind, grads, b):
    """Il gradiente del feed-forward act(u·W₁)·W₂: ∂W₂, ∂W₁ in grads e ∂u come risultato.

    ∂W₂ = actᵀ·∂out, ∂act = ∂out·W₂ᵀ, ∂h = act′(h) ⊙ ∂act, ∂W₁ = uᵀ·∂h,
    ∂u = ∂h·W₁ᵀ. With ReLU, act′ is 0 on an inactive unit: there ∂h is 0
    and is not even computed, and every product skips it (times_active).
    """
    H, U2, masks = cache["hidden"], cache["normed_ffn"], cache["masks"]
    if kind == "relu":
        unit_masks = transpose(masks)
        grads[b + "W_2"] = times_active(transpose(cache["active"]), unit_masks, dX)
        d_hidden = [[sumprod(g, w) if active else 0.0 for active, w in zip(on, p["W_2"])]
                    for g, on in zip(dX, masks)]
        grads[b + "W_1"] = transpose(times_active(transpose(d_hidden), unit_masks, U2))
        return times_active(d_hidden, masks, transpose(p["W_1"]))
    grads[b + "W_2"] = times_columns(transpose(cache["active"]), transpose(dX))
    d_act = times_columns(dX, p["W_2"])
    d_hidden = [[g * gelu_slope(h) for h, g in zip(hr, gr)] for hr, gr in zip(H, d_act)]
    grads[b + "W_1"] = times_columns(transpose(U2), transpose(d_hidden))
    return times_columns(d_hidden, p["W_1"])


def block_backward(params, layer, cache, dX, config, T, rope, grads):
    """Il gradiente di un blocco: da ∂(uscita) a ∂(ingresso), con ∂ dei suoi parametri in grads.

    The residual passes ∂X through unchanged and each branch adds its own share.
    """
    p, b, d = block_params(params, layer), f"block{layer}.", config.d_model
    dU2 = feed_forward_backward(p, cache, dX, config.activation, grads, b)
    dX_norm, grads[b + "norm_ffn"] = rms_norm_rows_backward(dU2, cache["xhat_ffn"], cache["inv_ffn"], p["norm_ffn"])
    dX = add_rows(dX, dX_norm)

    grads[b + "W_o"] = times_columns(transpose(cache["heads_out"]), transpose(dX))
    dO = times_columns(dX, p["W_o"])
    dQ, dK, dV = attention_backward(cache["Q"], cache["K"], cache["V"], cache["attention"], dO, config, T)
    if rope:
        dQ, dK = rope_rows(dQ, *rope, T, inverse=True), rope_rows(dK, *rope, T, inverse=True)
    dQKV = [q + k + v for q, k, v in zip(dQ, dK, dV)]
    dW = times_columns(transpose(cache["normed_attn"]), transpose(dQKV))
    grads[b + "W_q"], grads[b + "W_k"], grads[b + "W_v"] = split_columns(dW, [d, d, d])
    W_qkv = [q + k + v for q, k, v in zip(p["W_q"], p["W_k"], p["W_v"])]    # the rows of [W_q | W_k | W_v]
    dU1 = times_columns(dQKV, W_qkv)
    dX_norm, grads[b + "norm_attn"] = rms_norm_rows_backward(dU1, cache["xhat_attn"], cache["inv_attn"],
                                                             p["norm_attn"])
    return add_rows(dX, dX_norm)


def head_columns(params, config):
    """Le colonne della matrice di uscita (d × V): le righe di E quando la testa è legata."""
    return params["tok_emb"] if config.tied else transpose(params["W_out"])


# --- the whole model -----------------------------------------------------------

def embed_sequences(params, config, inputs):
    """Le righe d'ingresso dei blocchi, E[token] (+ P[posizione]), e le tabelle di RoPE se servono.

    Checks that the B sequences have the same length T, 1 … context, and
    that every ID is in the vocabulary.
    """
    T = len(inputs[0])
    if not 0 < T <= config.context or any(len(seq) != T for seq in inputs):
        raise ValueError(f"le sequenze devono avere la stessa lunghezza, da 1 a {config.context} token")
    E = params["tok_emb"]
    for seq in inputs:
        for i in seq:
            if not 0 <= i < config.vocab_size:
                raise IndexError(f"ID {i} fuori dal vocabolario (0…{config.vocab_size - 1})")
    if config.positions == "learned":
        P = params["pos_emb"]
        X = [list(map(add, E[i], P[t])) for seq in inputs for t, i in enumerate(seq)]
    else:
        X = [list(E[i]) for seq in inputs for i in seq]
    return X, rope_tables(config, T) if config.positions == "rope" else None


def transformer_forward(params, config, inputs):
    """Il forward di B sequenze di T ≤ context ID di token: i logit e ogni passaggio intermedio.

    inputs is a list of lists. Returns a dict with the logits (N × V, row
    b·T + t for token t of sequence b) and every intermediate, by name;
    "blocks" holds one dict per block, with the attention weights as
    A[b][h] (T × T).
    """
    X, rope = embed_sequences(params, config, inputs)
    T = len(inputs[0])
    cache = {"T": T, "inputs": inputs, "embedded": X, "rope": rope, "blocks": []}
    for layer in range(config.n_layers):
        X, block = block_forward(params, layer, X, config, T, rope)
        cache["blocks"].append(block)
    U, Xhat, inv = rms_norm_rows(X, params["norm_final"])
    cache |= {"normed_final": U, "xhat_final": Xhat, "inv_final": inv,
              "logits": times_columns(U, head_columns(params, config))}
    return cache


def cross_entropy_rows(logits, targets):
    """La loss media −log softmax(z)[target] sulle righe, e il suo gradiente (p − onehot)/N.

    The gradient is with respect to the logits.
    """
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


def flat_targets(targets, config):
    """Gli ID da prevedere di tutte le sequenze, in una lista sola, controllati."""
    flat = [t for seq in targets for t in seq]
    for t in flat:
        if not 0 <= t < config.vocab_size:
            raise IndexError(f"ID {t} fuori dal vocabolario (0…{config.vocab_size - 1})")
    return flat


def head_backward(params, config, U, dZ):
    """Il gradiente della testa di uscita z = U·W_out: ∂U = ∂Z·W_outᵀ e ∂W_out = Uᵀ·∂Z.

    With a tied head W_out = Eᵀ, so the second is returned as ∂E = ∂Zᵀ·U (V × d).
    """
    if config.tied:
        return times_columns(dZ, transpose(params["tok_emb"])), times_columns(transpose(dZ), transpose(U))
    return times_columns(dZ, params["W_out"]), times_columns(transpose(U), transpose(dZ))


def embedding_backward(config, inputs, dX, dE=None):
    """Il gradiente degli embedding: ogni riga di E e di P raccoglie i ∂x dei posti dove è stata letta.

    ∂E: the row of each token collects the ∂x of every place where it was
    read, on top of dE (the tied head's share); ∂P: the row of each position
    collects the ∂x of that position in every sequence.
    """
    T = len(inputs[0])
    dE = dE or [[0.0] * config.d_model for _ in range(config.vocab_size)]
    for i, dx in zip((i for seq in inputs for i in seq), dX):
        dE[i] = list(map(add, dE[i], dx))
    if config.positions != "learned":
        return {"tok_emb": dE}
    dP = [[0.0] * config.d_model for _ in range(config.context)]
    for n, dx in enumerate(dX):
        dP[n % T] = list(map(add, dP[n % T], dx))
    return {"tok_emb": dE, "pos_emb": dP}


def transformer_backward(params, config, cache, targets):
    """La loss del batch e il suo gradiente rispetto a ogni parametro, con gli stessi nomi e forme."""
    loss, dZ = cross_entropy_rows(cache["logits"], flat_targets(targets, config))
    grads = {}
    dU, head_grad = head_backward(params, config, cache["normed_final"], dZ)
    if not config.tied:
        grads["W_out"] = head_grad
    dX, grads["norm_final"] = rms_norm_rows_backward(dU, cache["xhat_final"], cache["inv_final"],
                                                     params["norm_final"])
    for layer in reversed(range(config.n_layers)):
        dX = block_backward(params, layer, cache["blocks"][layer], dX, config, cache["T"], cache["rope"], grads)
    grads |= embedding_backward(config, cache["inputs"], dX, head_grad if config.tied else None)
    return loss, {name: grads[name] for name in params}


def loss_and_grads(params, config, inputs, targets):
    """Forward e poi backward: la loss media e i gradienti, per nome."""
    return transformer_backward(params, config, transformer_forward(params, config, inputs), targets)


# --- looking inside ------------------------------------------------------------

def trace(params, config, ids):
    """Ogni passaggio intermedio di una sequenza, posizione per posizione, in liste pronte per JSON.

    What a view needs to follow a token through the blocks or to draw the
    attention maps (layers[ℓ]["attention"][h] is T × T). Q and K are after
    RoPE; heads_out is [o¹ | o² | …], before W_o.
    """
    cache = transformer_forward(params, config, [ids])
    shown = ("input", "normed_attn", "Q", "K", "V", "heads_out", "attn_out", "after_attn", "normed_ffn",
             "hidden", "active", "ffn_out", "output")
    layers = [{name: block[name] for name in shown} | {"attention": block["attention"][0]}
              for block in cache["blocks"]]
    return {"ids": list(ids), "embedded": cache["embedded"], "layers": layers,
            "normed_final": cache["normed_final"], "logits": cache["logits"],
            "probabilities": [softmax(z) for z in cache["logits"]]}


def token_trip(params, config, ids, position):
    """Il giro di un token nel modello: ogni passaggio della sua riga, letto dal forward.

    Every intermediate of the row of the token at `position` in the sequence
    ids, read from transformer_forward (the trip is the forward itself, not a
    second model). RMSNorm is told in its three moves: the mean of the
    squares, x̂ = x/√(mean + ε), gain ⊙ x̂. Attention is the one place where
    other rows come in: per head, the query of this token, the keys and
    values of positions 0 … position, the scores qᵢ·kⱼ/√d_head and their
    softmax.
    """
    if not 0 <= position < len(ids):
        raise IndexError(f"posizione {position} fuori dalla sequenza (0…{len(ids) - 1})")
    cache = transformer_forward(params, config, [ids])
    i, d, dh = position, config.d_model, config.d_head
    widths = [dh] * config.n_heads

    def norm(X, Xhat, inv, U, gain):
        x = X[i]
        return {"input": x, "mean_square": sumprod(x, x) / d, "inv_rms": inv[i], "divided": Xhat[i],
                "gain": list(gain), "output": U[i]}

    blocks = []
    for layer, block in enumerate(cache["blocks"]):
        p = block_params(params, layer)
        q, k, v = (split_columns(block[name][:i + 1], widths) for name in ("Q", "K", "V"))
        heads = [{"query": q[h][i], "keys": k[h], "values": v[h], "scores": causal_scores(q[h][i], k[h]),
                  "weights": block["attention"][0][h][i][:i + 1], "output": block["heads_out"][i][h * dh:(h + 1) * dh]}
                 for h in range(config.n_heads)]
        blocks.append({"input": block["input"][i],
                       "norm_attn": norm(block["input"], block["xhat_attn"], block["inv_attn"], block["normed_attn"],
                                         p["norm_attn"]),
                       "q": block["Q"][i], "k": block["K"][i], "v": block["V"][i], "heads": heads,
                       "heads_out": block["heads_out"][i], "attn_out": block["attn_out"][i],
                       "after_attn": block["after_attn"][i],
                       "norm_ffn": norm(block["after_attn"], block["xhat_ffn"], block["inv_ffn"], block["normed_ffn"],
                                        p["norm_ffn"]),
                       "hidden": block["hidden"][i], "active": block["active"][i], "ffn_out": block["ffn_out"][i],
                       "output": block["output"][i]})
    last = cache["blocks"][-1]["output"]
    learned = config.positions == "learned"
    return {"ids": list(ids), "position": i, "token_row": list(params["tok_emb"][ids[i]]),
            "position_row": list(params["pos_emb"][i]) if learned else None, "embedded": cache["embedded"][i],
            "blocks": blocks,
            "norm_final": norm(last, cache["xhat_final"], cache["inv_final"], cache["normed_final"],
                               params["norm_final"]),
            "logits": cache["logits"][i], "probabilities": softmax(cache["logits"][i])}


def grad_norm(grads):
    """La norma globale del gradiente ‖g‖ = √(Σ g²), su ogni numero di ogni tensore."""
    return math.sqrt(sum(squared_norm(g) for g in grads.values()))


def squared_norm(tensor):
    """La somma dei quadrati dei numeri di un tensore (vettore o matrice)."""
    rows = tensor if isinstance(tensor[0], list) else [tensor]
    return sum(sumprod(r, r) for r in rows)


def layer_grad_norms(grads):
    """La norma del gradiente di ogni strato: embedding, blocchi, parte finale.

    "embedding" (token and position embeddings; a tied head's share is in the
    token embedding's gradient), "block0", "block1", …, and "final" (last
    norm and untied head).
    """
    sums = {}
    for name, g in grads.items():
        group = name.split(".")[0] if name.startswith("block") else (
            "embedding" if name.endswith("_emb") else "final")
        sums[group] = sums.get(group, 0.0) + squared_norm(g)
    return {group: math.sqrt(s) for group, s in sums.items()}


# --- training ----------------------------------------------------------------

@dataclass(frozen=True)
class OptimizerConfig:
    """Le scelte dell'ottimizzatore: Adam o SGD, learning rate con warm-up e coseno, clipping.

    Adam (or plain SGD) with warm-up + cosine learning rate and clipping of
    the global gradient norm at clip (None: no clipping).
    """
    kind: str = "adam"            # "adam" | "sgd"
    lr: float = 1e-2
    warmup: int = 10
    total_steps: int = 500
    floor: float = 0.1            # the final learning rate, as a share of lr
    beta1: float = 0.9
    beta2: float = 0.99
    eps: float = 1e-8
    clip: float | None = 1.0

    def __post_init__(self):
        if self.kind not in ("adam", "sgd"):
            raise ValueError(f"ottimizzatore sconosciuto: {self.kind!r} (adam o sgd)")


@dataclass(frozen=True)
class TrainState:
    """Lo stato del training: i pesi, le medie mobili di Adam e quanti passi sono stati fatti.

    Everything training needs to continue: the weights, Adam's running means
    of g (m) and g² (v), each tensor's as one flat list, row after row, and
    how many steps were taken. Steps never modify a state: they return a new
    one, so a saved state stays valid.
    """
    params: dict
    m: dict
    v: dict
    step: int = 0


def flat(tensor):
    """I numeri di un tensore in una lista sola, riga dopo riga."""
    return list(chain.from_iterable(tensor)) if isinstance(tensor[0], list) else list(tensor)


def shaped(values, like):
    """Una lista di numeri rimessa nella forma di like: le righe di una matrice, o un vettore."""
    if not isinstance(like[0], list):
        return values
    width = len(like[0])
    return [values[i:i + width] for i in range(0, len(values), width)]


def init_state(config):
    """Il passo 0: i pesi iniziali dal seme e le medie mobili di Adam a zero."""
    params = init_params(config)
    zeros = lambda: {name: [0.0] * math.prod(shape) for name, shape in param_shapes(config).items()}  # noqa: E731
    return TrainState(params, zeros(), zeros(), 0)


def learning_rate(step, opt):
    """Il learning rate dell'aggiornamento che chiude il passo `step` (contato da 0).

    The schedule read at step + 1, so the first update already moves.
    """
    return warmup_cosine_lr(step + 1, opt.lr, opt.warmup, opt.total_steps, opt.floor)


def clip_factor(norm, clip):
    """Il fattore che riporta la norma del gradiente a clip quando la supera."""
    return 1.0 if clip is None or norm <= clip else clip / norm


def adam_update(p, g, m, v, lr, k, opt, t):
    """Adam su una lista di pesi: m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g², p ← p − lr·m̂/(√v̂ + ε).

    m̂ = m/(1−β₁ᵗ) and v̂ = v/(1−β₂ᵗ) undo the pull towards 0 of the first
    steps; g is first multiplied by the clipping factor k. The corrections
    are folded into lr and ε, so each entry costs a few multiplications.
    """
    b1, b2 = opt.beta1, opt.beta2
    gm, gv = (1.0 - b1) * k, (1.0 - b2) * k * k
    root = math.sqrt(1.0 - b2 ** t)
    step, eps = lr * root / (1.0 - b1 ** t), opt.eps * root
    m = [b1 * a + gm * x for a, x in zip(m, g)]
    v = [b2 * a + gv * x * x for a, x in zip(v, g)]
    p = [w - step * a / (s + eps) for w, a, s in zip(p, m, map(math.sqrt, v))]
    return p, m, v


def sgd_tensor(p, g, lr):
    """La discesa del gradiente semplice p ← p − lr·g, su un vettore o su una matrice."""
    if not isinstance(p[0], list):
        return [w - lr * x for w, x in zip(p, g)]
    return [[w - lr * x for w, x in zip(pr, gr)] for pr, gr in zip(p, g)]


def apply_gradients(state, grads, opt):
    """Un aggiornamento dell'ottimizzatore: clipping, learning rate del passo, Adam o SGD.

    Returns the new state and the norm of the gradient before clipping. Adam
    runs on each tensor as one flat list (one loop per tensor, not per row).
    """
    norm = grad_norm(grads)
    k, lr = clip_factor(norm, opt.clip), learning_rate(state.step, opt)
    if opt.kind == "sgd":
        params = {name: sgd_tensor(p, grads[name], lr * k) for name, p in state.params.items()}
        return TrainState(params, state.m, state.v, state.step + 1), norm
    params, m, v, t = {}, {}, {}, state.step + 1
    for name, p in state.params.items():
        new, m[name], v[name] = adam_update(flat(p), flat(grads[name]), state.m[name], state.v[name], lr, k, opt, t)
        params[name] = shaped(new, p)
    return TrainState(params, m, v, t), norm


def train_step(state, batch, config, opt):
    """Un passo di training su un batch: forward, backward e aggiornamento dei pesi.

    batch = (inputs, targets). Returns the new state and what the step
    measured: the batch loss (before the update), the learning rate, the
    gradient norm before clipping.
    """
    inputs, targets = batch
    value, grads = loss_and_grads(state.params, config, inputs, targets)
    new_state, norm = apply_gradients(state, grads, opt)
    return new_state, {"loss": value, "lr": learning_rate(state.step, opt), "grad_norm": norm}


def sample_batch(ids, config, batch_size, rng):
    """Un batch di finestre di context + 1 token consecutivi, da posizioni a caso del testo.

    inputs are the first context tokens, targets the same shifted by one
    (each token's next).
    """
    if len(ids) <= config.context:
        raise ValueError(f"il testo deve avere più di {config.context} token")
    starts = [rng.randrange(len(ids) - config.context) for _ in range(batch_size)]
    return ([ids[s:s + config.context] for s in starts], [ids[s + 1:s + config.context + 1] for s in starts])


def batch_for_step(ids, config, batch_size, seed, step):
    """Il batch di un passo dato, estratto con un suo generatore casuale.

    Any step can be recomputed from a saved state without replaying the ones
    before.
    """
    return sample_batch(ids, config, batch_size, seeded_rng(seed * 1_000_003 + step))


def text_windows(ids, context, limit=None):
    """Il testo tagliato in finestre consecutive di al massimo context + 1 token.

    Each window starts on the last token of the one before: every pair
    (ids[n], ids[n+1]) is predicted in exactly one window, as in a training
    window (the first token of a window is read with no context before it).
    With limit, at most that many windows, evenly spaced along the text.
    """
    starts = list(range(0, len(ids) - 1, context))
    if limit is not None and len(starts) > limit:
        starts = [starts[round(k * (len(starts) - 1) / (limit - 1))] for k in range(limit)] if limit > 1 else starts[:1]
    return [(ids[s:s + context][:len(ids) - 1 - s], ids[s + 1:s + context + 1]) for s in starts]


def text_loss(params, config, ids, limit=None):
    """La loss media per token previsto su un intero testo, letto nelle finestre di text_windows.

    What the model pays on the whole text, not on one batch. Windows of the
    same length go through the model together.
    """
    by_length = {}
    for inputs, targets in text_windows(ids, config.context, limit):
        by_length.setdefault(len(inputs), []).append((inputs, targets))
    total, count = 0.0, 0
    for length, windows in by_length.items():
        logits = transformer_forward(params, config, [w[0] for w in windows])["logits"]
        loss, _ = cross_entropy_rows(logits, flat_targets([w[1] for w in windows], config))
        total += loss * length * len(windows)
        count += length * len(windows)
    if not count:
        raise ValueError("servono almeno due token per misurare la loss di un testo")
    return total / count


# --- generation ----------------------------------------------------------------

def next_token(logits, temperature, rng):
    """Il prossimo ID: il più probabile a temperatura 0, altrimenti estratto da softmax(z/T).

    Temperature 0: the most likely ID (the lowest on a tie). Otherwise one ID
    drawn with the probabilities softmax(z/T), from rng.
    """
    if temperature == 0:
        return max(range(len(logits)), key=logits.__getitem__)
    u, total = rng.random(), 0.0
    probs = softmax(logits, temperature)
    for i, p in enumerate(probs):
        total += p
        if u < total:
            return i
    return len(probs) - 1


def next_logits(params, config, ids):
    """I logit del token dopo ids (al più context token): la riga che la generazione legge.

    transformer_forward(params, config, [ids])["logits"][-1], to the last
    bit, for about a third of its products: every block but the last runs
    on all rows (the next one needs their keys and values), the last block
    and the head only on the last row (block_last_row).
    """
    X, rope = embed_sequences(params, config, [ids])
    for layer in range(config.n_layers - 1):
        X, _ = block_forward(params, layer, X, config, len(ids), rope)
    x = block_last_row(params, config.n_layers - 1, X, config, rope)
    return times_columns(rms_norm_rows(x, params["norm_final"])[0], head_columns(params, config))[0]


def transformer_generate(params, config, prompt_ids, n, temperature=0.0, rng=None):
    """Gli n nuovi ID dopo il prompt, ognuno scelto dai logit dell'ultima posizione.

    Reads at most the last context tokens. Returns only the new IDs.
    """
    if not prompt_ids:
        raise ValueError("serve almeno un token di partenza")
    if temperature > 0 and rng is None:
        raise ValueError("per campionare serve un generatore casuale (rng)")
    ids, new = list(prompt_ids), []
    for _ in range(n):
        logits = next_logits(params, config, ids[-config.context:])
        new.append(next_token(logits, temperature, rng))
        ids.append(new[-1])
    return new
