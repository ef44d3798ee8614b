"""core.alignment: SFT, DPO, GRPO and KL against numpy and finite differences."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import alignment as al


def test_sft_loss_counts_the_answer_only():
    p = [0.05, 0.2, 0.9, 0.6]
    mask = [0, 0, 1, 1]
    assert al.sft_loss(p, mask) == pytest.approx(-np.mean(np.log(p[2:])), abs=1e-15)
    assert al.sft_loss(p, [1] * 4) == pytest.approx(-np.mean(np.log(p)), abs=1e-15)
    with pytest.raises(ValueError):
        al.sft_loss(p, [0] * 4)


def numpy_dpo(c, rc, r, rr, beta):
    m = beta * ((c - rc) - (r - rr))
    return np.logaddexp(0, -m)  # −log σ(m) = log(1 + e^(−m))


def test_dpo_loss_at_zero_margin_is_log_2():
    assert al.dpo_loss(-12, -12, -15, -15, 0.1) == pytest.approx(math.log(2), abs=1e-15)


@given(*[st.floats(-200, 0) for _ in range(4)], st.floats(0.01, 2))
def test_dpo_against_numpy_and_finite_differences(c, rc, r, rr, beta):
    assert al.dpo_loss(c, rc, r, rr, beta) == pytest.approx(numpy_dpo(c, rc, r, rr, beta), abs=1e-12)
    g_c, g_r = al.dpo_gradient(c, rc, r, rr, beta)
    h = 1e-6
    num_c = (al.dpo_loss(c + h, rc, r, rr, beta) - al.dpo_loss(c - h, rc, r, rr, beta)) / (2 * h)
    num_r = (al.dpo_loss(c, rc, r + h, rr, beta) - al.dpo_loss(c, rc, r - h, rr, beta)) / (2 * h)
    assert g_c == pytest.approx(num_c, abs=1e-7) and g_r == pytest.approx(num_r, abs=1e-7)
    assert g_c <= 0 <= g_r and g_c == -g_r


@given(st.floats(-50, 50), st.floats(0.001, 10), st.floats(0.01, 2))
def test_dpo_loss_falls_as_the_chosen_margin_grows(margin, more, beta):
    before = al.dpo_loss(margin, 0, 0, 0, beta)
    after = al.dpo_loss(margin + more, 0, 0, 0, beta)
    assert after <= before
    assert after < before or before < 1e-15  # strictly, until the loss rounds to 0


@given(st.lists(st.floats(-10, 10), min_size=2, max_size=16))
def test_grpo_advantages_have_mean_0_and_std_1(rewards):
    a = al.grpo_advantages(rewards)
    assert abs(math.fsum(a)) < 1e-9
    r = np.array(rewards)
    if r.std() > 1e-9:
        np.testing.assert_allclose(a, (r - r.mean()) / r.std(), atol=1e-9)
        assert np.std(a) == pytest.approx(1, abs=1e-9)
        assert all((x > 0) == (v > r.mean()) for x, v in zip(a, rewards) if abs(v - r.mean()) > 1e-9)


def test_grpo_equal_rewards_teach_nothing():
    assert al.grpo_advantages([1, 1, 1, 1]) == [0, 0, 0, 0]
    assert al.grpo_advantages([0.0] * 6) == [0.0] * 6
    easy = al.grpo_advantages([1, 1, 1, 1, 1, 0])  # 5 right out of 6: the wrong one stands out
    assert easy[-1] == pytest.approx(-math.sqrt(5), abs=1e-12) and easy[0] == pytest.approx(1 / math.sqrt(5))


probabilities = st.lists(st.floats(0.01, 1), min_size=2, max_size=8).map(lambda w: [x / sum(w) for x in w])


@given(probabilities, probabilities)
def test_kl_against_numpy(p, q):
    n = min(len(p), len(q))
    p, q = [x / sum(p[:n]) for x in p[:n]], [x / sum(q[:n]) for x in q[:n]]
    P, Q = np.array(p), np.array(q)
    assert al.reverse_kl(p, q) == pytest.approx(float(np.sum(P * np.log(P / Q))), abs=1e-12)
    assert al.kl_divergence(p, q) >= -1e-15 and al.kl_divergence(p, p) == pytest.approx(0, abs=1e-15)


def test_kl_ignores_tokens_the_first_distribution_never_picks():
    assert al.kl_divergence([1.0, 0.0], [0.5, 0.5]) == pytest.approx(math.log(2), abs=1e-15)
