"""2.4 Il learning rate: each regime from the right η, the update rule step by step."""

import re
from html import unescape as html_unescape

import numpy as np
import pytest

import labs


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


LAB = labs.get("learning-rate")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


@pytest.mark.parametrize(
    "eta, regime",
    [
        (0.01, "striscia"),
        (0.05, "striscia"),
        (0.2, "converge"),
        (0.5, "converge"),
        (0.9, "oscilla"),
        (1.0, "oscilla"),
        (1.1, "diverge"),
        (1.2, "diverge"),
    ],
)
def test_each_regime_from_its_learning_rate(eta, regime):
    assert state(eta=eta)["verdict"] == regime


def test_default_converges():
    s = state()
    assert s["verdict"] == "converge" and abs(s["weights"][-1] - 3) < 0.01


def test_update_rule_step_by_step():
    s = state(eta=0.37, w0=7.5, passi=12)
    for r in s["steps"]:
        assert r["grad"] == pytest.approx(2 * (r["w"] - 3), abs=1e-12)
        assert r["new"] == pytest.approx(r["w"] - 0.37 * r["grad"], abs=1e-12)
        assert r["loss"] == pytest.approx((r["w"] - 3) ** 2, abs=1e-12)
    assert [r["new"] for r in s["steps"]] == s["weights"][1:]
    k = np.arange(13)
    np.testing.assert_allclose(s["weights"], 3 + (1 - 2 * 0.37) ** k * 4.5, atol=1e-12)


def test_oscillation_alternates_sides_and_shrinks_only_below_one():
    damped, steady = state(eta=0.9), state(eta=1.0)
    for s in (damped, steady):
        errors = np.array(s["weights"]) - 3
        assert np.all(errors[:-1] * errors[1:] < 0)
    assert damped["damped"] and not steady["damped"]
    assert steady["weights"][::2] == [-1.0] * len(steady["weights"][::2])


def test_one_step_with_half():
    assert state(eta=0.5)["weights"][1] == 3.0


def test_divergence_is_capped_and_finite():
    s = state(eta=1.2, w0=9, passi=30)
    assert s["verdict"] == "diverge" and s["stopped"]
    assert all(abs(w) <= LAB.module.LIMIT for w in s["weights"])
    html = str(LAB.view(s))
    assert "Diverge" in html and "oltre ±1.000" in html


def test_starting_at_the_minimum_stays_there():
    s = state(w0=3)
    assert s["verdict"] == "fermo" and set(s["weights"]) == {3.0}


def test_prose_has_the_tries_and_the_view_a_draggable_start():
    page = LAB.page_prose
    assert 'data-set="eta=0.01;w0=-1;passi=15"' in page and 'data-set="eta=1.1;w0=-1;passi=15"' in page
    html = str(LAB.view(state()))
    assert 'data-drag="w0 -"' in html and "Converge" in html


def test_one_step_agrees_and_the_share_is_never_zero():
    lab = labs.get("learning-rate")
    html = unescape(str(lab.view(lab.compute(lab.parse({"passi": "1", "eta": "0.01"})))))
    assert "dopo 1 passo w" in html and "solo il 2 % della strada" in html
    html = unescape(str(lab.view(lab.compute(lab.parse({"passi": "8", "eta": "0.01"})))))
    assert "Tutti gli 8 passi" in html


def test_a_diverging_path_stays_inside_both_charts_and_names_its_last_w():
    """At η = 1,1 the path reaches w = 64,628: the axes widen so every step is a dot, and its value is written."""
    s = state(eta=1.1, w0=-1, passi=15)
    assert round(s["weights"][-1], 3) == 64.628
    html = unescape(str(LAB.view(s)))
    assert html.count('class="lab-chart-dot s2"') == 2 * 16  # every step in the bowl and in the track of w
    assert html.count("w = 64,628") >= 2


def test_the_default_window_is_unchanged_while_the_path_stays_inside_it():
    html = unescape(str(LAB.view(state())))
    assert html.count('class="lab-chart-dot s2"') == 2 * 16
    assert ">9<" in html and ">−3<" in html


def words(text):
    return re.findall(r"\w+(?:,\d+)?", unescape(re.sub(r"<[^>]+>|\*", " ", text)).lower())


def test_the_tries_do_not_repeat_the_paragraph_that_suggests_them():
    """A «Prova» tells what to try and what to see; the paragraph before it must not say the same words."""
    prose = " ".join(words(LAB.prose))
    for e in LAB.module.EXPERIMENTS:
        sentence = words(e.sentence)
        runs = {" ".join(sentence[k : k + 5]) for k in range(len(sentence) - 4)}
        assert not [r for r in runs if r in prose], e.sentence
