"""core.sampling: greedy, the slice that contains u, and seeded draws whose
frequencies match the probabilities (a chi-square test against numpy)."""

import math
import random
from itertools import accumulate

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.sampling import choose_token, counts, draw, greedy, sample
from core.softmax import softmax

# Chi-square critical values at 0.1 % (from the chi-square table), by degrees of freedom:
# a correct sampler fails one of these about once in a thousand seeds.
CRITICAL = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32}


def test_greedy_takes_the_largest_and_the_lowest_index_on_a_tie():
    assert greedy([0.1, 0.5, 0.4]) == 1
    assert greedy([0.2, 0.4, 0.4]) == 1


@given(st.lists(st.floats(0.01, 1), min_size=1, max_size=12), st.floats(0, 1, exclude_max=True))
def test_sample_picks_the_slice_that_contains_u(weights, u):
    p = [w / math.fsum(weights) for w in weights]
    t = sample(p, u)
    assert math.fsum(p[:t]) <= u + 1e-12
    assert u < math.fsum(p[: t + 1]) + 1e-12


def test_a_zero_probability_never_comes_out():
    p = [0.5, 0.0, 0.5, 0.0]
    assert set(draw(p, 2000, 1)) == {0, 2}
    assert sample(p, 1 - 1e-17) == 2  # the rounding crumb goes to the last token that can come out


@pytest.mark.parametrize("seed", range(5))
def test_draw_is_the_slices_of_the_seeded_uniforms(seed):
    p = [0.1, 0.2, 0.3, 0.4]
    rng = random.Random(seed)
    assert draw(p, 50, seed) == [sample(p, rng.random()) for _ in range(50)]
    assert draw(p, 50, seed) == draw(p, 50, seed)
    assert draw(p, 50, seed) != draw(p, 50, seed + 1)


def chi_square(observed, probs):
    n = sum(observed)
    expected = np.array(probs) * n
    return float(np.sum((np.array(observed) - expected) ** 2 / expected))


@pytest.mark.parametrize("seed", range(8))
def test_frequencies_match_the_probabilities(seed):
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(6)).tolist()
    observed = counts(draw(probs, 20_000, seed), 6)
    assert sum(observed) == 20_000
    assert chi_square(observed, probs) < CRITICAL[5]
    # numpy's own sampler on the same probabilities lands in the same band
    reference = np.bincount(rng.choice(6, size=20_000, p=probs), minlength=6)
    assert chi_square(reference.tolist(), probs) < CRITICAL[5]


def test_a_wrong_sampler_would_fail_the_test():
    probs = [0.1, 0.2, 0.3, 0.4]
    skewed = counts(draw([0.12, 0.2, 0.3, 0.38], 20_000, 3), 4)  # 2 points off on two tokens
    assert chi_square(skewed, probs) > CRITICAL[3]


def test_counts_counts_every_index():
    assert counts([0, 2, 2, 5], 6) == [1, 0, 2, 0, 0, 1]


class FixedDraw:
    """A generator whose every draw is u: to put a draw where a seeded one rarely lands."""

    def __init__(self, u):
        self.u = u

    def random(self):
        return self.u


def test_choose_token_is_greedy_on_the_logits_at_temperature_zero_and_a_draw_otherwise():
    assert choose_token([0.3, 2.0, 2.0, -1.0], 0, None) == 1  # the lowest ID on a tie
    # logits whose probabilities round to the same number: the larger logit still wins
    assert choose_token([-800.0, -799.0, 5.0], 0, None) == 2 and choose_token([1e-20, 0.0], 0, None) == 0
    for temperature in (0.3, 1.0, 2.5):
        rng, copy = random.Random(7), random.Random(7)
        z = [0.5, -1.0, 2.0, 0.0]
        assert [choose_token(z, temperature, rng) for _ in range(40)] == [
            sample(softmax(z, temperature), copy.random()) for _ in range(40)
        ]


def test_choose_token_never_writes_a_token_of_probability_zero():
    # ten probabilities of 0.1 added one by one make 0.9999999999999999, so the largest u below 1 falls past
    # them, in the rounding crumb; the eleventh token's probability is e^-1000 = 0 and it must not come out
    logits = [0.0] * 10 + [-1000.0]
    probs = softmax(logits)
    assert probs[-1] == 0.0 and list(accumulate(probs))[-1] == 1 - 2**-53
    assert choose_token(logits, 1.0, FixedDraw(1 - 2**-53)) == 9
