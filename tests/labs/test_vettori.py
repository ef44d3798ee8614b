"""9B.1 Vettori: the seed's sum and scaling, checked with numpy."""

import numpy as np
import pytest

import labs

LAB = labs.get("vettori")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_reproduces_the_seed():
    s = state()
    assert s["a"] == [2, 1] and s["b"] == [-1, 1.5]
    assert s["sum"] == [1, 2.5]  # [2 ; 1] + [−1 ; 1,5] = [1 ; 2,5]
    assert s["k"] == 2 and s["scaled"] == [-2, 3]  # 2 · [−1 ; 1,5] = [−2 ; 3]
    html = str(LAB.view(s))
    assert "[2 + (−1) ; 1 + 1,5] = [1 ; 2,5]" in html
    assert "[2 · (−1) ; 2 · 1,5] = [−2 ; 3]" in html


@pytest.mark.parametrize("seed", range(10))
def test_sum_and_scale_are_elementwise(seed):
    rng = np.random.default_rng(seed)
    ax, ay, bx, by = (float(v) for v in rng.choice(np.arange(-3, 3.5, 0.5), 4))
    k = round(float(rng.uniform(-2, 2)), 1)
    s = state(ax=ax, ay=ay, bx=bx, by=by, k=k)
    np.testing.assert_allclose(s["sum"], np.array([ax, ay]) + np.array([bx, by]), atol=1e-12)
    np.testing.assert_allclose(s["scaled"], k * np.array([bx, by]), atol=1e-12)


@pytest.mark.parametrize(
    "k, effect",
    [
        (2, "si allunga"),
        (0.5, "si accorcia"),
        (-1, "si gira dall'altra parte"),
        (0, "vettore nullo"),
        (1, "resta com'è"),
    ],
)
def test_scalar_says_what_it_does(k, effect):
    assert effect in state(k=k)["effect"]


def test_the_tips_can_be_dragged():
    html = str(LAB.view(state()))
    assert 'data-drag="ax ay"' in html and 'data-drag="bx by"' in html
    assert html.count("data-plane=") == 2
