"""From probabilities to a loss, and the gradient back.

Cross-entropy is −log of the probability given to the right token (the
probabilities come from core.softmax); for softmax and cross-entropy
together the gradient with respect to the logits is simply p − y.
"""

import math

from .linalg import one_hot
from .softmax import log_softmax, softmax


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
