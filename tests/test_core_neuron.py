import numpy as np
import pytest

from core.neuron import clamp, dense, threshold_neuron, weighted_sum


def test_weighted_sum_matches_numpy():
    rng = np.random.default_rng(0)
    for _ in range(50):
        x, w = rng.normal(size=7), rng.normal(size=7)
        assert weighted_sum(list(x), list(w)) == pytest.approx(float(x @ w), abs=1e-12)


def test_weighted_sum_rejects_mismatched_lengths():
    with pytest.raises(ValueError):
        weighted_sum([1, 2], [1])


def test_threshold_neuron_fires_only_above_threshold():
    assert threshold_neuron([1, 0], [0.6, 1], 0.5) == (0.6, True)
    assert threshold_neuron([1, 0], [0.5, 1], 0.5) == (0.5, False)


def test_clamp_keeps_zero_to_one():
    assert [clamp(v) for v in (-3, 0.25, 7)] == [0, 0.25, 1]


def test_dense_is_matrix_vector_product_then_activation():
    rng = np.random.default_rng(1)
    W, x = rng.normal(size=(4, 3)), rng.normal(size=3)
    totals, outs = dense(list(x), W.tolist())
    np.testing.assert_allclose(totals, W @ x, atol=1e-12)
    np.testing.assert_allclose(outs, np.clip(W @ x, 0, 1), atol=1e-12)
