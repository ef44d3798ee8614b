"""The tiny transformers the core.transformer tests build, their batches and losses, and the
numpy forward pass they are checked against."""

import itertools
import random

import numpy as np

from core import transformer as tr
from core import transformer_layers as layers
from core.bigram import build_vocab, encode, tokenize

VARIANTS = list(itertools.product(["relu", "gelu"], ["learned", "rope"], [True, False]))
CORPUS = """il gatto dorme sul divano .
il cane dorme sul letto .
il gatto mangia il pesce .
il cane mangia la carne .
il cane corre nel giardino .
il gatto corre nel giardino ."""


def tiny(activation="relu", positions="learned", tied=True, seed=0, **kw):
    shape = dict(vocab_size=7, d_model=8, n_heads=2, n_layers=2, context=5) | kw
    return tr.TransformerConfig(activation=activation, positions=positions, tied=tied, seed=seed, **shape)


def lively_params(config, seed=1):
    """Initial weights made larger and gains moved away from 1, so that every
    path of the network carries a gradient well above rounding."""
    rng = random.Random(seed)
    params = tr.init_params(config)
    for name, t in params.items():
        if isinstance(t[0], list):
            params[name] = [[4 * x for x in row] for row in t]
        else:
            params[name] = [1 + 0.3 * rng.gauss(0, 1) for _ in t]
    return params


def random_batch(config, B, T, seed=2):
    rng = random.Random(seed)

    def draw():
        return [[rng.randrange(config.vocab_size) for _ in range(T)] for _ in range(B)]

    return draw(), draw()


def loss_of(params, config, inputs, targets):
    logits = tr.transformer_forward(params, config, inputs).logits
    return layers.cross_entropy_rows(logits, [t for seq in targets for t in seq])[0]


def corpus_ids():
    tokens = tokenize(CORPUS)
    return encode(tokens, build_vocab(tokens)), len(build_vocab(tokens))


# --- numpy reference -----------------------------------------------------------


def np_rms(x, g):
    return g * x / np.sqrt((x**2).mean(-1, keepdims=True) + layers.EPS)


def np_rope(x):
    """x: B × T × H × d_head, adjacent pairs turned by position·base^(−2i/d_head)."""
    T, dh = x.shape[1], x.shape[-1]
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, dh, 2) / dh)
    c, s = np.cos(angle)[None, :, None, :], np.sin(angle)[None, :, None, :]
    out = np.empty_like(x)
    out[..., 0::2] = c * x[..., 0::2] - s * x[..., 1::2]
    out[..., 1::2] = s * x[..., 0::2] + c * x[..., 1::2]
    return out


def np_forward(params, config, inputs):
    """The same transformer written with numpy arrays: logits (B·T × V) and
    the attention weights of each block (B × H × T × T)."""
    P = {name: np.array(t, dtype=np.float64) for name, t in params.items()}
    ids = np.array(inputs)
    B, T = ids.shape
    H, dh = config.n_heads, config.d_head
    x = P["tok_emb"][ids]
    if config.positions == "learned":
        x = x + P["pos_emb"][:T]
    maps = []
    for layer in range(config.n_layers):
        p = {name.split(".")[1]: t for name, t in P.items() if name.startswith(f"block{layer}.")}
        u = np_rms(x, p["norm_attn"])
        q, k, v = ((u @ p[w]).reshape(B, T, H, dh) for w in ("W_q", "W_k", "W_v"))
        if config.positions == "rope":
            q, k = np_rope(q), np_rope(k)
        s = np.einsum("bihc,bjhc->bhij", q, k) / np.sqrt(dh)
        s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
        a = np.exp(s - s.max(-1, keepdims=True))
        a /= a.sum(-1, keepdims=True)
        maps.append(a)
        x = x + np.einsum("bhij,bjhc->bihc", a, v).reshape(B, T, H * dh) @ p["W_o"]
        h = np_rms(x, p["norm_ffn"]) @ p["W_1"]
        if config.activation == "relu":
            act = np.maximum(h, 0)
        else:
            act = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h**3)))
        x = x + act @ p["W_2"]
    head = P["tok_emb"].T if config.tied else P["W_out"]
    return (np_rms(x, P["norm_final"]) @ head).reshape(B * T, -1), maps
