"""A neuron: multiply each input by its weight, add up, decide.

The umbrella example of chapter 1 in its two forms: a single neuron with a
threshold (yes/no), and a small network whose neurons are dimmers clamped to
the range 0–1.
"""


def weighted_sum(inputs, weights):
    """Σ xᵢ·wᵢ: each input times its weight, all added up.

    The dot product, but added left to right in plain floats: linalg.dot's
    extended precision shows a half-way total such as −1,615 as −1,61, not
    the −1,62 a reader gets by hand."""
    if len(inputs) != len(weights):
        raise ValueError(f"{len(inputs)} inputs but {len(weights)} weights")
    return sum(x * w for x, w in zip(inputs, weights))


def threshold_neuron(inputs, weights, threshold):
    """The yes/no neuron: (total, fires) where fires = total > threshold."""
    total = weighted_sum(inputs, weights)
    return total, total > threshold


def clamp(x, low=0.0, high=1.0):
    """x limited to [low, high]: a dimmer, never below 0 nor above 1."""
    return min(high, max(low, x))


def dense(inputs, weight_rows, activation=clamp):
    """A layer: one neuron per row of weights, each reading every input.

    Returns (totals, outputs): the weighted sums before the activation and
    the activations after it.
    """
    totals = [weighted_sum(inputs, row) for row in weight_rows]
    return totals, [activation(t) for t in totals]
