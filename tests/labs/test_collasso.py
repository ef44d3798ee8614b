"""9B.9 Il collasso e la piega: the guide's numbers, checked with numpy."""

import numpy as np
import pytest

import labs

LAB = labs.get("collasso")
W1, W2 = np.array([[1, 2], [0, 1]]), np.array([[1, 0], [-1, 1]])


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_relu_breaks_the_collapse():
    s = state()
    assert s["x"] == [1.0, -1.0] and s["relu"] is True
    assert s["h"] == [-1.0, -1.0]
    assert s["two_layers"] == [0.0, 0.0]  # with the ReLU
    assert s["one_matrix"] == [-1.0, 0.0]  # the single matrix W₂W₁
    assert s["agree"] is False
    np.testing.assert_array_equal(np.array(s["W"]), W2 @ W1)
    assert 'data-agree="no"' in str(LAB.view(s))


def test_without_relu_the_paths_agree():
    for x in ([1, 1], [1, -1]):
        s = state(x1=x[0], x2=x[1], relu=0)
        assert s["agree"] is True
        np.testing.assert_allclose(s["two_layers"], W2 @ (W1 @ x), atol=1e-12)
        np.testing.assert_allclose(s["one_matrix"], (W2 @ W1) @ x, atol=1e-12)
    assert state(x1=1, x2=1, relu=0)["two_layers"] == [3.0, -2.0]


def test_relu_changes_nothing_when_w1x_is_positive():
    s = state(x1=1, x2=1)
    assert s["h"] == [3.0, 1.0] and s["agree"] is True
    assert "non ha numeri negativi" in str(LAB.view(s))


@pytest.mark.parametrize("relu", [True, False])
def test_both_paths_match_numpy_on_a_grid(relu):
    for x1 in np.arange(-3, 3.5, 0.5):
        for x2 in np.arange(-3, 3.5, 0.5):
            s = state(x1=x1, x2=x2, relu=int(relu))
            h = W1 @ [x1, x2]
            a = np.maximum(h, 0) if relu else h
            np.testing.assert_allclose(s["two_layers"], W2 @ a, atol=1e-12)
            np.testing.assert_allclose(s["one_matrix"], W2 @ W1 @ [x1, x2], atol=1e-12)
            assert s["agree"] == bool(np.allclose(W2 @ a, W2 @ W1 @ [x1, x2], atol=1e-12))
