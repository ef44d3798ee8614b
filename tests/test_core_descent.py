"""core.descent against the closed form of gradient descent on a parabola, and numpy."""

import numpy as np
import pytest

from core.descent import descend, sgd_update


@pytest.mark.parametrize("eta", [0.01, 0.2, 0.5, 0.9, 1.0, 1.1])
@pytest.mark.parametrize("w0", [-1.0, 3.0, 8.5])
def test_parabola_matches_closed_form(eta, w0):
    weights, stopped = descend(lambda w: 2 * (w - 3), w0, eta, 20)
    k = np.arange(21)
    np.testing.assert_allclose(weights, 3 + (1 - 2 * eta) ** k * (w0 - 3), atol=1e-12, rtol=1e-12)
    assert not stopped


def test_each_step_is_the_update_rule():
    grad = lambda w: np.cos(w) + 0.3 * w  # noqa: E731
    weights, _ = descend(grad, 2.0, 0.17, 30)
    for w, new in zip(weights, weights[1:]):
        assert new == pytest.approx(w - 0.17 * grad(w), abs=1e-12)


def test_divergence_stops_before_leaving_the_limit():
    weights, stopped = descend(lambda w: 2 * (w - 3), -1.0, 1.2, 1000, limit=1e3)
    assert stopped and len(weights) < 1001
    assert all(abs(w) <= 1e3 for w in weights)
    assert abs(weights[-1] - 1.2 * 2 * (weights[-1] - 3)) > 1e3


def test_sgd_update_moves_every_cell_against_its_gradient_in_a_new_table():
    rng = np.random.default_rng(0)
    W, G = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    before = W.tolist()
    np.testing.assert_allclose(sgd_update(before, G.tolist(), 0.3), W - 0.3 * G, atol=1e-15)
    assert before == W.tolist()
