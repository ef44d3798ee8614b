"""core.activations: ReLU, and the sigmoid and its log against numpy at any size."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.activations import log_sigmoid, relu, sigmoid


def test_relu_lets_only_positive_numbers_through():
    assert [relu(x) for x in (3.0, 0.5, 0.0, -0.0, -2.0)] == [3.0, 0.5, 0.0, 0.0, 0.0]
    assert math.copysign(1, relu(-0.0)) == 1  # no −0 comes out


@given(st.floats(allow_nan=False))
def test_relu_matches_numpy(x):
    assert relu(x) == np.maximum(x, 0.0)


def test_log_sigmoid_and_sigmoid_are_stable():
    for x in (-1000.0, -30.0, -1.0, 0.0, 2.5, 40.0, 1000.0):
        assert math.isfinite(log_sigmoid(x)) and 0 <= sigmoid(x) <= 1
        assert log_sigmoid(x) == pytest.approx(-np.logaddexp(0, -x), abs=1e-12)
        assert sigmoid(x) == pytest.approx(np.exp(-np.logaddexp(0, -x)), abs=1e-12)


def test_sigmoid_is_symmetric():
    for x in (0.0, 0.3, 5.0, 40.0):
        assert sigmoid(x) + sigmoid(-x) == pytest.approx(1, abs=1e-15)
    assert sigmoid(0.0) == 0.5
