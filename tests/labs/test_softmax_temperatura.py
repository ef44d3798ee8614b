"""9E Softmax e temperatura: numpy's softmax(z/T), no overflow, T flattens."""

import math
import random

import numpy as np
import pytest

import labs

LAB = labs.get("softmax-temperatura")
NAMES = LAB.module.NAMES


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def numpy_softmax(z, t):
    z = np.asarray(z, dtype=float) / t
    e = np.exp(z - z.max())
    return e / e.sum()


def test_default_ranking_and_figures():
    s = state()
    assert s["names"] == list(NAMES) and len(NAMES) == 6
    assert s["names"][s["top"]] == "divano"
    np.testing.assert_allclose(s["probs"], numpy_softmax(s["logits"], 1.0), atol=1e-12)
    assert s["exps"][s["top"]] == 1 and all(0 < e <= 1 for e in s["exps"])


@pytest.mark.parametrize("seed", range(20))
def test_probabilities_are_numpy_softmax_of_z_over_t(seed):
    rng = random.Random(seed)
    raw = {name: rng.uniform(-5, 10) for name in NAMES} | {"temperatura": rng.uniform(0.1, 5),
                                                            "aggiunta": rng.choice([0, 300, 1000])}
    s = state(**raw)
    np.testing.assert_allclose(s["probs"], numpy_softmax(s["logits"], s["t"]), atol=1e-12)
    assert math.fsum(s["probs"]) == pytest.approx(1, abs=1e-12)
    np.testing.assert_allclose(s["shifted"], np.array(s["logits"]) / s["t"] - max(s["logits"]) / s["t"], atol=1e-9)


def test_huge_logits_never_overflow_and_change_nothing():
    small, huge = state(temperatura=0.1), state(temperatura=0.1, aggiunta=1000)
    assert min(huge["logits"]) >= 999
    assert huge["overflow"] and all(e is None for e in huge["naive"])
    assert all(0 <= e <= 1 for e in huge["exps"])
    np.testing.assert_allclose(huge["probs"], small["probs"], atol=1e-12)
    html = str(LAB.view(huge))
    assert "overflow" in html


def test_without_the_shift_small_logits_fit():
    s = state()
    assert not s["overflow"]
    np.testing.assert_allclose(s["naive"], np.exp(np.array(s["logits"])), rtol=1e-12)


def test_top_probability_falls_as_temperature_rises():
    curve = state()["top_curve"]
    assert all(a >= b for a, b in zip(curve, curve[1:]))
    tops = [max(state(temperatura=t)["probs"]) for t in (0.1, 0.5, 1, 2, 5)]
    assert tops == sorted(tops, reverse=True) and tops[0] > 0.99 and tops[-1] < 0.25


def test_low_temperature_sharpens_high_flattens():
    cold, warm = state(temperatura=0.1), state(temperatura=5)
    assert cold["effective"] < 1.1 < warm["effective"] and warm["effective"] > 5
    assert warm["entropy"] < math.log(6)
