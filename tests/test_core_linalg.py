import math

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


def ks_distance(a, b):
    """The two-sample Kolmogorov–Smirnov statistic: the largest gap between the two empirical CDFs."""
    a, b = np.sort(a), np.sort(b)
    grid = np.concatenate([a, b])
    return float(
        np.max(
            np.abs(np.searchsorted(a, grid, side="right") / len(a) - np.searchsorted(b, grid, side="right") / len(b))
        )
    )


def pair_cosines(vectors):
    v = np.asarray(vectors, dtype=float)
    v = v / np.linalg.norm(v, axis=1, keepdims=True)
    return (v @ v.T)[np.tril_indices(len(v), -1)]


@pytest.mark.parametrize("d", [2, 3, 10, 100, 4096])
def test_random_directions_in_their_own_axes_have_the_cosines_of_full_gaussian_directions(d):
    """Bartlett: the same distribution as 40 directions with d Gaussian coordinates each (numpy), for the
    cosine of a pair (KS distance) and for the product of the three cosines of a triple, whose mean is
    tr((I/d)³) = 1/d² (it would be 0 if the cosines were drawn independently)."""
    n, seeds = 40, 25
    ours = [la.random_directions(n, d, la.seeded_rng(s)) for s in range(seeds)]
    assert all(len(v) == min(n, d) and la.norm(v) == pytest.approx(1, abs=1e-12) for vs in ours for v in vs)
    assert all(v[k + 1 :] == [0.0] * (min(n, d) - k - 1) for vs in ours for k, v in enumerate(vs[:d]))
    numpy = np.random.default_rng(d).standard_normal((seeds, n, d))
    a = np.concatenate([pair_cosines(vs) for vs in ours])
    b = np.concatenate([pair_cosines(vs) for vs in numpy])
    # 0,1 % of false alarms for independent samples (the pairs are pairwise independent)
    limit = 1.95 * math.sqrt(2 / len(a))
    assert ks_distance(a, b) < limit
    if d >= n:  # the same test tells a wrong shortcut: along the new axis one Gaussian |g|, not √χ²(d − k)
        wrong = []
        for s in range(seeds):
            rows = np.tril(np.random.default_rng(1000 + s).standard_normal((n, min(n, d))))
            rows[np.arange(min(n, d)), np.arange(min(n, d))] = np.abs(np.diag(rows))
            wrong.append(rows)
        assert ks_distance(np.concatenate([pair_cosines(vs) for vs in wrong]), b) > 5 * limit

    def triples(vs):
        c = np.asarray(vs) @ np.asarray(vs).T
        return [c[i, j] * c[i, k] * c[j, k] for i in range(n) for j in range(i) for k in range(j)]

    assert np.mean(triples(ours[0]) + triples(ours[1])) == pytest.approx(1 / d**2, rel=0.25, abs=2e-7)


def test_random_directions_are_seeded():
    assert la.random_directions(40, 4096, la.seeded_rng(3)) == la.random_directions(40, 4096, la.seeded_rng(3))
    assert la.random_directions(40, 4096, la.seeded_rng(3)) != la.random_directions(40, 4096, la.seeded_rng(4))
