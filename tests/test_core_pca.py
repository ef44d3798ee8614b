import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import pca


def cloud(seed, n=15, d=8):
    rng = np.random.default_rng(seed)
    # different spreads per axis, then a random rotation: well separated eigenvalues
    X = rng.normal(size=(n, d)) * np.linspace(3, 0.5, d)
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    return (X @ Q).tolist()


def numpy_pca(points):
    X = np.asarray(points)
    X = X - X.mean(axis=0)
    values, vectors = np.linalg.eigh(X.T @ X / len(X))
    return values[::-1], vectors[:, ::-1].T


@pytest.mark.parametrize("seed", range(10))
def test_directions_match_numpy_up_to_sign(seed):
    points = cloud(seed)
    directions, variances = pca.principal_directions(points)
    values, vectors = numpy_pca(points)
    for k in range(2):
        v = np.asarray(directions[k])
        assert np.linalg.norm(v) == pytest.approx(1.0, abs=1e-12)
        assert min(np.abs(v - vectors[k]).max(), np.abs(v + vectors[k]).max()) < 1e-6
        assert variances[k] == pytest.approx(values[k], rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_first_direction_on_any_cloud(seed):
    points = cloud(seed, n=12, d=5)
    (v, _), _ = pca.principal_directions(points)
    values, vectors = numpy_pca(points)
    assert abs(abs(np.dot(v, vectors[0])) - 1) < 1e-6
    assert max(v, key=abs) > 0  # the sign convention


def test_covariance_and_total_variance_match_numpy():
    points = cloud(3)
    X = np.asarray(points) - np.mean(points, axis=0)
    np.testing.assert_allclose(pca.covariance(X.tolist()), X.T @ X / len(X), atol=1e-12)
    assert pca.total_variance(points) == pytest.approx(np.trace(X.T @ X / len(X)), abs=1e-12)


def test_projection_matches_numpy():
    points = cloud(4)
    directions, _ = pca.principal_directions(points)
    X = np.asarray(points) - np.mean(points, axis=0)
    np.testing.assert_allclose(pca.project(points, directions), X @ np.asarray(directions).T, atol=1e-12)


def test_orient_flips_only_what_points_away():
    assert pca.orient([[1.0, 0.0], [0.0, -1.0]], [[0.5, 0.5], [0.0, 1.0]]) == [[1.0, 0.0], [0.0, 1.0]]


def test_deterministic():
    points = cloud(5)
    assert pca.principal_directions(points) == pca.principal_directions(points)
