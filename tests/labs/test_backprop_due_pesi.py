"""2.3 Backprop su due pesi: every gradient against finite differences."""

import random

import pytest

import labs

LAB = labs.get("backprop-due-pesi")
PHASES = LAB.module.PHASES


def loss(x, w1, w2, y):
    return (w2 * max(0.0, w1 * x) - y) ** 2


def numeric(f, args, i, eps=1e-6):
    up, down = list(args), list(args)
    up[i] += eps
    down[i] -= eps
    return (f(*up) - f(*down)) / (2 * eps)


def state(step, **changes):
    raw = {k: str(v) for k, v in changes.items()} | {"passo": str(step)}
    return LAB.compute(LAB.parse(raw))


def test_default_numbers():
    s = state(PHASES)
    assert (s["z"], s["h"], s["y_hat"], s["loss"]) == pytest.approx((1.2, 1.2, 0.6, 1.96))
    assert s["grad"]["w2"] == pytest.approx(-3.36)
    assert s["grad"]["w1"] == pytest.approx(-2.1)
    assert (s["new_w1"], s["new_w2"]) == pytest.approx((1.01, 0.836))
    assert s["loss_after"] < s["loss"]


@pytest.mark.parametrize("seed", range(25))
def test_gradients_match_finite_differences(seed):
    rng = random.Random(seed)
    x, w1, w2, y = (round(rng.uniform(-2, 2), 1) for _ in range(4))
    if abs(w1 * x) < 0.05:  # the ReLU's elbow has no derivative
        w1 += 0.5
    r = LAB.module.forward_backward(x, w1, w2, y)
    args = (x, w1, w2, y)
    assert r["grad"]["w1"] == pytest.approx(numeric(loss, args, 1), rel=1e-6, abs=1e-8)
    assert r["grad"]["w2"] == pytest.approx(numeric(loss, args, 2), rel=1e-6, abs=1e-8)
    # the chain rule, one product at a time, gives the same numbers
    local = r["local"]
    assert r["grad"]["w2"] == pytest.approx(local["dL_dyhat"] * local["dyhat_dw2"])
    assert r["grad"]["w1"] == pytest.approx(local["dL_dyhat"] * local["dyhat_dh"] * local["dh_dz"] * local["dz_dw1"])


def test_steps_reveal_one_thing_at_a_time():
    assert [state(k)["phase"] for k in range(PHASES + 2)] == [*range(PHASES + 1), 1]
    assert state(PHASES + 1)["round"] == 2


def test_update_uses_the_learning_rate_and_rounds_chain():
    s1, s2 = state(PHASES, eta=0.05), state(2 * PHASES, eta=0.05)
    assert s1["new_w1"] == pytest.approx(s1["w1"] - 0.05 * s1["grad"]["w1"])
    assert (s2["w1"], s2["w2"]) == pytest.approx((s1["new_w1"], s1["new_w2"]))
    assert s2["losses"] == pytest.approx([s1["loss"]])


def test_training_drives_the_loss_down():
    last = state(LAB.module.ROUNDS * PHASES)
    assert last["losses"][0] == pytest.approx(1.96)
    assert last["loss"] < 1e-3


def test_dead_relu_stops_the_gradient():
    s = state(PHASES, w1=-0.5)
    assert s["relu_on"] is False
    assert s["grad"]["w1"] == 0 and s["grad"]["w2"] == 0
    assert "si ferma qui" in str(LAB.view(s))
