"""core.schedules: the warm-up and cosine schedule against numpy and its shape."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import schedules as sc

PEAK, WARMUP, TOTAL = 3e-4, 2000, 500_000


def test_llama2_schedule_seed_figures():
    def lr(t):
        return sc.warmup_cosine_lr(t, PEAK, WARMUP, TOTAL, 0.1)

    assert lr(0) == 0 and lr(1000) == pytest.approx(1.5e-4, abs=1e-18)
    assert lr(WARMUP) == pytest.approx(PEAK, abs=1e-18)
    assert lr(TOTAL) == pytest.approx(3e-5, abs=1e-18) and lr(TOTAL + 10) == lr(TOTAL)
    middle = (WARMUP + TOTAL) / 2
    assert lr(middle) == pytest.approx((PEAK + 3e-5) / 2, abs=1e-18)  # half way down the cosine


def test_schedule_against_numpy():
    t = np.arange(0, TOTAL + 1, 997)
    expected = np.where(
        t < WARMUP,
        PEAK * t / WARMUP,
        3e-5 + (PEAK - 3e-5) * 0.5 * (1 + np.cos(np.pi * (t - WARMUP) / (TOTAL - WARMUP))),
    )
    got = [sc.warmup_cosine_lr(int(s), PEAK, WARMUP, TOTAL) for s in t]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-16)


@given(st.integers(0, 5000), st.integers(1, 100_000), st.floats(0, 1))
def test_schedule_rises_then_falls(warmup, total, floor):
    values = [sc.warmup_cosine_lr(t, 1.0, warmup, total, floor) for t in range(0, total + 2, max(1, total // 50))]
    top = values.index(max(values))
    assert all(a <= b + 1e-15 for a, b in zip(values[:top], values[1 : top + 1]))
    assert all(a >= b - 1e-15 for a, b in zip(values[top:], values[top + 1 :]))
    assert all(min(floor, 0.0) <= v <= 1.0 + 1e-15 for v in values)


def test_no_warmup_starts_at_peak():
    assert sc.warmup_cosine_lr(0, PEAK, 0, 100) == pytest.approx(PEAK, abs=1e-18)
