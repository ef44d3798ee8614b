"""core.fitting and core.stats against numpy."""

import math
import random
import statistics
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import fitting as fit
from core import stats

XS = fit.grid(-1.0, 1.0, 201)


def design(xs, elbows):
    """The columns 1, x, ReLU(x − e₁), … of the least-squares problem, as a numpy matrix."""
    x = np.asarray(xs)
    return np.column_stack([np.ones_like(x), x, *(np.maximum(x - e, 0.0) for e in elbows)])


def curve(xs, c, s0, elbows, slopes):
    """The elbow curve c + s₀·x + Σ sᵢ·ReLU(x − eᵢ) at every x, with numpy."""
    x = np.asarray(xs)
    return c + s0 * x + sum(s * np.maximum(x - e, 0.0) for e, s in zip(elbows, slopes))


def fit_elbows(xs, ys, elbows):
    """The least-squares elbow curve as the labs get it: the broken line's heights, then its elbow form."""
    knots = [xs[0], *elbows, xs[-1]]
    c, s0, _, slopes = fit.from_points(list(zip(knots, fit.fit_broken_line(xs, ys, knots))))
    return c, s0, slopes


def test_grid():
    np.testing.assert_allclose(XS, np.linspace(-1, 1, 201), atol=1e-15)
    assert fit.even_elbows(-1, 1, 3) == pytest.approx([-0.5, 0.0, 0.5])


def test_from_points_goes_through_the_points():
    points = [(-1.0, 0.0), (-0.5, -1.0), (0.5, 1.0), (1.0, 0.0)]
    c, s0, elbows, slopes = fit.from_points(points)

    assert c == pytest.approx(-2.0) and s0 == pytest.approx(-2.0)
    assert elbows == [-0.5, 0.5] and slopes == pytest.approx([4.0, -4.0])
    xs = np.linspace(-1, 1, 41)
    np.testing.assert_allclose(curve(list(xs), c, s0, elbows, slopes), np.interp(xs, *zip(*points)), atol=1e-12)


@given(
    st.lists(st.tuples(st.floats(-1, 1), st.floats(-3, 3)), min_size=2, max_size=8, unique_by=lambda p: round(p[0], 3))
)
@settings(max_examples=60, deadline=None)
def test_from_points_is_the_interpolating_broken_line(points):
    points = sorted(points)
    c, s0, elbows, slopes = fit.from_points(points)
    px, py = zip(*points)
    np.testing.assert_allclose(curve(px, c, s0, elbows, slopes), py, atol=1e-6)
    xs = np.linspace(px[0], px[-1], 23)
    np.testing.assert_allclose(curve(list(xs), c, s0, elbows, slopes), np.interp(xs, px, py), atol=1e-6)


def test_from_points_refuses_repeated_x():
    with pytest.raises(ValueError):
        fit.from_points([(0.0, 1.0), (0.0, 2.0)])


def test_mse_matches_numpy():
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=50), rng.normal(size=50)
    assert fit.mse(list(a), list(b)) == pytest.approx(float(np.mean((a - b) ** 2)), abs=1e-12)


@pytest.mark.parametrize("n", [1, 2, 5, 12, 20])
@pytest.mark.parametrize("target", [lambda x: math.sin(math.pi * x), lambda x: x * x, abs, lambda x: math.tanh(5 * x)])
def test_fit_matches_numpy_lstsq(n, target):
    elbows = fit.even_elbows(-1, 1, n)
    ys = [target(x) for x in XS]
    c, s0, slopes = fit_elbows(XS, ys, elbows)
    A = design(XS, elbows)
    beta, *_ = np.linalg.lstsq(A, np.array(ys), rcond=None)
    np.testing.assert_allclose([c, s0, *slopes], beta, atol=1e-11)
    np.testing.assert_allclose(curve(XS, c, s0, elbows, slopes), A @ beta, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_fit_broken_line_is_least_squares_on_uneven_knots_and_grids(seed):
    rng = np.random.default_rng(seed)
    xs = np.sort(rng.uniform(-1, 1, 60))
    knots = [xs[0] - 0.1, *np.sort(rng.choice(xs[3:-3], size=int(rng.integers(1, 8)), replace=False)), xs[-1]]
    ys = rng.normal(size=60)
    heights = fit.fit_broken_line(list(xs), list(ys), knots)
    hats = np.array([np.interp(xs, knots, np.eye(len(knots))[j]) for j in range(len(knots))]).T
    np.testing.assert_allclose(heights, np.linalg.lstsq(hats, ys, rcond=None)[0], atol=1e-10)
    np.testing.assert_allclose(fit.broken_line(list(xs), knots, heights), hats @ heights, atol=1e-12)


def test_broken_line_reads_the_line_through_the_points():
    xs = list(np.linspace(-1, 1, 41))
    np.testing.assert_allclose(
        fit.broken_line(xs, [-1.0, -0.3, 0.5, 1.0], [0.0, 2.0, -1.0, 1.0]),
        np.interp(xs, [-1.0, -0.3, 0.5, 1.0], [0.0, 2.0, -1.0, 1.0]),
        atol=1e-15,
    )


def test_fit_broken_line_refuses_what_it_cannot_determine():
    with pytest.raises(ValueError, match="crescente"):
        fit.fit_broken_line([0.0, 1.0], [0.0, 1.0], [0.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="tra il primo e l'ultimo"):
        fit.fit_broken_line([0.0, 2.0], [0.0, 1.0], [0.0, 1.0])
    # no grid point strictly between 0,2 and 0,8: the hat at 0,5 sees nothing
    with pytest.raises(ValueError, match="nodo in x = 0,5"):
        fit.fit_broken_line([0.0, 0.1, 0.2, 0.8, 0.9, 1.0], [0.0] * 6, [0.0, 0.2, 0.5, 0.8, 1.0])


def fit_error(target, n):
    ys = [target(x) for x in XS]
    elbows = fit.even_elbows(-1, 1, n)
    c, s0, slopes = fit_elbows(XS, ys, elbows)
    return fit.mse(list(curve(XS, c, s0, elbows, slopes)), ys)


@pytest.mark.parametrize("target", [lambda x: math.sin(math.pi * x), lambda x: x * x])
def test_more_even_elbows_fit_a_smooth_curve_better(target):
    errors = [fit_error(target, n) for n in range(1, 21)]
    assert all(b < a for a, b in zip(errors, errors[1:]))
    assert errors[-1] < 1e-3 * errors[0]


def test_an_elbow_on_the_fold_of_abs_makes_it_exact():
    assert fit_error(abs, 1) < 1e-28  # the single even elbow sits at 0
    assert fit_error(abs, 2) > 1e-4


@pytest.mark.parametrize("lo, hi, bins", [(-1.0, 1.0, 40), (0.0, 3.0, 7), (-0.1, 0.1, 1)])
def test_bin_counts_match_numpy_histogram(lo, hi, bins):
    rng = np.random.default_rng(bins)
    xs = rng.uniform(lo - 0.5, hi + 0.5, size=2000).tolist() + [lo, hi]
    counts, edges = np.histogram(xs, bins=bins, range=(lo, hi))
    assert stats.bin_counts(xs, lo, hi, bins) == counts.tolist()
    np.testing.assert_allclose(stats.bin_edges(lo, hi, bins), edges, atol=1e-15)
    with pytest.raises(ValueError):
        stats.bin_counts(xs, 1.0, 1.0, 3)


def test_gaussian_sample_is_standard_normal_and_seeded():
    xs = stats.gaussian_sample(200_001, random.Random(5))
    assert len(xs) == 200_001
    assert abs(statistics.fmean(xs)) < 0.01
    assert statistics.pstdev(xs) == pytest.approx(1.0, abs=0.01)
    within_one = sum(abs(x) < 1 for x in xs) / len(xs)
    assert within_one == pytest.approx(0.6827, abs=0.005)
    assert stats.gaussian_sample(7, random.Random(5)) == xs[:7]


# squares of these neither underflow nor overflow: statistics squares x − μ in floating point too
finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False).filter(lambda x: x == 0 or abs(x) > 1e-100)


@settings(max_examples=300)
@given(st.lists(finite, min_size=1, max_size=300), st.one_of(st.none(), finite))
def test_mean_and_spread_are_the_standard_librarys(xs, mu):
    """fmean bit for bit; pvariance and pstdev within a few units in the last place of
    statistics' (computed in exact fractions), and against numpy."""
    assert stats.fmean(xs) == statistics.fmean(xs)
    assert stats.fmean(iter(xs)) == statistics.fmean(xs)
    exact = statistics.pvariance(xs, mu)
    assert stats.pvariance(xs, mu) == pytest.approx(exact, rel=8 * 2**-52, abs=1e-300)
    assert stats.pstdev(xs, mu) == pytest.approx(statistics.pstdev(xs, mu), rel=8 * 2**-52, abs=1e-300)
    if mu is None:
        assert stats.pvariance(xs) == pytest.approx(float(np.var(xs)), rel=1e-9, abs=1e-9)
    with pytest.raises(ValueError):
        stats.fmean([])
    with pytest.raises(ValueError):
        stats.pvariance([])


def test_the_spread_of_tiny_numbers_does_not_underflow():
    assert stats.pstdev([0.0, 2e-166]) == statistics.pstdev([0.0, 2e-166]) == 1e-166
    assert stats.pstdev([1e-300, 3e-300]) == pytest.approx(1e-300, rel=1e-15)
    assert stats.pstdev([1e300, -1e300]) == 1e300


def test_no_lab_imports_the_standard_librarys_statistics():
    """statistics (with fractions, decimal, numbers) costs ~50 ms to import in the browser's Python,
    before the page's lab can answer: core.stats has the mean and the spread instead."""
    import subprocess
    import sys

    script = (
        "import sys, labs\n"
        "for lab in labs.all_labs(): labs.warm_up(lab.module.__name__, 'page')\n"
        "print(sorted({'statistics', 'fractions', 'decimal'} & set(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert out.stdout.strip() == "[]"
