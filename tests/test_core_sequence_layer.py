import numpy as np
import pytest

from core import sequence_layer as sl


def case(seed, n):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 2)).tolist(), rng.normal(size=(2, 2)).tolist(), rng.normal(size=(n, 2)).tolist()


@pytest.mark.parametrize("n", [3, 6])
def test_the_same_weights_for_any_length(n):
    X, W, _ = case(n, n)
    Y = sl.layer(X, W)
    assert (len(Y), len(Y[0])) == (n, 2)
    np.testing.assert_allclose(Y, np.asarray(X) @ np.asarray(W), atol=1e-12)


@pytest.mark.parametrize("n", [3, 6])
@pytest.mark.parametrize("mask", [None, "pad"])
def test_gradient_matches_numpy_and_finite_differences(n, mask):
    X, W, T = case(10 + n, n)
    m = None if mask is None else [1] * (n - 2) + [0, 0]
    G = sl.weight_gradient(X, W, T, m)
    Xa, Wa, Ta, ma = map(np.asarray, (X, W, T, m or [1] * n))
    np.testing.assert_allclose(G, Xa.T @ (ma[:, None] * (Xa @ Wa - Ta)), atol=1e-12)
    assert sl.squared_loss(X, W, T, m) == pytest.approx(0.5 * (ma[:, None] * (Xa @ Wa - Ta) ** 2).sum(), abs=1e-12)
    eps = 1e-6
    for a in range(2):
        for b in range(2):
            up = [row[:] for row in W]
            down = [row[:] for row in W]
            up[a][b] += eps
            down[a][b] -= eps
            numeric = (sl.squared_loss(X, up, T, m) - sl.squared_loss(X, down, T, m)) / (2 * eps)
            assert G[a][b] == pytest.approx(numeric, rel=1e-7, abs=1e-9)


@pytest.mark.parametrize("n", [3, 6])
def test_gradient_is_the_sum_of_the_rows_suggestions(n):
    X, W, T = case(20 + n, n)
    m = [1] * (n - 1) + [0]
    parts = sl.row_suggestions(X, W, T, m)
    assert len(parts) == n and all(len(p) == 2 and len(p[0]) == 2 for p in parts)
    total = np.sum(np.asarray(parts), axis=0)
    np.testing.assert_allclose(total, sl.weight_gradient(X, W, T, m), atol=1e-12)
    assert parts[-1] == [[0.0, 0.0], [0.0, 0.0]]  # the padded row does not vote


def test_padding_changes_the_gradient_only_without_the_mask():
    X, W, T = case(5, 3)
    pad = [0.5, -0.5]
    Xp, Tp, m = X + [pad] * 3, T + [pad] * 3, [1, 1, 1, 0, 0, 0]
    np.testing.assert_allclose(sl.weight_gradient(Xp, W, Tp, m), sl.weight_gradient(X, W, T), atol=1e-12)
    assert not np.allclose(sl.weight_gradient(Xp, W, Tp), sl.weight_gradient(X, W, T))
