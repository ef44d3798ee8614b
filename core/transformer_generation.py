"""Writing with the transformer of core.transformer: one token at a time,
each chosen (core.sampling) from the logits of the last position, then
appended to the text the model reads next.

Only the last row's logits are needed, and row n depends on the rows ≤ n
only: every block but the last runs on all rows (the next block needs their
keys and values), the last block and the head on the last row alone. The
logits are transformer_forward's last row to the last bit.
"""

import math

from core.linalg import transpose
from core.sampling import choose_token
from core.softmax import softmax
from core.transformer import block_forward, block_params, embed_sequences, head_columns
from core.transformer_layers import (
    add_rows,
    causal_scores,
    feed_forward,
    head_slices,
    rms_norm_rows,
    rope_rows,
    split_columns,
    times_columns,
)

sumprod = math.sumprod


def block_last_row(params, layer, X, config, rope):
    """L'uscita del blocco per l'ultima riga soltanto: la riga n dipende dalle righe ≤ n, e basta questa.

    Block_forward's last output row, to the last bit, for one sequence X:
    keys and values of every row, the rest for the last row alone.
    """
    p, T, d, dh = block_params(params, layer), len(X), config.d_model, config.d_head
    U = rms_norm_rows(X, p["norm_attn"]).output
    K, V = split_columns(times_columns(U, transpose(p["W_k"]) + transpose(p["W_v"])), [d, d])
    q = times_columns(U[-1:], transpose(p["W_q"]))
    if rope:
        cos, sin = rope
        q, K = rope_rows(q, cos[T - 1 :], sin[T - 1 :], 1), rope_rows(K, cos, sin, T)
    a = [
        softmax(causal_scores(q[0][h * dh : (h + 1) * dh], keys))
        for h, keys in enumerate(head_slices(K, range(T), config))
    ]
    o = list(map(sumprod, [w for w in a for _ in range(dh)], transpose(V)))
    x_mid = add_rows(X[-1:], times_columns([o], transpose(p["W_o"])))
    return feed_forward(p, x_mid, config.activation).output


def next_logits(params, config, ids):
    """I logit del token dopo ids (al più context token): la riga che la generazione legge.

    transformer_forward(params, config, [ids]).logits[-1], to the last bit,
    for a fraction of its products (see the module's docstring).
    """
    X, rope = embed_sequences(params, config, [ids])
    for layer in range(config.n_layers - 1):
        X, _ = block_forward(params, layer, X, config, len(ids), rope)
    x = block_last_row(params, config.n_layers - 1, X, config, rope)
    return times_columns(rms_norm_rows(x, params["norm_final"]).output, head_columns(params, config))[0]


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
        logits = next_logits(params, config, ids[-config.context :])
        new.append(choose_token(logits, temperature, rng))
        ids.append(new[-1])
    return new
