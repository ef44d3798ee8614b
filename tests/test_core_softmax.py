"""core.softmax_steps against numpy: every intermediate list, overflow, entropy."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.losses import softmax
from core.softmax_steps import OVERFLOW, entropy, naive_exp, softmax_steps


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
