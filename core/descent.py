"""Gradient descent, step by step.

The update is w ← w − η·L'(w): each step moves w against the slope of the
loss, by an amount proportional to the slope and to the learning rate η.
On one weight it is descend(); on a table of weights, sgd_update() moves
every cell against its own gradient.
"""


def descend(gradient, w0, eta, steps, limit=1e3):
    """I pesi w₀, w₁, …: uno per ogni passo di w ← w − η·gradiente(w).

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


def sgd_update(W, G, eta):
    """Un passo w ← w − η·gradiente, cella per cella: una tabella nuova, W resta com'era."""
    return [[w - eta * g for w, g in zip(wr, gr)] for wr, gr in zip(W, G)]
