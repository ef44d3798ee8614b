"""9C Embedding e posizione: E is a lookup; RoPE's score depends only on m − n."""

import math
import re

import numpy as np
import pytest

import labs

LAB = labs.get("posizione-rope")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def rotate(v, angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]]) @ np.asarray(v, float)


def test_the_table_is_a_lookup():
    s = state()
    E = np.array(s["E"])
    assert E.shape == (8, 6)
    assert np.abs(E).max() < 0.1 and abs(E.mean()) < 0.01  # N(0, 0.02): small and centred
    for i in range(8):
        assert state(id=i)["row"] == s["E"][i]
    assert s["ids"] == [1, 2, 3]
    assert s["llama"] == 32_000 * 4_096 == 131_072_000
    html = str(LAB.view(s))
    assert "32.000 × 4.096 ≈ 131 milioni" in html
    assert {f"id={i}" for i in range(8)} <= set(re.findall(r'data-set="([^"]+)"', html))


def test_default_rope_against_numpy():
    s = state()
    theta = math.radians(30)
    assert (s["m"], s["n"]) == (5, 2)
    np.testing.assert_allclose(s["q_rot"], rotate([3, 1], 5 * theta), atol=1e-12)
    np.testing.assert_allclose(s["k_rot"], rotate([2, 2], 2 * theta), atol=1e-12)
    assert s["score"] == pytest.approx(rotate([3, 1], 5 * theta) @ rotate([2, 2], 2 * theta), abs=1e-12)
    assert s["plain"] == 8


def test_the_score_depends_only_on_the_distance():
    s = state()
    scores = [x for m, n, x in s["pairs"]]
    assert all(m - n == 3 for m, n, _ in s["pairs"])
    assert scores == pytest.approx([s["score"]] * len(scores), abs=1e-12)
    assert s["other"][2] != pytest.approx(s["score"])
    for shift in range(0, 21):
        assert state(sposta=shift)["score"] == pytest.approx(s["score"], abs=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_random_settings_against_numpy(seed):
    rng = np.random.default_rng(seed)
    q, k = rng.choice(np.arange(-3, 3.5, 0.5), 2), rng.choice(np.arange(-3, 3.5, 0.5), 2)
    m, n, shift, deg = rng.integers(0, 11), rng.integers(0, 11), rng.integers(0, 21), rng.choice(np.arange(0, 95, 5))
    s = state(qx=q[0], qy=q[1], kx=k[0], ky=k[1], m=m, n=n, sposta=shift, theta=deg)
    theta = math.radians(deg)
    expected = q @ rotate(k, (n - m) * theta)  # ⟨R(mθ)q, R(nθ)k⟩ = ⟨q, R((n − m)θ)k⟩
    assert s["score"] == pytest.approx(expected, abs=1e-12)
    for _a, _b, x in s["pairs"]:
        assert x == pytest.approx(expected, abs=1e-12)


def test_frequencies_of_a_real_rope():
    assert state()["frequencies"] == pytest.approx([1, 0.1, 0.01, 0.001], rel=1e-12)


def test_table_e_counts_rows_and_columns_from_zero_and_says_why_d_is_8_below():
    """9C numbered E's rows from 0 (the IDs) and its columns from 1; and wrote d = 6 for E, then «qui con d = 8»
    for the speeds without saying why."""
    html = str(LAB.view(state()))
    table_e = html[html.index('data-part="E"') :]
    columns = re.findall(r'class="lab-mx-col">(\d+)</th>', table_e[: table_e.index("</thead>")])
    assert columns == [str(j) for j in range(6)]
    assert "Qui d = 8, cioè 4 coppie, e non 6 come le colonne di E" in html
