"""9B.11 Rango 1 e rango basso: u·vᵀ, 2·d·r vs d², the bottleneck."""

import numpy as np
import pytest

import labs

LAB = labs.get("rango")
U, V = np.array([1, 2, 3]), np.array([1, 0, 2])


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_figures():
    s = state()
    np.testing.assert_array_equal(np.array(s["M"]), np.outer(U, V))
    assert s["rank_M"] == 1 == np.linalg.matrix_rank(np.outer(U, V))
    assert (s["d"], s["r"], s["low"], s["full"], s["ratio"]) == (1000, 10, 20_000, 1_000_000, 50)
    html = str(LAB.view(s))
    assert "20.000" in html and "1.000.000" in html and "50 volte meno" in html


@pytest.mark.parametrize("x", [(1, 1, 1), (-3, 2.5, 0.5), (0, 3, 0), (2, -1, 1)])
def test_every_output_is_a_multiple_of_u(x):
    s = state(x1=x[0], x2=x[1], x3=x[2])
    Mx = np.outer(U, V) @ np.array(x)
    np.testing.assert_allclose(s["Mx"], Mx, atol=1e-12)
    assert s["vx"] == pytest.approx(V @ x, abs=1e-12)
    np.testing.assert_allclose(s["scaled"], (V @ x) * U, atol=1e-12)
    for sample in s["samples"]:
        np.testing.assert_allclose(sample["Mx"], sample["k"] * U, atol=1e-12)


def test_low_rank_stops_saving_at_half_of_d():
    s = state(d=16, r=8)
    assert s["low"] == s["full"] == 256
    assert "non fa più" in str(LAB.view(s))
    assert "non fa più" not in str(LAB.view(state(d=16, r=4)))


def test_r_larger_than_d_is_clamped_and_said():
    s = state(d=4, r=4096)
    assert s["r"] == 4 and s["low"] == 32 and s["full"] == 16
    assert "supera d" in str(LAB.view(s))


@pytest.mark.parametrize("r", range(1, 7))
def test_small_bottleneck_d6(r):
    sm = state(r_small=r)["small"]
    B, A, x = np.array(sm["B"]), np.array(sm["A"]), np.array(sm["x"])
    assert B.shape == (6, r) and A.shape == (r, 6) and x.shape == (6,)
    np.testing.assert_allclose(sm["z"], A @ x, atol=1e-12)  # [6] → [r]
    np.testing.assert_allclose(sm["y"], B @ (A @ x), atol=1e-12)  # [r] → [6]
    np.testing.assert_allclose(sm["W"], B @ A, atol=1e-12)
    assert sm["rank"] == np.linalg.matrix_rank(B @ A) == r
    assert (sm["low"], sm["full"]) == (12 * r, 36)
