"""A.2 Residui e profondità: the chain rule against finite differences, and
the vanishing gradient without the residual at the default weights."""

import math

import pytest

import labs
from core import deep_stack as M

LAB = labs.get("residuo-profondita")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


@pytest.mark.parametrize("norm", ["nessuna", "pre", "post"])
@pytest.mark.parametrize("residual", [False, True])
@pytest.mark.parametrize("seed", [1, 7])
def test_chain_rule_matches_finite_differences(norm, residual, seed):
    x, weights = M.draw(seed, 12, 1.0)
    y, tape = M.forward(x, weights, residual, norm)
    grad, sizes = M.backward(weights, tape, residual, norm)
    step = 1e-6
    for i in range(M.D):
        up, down = list(x), list(x)
        up[i] += step
        down[i] -= step
        numeric = (M.forward(up, weights, residual, norm)[0] - M.forward(down, weights, residual, norm)[0]) / (2 * step)
        assert grad[i] == pytest.approx(numeric, rel=1e-5, abs=1e-8)
    assert sizes[0] == pytest.approx(math.hypot(*grad), rel=1e-12)
    assert sizes[-1] == pytest.approx(math.sqrt(M.D))  # ∂y/∂h_L is all ones


def test_default_without_residual_the_gradient_vanishes():
    s = state()
    assert (s["layers"], s["norm"], s["sigma"]) == (50, "nessuna", 0.5)
    assert s["plain"][0] < 1e-12  # about 2 × 10⁻¹⁵ at the input
    assert 1 < s["residual"][0] < 1e3
    assert s["orders"] > 10
    assert len(s["plain"]) == len(s["residual"]) == 51
    assert "6,2 × 10⁻¹⁷ volte quello con residuo" in str(LAB.view(s))


@pytest.mark.parametrize("seed", range(1, 21))
def test_every_seed_shows_orders_of_magnitude_at_default_weights(seed):
    assert state(seme=seed)["orders"] > 10


def test_one_layer_makes_little_difference():
    s = state(strati=1)
    assert abs(s["orders"]) < 2


def test_pre_norm_with_residual_keeps_the_gradient_healthy():
    for seed in range(1, 11):
        pre = state(seme=seed, norma="pre", scala=1)["summary"]["pre"]
        assert 0.5 < pre[1] < 1e3


def test_large_weights_are_capped_and_said():
    s = state(scala=3, strati=50)
    assert all(LAB.module.FLOOR <= v <= LAB.module.CEILING for v in s["plain"] + s["residual"])
