import math
import random

import pytest

from core.autograd import Value
from core.tanh_chain import descend_chain, forward_backward


def loss(x, w1, w2, y):
    return (w2 * math.tanh(w1 * x) - y) ** 2


@pytest.mark.parametrize("seed", range(30))
def test_gradients_match_autograd_and_finite_differences(seed):
    rng = random.Random(seed)
    x, y, w1, w2 = (rng.uniform(-2, 2) for _ in range(4))
    r = forward_backward(x, w1, w2, y)
    W1, W2 = Value(w1), Value(w2)
    L = (W2 * (W1 * x).tanh() - y) ** 2
    L.backward()
    assert r["loss"] == pytest.approx(L.data, abs=1e-12)
    assert r["grad_w1"] == pytest.approx(W1.grad, abs=1e-12)
    assert r["grad_w2"] == pytest.approx(W2.grad, abs=1e-12)
    eps = 1e-6
    assert r["grad_w1"] == pytest.approx(
        (loss(x, w1 + eps, w2, y) - loss(x, w1 - eps, w2, y)) / (2 * eps), rel=1e-6, abs=1e-8
    )
    assert r["grad_w2"] == pytest.approx(
        (loss(x, w1, w2 + eps, y) - loss(x, w1, w2 - eps, y)) / (2 * eps), rel=1e-6, abs=1e-8
    )


def test_the_chain_written_out():
    r = forward_backward(1.5, 0.4, -0.7, 0.2)
    h = math.tanh(0.6)
    assert r["grad_w2"] == pytest.approx(2 * (r["y_hat"] - 0.2) * h)
    assert r["grad_w1"] == pytest.approx(2 * (r["y_hat"] - 0.2) * -0.7 * (1 - h * h) * 1.5)
    # the backward reuses ∂L/∂ŷ: one factor more per step towards the input
    assert r["dL_dh"] == pytest.approx(r["dL_dyhat"] * -0.7)
    assert r["dL_dz"] == pytest.approx(r["dL_dh"] * r["dh_dz"])
    assert r["grad_w1"] == pytest.approx(r["dL_dz"] * 1.5)


def test_descend_records_every_step_and_lowers_the_loss():
    records, stopped = descend_chain(1.0, 0.8, 0.5, 0.5, 0.03, 100)
    assert not stopped and len(records) == 101
    assert records[1]["w1"] == pytest.approx(0.5 - 0.03 * records[0]["grad_w1"])
    losses = [r["loss"] for r in records]
    assert all(b < a for a, b in zip(losses, losses[1:]))


def test_descend_stops_before_the_weights_run_away():
    records, stopped = descend_chain(1.0, 0.8, 0.5, 0.5, 2.0, 200, limit=100.0)
    assert stopped and len(records) < 200
    assert all(abs(r["w1"]) <= 100 and abs(r["w2"]) <= 100 for r in records)
    last = records[-1]
    assert abs(last["w2"] - 2.0 * last["grad_w2"]) > 100 or abs(last["w1"] - 2.0 * last["grad_w1"]) > 100
