"""A neuron: multiply each input by its weight, add up, decide.

The umbrella example of chapter 1 in its two forms: a single neuron with a
threshold (yes/no), and a small network whose neurons are dimmers clamped to
the range 0–1.
"""


def weighted_sum(inputs, weights):
    """La somma pesata Σ xᵢ·wᵢ: ogni ingresso per il suo peso, tutto sommato.

    The dot product, but added left to right in plain floats: linalg.dot's
    extended precision shows a half-way total such as −1,615 as −1,61, not
    the −1,62 a reader gets by hand."""
    if len(inputs) != len(weights):
        raise ValueError(f"{len(inputs)} inputs but {len(weights)} weights")
    return sum(x * w for x, w in zip(inputs, weights))


def threshold_neuron(inputs, weights, threshold):
    """Il neurone sì/no: la somma pesata e se supera la soglia."""
    total = weighted_sum(inputs, weights)
    return total, total > threshold


def clamp(x, low=0.0, high=1.0):
    """x tenuto dentro [low, high]: un regolatore che non scende sotto 0 né sale sopra 1."""
    return min(high, max(low, x))


def dense(inputs, weight_rows, activation=clamp):
    """Uno strato: un neurone per ogni riga di pesi, e ognuno legge tutti gli ingressi.

    Returns (totals, outputs): the weighted sums before the activation and
    the activations after it.
    """
    totals = [weighted_sum(inputs, row) for row in weight_rows]
    return totals, [activation(t) for t in totals]
