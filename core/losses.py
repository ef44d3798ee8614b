"""From scores to probabilities to a loss, and the gradient back.

softmax turns logits into probabilities; cross-entropy is −log of the
probability given to the right token; for the two together the gradient
with respect to the logits is simply p − y.
"""

import math

from .linalg import one_hot


def softmax(logits, temperature=1.0):
    """exp(zᵢ/T) / Σⱼ exp(zⱼ/T), computed after subtracting the largest score
    so that no exponential can overflow. T < 1 sharpens, T > 1 flattens."""
    if temperature <= 0:
        raise ValueError("la temperatura deve essere positiva")
    scaled = [z / temperature for z in logits]
    top = max(scaled)
    exps = [math.exp(z - top) for z in scaled]
    total = math.fsum(exps)
    return [e / total for e in exps]


def log_softmax(logits):
    """log softmax(z)ᵢ = zᵢ − max − log Σⱼ exp(zⱼ − max), stable for any scores."""
    top = max(logits)
    log_total = math.log(math.fsum(math.exp(z - top) for z in logits))
    return [z - top - log_total for z in logits]


def cross_entropy(p_correct):
    """−log p: 0 when the right token gets probability 1, growing without bound as p → 0."""
    if not 0 < p_correct <= 1:
        raise ValueError("la probabilità deve stare in (0, 1]")
    return -math.log(p_correct)


def cross_entropy_from_logits(logits, target):
    """−log softmax(z)[target], computed without forming tiny probabilities."""
    return -log_softmax(logits)[target]


def perplexity(loss):
    """e^loss: among how many equally likely tokens the model is hesitating."""
    return math.exp(loss)


def softmax_cross_entropy_grad(logits, target):
    """∂loss/∂zⱼ = pⱼ − yⱼ, with y the one-hot vector of the right token."""
    return [p - y for p, y in zip(softmax(logits), one_hot(target, len(logits)))]
