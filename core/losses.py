"""From probabilities to a loss, and the gradient back.

Cross-entropy is −log of the probability given to the right token (the
probabilities come from core.softmax); for softmax and cross-entropy
together the gradient with respect to the logits is simply p − y.
"""

import math

from .linalg import one_hot
from .softmax import log_softmax, softmax


def cross_entropy(p_correct):
    """La cross-entropy −log p: 0 se il token giusto ha probabilità 1, senza limite se p → 0."""
    if not 0 < p_correct <= 1:
        raise ValueError("la probabilità deve stare in (0, 1]")
    return -math.log(p_correct)


def cross_entropy_from_logits(logits, target):
    """La cross-entropy −log softmax(z)[target], senza passare per probabilità minuscole."""
    return -log_softmax(logits)[target]


def perplexity(loss):
    """La perplessità e^loss: tra quanti token ugualmente probabili il modello sta esitando."""
    return math.exp(loss)


def softmax_cross_entropy_grad(logits, target):
    """Il gradiente della loss rispetto ai logit, pⱼ − yⱼ, con y il one-hot del token giusto."""
    return [p - y for p, y in zip(softmax(logits), one_hot(target, len(logits)))]
