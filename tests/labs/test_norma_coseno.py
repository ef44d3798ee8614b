"""9B.3 Norma, vettore unitario, coseno: the seed's cases and the zero vector."""

import re

import numpy as np
import pytest

import labs
from labs.kit.html import unwrapped_scripts

LAB = labs.get("norma-coseno")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_reproduces_the_seed():
    s = state()
    assert s["a"] == [3, 4] and s["b"] == [6, 8]
    assert s["norm_a"] == 5 and s["norm_b"] == 10  # Pythagoras: √25 and √100
    assert s["unit_a"] == pytest.approx([0.6, 0.8])
    assert s["dot"] == 50 and s["cos"] == 1 and s["angle"] == 0
    html = unwrapped_scripts(LAB.view(s))
    assert "|a| = √(3² + 4²) = √25 = 5" in html
    assert "[3 ; 4] / 5 = [0,6 ; 0,8]" in html
    assert "50 / (5 × 10) = 1" in html


@pytest.mark.parametrize("b, cos", [([4, -3], 0), ([-3, -4], -1), ([6, 8], 1)])
def test_the_guide_cases(b, cos):
    s = state(bx=b[0], by=b[1])
    assert s["cos"] == pytest.approx(cos, abs=1e-12)


def test_preset_buttons_set_the_guide_cases():
    html = unwrapped_scripts(LAB.view(state()))
    sets = re.findall(r'data-set="([^"]+)"', html)
    assert "ax=3;ay=4;bx=4;by=-3" in sets and "ax=3;ay=4;bx=6;by=8" in sets and "ax=3;ay=4;bx=-3;by=-4" in sets
    for preset in sets:
        s = LAB.compute(LAB.parse(dict(pair.split("=") for pair in preset.split(";"))))
        if s["cos"] is not None:
            a, b = np.array(s["a"]), np.array(s["b"])
            assert s["cos"] == pytest.approx(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


@pytest.mark.parametrize("seed", range(10))
def test_against_numpy(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.choice(np.arange(-8, 8.5, 0.5), 2), rng.choice(np.arange(-8, 8.5, 0.5), 2)
    if not a.any() or not b.any():
        return
    s = state(ax=a[0], ay=a[1], bx=b[0], by=b[1])
    assert s["norm_a"] == pytest.approx(np.linalg.norm(a))
    np.testing.assert_allclose(s["unit_b"], b / np.linalg.norm(b), atol=1e-12)
    assert np.linalg.norm(s["unit_a"]) == pytest.approx(1)


@pytest.mark.parametrize("zero", [{"bx": 0, "by": 0}, {"ax": 0, "ay": 0}])
def test_zero_vector_is_explained(zero):
    s = state(**zero)
    assert s["cos"] is None and s["angle"] is None
    html = unwrapped_scripts(LAB.view(s))
    assert "vettore nullo" in html and "il coseno non è definito" in html
