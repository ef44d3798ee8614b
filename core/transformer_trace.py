"""What the labs show of the transformer's forward pass (core.transformer),
read from the pass itself, not from a second model: every intermediate of
a sequence, by name, in lists ready for JSON (trace, for 3.2's attention
maps), and the trip of one token through the model, row by row
(token_trip, for A.6).
"""

import math

from core.softmax import softmax
from core.transformer import block_params, transformer_forward
from core.transformer_layers import causal_scores, split_columns

sumprod = math.sumprod


def trace(params, config, ids):
    """Ogni passaggio intermedio di una sequenza, posizione per posizione, in liste pronte per JSON.

    What a view needs to follow a token through the blocks or to draw the
    attention maps (layers[ℓ]["attention"][h] is T × T).
    """
    cache = transformer_forward(params, config, [ids])
    layers = [
        {
            "input": b.input,
            "normed_attn": b.norm_attn.output,
            "Q": b.Q,
            "K": b.K,
            "V": b.V,
            "heads_out": b.heads_out,
            "attn_out": b.attn_out,
            "after_attn": b.after_attn,
            "normed_ffn": b.ffn.norm.output,
            "hidden": b.ffn.hidden,
            "active": b.ffn.active,
            "ffn_out": b.ffn.out,
            "output": b.output,
            "attention": b.attention[0],
        }
        for b in cache.blocks
    ]
    return {
        "ids": list(ids),
        "embedded": cache.embedded,
        "layers": layers,
        "normed_final": cache.norm_final.output,
        "logits": cache.logits,
        "probabilities": [softmax(z) for z in cache.logits],
    }


def norm_steps(X, norm, gain, i):
    """La RMSNorm della riga i nelle sue tre mosse: la media dei quadrati, x̂ = x/√(media + ε), gain ⊙ x̂.

    X is the norm's input, norm its NormCache.
    """
    x = X[i]
    return {
        "input": x,
        "mean_square": sumprod(x, x) / len(gain),
        "inv_rms": norm.inv[i],
        "divided": norm.xhat[i],
        "gain": list(gain),
        "output": norm.output[i],
    }


def token_trip(params, config, ids, position):
    """Il giro di un token nel modello: ogni passaggio della sua riga, letto dal forward.

    Every intermediate of the row of the token at `position` in the sequence
    ids, read from transformer_forward. Attention is the one place where
    other rows come in: per head, the query of this token, the keys and
    values of positions 0 … position, the scores qᵢ·kⱼ/√d_head and their
    softmax.
    """
    if not 0 <= position < len(ids):
        raise IndexError(f"posizione {position} fuori dalla sequenza (0…{len(ids) - 1})")
    cache = transformer_forward(params, config, [ids])
    i, dh = position, config.d_head
    widths = [dh] * config.n_heads
    blocks = []
    for layer, block in enumerate(cache.blocks):
        p = block_params(params, layer)
        q, k, v = (split_columns(M[: i + 1], widths) for M in (block.Q, block.K, block.V))
        heads = [
            {
                "query": q[h][i],
                "keys": k[h],
                "values": v[h],
                "scores": causal_scores(q[h][i], k[h]),
                "weights": block.attention[0][h][i][: i + 1],
                "output": block.heads_out[i][h * dh : (h + 1) * dh],
            }
            for h in range(config.n_heads)
        ]
        blocks.append(
            {
                "input": block.input[i],
                "norm_attn": norm_steps(block.input, block.norm_attn, p["norm_attn"], i),
                "q": block.Q[i],
                "k": block.K[i],
                "v": block.V[i],
                "heads": heads,
                "heads_out": block.heads_out[i],
                "attn_out": block.attn_out[i],
                "after_attn": block.after_attn[i],
                "norm_ffn": norm_steps(block.after_attn, block.ffn.norm, p["norm_ffn"], i),
                "hidden": block.ffn.hidden[i],
                "active": block.ffn.active[i],
                "ffn_out": block.ffn.out[i],
                "output": block.output[i],
            }
        )
    learned = config.positions == "learned"
    return {
        "ids": list(ids),
        "position": i,
        "token_row": list(params["tok_emb"][ids[i]]),
        "position_row": list(params["pos_emb"][i]) if learned else None,
        "embedded": cache.embedded[i],
        "blocks": blocks,
        "norm_final": norm_steps(cache.blocks[-1].output, cache.norm_final, params["norm_final"], i),
        "logits": cache.logits[i],
        "probabilities": softmax(cache.logits[i]),
    }
