import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import linalg as la
from core.activations import relu

floats = st.floats(-1e3, 1e3, allow_nan=False)


def rand_matrix(rng, n, m):
    return rng.normal(size=(n, m))


def test_vector_ops_match_numpy():
    rng = np.random.default_rng(0)
    for d in (1, 2, 5, 64):
        a, b = rng.normal(size=d), rng.normal(size=d)
        np.testing.assert_allclose(la.add(list(a), list(b)), a + b, atol=1e-12)
        np.testing.assert_allclose(la.sub(list(a), list(b)), a - b, atol=1e-12)
        np.testing.assert_allclose(la.scale(2.5, list(a)), 2.5 * a, atol=1e-12)
        assert la.dot(list(a), list(b)) == pytest.approx(float(a @ b), abs=1e-12)
        assert la.norm(list(a)) == pytest.approx(float(np.linalg.norm(a)), abs=1e-12)
        np.testing.assert_allclose(la.unit(list(a)), a / np.linalg.norm(a), atol=1e-12)
        cos = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
        assert la.cosine(list(a), list(b)) == pytest.approx(float(cos), abs=1e-12)
        np.testing.assert_allclose(la.projection(list(b), list(a)), (a @ b) / (a @ a) * a, atol=1e-12)
        np.testing.assert_allclose(la.outer(list(a), list(b)), np.outer(a, b), atol=1e-12)


def test_matrix_ops_match_numpy():
    rng = np.random.default_rng(1)
    for n, k, p in ((1, 1, 1), (2, 3, 4), (5, 2, 3)):
        A, B, v = rand_matrix(rng, n, k), rand_matrix(rng, k, p), rng.normal(size=k)
        np.testing.assert_allclose(la.matmul(A.tolist(), B.tolist()), A @ B, atol=1e-12)
        np.testing.assert_allclose(la.matvec(A.tolist(), list(v)), A @ v, atol=1e-12)
        np.testing.assert_allclose(la.matvec_by_columns(A.tolist(), list(v)), A @ v, atol=1e-12)
        np.testing.assert_allclose(la.transpose(A.tolist()), A.T, atol=0)


def test_seed_figures_of_chapter_9b():
    assert la.add([2, 1], [-1, 1.5]) == [1, 2.5]
    assert la.scale(2, [-1, 1.5]) == [-2, 3]
    anna, bruno, carla = [2, 1, -1, 0, 2], [1, 2, -2, 1, 1], [-2, -1, 1, 0, -2]
    assert la.dot(anna, bruno) == 8 and la.dot(anna, carla) == -10
    assert la.norm([3, 4]) == 5 and la.unit([3, 4]) == pytest.approx([0.6, 0.8])
    assert la.cosine([3, 4], [6, 8]) == pytest.approx(1) and la.cosine([3, 4], [4, -3]) == 0
    assert la.matvec([[2, 1], [0, 1]], [1, 1]) == [3, 1] == la.matvec_by_columns([[2, 1], [0, 1]], [1, 1])
    W1, W2, x = [[1, 2], [0, 1]], [[1, 0], [-1, 1]], [1, -1]
    assert la.matvec(W2, [relu(v) for v in la.matvec(W1, x)]) == [0, 0]
    assert la.matvec(la.matmul(W2, W1), x) == [-1, 0]


def test_shape_errors_name_the_shapes():
    with pytest.raises(la.ShapeError, match=r"\[2 × 3\]·\[2 × 2\]"):
        la.matmul([[1, 2, 3], [4, 5, 6]], [[1, 2], [3, 4]])
    with pytest.raises(la.ShapeError):
        la.dot([1, 2], [1])
    with pytest.raises(ZeroDivisionError):
        la.cosine([0, 0], [1, 0])


def test_one_hot_times_matrix_picks_a_row():
    E = [[1, 2], [3, 4], [5, 6]]
    assert la.matvec(la.transpose(E), la.one_hot(1, 3)) == [3, 4]


def test_random_directions_are_seeded_unit_vectors():
    a = la.random_direction(50, la.seeded_rng(7))
    assert la.norm(a) == pytest.approx(1, abs=1e-12)
    assert a == la.random_direction(50, la.seeded_rng(7))


@given(st.lists(floats, min_size=1, max_size=8), st.lists(floats, min_size=1, max_size=8))
def test_cosine_stays_in_range(a, b):
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    if la.norm(a) == 0 or la.norm(b) == 0:
        return
    assert -1 <= la.cosine(a, b) <= 1


def test_one_convention_a_row_times_a_matrix_is_the_transpose_times_the_column():
    """x·W (a token's row through a layer) is Wᵀ·x: matvec on the transpose, no second product."""
    rng = np.random.default_rng(1)
    x, W = rng.normal(size=5), rng.normal(size=(5, 3))
    np.testing.assert_allclose(la.matvec(la.transpose(W.tolist()), x.tolist()), x @ W, atol=1e-12)
    assert la.matvec(la.transpose(W.tolist()), x.tolist()) == la.matmul([x.tolist()], W.tolist())[0]
    with pytest.raises(la.ShapeError):
        la.matvec(la.transpose(W.tolist()), [1.0, 2.0])
