"""Choosing a token from probabilities: the most probable one (greedy), or
one drawn at random so that each comes out as often as its probability says.

Drawing uses the inverse of the cumulative distribution: lay the
probabilities end to end in ID order, so they cut [0, 1) into slices as wide
as they are; a uniform number u in [0, 1) falls in the slice of token t with
probability pₜ. A seeded random.Random gives the same draws every time.
"""

import random


def greedy(probs):
    """The index of the largest probability; on a tie, the lowest index."""
    return max(range(len(probs)), key=lambda t: (probs[t], -t))


def sample(probs, u):
    """The token whose slice of [0, 1) contains u, slices laid out in ID order
    with widths equal to the probabilities."""
    total = 0.0
    for t, p in enumerate(probs):
        total += p
        if u < total:
            return t
    return max(t for t, p in enumerate(probs) if p > 0)  # u fell in the rounding crumb at the end


def draw(probs, count, seed):
    """count tokens drawn independently from probs with the generator seeded
    by seed: the list of their indices, in the order they came out."""
    rng = random.Random(seed)
    return [sample(probs, rng.random()) for _ in range(count)]


def counts(tokens, size):
    """How many times each of the size indices appears in tokens."""
    found = [0] * size
    for t in tokens:
        found[t] += 1
    return found
