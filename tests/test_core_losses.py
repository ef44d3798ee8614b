import numpy as np
import pytest

from core import losses


def test_seed_figures_of_chapter_2():
    assert losses.cross_entropy(1.0) == 0
    assert losses.cross_entropy(0.5) == pytest.approx(0.69, abs=5e-3)
    assert losses.cross_entropy(0.12) == pytest.approx(2.12, abs=5e-3)
    assert losses.cross_entropy(0.01) == pytest.approx(4.6, abs=0.05)  # the guide rounds to one decimal
    assert losses.perplexity(2.12) == pytest.approx(8.3, abs=0.05)


def test_gradient_is_p_minus_y_and_matches_finite_differences():
    rng = np.random.default_rng(1)
    z, target, eps = list(rng.normal(size=6)), 2, 1e-6
    grad = losses.softmax_cross_entropy_grad(z, target)
    for j in range(6):
        up, down = list(z), list(z)
        up[j] += eps
        down[j] -= eps
        numeric = (losses.cross_entropy_from_logits(up, target) - losses.cross_entropy_from_logits(down, target)) / (
            2 * eps
        )
        assert grad[j] == pytest.approx(numeric, abs=1e-8)
    assert sum(grad) == pytest.approx(0, abs=1e-12)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        losses.cross_entropy(0)
