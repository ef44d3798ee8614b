import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import losses

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
            np.testing.assert_allclose(losses.softmax(list(z), t), numpy_softmax(z, t), atol=1e-12)
        np.testing.assert_allclose(losses.log_softmax(list(z)), np.log(numpy_softmax(z)), atol=1e-12)


@given(logits_lists)
def test_softmax_sums_to_one_and_never_overflows(z):
    p = losses.softmax(z)
    assert math.fsum(p) == pytest.approx(1.0, abs=1e-12)
    assert all(0 <= x <= 1 for x in p)


@given(logits_lists, st.floats(0.05, 20))
def test_temperature_keeps_the_order(z, t):
    p = losses.softmax(z, t)
    for i in range(len(z)):
        for j in range(len(z)):
            if z[i] > z[j]:
                assert p[i] >= p[j]


def test_seed_figures_of_chapter_2():
    assert losses.cross_entropy(1.0) == 0
    assert losses.cross_entropy(0.5) == pytest.approx(0.69, abs=5e-3)
    assert losses.cross_entropy(0.12) == pytest.approx(2.12, abs=5e-3)
    assert losses.cross_entropy(0.01) == pytest.approx(4.6, abs=0.05)  # the guide rounds to one decimal
    assert losses.perplexity(2.12) == pytest.approx(8.3, abs=0.05)


def test_gradient_is_p_minus_y_and_matches_finite_differences():
    rng = np.random.default_rng(1)
    z, target, eps = list(rng.normal(size=6)), 2, 1e-6
    grad = losses.softmax_cross_entropy_grad(z, target)
    for j in range(6):
        up, down = list(z), list(z)
        up[j] += eps
        down[j] -= eps
        numeric = (losses.cross_entropy_from_logits(up, target) - losses.cross_entropy_from_logits(down, target)) / (2 * eps)
        assert grad[j] == pytest.approx(numeric, abs=1e-8)
    assert sum(grad) == pytest.approx(0, abs=1e-12)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        losses.softmax([1, 2], temperature=0)
    with pytest.raises(ValueError):
        losses.cross_entropy(0)
