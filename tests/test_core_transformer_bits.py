"""The trainable transformer gives the same numbers to the last bit as the
code it was split from: forward logits and attention, every gradient, Adam
and SGD steps (losses, measures, parameters, moments), batches, text loss,
generation (greedy and sampled) and the traces 3.2 and A.6 show, for every
variant of activation, positions and head, 1 and 2 blocks, and two seeds.

tests/data/transformer_bits.json was written by the code before the split
(`python tests/test_core_transformer_bits.py --write`). Each float is
compared through float.hex; a tensor is stored as the SHA-256 of its floats'
hex, a scalar as the hex itself, so a failure names the quantity that moved.
"""

import hashlib
import itertools
import json
import random
import sys
from pathlib import Path

import pytest

from core.optimizers import OptimizerConfig, grad_norm, learning_rate
from core.sampling import choose_token
from core.transformer import (
    TransformerConfig,
    init_params,
    layer_grad_norms,
    loss_and_grads,
    param_count,
    transformer_forward,
)
from core.transformer_generation import next_logits, transformer_generate
from core.transformer_trace import token_trip, trace
from core.transformer_training import batch_for_step, init_state, text_loss, text_windows, train_step

FIXTURE = Path(__file__).parent / "data" / "transformer_bits.json"
VARIANTS = list(itertools.product(["relu", "gelu"], ["learned", "rope"], [True, False]))
TEXT = [
    3,
    1,
    4,
    1,
    5,
    9,
    2,
    6,
    5,
    3,
    5,
    8,
    9,
    7,
    9,
    3,
    2,
    3,
    8,
    4,
    6,
    2,
    6,
    4,
    3,
    3,
    8,
    3,
    2,
    7,
    9,
    5,
    0,
    2,
    8,
    8,
    4,
    1,
    9,
    7,
    1,
    6,
    9,
    3,
    9,
    9,
    3,
    7,
    5,
    10,
]


def leaves(value):
    """Every float (and int) of a nested value, in order, as text: float.hex for floats."""
    if isinstance(value, dict):
        return [f"{key}:{leaf}" for key in value for leaf in leaves(value[key])]
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in leaves(item)]
    if isinstance(value, float):
        return [value.hex()]
    return [repr(value)]


def digest(value):
    """The SHA-256 of a nested value's leaves: equal digests, equal bits."""
    return hashlib.sha256("|".join(leaves(value)).encode()).hexdigest()


def config_of(activation, positions, tied, layers, seed):
    return TransformerConfig(
        vocab_size=11,
        d_model=8,
        n_heads=2,
        n_layers=layers,
        context=6,
        activation=activation,
        positions=positions,
        tied=tied,
        seed=seed,
    )


def record_config(config):
    """Every number the labs read from one model: forward, backward, training, data, generation, traces."""
    out = {}
    params = init_params(config)
    inputs, targets = batch_for_step(TEXT, config, 3, seed=config.seed, step=0)
    out["batch"] = digest([inputs, targets])
    cache = transformer_forward(params, config, inputs)
    out["logits"] = digest(cache.logits)
    out["attention"] = digest([block.attention for block in cache.blocks])
    loss, grads = loss_and_grads(params, config, inputs, targets)
    out["loss"] = loss.hex()
    out |= {f"grad {name}": digest(g) for name, g in grads.items()}
    out["grad_norm"] = grad_norm(grads).hex()
    out["layer_grad_norms"] = digest(layer_grad_norms(grads))
    out["param_count"] = digest(param_count(config))
    for kind in ("adam", "sgd"):
        opt = OptimizerConfig(kind=kind, lr=0.05, warmup=2, total_steps=20, clip=0.5)
        state = init_state(config)
        for step in range(4):
            state, info = train_step(state, batch_for_step(TEXT, config, 3, seed=7, step=step), config, opt)
            out[f"{kind} step {step}"] = digest(info)
        out |= {f"{kind} param {name}": digest(p) for name, p in state.params.items()}
        out[f"{kind} moments"] = digest([state.m, state.v, state.step])
        out[f"{kind} lr 5"] = learning_rate(5, opt).hex()
        params_after = state.params
    out["text_windows"] = digest(text_windows(TEXT, config.context, 4))
    out["text_loss"] = text_loss(params_after, config, TEXT).hex()
    out["text_loss limit 3"] = text_loss(params_after, config, TEXT, 3).hex()
    prompt = TEXT[:9]
    out["next_logits"] = digest(next_logits(params_after, config, prompt[-config.context :]))
    out["greedy"] = transformer_generate(params_after, config, prompt, 12)
    for temperature in (0.5, 1.0, 3.0):
        out[f"sampled T={temperature}"] = transformer_generate(
            params_after, config, prompt, 12, temperature, random.Random(config.seed + 5)
        )
    out["trace"] = digest(trace(params_after, config, TEXT[:5]))
    out["token_trip"] = digest([token_trip(params_after, config, TEXT[:6], i) for i in range(6)])
    return out


def record_labs():
    """What the labs compute with the model's functions on their own data: A.6's trained weights through
    trace and token_trip, and next tokens chosen from logit rows as 3.2's bigram does, with ties,
    large gaps (probabilities that underflow to 0) and every temperature the lab offers."""
    from labs.chA import _giro_modello as giro
    from labs.chA._giro_pesi import WEIGHTS

    ids = [1, 3, 6, 9, 11, 0]
    out = {
        "A.6 trace": digest(trace(WEIGHTS, giro.CONFIG, ids)),
        "A.6 token_trip": digest([token_trip(WEIGHTS, giro.CONFIG, ids, i) for i in range(len(ids))]),
    }
    rng = random.Random(11)
    rows = [[rng.gauss(0, scale) for _ in range(9)] for scale in (0.1, 1.0, 5.0, 40.0) for _ in range(6)]
    rows += [[1.0, 2.0, 2.0, 0.5], [0.0] * 5, [800.0, 0.0, -800.0, 800.0]]
    for temperature in (0.0, 0.05, 0.3, 1.0, 2.0):
        draws = random.Random(4)
        out[f"next tokens T={temperature}"] = [choose_token(z, temperature, draws) for z in rows for _ in range(8)]
    return out


def record():
    """Every config's numbers, by a name that says the config, and the labs' own."""
    return {"labs": record_labs()} | {
        f"{activation} {positions} {'tied' if tied else 'untied'} L{layers} seed{seed}": record_config(
            config_of(activation, positions, tied, layers, seed)
        )
        for (activation, positions, tied), layers, seed in itertools.product(VARIANTS, (1, 2), (0, 3))
    }


@pytest.fixture(scope="module")
def recorded():
    return record()


def test_the_fixture_covers_every_variant():
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert len(expected) == 2 * 2 * 2 * 2 * 2 + 1


@pytest.mark.parametrize("name", sorted(json.loads(FIXTURE.read_text(encoding="utf-8"))) if FIXTURE.exists() else [])
def test_same_numbers_to_the_last_bit(recorded, name):
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))[name]
    got = recorded[name]
    moved = [key for key in expected if got.get(key) != expected[key]]
    assert not moved and set(got) == set(expected), f"{name}: numbers changed: {moved}"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
