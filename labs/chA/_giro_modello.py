"""The small trained model that «Il giro di un token nel blocco» (A.6) follows.

Its vocabulary, its corpus, its shape and the training that made its
weights. Three hundred steps of core/transformer.py take seconds in CPython
and several times more in the browser: too long for a page that must answer
at once. So the training ran once, with the seeds written here, and its
weights, rounded to 4 decimals, are in _giro_pesi.py. The lab's test trains
again and checks that it gets the same weights; to write them again:

    .venv/bin/python -m labs.chA._giro_modello

The corpus is eight sentences in which an earlier word decides the end: the
cat sleeps on the sofa and eats fish, the dog sleeps on the rug and eats
meat, the girl sleeps in the bed and eats cake, and whoever runs, runs in the
field. After «dorme sul», «mangia la» or «… nel» only a token that looks back
at the subject or at the verb can tell which word comes next.
"""

import textwrap
from pathlib import Path

from core.linalg import seeded_rng
from core.optimizers import OptimizerConfig
from core.transformer import TransformerConfig
from core.transformer import param_count
from core.transformer_training import batch_for_step
from core.transformer_training import init_state
from core.transformer_training import train_step

VOCAB = (
    ".",
    "il",
    "la",
    "gatto",
    "cane",
    "bambina",
    "dorme",
    "mangia",
    "corre",
    "sul",
    "nel",
    "divano",
    "tappeto",
    "letto",
    "prato",
    "pesce",
    "carne",
    "torta",
)
SENTENCES = (
    "il gatto dorme sul divano .",
    "il cane dorme sul tappeto .",
    "la bambina dorme nel letto .",
    "il gatto mangia il pesce .",
    "il cane mangia la carne .",
    "la bambina mangia la torta .",
    "il cane corre nel prato .",
    "la bambina corre nel prato .",
)
N_SENTENCES, CORPUS_SEED = 80, 0  # the corpus: 80 of the eight sentences, drawn in a seeded order
CONFIG = TransformerConfig(
    vocab_size=len(VOCAB),
    d_model=16,
    n_heads=2,
    n_layers=1,
    context=8,
    ffn_mult=4,
    activation="relu",
    positions="learned",
    tied=True,
    seed=0,
)
OPTIMIZER = OptimizerConfig(kind="adam", lr=0.02, warmup=20, total_steps=300)
BATCH, BATCH_SEED = 8, 0
DECIMALS = 4
WEIGHTS_FILE = Path(__file__).with_name("_giro_pesi.py")


def corpus_text():
    """The training text: the eight sentences, drawn N_SENTENCES times in a seeded order."""
    rng = seeded_rng(CORPUS_SEED)
    return " ".join(rng.choice(SENTENCES) for _ in range(N_SENTENCES))


def train_weights():
    """Adam for OPTIMIZER.total_steps steps on seeded batches of the corpus: the
    weights by name, rounded to DECIMALS, and the loss of every step."""
    ids = [VOCAB.index(w) for w in corpus_text().split()]
    state, losses = init_state(CONFIG), []
    for step in range(OPTIMIZER.total_steps):
        state, info = train_step(state, batch_for_step(ids, CONFIG, BATCH, BATCH_SEED, step), CONFIG, OPTIMIZER)
        losses.append(info["loss"])
    rounded = {
        name: [round(v, DECIMALS) for v in t]
        if not isinstance(t[0], list)
        else [[round(v, DECIMALS) for v in row] for row in t]
        for name, t in state.params.items()
    }
    return rounded, losses


def numbers(values, indent):
    """[a, b, …] wrapped under 120 characters."""
    return textwrap.fill(
        f"[{', '.join(repr(v) for v in values)}]", 116, initial_indent=indent, subsequent_indent=indent + " "
    )


def weights_source(weights, losses):
    """The text of _giro_pesi.py: each row of a matrix starts a line."""
    lines = [
        '"""Weights of the model of _giro_modello.py, written by `python -m labs.chA._giro_modello`:',
        f"{OPTIMIZER.total_steps} steps of Adam, batch loss {losses[0]:.3f} at the first step and "
        f"{losses[-1]:.3f} at the last; {param_count(CONFIG)['total']} numbers.",
        'Do not edit: the test trains again and compares."""',
        "",
        "WEIGHTS = {",
    ]
    for name, t in weights.items():
        if isinstance(t[0], list):
            lines.append(f"    {name!r}: [")
            lines += [numbers(row, " " * 8) + "," for row in t]
            lines.append("    ],")
        else:
            lines.append(f"    {name!r}:")
            lines.append(numbers(t, " " * 8) + ",")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    WEIGHTS_FILE.write_text(weights_source(*train_weights()), encoding="utf-8")
    print(f"scritto {WEIGHTS_FILE}")
