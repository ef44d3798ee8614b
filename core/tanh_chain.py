"""The smallest network with two layers and a smooth non-linearity:

    z = w₁·x      h = tanh(z)      ŷ = w₂·h      L = (ŷ − y)²

Its gradients by the chain rule, written out one factor at a time, and
gradient descent on the two weights for many steps.
"""

import math


def forward_backward(x, w1, w2, y):
    """Il forward della catena x → w₁ → tanh → w₂, le derivate locali e i due gradienti.

    The backward pass reuses what the forward left behind: h for ∂L/∂w₂,
    1 − h² to cross the tanh, x for ∂L/∂w₁."""
    z = w1 * x
    h = math.tanh(z)
    y_hat = w2 * h
    dL_dyhat = 2 * (y_hat - y)
    dL_dh = dL_dyhat * w2
    dh_dz = 1 - h * h
    dL_dz = dL_dh * dh_dz
    return {
        "z": z,
        "h": h,
        "y_hat": y_hat,
        "loss": (y_hat - y) ** 2,
        "dL_dyhat": dL_dyhat,
        "dL_dh": dL_dh,
        "dh_dz": dh_dz,
        "dL_dz": dL_dz,
        "grad_w2": dL_dyhat * h,
        "grad_w1": dL_dz * x,
    }


def update(w1, w2, r, eta, limit=100.0):
    """I pesi dopo un passo w ← w − η·∂L/∂w, o None se un peso andrebbe oltre ±limit.

    The weights after one step w ← w − η·∂L/∂w, with the gradients of the
    record r; None when a weight would go beyond ±limit (a learning rate too
    large can make the weights run away).
    """
    new1, new2 = w1 - eta * r["grad_w1"], w2 - eta * r["grad_w2"]
    return (new1, new2) if abs(new1) <= limit and abs(new2) <= limit else None


def descend_chain(x, y, w1, w2, eta, steps, limit=100.0):
    """I pesi e la loss prima di ciascuno dei passi, fermandosi se un peso scappa oltre ±limit.

    Weights and loss before each of `steps` updates, plus the state after
    the last one. Stops early, without the update that would take a weight
    beyond ±limit. Returns (records, stopped_early).
    """
    records = []
    for _ in range(steps):
        r = forward_backward(x, w1, w2, y)
        records.append({"w1": w1, "w2": w2, **r})
        new = update(w1, w2, r, eta, limit)
        if new is None:
            return records, True
        w1, w2 = new
    records.append({"w1": w1, "w2": w2, **forward_backward(x, w1, w2, y)})
    return records, False
