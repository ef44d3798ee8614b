"""core.softmax against numpy: every intermediate list, overflow, masked scores, entropy."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.softmax import OVERFLOW, entropy, log_softmax, naive_exp, softmax, softmax_steps

logits_lists = st.lists(st.floats(-1e4, 1e4, allow_nan=False), min_size=1, max_size=12)


def numpy_softmax(z, t=1.0):
    z = np.asarray(z, dtype=float) / t
    e = np.exp(z - z.max())
    return e / e.sum()


def test_softmax_matches_numpy():
    rng = np.random.default_rng(0)
    for _ in range(50):
        z = rng.normal(scale=3, size=rng.integers(1, 20))
        for t in (0.1, 0.5, 1.0, 2.0):
            np.testing.assert_allclose(softmax(list(z), t), numpy_softmax(z, t), atol=1e-12)
        np.testing.assert_allclose(log_softmax(list(z)), np.log(numpy_softmax(z)), atol=1e-12)


@given(logits_lists)
def test_softmax_sums_to_one_and_never_overflows(z):
    p = softmax(z)
    assert math.fsum(p) == pytest.approx(1.0, abs=1e-12)
    assert all(0 <= x <= 1 for x in p)


@given(logits_lists, st.floats(0.05, 20))
def test_temperature_keeps_the_order(z, t):
    p = softmax(z, t)
    for i in range(len(z)):
        for j in range(len(z)):
            if z[i] > z[j]:
                assert p[i] >= p[j]


@pytest.mark.parametrize("seed", range(20))
def test_steps_match_numpy(seed):
    rng = np.random.default_rng(seed)
    z = rng.normal(scale=4, size=int(rng.integers(1, 12)))
    t = float(rng.uniform(0.1, 5))
    s = softmax_steps(list(z), t)
    scaled = z / t
    np.testing.assert_allclose(s["scaled"], scaled, atol=1e-12)
    np.testing.assert_allclose(s["shifted"], scaled - scaled.max(), atol=1e-12)
    np.testing.assert_allclose(s["exps"], np.exp(scaled - scaled.max()), atol=1e-12)
    assert s["total"] == pytest.approx(np.exp(scaled - scaled.max()).sum(), abs=1e-12)
    p = np.exp(scaled - scaled.max()) / np.exp(scaled - scaled.max()).sum()
    np.testing.assert_allclose(s["probs"], p, atol=1e-12)
    np.testing.assert_allclose(s["probs"], softmax(list(z), t), atol=1e-15)


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=10), st.floats(0.05, 10))
def test_never_overflows_and_sums_to_one(z, t):
    s = softmax_steps(z, t)
    assert all(0 <= e <= 1 for e in s["exps"]) and max(s["exps"]) == 1
    assert math.fsum(s["probs"]) == pytest.approx(1, abs=1e-12)


def test_naive_exponential_overflows_where_numpy_does():
    with np.errstate(over="ignore"):
        for x in (0.0, 700.0, OVERFLOW - 1e-9, OVERFLOW + 1e-9, 1000.0):
            expected = np.exp(x)
            assert (naive_exp(x) is None) == bool(np.isinf(expected))
            if naive_exp(x) is not None:
                assert naive_exp(x) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_entropy_matches_numpy(seed):
    p = np.random.default_rng(seed).dirichlet(np.ones(6))
    assert entropy(list(p)) == pytest.approx(-(p * np.log(p)).sum(), abs=1e-12)
    assert entropy([1.0, 0.0, 0.0]) == 0
    assert entropy([1 / 6] * 6) == pytest.approx(math.log(6), abs=1e-12)


def test_masked_scores_get_exactly_zero_and_a_fully_masked_list_is_an_error():
    assert softmax([0.0, -math.inf, 0.0]) == [0.5, 0.0, 0.5]
    assert softmax([1.0, -math.inf], 0.5) == [1.0, 0.0]
    with pytest.raises(ValueError, match="mascherata"):
        softmax([-math.inf, -math.inf])


def test_softmax_and_log_softmax_are_read_from_the_steps():
    z = [2.0, -1.0, 0.5, 700.0]
    steps = softmax_steps(z, 0.7)
    assert softmax(z, 0.7) == steps["probs"]
    assert log_softmax(z) == [s - math.log(softmax_steps(z)["total"]) for s in softmax_steps(z)["shifted"]]


def test_bad_temperature_is_refused():
    for t in (0, -1):
        with pytest.raises(ValueError, match="temperatura"):
            softmax([1, 2], temperature=t)
