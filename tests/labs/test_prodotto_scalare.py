"""9B.2 Prodotto scalare: the film ratings and the arrows, checked with numpy."""

import math

import numpy as np
import pytest

import labs

LAB = labs.get("prodotto-scalare")
ANNA, BRUNO, CARLA = [2, 1, -1, 0, 2], [1, 2, -2, 1, 1], [-2, -1, 1, 0, -2]


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_reproduces_the_seed():
    s = state()
    assert s["names"] == ["Anna", "Bruno"]
    assert s["votes"] == [ANNA, BRUNO]
    assert s["products"] == [2, 2, 2, 0, 2]
    assert s["total"] == 8
    html = str(LAB.view(s))
    assert "= 2 + 2 + 2 + 0 + 2 = 8" in html and "gusti simili" in html


@pytest.mark.parametrize("pair, u, v, total", [("anna-carla", ANNA, CARLA, -10), ("bruno-carla", BRUNO, CARLA, -8)])
def test_other_pairs(pair, u, v, total):
    s = state(coppia=pair)
    assert s["total"] == total == int(np.dot(u, v))
    assert s["products"] == list(np.array(u) * np.array(v))


def test_default_arrows_meet_at_45_degrees():
    g = state()["plane"]
    assert g["dot"] == 5
    assert g["angle"] == pytest.approx(45)
    assert g["norm_a"] * g["norm_b"] * g["cos"] == pytest.approx(g["dot"])
    assert g["projection"] == pytest.approx([1.5, 0.5])


@pytest.mark.parametrize("seed", range(10))
def test_geometry_agrees_with_the_sum_of_products(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.choice(np.arange(-4, 4.5, 0.5), 2), rng.choice(np.arange(-4, 4.5, 0.5), 2)
    if not a.any() or not b.any():
        return
    g = state(ax=a[0], ay=a[1], bx=b[0], by=b[1])["plane"]
    assert g["dot"] == pytest.approx(a @ b)
    cos = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
    assert g["cos"] == pytest.approx(cos)
    assert g["angle"] == pytest.approx(math.degrees(math.acos(np.clip(cos, -1, 1))), abs=1e-6)
    np.testing.assert_allclose(g["projection"], (a @ b) / (a @ a) * a, atol=1e-12)
    assert g["norm_a"] * g["shadow"] == pytest.approx(a @ b)


@pytest.mark.parametrize("zero", [{"ax": 0, "ay": 0}, {"bx": 0, "by": 0}])
def test_zero_vector_has_no_angle(zero):
    s = state(**zero)
    assert s["plane"]["angle"] is None and s["plane"]["cos"] is None and s["plane"]["dot"] == 0
    html = str(LAB.view(s))
    assert "non sono definiti" in html and "θ =" not in html
