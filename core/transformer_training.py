"""Training the transformer of core.transformer on a text of token IDs:
the batches, the training step, and the loss on a whole text.

A batch is B windows of context + 1 consecutive tokens from random places
of the text: the inputs are the first context tokens, the targets the same
shifted by one. Each step's batch comes from a generator seeded by the seed
and the step, so any step can be recomputed from a saved state without
replaying the ones before.
"""

from core.linalg import seeded_rng
from core.optimizers import TrainState, apply_gradients, flat, learning_rate
from core.transformer import flat_targets, init_params, loss_and_grads, transformer_forward
from core.transformer_layers import cross_entropy_rows


def init_state(config):
    """Il passo 0: i pesi iniziali dal seme e le medie mobili di Adam a zero."""
    params = init_params(config)
    return TrainState(
        params,
        {n: [0.0] * len(flat(p)) for n, p in params.items()},
        {n: [0.0] * len(flat(p)) for n, p in params.items()},
    )


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
    return ([ids[s : s + config.context] for s in starts], [ids[s + 1 : s + config.context + 1] for s in starts])


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
    return [(ids[s : s + context][: len(ids) - 1 - s], ids[s + 1 : s + context + 1]) for s in starts]


def text_loss(params, config, ids, limit=None):
    """La loss media per token previsto su un intero testo, letto nelle finestre di text_windows.

    Windows of the same length go through the model together.
    """
    by_length = {}
    for inputs, targets in text_windows(ids, config.context, limit):
        by_length.setdefault(len(inputs), []).append((inputs, targets))
    total, count = 0.0, 0
    for length, windows in by_length.items():
        logits = transformer_forward(params, config, [w[0] for w in windows]).logits
        loss, _ = cross_entropy_rows(logits, flat_targets([w[1] for w in windows], config))
        total += loss * length * len(windows)
        count += length * len(windows)
    if not count:
        raise ValueError("servono almeno due token per misurare la loss di un testo")
    return total / count
