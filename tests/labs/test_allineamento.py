"""4.3 SFT e DPO: the masked mean, log 2 at Δ = 0, the slope."""

import math

import numpy as np
import pytest

import labs

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
