"""9G Backprop su due strati: the chain rule at every step, many steps, the
loss going down."""

import math

import pytest

import labs
from core.autograd import Value

LAB = labs.get("backprop-due-strati")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_numbers_and_both_gradients_negative():
    s = state()
    assert (s["x"], s["y"], s["w1"], s["w2"]) == (1.0, 0.8, 0.5, 0.5)
    assert s["h"] == pytest.approx(math.tanh(0.5)) == pytest.approx(0.4621, abs=1e-4)
    assert s["y_hat"] == pytest.approx(0.2311, abs=1e-4)
    assert s["loss"] == pytest.approx(0.3237, abs=1e-4)
    assert s["grad_w2"] == pytest.approx(-0.5258, abs=1e-4)
    assert s["grad_w1"] == pytest.approx(-0.4474, abs=1e-4)
    assert s["grad_w1"] < 0 and s["grad_w2"] < 0  # raising both weights brings ŷ towards y


@pytest.mark.parametrize("step", [0, 1, 7, 50, 200])
def test_gradients_at_every_step_match_autograd_and_the_written_formulas(step):
    s = state(passo=step)
    W1, W2 = Value(s["w1"]), Value(s["w2"])
    L = (W2 * (W1 * s["x"]).tanh() - s["y"]) ** 2
    L.backward()
    assert (s["grad_w1"], s["grad_w2"]) == pytest.approx((W1.grad, W2.grad), abs=1e-12)
    h = s["h"]
    assert s["grad_w2"] == pytest.approx(2 * (s["y_hat"] - s["y"]) * h)
    assert s["grad_w1"] == pytest.approx(2 * (s["y_hat"] - s["y"]) * s["w2"] * (1 - h * h) * s["x"])
    eps = 1e-6
    f = lambda w1, w2: (w2 * math.tanh(w1 * s["x"]) - s["y"]) ** 2  # noqa: E731
    assert s["grad_w1"] == pytest.approx((f(s["w1"] + eps, s["w2"]) - f(s["w1"] - eps, s["w2"])) / (2 * eps),
                                         rel=1e-6, abs=1e-9)


def test_many_steps_drive_the_loss_down():
    s = state(passo=200)
    losses = s["losses"]
    assert len(losses) == 201
    assert all(b < a for a, b in zip(losses, losses[1:]))
    assert losses[0] == pytest.approx(0.3237, abs=1e-4) and losses[-1] < 1e-6
    assert s["y_hat"] == pytest.approx(0.8, abs=1e-3)


def test_each_step_applies_the_update():
    a, b = state(passo=10, eta=0.1), state(passo=11, eta=0.1)
    assert b["w1"] == pytest.approx(a["w1"] - 0.1 * a["grad_w1"])
    assert b["w2"] == pytest.approx(a["w2"] - 0.1 * a["grad_w2"])
    assert (a["new_w1"], a["new_w2"]) == pytest.approx((b["w1"], b["w2"]))


def test_a_large_learning_rate_is_stopped_and_said():
    s = state(passo=200, eta=2)
    assert s["stopped"] and s["step"] < 200
    assert all(abs(w) <= 100 for w in s["w1s"] + s["w2s"])
    assert "scappano" in str(LAB.view(s))


def test_a_saturated_tanh_is_said():
    s = state(w1=3)
    assert s["dh_dz"] < 0.05
    assert "quasi piatta" in str(LAB.view(s))


def test_the_backward_reuses_the_forward_values():
    html = str(LAB.view(state()))
    assert "1 − h²" in html and "Che cosa il backward prende dal forward" in html
