"""4.3 SFT e DPO: the masked mean, log 2 at Δ = 0, the slope."""

import math
import random
import re
from html import unescape as html_unescape

import numpy as np
import pytest

import labs


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


LAB = labs.get("allineamento")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_sft_loss_is_the_mean_over_the_answer_only():
    s = state()
    scored = s["tokens"][1:]
    answer = [t for t in scored if t["answer"]]
    assert [t["token"] for t in answer] == ["Parigi", ".", "<fine>"]
    assert s["sft_answer"] == pytest.approx(-np.mean(np.log([0.5, 0.5, 0.3])), abs=1e-12)
    assert s["sft_all"] == pytest.approx(-np.mean(np.log([t["p"] for t in scored])), abs=1e-12)
    assert s["sft_all"] > s["sft_answer"]  # the question is what is hard to predict
    # the prompt's probabilities do not move the SFT loss; the answer's do
    assert state(parigi=0.9)["sft_answer"] < s["sft_answer"]


def test_dpo_default_has_zero_margin_and_loss_log_2():
    d = state()["dpo"]
    assert d["delta_c"] == d["delta_r"] == d["margin"] == 0
    assert d["loss"] == pytest.approx(math.log(2), abs=1e-15)
    assert d["grad_c"] == pytest.approx(-0.05, abs=1e-15) and d["grad_r"] == pytest.approx(0.05, abs=1e-15)
    assert "log 2 ≈ 0,693" in str(LAB.view(state()))


def test_raising_the_chosen_answer_lowers_the_loss_less_and_less():
    losses = [state(lc=x)["dpo"]["loss"] for x in (-20, -15, -9, -4, 0)]
    slopes = [abs(state(lc=x)["dpo"]["grad_c"]) for x in (-20, -15, -9, -4, 0)]
    assert all(a > b for a, b in zip(losses, losses[1:]))
    assert all(a > b for a, b in zip(slopes, slopes[1:]))


def test_dpo_numbers_match_the_formula():
    d = state(lc=-4, lr=-12, beta=0.5)["dpo"]
    margin = 0.5 * ((-4 + 9) - (-12 + 7))
    assert d["margin"] == pytest.approx(margin) and d["loss"] == pytest.approx(np.logaddexp(0, -margin), abs=1e-12)
    curve = dict(map(tuple, d["curve"]))
    assert curve[-4.0] == pytest.approx(d["loss"], abs=1e-15)  # the handle sits on the curve


def test_preferring_the_rejected_answer_is_flagged():
    assert "preferisce la rejected" in str(LAB.view(state(lc=-20)))


# ---------------------------------------------------------------- the verdict names what happened to each answer


def verdict(**changes):
    html = unescape(str(LAB.view(state(**changes))))
    return re.search(r'lab-callout is-(\w+)"[^>]*>(Il modello[^<]*)<', html).groups()


def test_both_answers_lowered_is_not_called_raising_the_chosen():
    """The issue's case: lc = −30, lr = −30, lr_ref = 0 lowers both (Δc = −21, Δr = −30)."""
    d = state(lc=-30, lr=-30, lr_ref=0)["dpo"]
    assert d["delta_c"] == -21 and d["delta_r"] == -30 and d["margin"] > 0 and d["loss"] < math.log(2)
    tone, text = verdict(lc=-30, lr=-30, lr_ref=0)
    assert "alzato" not in text and "abbassato tutte e due le risposte, la rejected di più" in text
    assert "sotto log 2" in text and tone == "warn"


def test_lowering_both_the_rejected_more_still_lowers_the_loss():
    """The prose: «Prova ad abbassare tutte e due … la loss scende lo stesso»."""
    before = state()["dpo"]
    after = state(lc=-12, lr=-14)["dpo"]  # Δc = −3, Δr = −7
    assert after["delta_c"] < 0 and after["delta_r"] < after["delta_c"]
    assert after["loss"] < before["loss"]
    assert "meno probabile" in verdict(lc=-12, lr=-14)[1]


def test_equal_moves_keep_log_2_and_say_both_moved():
    tone, text = verdict(lc=-5, lr=-3)
    assert "tutte e due le risposte della stessa quantità" in text and "non ha ancora spostato" not in text
    assert state(lc=-5, lr=-3)["dpo"]["loss"] == pytest.approx(math.log(2), abs=1e-15)


@pytest.mark.parametrize("seed", range(120))
def test_every_verdict_matches_the_signs_of_the_deltas(seed):
    rng = random.Random(seed)
    grid = [k * 0.5 for k in range(-60, 1)]
    changes = {name: rng.choice(grid) for name in ("lc", "lc_ref", "lr", "lr_ref")}
    d = state(**changes)["dpo"]
    tone, text = verdict(**changes)
    dc, dr, margin = d["delta_c"], d["delta_r"], d["margin"]
    words = {
        "alzato la chosen": dc > 0,
        "abbassato la chosen": dc < 0,
        "lasciato com'era la chosen": dc == 0,
        "alzato la rejected": dr > 0,
        "abbassato la rejected": dr < 0,
        "lasciato com'era la rejected": dr == 0,
    }
    if dc * dr > 0:
        assert ("alzato tutte e due" in text) == (dc > 0) and ("abbassato tutte e due" in text) == (dc < 0)
        if dc != dr:
            assert f"la {'chosen' if abs(dc) > abs(dr) else 'rejected'} di più" in text
    elif dc or dr:
        for phrase, true in words.items():
            assert (phrase in text) == true, (phrase, dc, dr, text)
    assert ("sotto log 2" in text) == (margin > 1e-12)
    assert ("sopra log 2" in text) == (margin < -1e-12)
    assert ("log 2 ≈ 0,693" in text) == (abs(margin) < 1e-12)
    assert (d["loss"] < math.log(2)) == (margin > 1e-12)
    if "meno probabile" in text:
        assert dc < 0 < margin


# ---------------------------------------------------------------- what the prose says


def test_the_average_over_all_tokens_is_dominated_by_the_question():
    for parigi in (0.01, 0.5, 0.99):
        for fine in (0.01, 0.5, 0.99):
            s = state(parigi=parigi, fine=fine)
            question = sum(t["loss"] for t in s["tokens"][1:] if not t["answer"])
            assert question > 0.5 * s["sft_all"] * s["count"]
    # moving the answer moves the answer's mean more than the mean over every token
    a, b = state(parigi=0.2), state(parigi=0.9)
    assert abs(a["sft_answer"] - b["sft_answer"]) > 3 * abs(a["sft_all"] - b["sft_all"]) - 1e-12


def test_preferring_the_rejected_grows_almost_linearly():
    """«cresce quasi in linea retta se il modello preferisce la rejected»: the slope tends to −β."""
    losses = [state(lc=x, lc_ref=0, beta=0.5)["dpo"]["loss"] for x in (-30, -29, -28)]
    assert losses[0] - losses[1] == pytest.approx(0.5, abs=0.01)
    assert losses[1] - losses[2] == pytest.approx(0.5, abs=0.01)


def test_a_larger_beta_needs_a_smaller_delta_for_the_same_margin():
    small = state(beta=0.1, lc=-4)["dpo"]  # Δc = 5
    large = state(beta=0.5, lc=-8)["dpo"]  # Δc = 1
    assert small["margin"] == pytest.approx(large["margin"])


def test_the_token_counts_agree():
    html = unescape(str(LAB.view(state())))
    assert "media sui 3 token della risposta" in html and "Media su tutti gli 11 token" in html
