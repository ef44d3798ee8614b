import random

import numpy as np
import pytest

from core import window_net as wn


def random_net(seed, n_in=4, n_hidden=3, n_out=5):
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=(n_hidden, n_in)).tolist(),
        rng.normal(size=(n_out, n_hidden)).tolist(),
        [(rng.normal(size=n_in).tolist(), int(rng.integers(n_out))) for _ in range(5)],
    )


def numpy_forward(W1, W2, x):
    z = np.asarray(W1) @ np.asarray(x)
    h = np.maximum(z, 0)
    s = np.asarray(W2) @ h
    e = np.exp(s - s.max())
    return z, h, s, e / e.sum()


def test_concat_keeps_the_order():
    assert wn.concat([[1, 0], [0, 1]]) == [1, 0, 0, 1]
    assert wn.concat([[0, 1], [1, 0]]) == [0, 1, 1, 0]


@pytest.mark.parametrize("seed", range(5))
def test_forward_matches_numpy(seed):
    W1, W2, examples = random_net(seed)
    for x, _ in examples:
        f = wn.window_forward(W1, W2, x)
        z, h, s, p = numpy_forward(W1, W2, x)
        np.testing.assert_allclose(f["z"], z, atol=1e-12)
        np.testing.assert_allclose(f["h"], h, atol=1e-12)
        np.testing.assert_allclose(f["scores"], s, atol=1e-12)
        np.testing.assert_allclose(f["probs"], p, atol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_gradients_match_finite_differences(seed):
    W1, W2, examples = random_net(seed)
    G1, G2 = wn.gradients(W1, W2, examples)
    eps = 1e-6
    for W, G in ((W1, G1), (W2, G2)):
        for i in range(len(W)):
            for j in range(len(W[0])):
                old = W[i][j]
                W[i][j] = old + eps
                up = wn.window_loss(W1, W2, examples)
                W[i][j] = old - eps
                down = wn.window_loss(W1, W2, examples)
                W[i][j] = old
                assert G[i][j] == pytest.approx((up - down) / (2 * eps), rel=1e-5, abs=1e-8)


def test_training_is_deterministic_and_lowers_the_loss():
    _, _, examples = random_net(0)
    a = wn.train_window_net(examples, 3, 5, seed=7, steps=50)
    assert a == wn.train_window_net(examples, 3, 5, seed=7, steps=50)
    start = wn.train_window_net(examples, 3, 5, seed=7, steps=0)
    assert wn.window_loss(*a, examples) < wn.window_loss(*start, examples)


def test_rounded_to_one_decimal_without_negative_zero():
    assert wn.rounded([[0.04, -0.04, 1.26, -2.35]]) == [[0.0, 0.0, 1.3, -2.4]]
    assert str(wn.rounded([[-0.01]])[0][0]) == "0.0"


def test_first_layer_size_of_a_real_window():
    assert wn.first_layer_size(100, 768, 512) == (76_800, 39_321_600)
    assert wn.first_layer_size(2, 2, 3) == (4, 12)
    assert wn.first_layer_size(3, 2, 3) == (6, 18)


def test_uniform_start_is_seeded():
    rng = random.Random(3)
    x = [rng.uniform(-0.5, 0.5) for _ in range(12)]
    W1, _ = wn.train_window_net([([0.0] * 4, 0)], 3, 5, seed=3, steps=0)
    assert [w for row in W1 for w in row] == x
