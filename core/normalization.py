"""Normalization of one token's vector: LayerNorm and RMSNorm.

Both look at a single vector (one token), never at other tokens or other
examples of a batch. LayerNorm recentres and rescales; RMSNorm only rescales.
"""

import math

from core.stats import fmean, pvariance


def layer_norm(x, eps=1e-5, gain=None, bias=None):
    """LayerNorm: si toglie la media, si divide per la deviazione standard, poi gain e bias.

    yᵢ = gᵢ·(xᵢ − μ)/√(σ² + ε) + bᵢ, with μ the mean and σ² the population
    variance of x. gain defaults to all ones, bias to all zeros.
    """
    m = fmean(x)
    s = math.sqrt(pvariance(x, m) + eps)
    gain = gain or [1.0] * len(x)
    bias = bias or [0.0] * len(x)
    return [g * (v - m) / s + b for v, g, b in zip(x, gain, bias)]


def rms(x, eps=0.0):
    """La radice della media dei quadrati √(media di xᵢ² + ε): la taglia tipica di un numero."""
    return math.sqrt(math.sumprod(x, x) / len(x) + eps)  # Σ xᵢ², in C with extended precision


def rms_norm(x, eps=1e-5, gain=None):
    """RMSNorm: ogni xᵢ diviso per l'RMS e moltiplicato per il gain, senza togliere la media."""
    r = rms(x, eps)
    gain = gain or [1.0] * len(x)
    return [g * v / r for v, g in zip(x, gain)]


def rms_norm_backward(x, grad_out, eps=1e-5):
    """Il gradiente rispetto a x passato all'indietro da RMSNorm (senza gain).

    The gradient with respect to x of a quantity whose gradient with respect
    to y = rms_norm(x) is grad_out (no gain): Jᵀ·grad_out, where
    J = (I − y·yᵀ/n)/r is symmetric. Dividing by r is why a large x
    passes back a small gradient.
    """
    n, r = len(x), rms(x, eps)
    y = [v / r for v in x]
    along = math.sumprod(y, grad_out) / n
    return [(g - yi * along) / r for g, yi in zip(grad_out, y)]
