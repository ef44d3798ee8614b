"""A.1 LayerNorm e RMSNorm: the article's [2, 4, 6] by default, shift invariance."""

import random
import re
from html import unescape as html_unescape

import pytest

import labs


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


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
    for text in ("[−2,00 ; 0,00 ; 2,00]", "÷ 1,63", "[−1,22 ; 0,00 ; 1,22]", "18,67", "÷ 4,32", "[0,46 ; 0,93 ; 1,39]"):
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


# ---------------------------------------------------------------- the prose's experiments, the controls that count


def test_doubling_every_number_is_possible_and_changes_neither_norm():
    """«prova a raddoppiare tutti i numeri: questa volta nessuna delle due cambia»."""
    html = str(LAB.view(state()))
    (action,) = re.findall(r'data-set="([^"]+)"', html)
    assert action == "x1=4;x2=8;x3=12;c=0"
    doubled = state(**dict(pair.split("=") for pair in action.split(";")))
    assert doubled["x"] == [4, 8, 12]
    base = state()
    assert doubled["layer"] == pytest.approx(base["layer"], abs=1e-5)  # ε moves the 6th digit
    assert doubled["rms_out"] == pytest.approx(base["rms_out"], abs=1e-6)  # ε under the root here too
    shown = unescape(str(LAB.view(doubled)))
    for text in ("[−1,22 ; 0,00 ; 1,22]", "[0,46 ; 0,93 ; 1,39]"):
        assert text in shown


def test_doubling_with_six_numbers_and_a_shift():
    s = state(n=6, c=1.5)
    action = re.findall(r'data-set="([^"]+)"', str(LAB.view(s)))[0]
    twice = state(n=6, **dict(pair.split("=") for pair in action.split(";")))
    assert twice["x"] == [2 * v for v in s["x"]]
    assert twice["layer"] == pytest.approx(s["layer"], abs=1e-5)


def test_ignored_numbers_say_so():
    """Once: x₄ says why x₄, x₅ and x₆ do not count, the two after it are hidden (the hint was written three times)."""
    rules = LAB.module.follow(state())
    assert set(rules) == {"x4", "x5", "x6"}
    assert rules["x4"].disabled == "Con 3 numeri x₄, x₅ e x₆ non entrano nel vettore: alza «Quanti numeri»."
    assert rules["x5"].hidden and rules["x6"].hidden and not rules["x5"].disabled
    assert (
        LAB.module.follow(state(n=5))["x6"].disabled == "Con 5 numeri x₆ non entra nel vettore: alza «Quanti numeri»."
    )
    assert set(LAB.module.follow(state(n=5))) == {"x6"} and LAB.module.follow(state(n=6)) == {}
    equal = str(LAB.view(state(x1=5, x2=5, x3=5)))
    assert "÷ 0,00316" in equal and "÷ 0,00 " not in equal  # the division by σ = 0 is by √ε, as the text says
    assert state(x4=-7)["x"] == state()["x"]  # it really is ignored


@pytest.mark.parametrize("seed", range(80))
def test_the_shift_sentence_says_what_the_numbers_do(seed):
    rng = random.Random(seed)
    equal = rng.random() < 0.2
    value = rng.choice(range(-20, 21)) / 2
    changes = {
        "n": rng.randint(3, 6),
        "c": rng.choice([0, 0, -3, 2.5, 7]),
        "gamma": rng.choice([0, 1, -1.5, 2]),
        **{f"x{i}": value if equal else rng.choice(range(-40, 41)) / 2 for i in range(1, 7)},
    }
    s = state(**changes)
    text = unescape(re.search(r"lab-callout[^>]*>([^<]*)<", str(LAB.view(s))).group(1))
    if s["c"] == 0:
        assert "Hai aggiunto" not in text
        return
    assert s["layer_shift"] < 1e-9  # «la LayerNorm dà gli stessi valori di prima»
    assert "la LayerNorm dà gli stessi valori di prima" in text
    if "la RMSNorm no" in text:
        shown = float(re.search(r"RMSNorm no \(differenza massima ([\d,]+)\)", text).group(1).replace(",", "."))
        assert shown == pytest.approx(s["rms_shift"], abs=0.005) and shown > 0
    else:
        assert s["rms_shift"] < 0.005
        assert ("γ = 0" in text) == (s["gamma"] == 0)
