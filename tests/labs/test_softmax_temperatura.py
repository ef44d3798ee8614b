"""9E Softmax e temperatura: numpy's softmax(z/T), no overflow, T flattens."""

import math
import random
import re
from html import unescape as html_unescape

import numpy as np
import pytest

import labs
from core.sampling import counts, draw
from labs.kit.html import unwrapped_scripts


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


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
    raw = {name: rng.uniform(-5, 10) for name in NAMES} | {
        "temperatura": rng.uniform(0.1, 5),
        "aggiunta": rng.choice([0, 300, 1000]),
    }
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
    html = unwrapped_scripts(LAB.view(huge))
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


# ---------------------------------------------------------------- the sampling sentence and real draws


def odds(**changes):
    html = unescape(unwrapped_scripts(LAB.view(state(**changes))))
    return re.search(r"(Greedy: sempre[^<]*)<", html).group(1)


def test_a_leader_far_ahead_is_not_100_percent_with_the_rest_for_the_others():
    text = odds(prato=10)
    assert "100 %" not in text and "il resto" not in text
    assert "«prato» esce in media il 99,8 % delle volte, gli altri insieme lo 0,2 %" in text
    text = odds(prato=10, temperatura=0.1)  # 1 − 4 × 10⁻³¹: 1.0 in floats
    assert "praticamente sempre «prato»" in text and "4,0 × 10⁻²⁹ %" in text and "100 %" not in text


@pytest.mark.parametrize("seed", range(60))
def test_the_sampling_sentence_matches_the_probabilities(seed):
    rng = random.Random(seed)
    changes = {name: round(rng.uniform(-5, 10), 1) for name in NAMES} | {"temperatura": rng.choice([0.1, 0.5, 1, 3])}
    s = state(**changes)
    text = odds(**changes)
    top, p = s["top"], s["probs"]
    assert f"sempre «{NAMES[top]}»" in text
    shares = re.findall(r"([\d,]+(?: × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?) %", text)
    if "praticamente sempre" in text:
        assert 1 - p[top] < 1e-6
    else:
        lead, rest = (float(x.replace(",", ".")) for x in shares)
        assert 0 < lead < 100 and 0 < rest < 100
        assert lead == pytest.approx(100 * p[top], abs=0.5 * 10 ** -len((shares[0] + ",").split(",")[1]) + 1e-9)
        assert lead + rest == pytest.approx(100, abs=1.01)


def test_twenty_tokens_are_drawn_with_the_seed():
    s = state()
    assert len(s["drawn"]) == 20 and sum(s["counts"]) == 20
    assert s["drawn"] == draw(s["probs"], 20, 1) and s["counts"] == counts(s["drawn"], 6)
    assert state(seme=2)["drawn"] != s["drawn"] and state(seme=1)["drawn"] == s["drawn"]
    html = unwrapped_scripts(LAB.view(s))
    assert "20 token estratti con il seme 1" in html and 'data-set="seme=2"' in html
    assert html.count("lab-bar-before") >= 6  # each count beside its probability
    assert "1 token estratto" in unwrapped_scripts(LAB.view(state(estrazioni=1)))


def test_more_draws_bring_the_frequencies_closer_to_the_probabilities():
    """The prose: «alza il numero di estrazioni e vedrai le barre avvicinarsi ai contorni»."""

    def distance(n):
        total = 0
        for seed in range(1, 31):
            s = state(estrazioni=n, seme=seed)
            total += sum(abs(c / n - q) for c, q in zip(s["counts"], s["probs"])) / 2
        return total / 30

    assert distance(500) < distance(20) / 2


def test_letto_comes_out_sometimes_and_temperature_decides_how_often():
    """«letto» esce ogni tanto anche se «divano» è in testa, e T decide quanto spesso; a T bassa «divano»
    quasi sempre."""
    letto, divano = NAMES.index("letto"), NAMES.index("divano")
    warm = state(estrazioni=500)
    assert 0 < warm["counts"][letto] < warm["counts"][divano]
    cold = state(estrazioni=500, temperatura=0.1)
    assert cold["counts"][divano] >= 490
    assert cold["counts"][letto] < warm["counts"][letto] / 10
    hot = state(estrazioni=500, temperatura=5)  # flat: even the last one comes out often
    assert hot["counts"][NAMES.index("prato")] > 10 * warm["counts"][NAMES.index("prato")]


def test_adding_1000_at_temperature_1_overflows_only_the_unshifted_column():
    """«Prova ad aggiungere 1.000 a tutti i logit: la colonna «senza sottrarre» esplode»."""
    huge = state(aggiunta=1000)
    assert huge["overflow"] and huge["probs"] == pytest.approx(state()["probs"], abs=1e-12)
    assert huge["drawn"] == state()["drawn"]  # same probabilities, same draws


def test_the_chart_points_set_the_temperature():
    html = unwrapped_scripts(LAB.view(state()))
    assert {f"temperatura={t:g}" for t in LAB.module.T_MARKED} <= set(re.findall(r'data-set="([^"]+)"', html))


def test_effective_candidates_go_from_1_to_6():
    assert state(**{name: 0 for name in NAMES})["effective"] == pytest.approx(6)
    assert state(temperatura=0.1, divano=10)["effective"] == pytest.approx(1, abs=1e-6)
