"""9B.4 Alte dimensioni: random directions get almost perpendicular as d grows."""

import math
from html import unescape as html_unescape

import numpy as np
import pytest

import labs
from core.linalg import random_directions, seeded_rng

LAB = labs.get("alte-dimensioni")
MODULE = LAB.module
DIMENSIONS = (2, 3, 10, 100, 1000, 4096)


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_state():
    s = state()
    assert s["d"] == 3 and s["pairs"] == 40 * 39 // 2 == 780
    assert sum(s["counts"]) == s["pairs"] and len(s["counts"]) == 40 and s["outside"] == 0
    assert abs(s["mean"]) < 0.06
    assert s["std"] == pytest.approx(1 / math.sqrt(3), rel=0.05)


@pytest.mark.parametrize("seed", [1, 7])
def test_spread_shrinks_like_one_over_root_d(seed):
    spreads = []
    for d in DIMENSIONS:
        s = state(d=d, seme=seed)
        assert sum(s["counts"]) == s["pairs"] == 780
        assert abs(s["mean"]) < 4 / math.sqrt(d) / math.sqrt(40)  # well inside the sampling noise
        assert s["ratio"] == pytest.approx(1.0, abs=0.12)
        assert s["std"] * math.sqrt(d) == pytest.approx(s["ratio"])
        spreads.append(s["std"])
    assert all(b < a for a, b in zip(spreads, spreads[1:]))


def test_almost_perpendicular_in_4096_dimensions():
    s = state(d=4096)
    assert s["near_perpendicular"] == 1.0
    assert 86 < s["min_angle"] < 90  # every pair between about 87° and 93°
    assert state(d=2)["near_perpendicular"] < 0.15


def test_shapes_in_two_and_three_dimensions():
    flat = state(d=3)["counts"]  # uniform on [−1, 1]
    assert max(flat) < 3 * min(flat)
    arcsine = state(d=2)["counts"]  # piled up at ±1
    assert arcsine[0] + arcsine[-1] > 3 * (arcsine[19] + arcsine[20])


def test_counts_are_the_histogram_of_the_real_cosines():
    for d, zoom in ((10, False), (1000, True)):
        vectors = np.array(random_directions(40, d, seeded_rng(5)))
        cosines = (vectors @ vectors.T)[np.tril_indices(40, -1)]
        s = state(d=d, seme=5, zoom=int(zoom))
        reach = min(1, 5 / math.sqrt(d)) if zoom else 1
        expected, _ = np.histogram(cosines, bins=40, range=(-reach, reach))
        assert s["counts"] == expected.tolist()
        assert s["reach"] == pytest.approx(reach)
        assert s["mean"] == pytest.approx(float(cosines.mean()), abs=1e-12)
        assert s["std"] == pytest.approx(float(cosines.std()), abs=1e-12)
        assert s["outside"] == int(np.sum(np.abs(cosines) > reach))


def test_same_seed_same_numbers():
    assert state(d=100, seme=3) == state(d=100, seme=3)
    assert state(d=100, seme=3)["counts"] != state(d=100, seme=4)["counts"]


def test_view_shows_the_figures_and_lets_you_click_a_dimension():
    html = unescape(str(LAB.view(state(d=4096))))
    assert "4.096" in html and "1/√d" in html and "100 %" in html
    assert 'data-set="d=100"' in html
    assert html.count('class="lab-chart-bar s1"') >= 40


def test_kept_cosines_equal_a_fresh_computation():
    MODULE.pair_cosines.cache_clear()
    MODULE.cosine_summary.cache_clear()
    fresh = [state(d=d, seme=9, zoom=z) for d in (3, 4096) for z in (0, 1)]
    assert MODULE.pair_cosines.cache_info().misses == 2
    assert MODULE.cosine_summary.cache_info().misses == 2 and MODULE.cosine_summary.cache_info().hits == 2
    assert [state(d=d, seme=9, zoom=z) for d in (3, 4096) for z in (0, 1)] == fresh
    assert MODULE.pair_cosines(4096, 9) == MODULE.pair_cosines.__wrapped__(4096, 9)
    kept = MODULE.pair_cosines(4096, 9)
    assert MODULE.cosine_summary(kept) == MODULE.cosine_summary.__wrapped__(kept)


def test_the_zoom_fits_the_axis_to_the_width_of_the_bell():
    """«con lo zoom l'asse si adatta alla sua larghezza»: ±5/√d, and no cosine falls outside."""
    lab = labs.get("alte-dimensioni")
    s = lab.compute(lab.parse({"d": "1000", "zoom": "1"}))
    assert s["reach"] == pytest.approx(5 / math.sqrt(1000)) and s["outside"] == 0
    assert lab.compute(lab.parse({"d": "1000"}))["reach"] == 1


def test_the_prose_on_the_shortcut():
    """«con d = 4.096 bastano 820 numeri casuali invece di 163.840, e ogni freccia ha al massimo 40 coordinate»
    (tests/test_core_linalg.py checks that the cosines have the distribution of full Gaussian directions)."""
    directions = random_directions(40, 4096, seeded_rng(1))
    assert max(len(v) for v in directions) == 40 and 40 * 4096 == 163_840
    assert sum(x != 0 for v in directions for x in v) == 820 == 780 + 40
    assert "820 numeri casuali invece di 163.840" in " ".join(MODULE.__doc__.split())
