"""2.2 Il gradiente dei logit: p − y with the guide's numbers, against finite differences."""

import math

import numpy as np
import pytest

import labs
from core.losses import cross_entropy_from_logits

LAB = labs.get("gradiente-logit")
TOKENS = LAB.module.TOKENS


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_logits_give_back_the_example_probabilities():
    s = state()
    z = np.array(s["logits"])
    p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    np.testing.assert_allclose(s["probs"], list(LAB.module.PROBS.values()), atol=1e-12)
    np.testing.assert_allclose(s["probs"], p, atol=1e-12)
    assert math.fsum(LAB.module.PROBS.values()) == pytest.approx(1, abs=1e-15)


def test_the_guide_gradients():
    s = state()
    grad = dict(zip(s["tokens"], s["grad"]))
    assert s["tokens"][s["target"]] == "Parigi"
    assert grad["Parigi"] == pytest.approx(-0.88, abs=1e-12)
    assert grad["Lione"] == pytest.approx(0.30, abs=1e-12)
    assert grad["banana"] == pytest.approx(0.001, abs=1e-12)
    assert s["grad_sum"] == pytest.approx(0, abs=1e-12)
    assert round(s["loss"], 2) == 2.12


@pytest.mark.parametrize("target", TOKENS)
def test_gradient_is_the_derivative_of_the_loss(target):
    s = state(giusto=target)
    z, t, h = s["logits"], s["target"], 1e-6
    for j in range(len(z)):
        up, down = list(z), list(z)
        up[j] += h
        down[j] -= h
        numeric = (cross_entropy_from_logits(up, t) - cross_entropy_from_logits(down, t)) / (2 * h)
        assert s["grad"][j] == pytest.approx(numeric, abs=1e-8)
    assert math.fsum(s["grad"]) == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize("target", TOKENS)
@pytest.mark.parametrize("eta", [0.1, 1.0, 3.0])
def test_a_step_against_the_gradient_helps_the_right_token(target, eta):
    s = state(giusto=target, eta=eta)
    t = s["target"]
    np.testing.assert_allclose(s["new_logits"], np.array(s["logits"]) - eta * np.array(s["grad"]), atol=1e-12)
    assert s["new_probs"][t] > s["probs"][t]
    assert s["new_loss"] < s["loss"]
    assert math.fsum(s["new_probs"]) == pytest.approx(1, abs=1e-12)


def test_no_step_no_change():
    s = state(eta=0)
    assert s["new_probs"] == pytest.approx(s["probs"], abs=1e-15)


def test_view_shows_the_signed_gradients():
    html = str(LAB.view(state()))
    for text in ("−0,88", "+0,30", "+0,001", "prima del passo"):
        assert text in html
