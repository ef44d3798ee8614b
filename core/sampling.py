"""Choosing a token from probabilities: the most probable one (greedy), or
one drawn at random so that each comes out as often as its probability says.

Drawing uses the inverse of the cumulative distribution: lay the
probabilities end to end in ID order, so they cut [0, 1) into slices as wide
as they are; a uniform number u in [0, 1) falls in the slice of token t with
probability pₜ. A seeded random.Random gives the same draws every time.

A model's next token is chosen from its logits: greedy at temperature 0,
otherwise drawn from softmax(z / T).
"""

import random

from core.softmax import softmax


def greedy(probs):
    """L'indice della probabilità più alta; a parità, il più basso."""
    return max(range(len(probs)), key=lambda t: (probs[t], -t))


def sample(probs, u):
    """Il token la cui fetta di [0, 1) contiene u (fette in ordine di ID, larghe come le probabilità)."""
    total = 0.0
    for t, p in enumerate(probs):
        total += p
        if u < total:
            return t
    return max(t for t, p in enumerate(probs) if p > 0)  # u fell in the rounding crumb at the end


def choose_token(logits, temperature, rng):
    """Il prossimo ID dai logit: il più alto a temperatura 0, altrimenti estratto da softmax(z/T) con rng.

    Greedy reads the logits, whose softmax could round two to one probability.
    """
    if temperature == 0:
        return greedy(logits)
    return sample(softmax(logits, temperature), rng.random())


def draw(probs, count, seed):
    """Estrae count token dalle probabilità probs con un generatore dal seme dato, nell'ordine di uscita.

    count tokens drawn independently from probs with the generator seeded
    by seed: the list of their indices, in the order they came out.
    """
    rng = random.Random(seed)
    return [sample(probs, rng.random()) for _ in range(count)]


def counts(tokens, size):
    """Quante volte compare ciascuno degli indici da 0 a size − 1 tra i token estratti."""
    found = [0] * size
    for t in tokens:
        found[t] += 1
    return found
