import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.autograd import Value

finite = st.floats(-3, 3, allow_nan=False)


def numeric_grad(f, args, i, eps=1e-6):
    up, down = list(args), list(args)
    up[i] += eps
    down[i] -= eps
    return (f(*up) - f(*down)) / (2 * eps)


def expression(a, b, c):
    """Uses every operation of Value."""
    return ((a * b + c).tanh() * 3 - (a - c) ** 2 + (b * b + 1).log() + (c / 4).exp() + (a * c).relu()) / 2


def as_float(a, b, c):
    return expression(Value(a), Value(b), Value(c)).data


@given(finite, finite, finite)
def test_backward_matches_finite_differences(a, b, c):
    if abs(a * c) < 1e-3:  # ReLU's elbow: no derivative there
        return
    va, vb, vc = Value(a), Value(b), Value(c)
    out = expression(va, vb, vc)
    out.backward()
    for i, v in enumerate((va, vb, vc)):
        assert v.grad == pytest.approx(numeric_grad(as_float, (a, b, c), i), rel=1e-5, abs=1e-6)


def test_forward_values():
    assert (Value(2) * 3 + 1).data == 7
    assert Value(-1.5).relu().data == 0
    assert Value(0.5).tanh().data == pytest.approx(math.tanh(0.5), abs=1e-15)


def test_relu_blocks_gradient_when_off():
    w = Value(-0.5)
    out = (w * 2).relu() * 3
    out.backward()
    assert w.grad == 0


def test_gradient_accumulates_over_shared_nodes():
    a = Value(3.0)
    out = a * a + a
    out.backward()
    assert a.grad == pytest.approx(7.0)
    out.backward()  # a second backward starts from clean gradients
    assert a.grad == pytest.approx(7.0)
