"""A decoder-only transformer that really trains, in plain Python lists:
its shape, its parameters, the forward pass and the backward pass written
by hand (the layers, each with its backward, are in core.transformer_layers).

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

The forward pass keeps what the backward pass needs in typed caches
(BlockCache, ForwardCache): a misspelt field is an error where it is
written. The backward pass goes through the layers in reverse, with whole
matrices, and gives the gradient of every parameter tensor, with the same
names and shapes as the parameters. There is no scalar autograd graph
(core.autograd): one Python object per multiplication would cost far more
than rows multiplied by math.sumprod, whose loop runs in C.

Parameters are a dict name → matrix (list of rows) or vector (list), so a
view can show any of them next to its gradient. Every random draw comes
from a random.Random with a stated seed: the same seed gives the same model.
Training is in core.transformer_training, generation in
core.transformer_generation, what the labs show of a forward pass in
core.transformer_trace.
"""

import math
from dataclasses import dataclass
from operator import add

from core.linalg import seeded_rng, transpose
from core.optimizers import squared_norm
from core.stats import gaussian_sample
from core.transformer_layers import (
    FeedForwardCache,
    NormCache,
    add_rows,
    attention_backward,
    attention_forward,
    cross_entropy_rows,
    feed_forward,
    feed_forward_backward,
    rms_norm_rows,
    rms_norm_rows_backward,
    rope_rows,
    rope_tables,
    split_columns,
    times_columns,
)

INIT_STD = 0.1  # small random weights: the first logits are near 0, the first loss near log V


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
    activation: str = "relu"  # "relu" | "gelu"
    positions: str = "learned"  # "learned" | "rope"
    tied: bool = True  # output head = token embedding transposed
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
        shapes |= {
            b + "norm_attn": (d,),
            b + "W_q": (d, d),
            b + "W_k": (d, d),
            b + "W_v": (d, d),
            b + "W_o": (d, d),
            b + "norm_ffn": (d,),
            b + "W_1": (d, f),
            b + "W_2": (f, d),
        }
    shapes["norm_final"] = (d,)
    if not config.tied:
        shapes["W_out"] = (d, V)
    return shapes


PARTS = {
    "tok_emb": "token_embedding",
    "pos_emb": "position_embedding",
    "W_q": "attention",
    "W_k": "attention",
    "W_v": "attention",
    "W_o": "attention",
    "W_1": "feed_forward",
    "W_2": "feed_forward",
    "W_out": "head",
}


def part_of(name):
    """La parte del modello a cui appartiene un parametro: "block1.W_k" → "attention"."""
    leaf = name.split(".")[-1]
    return "norms" if leaf.startswith("norm") else PARTS[leaf]


def param_count(config):
    """Quanti numeri ha ogni parte del modello, e il totale.

    A tied head adds nothing: it reuses the token embedding.
    """
    counts = dict.fromkeys(["token_embedding", "position_embedding", "attention", "feed_forward", "norms", "head"], 0)
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


def block_params(params, layer):
    """I parametri di un blocco, con i loro nomi brevi (W_q, norm_ffn, …)."""
    prefix = f"block{layer}."
    return {name.removeprefix(prefix): t for name, t in params.items() if name.startswith(prefix)}


def head_columns(params, config):
    """Le colonne della matrice di uscita (d × V): le righe di E quando la testa è legata."""
    return params["tok_emb"] if config.tied else transpose(params["W_out"])


def layer_grad_norms(grads):
    """La norma del gradiente di ogni strato: embedding, blocchi, parte finale.

    "embedding" (token and position embeddings; a tied head's share is in the
    token embedding's gradient), "block0", "block1", …, and "final" (last
    norm and untied head).
    """
    sums = {}
    for name, g in grads.items():
        group = name.split(".")[0] if name.startswith("block") else ("embedding" if name.endswith("_emb") else "final")
        sums[group] = sums.get(group, 0.0) + squared_norm(g)
    return {group: math.sqrt(s) for group, s in sums.items()}


# --- what the forward pass keeps ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class BlockCache:
    """Ogni passaggio intermedio di un blocco su N righe: norma, Q, K, V, pesi, uscite, feed-forward.

    Q and K are after RoPE; heads_out is [o¹ | o² | …], before W_o.
    """

    input: list
    norm_attn: NormCache
    Q: list
    K: list
    V: list
    attention: list
    heads_out: list
    attn_out: list
    after_attn: list
    ffn: FeedForwardCache
    output: list


@dataclass(frozen=True, slots=True)
class ForwardCache:
    """Il forward di un batch: gli ingressi, gli embedding, ogni blocco, la norma finale e i logit.

    logits[b·T + t] is token t of sequence b.
    """

    T: int
    inputs: list
    embedded: list
    rope: tuple | None
    blocks: list
    norm_final: NormCache
    logits: list


# --- forward -------------------------------------------------------------------------


def block_forward(params, layer, X, config, T, rope):
    """Un blocco pre-norm su N righe: attention e poi feed-forward, ciascuno sommato al flusso residuo.

    Returns the new X and the block's cache, for the backward pass and the views.
    """
    p, d = block_params(params, layer), config.d_model
    norm = rms_norm_rows(X, p["norm_attn"])
    W_qkv_cols = transpose(p["W_q"]) + transpose(p["W_k"]) + transpose(p["W_v"])  # the columns of [W_q | W_k | W_v]
    Q, K, V = split_columns(times_columns(norm.output, W_qkv_cols), [d, d, d])
    if rope:
        Q, K = rope_rows(Q, *rope, T), rope_rows(K, *rope, T)
    O, weights = attention_forward(Q, K, V, config, T)
    attn_out = times_columns(O, transpose(p["W_o"]))
    X_mid = add_rows(X, attn_out)
    ffn = feed_forward(p, X_mid, config.activation)
    return ffn.output, BlockCache(X, norm, Q, K, V, weights, O, attn_out, X_mid, ffn, ffn.output)


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

    inputs is a list of lists of IDs.
    """
    X, rope = embed_sequences(params, config, inputs)
    embedded, T, blocks = X, len(inputs[0]), []
    for layer in range(config.n_layers):
        X, block = block_forward(params, layer, X, config, T, rope)
        blocks.append(block)
    norm = rms_norm_rows(X, params["norm_final"])
    logits = times_columns(norm.output, head_columns(params, config))
    return ForwardCache(T, inputs, embedded, rope, blocks, norm, logits)


# --- backward --------------------------------------------------------------------------


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


def block_backward(params, layer, block, dX, config, T, rope, grads):
    """Il gradiente di un blocco: da ∂(uscita) a ∂(ingresso), con ∂ dei suoi parametri in grads.

    The residual passes ∂X through unchanged and each branch adds its own share.
    """
    p, b, d = block_params(params, layer), f"block{layer}.", config.d_model
    dU2, grads[b + "W_1"], grads[b + "W_2"] = feed_forward_backward(p, block.ffn, dX, config.activation)
    dX_norm, grads[b + "norm_ffn"] = rms_norm_rows_backward(dU2, block.ffn.norm, p["norm_ffn"])
    dX = add_rows(dX, dX_norm)

    grads[b + "W_o"] = times_columns(transpose(block.heads_out), transpose(dX))
    dO = times_columns(dX, p["W_o"])
    dQ, dK, dV = attention_backward(block.Q, block.K, block.V, block.attention, dO, config, T)
    if rope:
        dQ, dK = rope_rows(dQ, *rope, T, inverse=True), rope_rows(dK, *rope, T, inverse=True)
    dQKV = [q + k + v for q, k, v in zip(dQ, dK, dV)]
    dW = times_columns(transpose(block.norm_attn.output), transpose(dQKV))
    grads[b + "W_q"], grads[b + "W_k"], grads[b + "W_v"] = split_columns(dW, [d, d, d])
    W_qkv = [q + k + v for q, k, v in zip(p["W_q"], p["W_k"], p["W_v"])]  # the rows of [W_q | W_k | W_v]
    dU1 = times_columns(dQKV, W_qkv)
    dX_norm, grads[b + "norm_attn"] = rms_norm_rows_backward(dU1, block.norm_attn, p["norm_attn"])
    return add_rows(dX, dX_norm)


def embedding_backward(config, inputs, dX, dE=None):
    """Il gradiente degli embedding: ogni riga di E e di P raccoglie i ∂x dei posti dove è stata letta.

    ∂E starts from dE, the tied head's share.
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
    loss, dZ = cross_entropy_rows(cache.logits, flat_targets(targets, config))
    grads = {}
    dU, head_grad = head_backward(params, config, cache.norm_final.output, dZ)
    if not config.tied:
        grads["W_out"] = head_grad
    dX, grads["norm_final"] = rms_norm_rows_backward(dU, cache.norm_final, params["norm_final"])
    for layer in reversed(range(config.n_layers)):
        dX = block_backward(params, layer, cache.blocks[layer], dX, config, cache.T, cache.rope, grads)
    grads |= embedding_backward(config, cache.inputs, dX, head_grad if config.tied else None)
    return loss, {name: grads[name] for name in params}


def loss_and_grads(params, config, inputs, targets):
    """Forward e poi backward: la loss media e i gradienti, per nome."""
    return transformer_backward(params, config, transformer_forward(params, config, inputs), targets)
