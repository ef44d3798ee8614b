import random

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from core.normalization import layer_norm, rms, rms_norm, rms_norm_backward

vectors = st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=12)


def np_layer_norm(x, eps, g, b):
    x = np.array(x)
    return g * (x - x.mean()) / np.sqrt(x.var() + eps) + b


@pytest.mark.parametrize("seed", range(20))
def test_layer_norm_and_rms_norm_match_numpy(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 10)
    x = [rng.uniform(-5, 5) for _ in range(n)]
    g = [rng.uniform(-2, 2) for _ in range(n)]
    b = [rng.uniform(-2, 2) for _ in range(n)]
    eps = rng.choice([0.0, 1e-5, 0.1]) if n > 1 else 1e-5
    assert np.allclose(layer_norm(x, eps, g, b), np_layer_norm(x, eps, np.array(g), np.array(b)), rtol=0, atol=1e-12)
    xa = np.array(x)
    expected = np.array(g) * xa / np.sqrt((xa**2).mean() + eps)
    assert np.allclose(rms_norm(x, eps, g), expected, rtol=0, atol=1e-12)
    assert rms(x) == pytest.approx(np.sqrt((xa**2).mean()), abs=1e-12)


def test_the_article_example():
    y = layer_norm([2, 4, 6], eps=0)
    assert y == pytest.approx([-1.224744871391589, 0, 1.224744871391589], abs=1e-12)
    assert rms_norm([2, 4, 6], eps=0) == pytest.approx(
        [2 / np.sqrt(56 / 3), 4 / np.sqrt(56 / 3), 6 / np.sqrt(56 / 3)], abs=1e-12
    )


@given(vectors, st.floats(-1e3, 1e3))
def test_layer_norm_ignores_a_shift_and_rms_norm_a_positive_scale(x, c):
    assert np.allclose(layer_norm([v + c for v in x]), layer_norm(x), atol=1e-6)
    assume(rms(x) > 1e-3)  # without ε an all-but-zero vector would divide by (almost) zero
    assert np.allclose(rms_norm([3 * v for v in x], eps=0), rms_norm(x, eps=0), atol=1e-9)


@pytest.mark.parametrize("seed", range(10))
def test_rms_norm_backward_matches_numpy_jacobian(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 8))
    x, g, eps = rng.normal(size=n), rng.normal(size=n), 1e-5
    r = np.sqrt((x**2).mean() + eps)
    jacobian = np.eye(n) / r - np.outer(x, x) / (n * r**3)  # ∂yᵢ/∂xⱼ, by hand
    assert np.allclose(rms_norm_backward(list(x), list(g), eps), jacobian.T @ g, rtol=0, atol=1e-12)
