"""A.1 LayerNorm e RMSNorm: the article's [2, 4, 6] by default, shift invariance."""

import pytest

import labs

LAB = labs.get("normalizzazione")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_is_the_article_example():
    s = state()
    assert s["x"] == [2, 4, 6]
    assert s["mean"] == 4
    assert s["centred"] == [-2, 0, 2]
    assert s["std"] == pytest.approx(1.63, abs=0.005)
    assert s["layer"] == pytest.approx([-1.2247, 0, 1.2247], abs=1e-4)  # ε = 10⁻⁵ moves the 6th digit
    assert s["mean_square"] == pytest.approx(56 / 3, abs=1e-12)
    assert s["rms"] == pytest.approx(4.32, abs=0.005)
    assert s["rms_out"] == pytest.approx([0.46, 0.93, 1.39], abs=0.005)
    html = str(LAB.view(s))
    for text in ("[−2,00 ; 0,00 ; 2,00]", "÷ 1,63", "[−1,22 ; 0,00 ; 1,22]", "18,67", "÷ 4,32",
                 "[0,46 ; 0,93 ; 1,39]"):
        assert text in html, text


def test_a_shift_changes_rms_norm_but_not_layer_norm():
    s = state(c=3)
    assert s["x"] == [5, 7, 9]
    assert s["layer"] == pytest.approx(s["layer_before"], abs=1e-12)
    assert s["layer_shift"] < 1e-12 < 0.1 < s["rms_shift"]
    assert "la RMSNorm no" in str(LAB.view(s))


def test_gain_and_bias_apply_after_normalizing():
    s = state(gamma=2, beta=1)
    assert s["layer"] == pytest.approx([2 * v + 1 for v in s["unit"]], abs=1e-12)
    assert s["rms_out"] == pytest.approx([2 * v for v in s["rms_unit"]], abs=1e-12)


def test_equal_numbers_give_zeros_not_a_division_by_zero():
    s = state(x1=5, x2=5, x3=5)
    assert s["std"] == 0 and s["layer"] == [0, 0, 0]
