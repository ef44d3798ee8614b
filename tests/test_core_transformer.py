"""core.transformer: forward against numpy to 1e-9, every gradient against central finite
differences (the models and the numpy reference in tests/tiny_transformer.py)."""

import math
import random

import numpy as np
import pytest
from tiny_transformer import (
    VARIANTS,
    lively_params,
    loss_of,
    np_forward,
    random_batch,
    tiny,
)

from core import optimizers as optim
from core import transformer as tr
from core import transformer_layers as layers
from core.attention import rope
from core.linalg import transpose
from core.normalization import rms_norm


@pytest.mark.parametrize("activation,positions,tied", VARIANTS)
def test_forward_matches_numpy(activation, positions, tied):
    config = tiny(activation, positions, tied)
    params = lively_params(config)
    for B, T in ((3, 5), (2, 3)):
        inputs, targets = random_batch(config, B, T)
        cache = tr.transformer_forward(params, config, inputs)
        logits, maps = np_forward(params, config, inputs)
        assert np.allclose(cache.logits, logits, rtol=0, atol=1e-9)
        for block, a in zip(cache.blocks, maps):
            assert np.allclose(block.attention, a, rtol=0, atol=1e-9)
        z = logits - logits.max(1, keepdims=True)
        expected = -np.mean((z - np.log(np.exp(z).sum(1, keepdims=True)))[np.arange(B * T), np.ravel(targets)])
        assert loss_of(params, config, inputs, targets) == pytest.approx(expected, abs=1e-9)


def test_row_helpers_are_the_one_rope_and_rms_norm_of_core():
    rng = random.Random(0)
    config = tr.TransformerConfig(vocab_size=5, d_model=8, n_heads=2, positions="rope", context=4)
    X = [[rng.uniform(-2, 2) for _ in range(8)] for _ in range(8)]  # 2 sequences of T = 4
    turned = layers.rope_rows(X, *layers.rope_tables(config, 4), 4)
    for n, (row, out) in enumerate(zip(X, turned)):
        assert out == pytest.approx(rope(row[:4], n % 4) + rope(row[4:], n % 4), abs=1e-12)
    back = layers.rope_rows(turned, *layers.rope_tables(config, 4), 4, inverse=True)
    assert np.allclose(back, X, atol=1e-12)
    gain = [rng.uniform(0.5, 2) for _ in range(8)]
    Y = layers.rms_norm_rows(X, gain).output
    assert np.allclose(Y, [rms_norm(x, layers.EPS, gain) for x in X], rtol=0, atol=1e-12)


# --- gradients -------------------------------------------------------------------


def entry(tensor, index):
    return tensor[index[0]][index[1]] if len(index) == 2 else tensor[index[0]]


def set_entry(tensor, index, value):
    if len(index) == 2:
        tensor[index[0]][index[1]] = value
    else:
        tensor[index[0]] = value


@pytest.mark.parametrize("activation,positions,tied", VARIANTS)
def test_every_gradient_matches_finite_differences(activation, positions, tied):
    config = tiny(activation, positions, tied, seed=len(activation) + len(positions) + tied)
    params = lively_params(config)
    inputs, targets = random_batch(config, B=3, T=5 if tied else 4)
    _, grads = tr.loss_and_grads(params, config, inputs, targets)
    assert set(grads) == set(params) == set(tr.param_shapes(config))
    rng, h = random.Random(3), 1e-5
    for name, tensor in params.items():
        assert np.shape(grads[name]) == tr.param_shapes(config)[name]
        shape = tr.param_shapes(config)[name]
        for _ in range(3):
            index = tuple(rng.randrange(n) for n in shape)
            if name == "pos_emb":
                index = (rng.randrange(len(inputs[0])), index[1])  # rows past T get no gradient: checked below
            x = entry(tensor, index)
            set_entry(tensor, index, x + h)
            up = loss_of(params, config, inputs, targets)
            set_entry(tensor, index, x - h)
            down = loss_of(params, config, inputs, targets)
            set_entry(tensor, index, x)
            numeric, analytic = (up - down) / (2 * h), entry(grads[name], index)
            assert abs(analytic - numeric) <= 1e-7 + 1e-5 * abs(numeric), (name, index, analytic, numeric)
    if positions == "learned":
        assert all(v == 0.0 for row in grads["pos_emb"][len(inputs[0]) :] for v in row)


@pytest.mark.parametrize("activation,positions,tied", VARIANTS)
def test_every_entry_of_every_gradient_along_random_directions(activation, positions, tied):
    """(L(p + hD) − L(p − hD))/2h = Σ ∂L/∂p ⊙ D for a direction D that moves every entry of one tensor:
    a wrong entry anywhere in the tensor shows, not only at the entries drawn above."""
    config = tiny(activation, positions, tied, seed=7)
    params = lively_params(config, seed=4)
    inputs, targets = random_batch(config, B=3, T=5, seed=8)
    _, grads = tr.loss_and_grads(params, config, inputs, targets)
    rng, h = random.Random(5), 1e-5
    for name, tensor in params.items():
        base = np.array(tensor, dtype=float)
        for _ in range(2):
            D = np.array([rng.gauss(0, 1) for _ in range(base.size)]).reshape(base.shape)
            moved = lambda sign: {**params, name: (base + sign * h * D).tolist()}  # noqa: E731
            numeric = (loss_of(moved(1), config, inputs, targets) - loss_of(moved(-1), config, inputs, targets)) / (
                2 * h
            )
            analytic = float(np.sum(np.array(grads[name]) * D))
            assert abs(analytic - numeric) <= 1e-7 + 1e-6 * abs(numeric), (name, analytic, numeric)


def test_products_through_relu_skip_only_exact_zeros():
    """times_active gives, to the last bit, the dense product: a row with no active unit, a unit never active."""
    rng = random.Random(11)
    H = [[rng.gauss(0, 1) for _ in range(7)] for _ in range(6)]
    H[2] = [-abs(v) for v in H[2]]  # a row where every unit is off
    for row in H:
        row[4] = -1.0  # a unit that no row turns on
    A, masks = layers.activation_forward(H, "relu"), layers.relu_masks(H)
    W = [[rng.gauss(0, 1) for _ in range(3)] for _ in range(7)]
    assert layers.times_active(A, masks, W) == layers.times_columns(A, transpose(W))
    assert layers.times_active(A, masks, W)[2] == [0.0] * 3
    assert layers.times_active(transpose(A), transpose(masks), layers.times_columns(A, transpose(W)))[4] == [0.0] * 3
    assert np.allclose(layers.times_active(A, masks, W), np.array(A) @ np.array(W), rtol=0, atol=1e-12)


def test_gradient_norms_by_layer_add_up_to_the_global_norm():
    config = tiny()
    _, grads = tr.loss_and_grads(lively_params(config), config, *random_batch(config, 2, 5))
    by_layer = tr.layer_grad_norms(grads)
    assert set(by_layer) == {"embedding", "block0", "block1", "final"}
    assert math.hypot(*by_layer.values()) == pytest.approx(optim.grad_norm(grads), rel=1e-12)
    flat = np.concatenate([np.ravel(g) for g in grads.values()])
    assert optim.grad_norm(grads) == pytest.approx(np.linalg.norm(flat), rel=1e-12)
