"""The non-linear functions of the networks in the labs, one number at a time.

ReLU lets a positive number through and turns any other into 0: the elbow
that a network bends its lines with. The logistic sigmoid σ squashes any
number into (0, 1), with σ(0) = ½ and σ(−x) = 1 − σ(x); DPO's loss is
−log σ(margin), so its logarithm is here too, written to stay finite.
A vector goes through them one element at a time: [relu(x) for x in v].
"""

import math


def relu(x):
    """ReLU: max(0, x), cioè x se è positivo e 0 altrimenti."""
    return x if x > 0 else 0.0


def sigmoid(x):
    """σ(x) = 1 / (1 + e^(−x)), stabile anche per |x| grande, di qualunque segno."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def log_sigmoid(x):
    """log σ(x) = −log(1 + e^(−x)), scritto in modo che nessun esponenziale vada in overflow."""
    return -(max(-x, 0.0) + math.log1p(math.exp(-abs(x))))
