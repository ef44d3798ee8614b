"""Gradient descent on one weight, step by step.

The update is w ← w − η·L'(w): each step moves w against the slope of the
loss, by an amount proportional to the slope and to the learning rate η.
"""


def descend(gradient, w0, eta, steps, limit=1e3):
    """The weights w₀, w₁, …, one per step of w ← w − η·gradient(w).

    Stops early, without the step that would leave [−limit, limit]: a
    learning rate that is too large makes |w| grow without bound, and the
    numbers must stay finite. Returns (weights, stopped_early).
    """
    weights = [w0]
    for _ in range(steps):
        w = weights[-1]
        new = w - eta * gradient(w)
        if not abs(new) <= limit:
            return weights, True
        weights.append(new)
    return weights, False
