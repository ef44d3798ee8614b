"""The fixed-window network of chapter 1 (Bengio and colleagues, 2003),
small enough to write every number: the vectors of the last n tokens are
concatenated into one long input x, then

    h = ReLU(W₁·x)      scores = W₂·h      p = softmax(scores)

W₁ has one row per hidden neuron and one column per input number (n·d);
W₂ one row per token of the vocabulary. No biases, so that every weight is
in the two matrices. Training is plain gradient descent on the mean
cross-entropy of a few examples, with the gradients written out by hand.
"""

import random

from .activations import relu
from .descent import sgd_update
from .linalg import matvec
from .losses import cross_entropy_from_logits
from .softmax import softmax


def concat(vectors):
    """La concatenazione: [1, 0] e [0, 1] diventano [1, 0, 0, 1], un numero dopo l'altro."""
    return [x for v in vectors for x in v]


def window_forward(W1, W2, x):
    """Il forward della rete: pre-attivazioni z, strato nascosto h, punteggi e probabilità per l'ingresso x."""
    z = matvec(W1, x)
    h = [relu(v) for v in z]
    scores = matvec(W2, h)
    return {"z": z, "h": h, "scores": scores, "probs": softmax(scores)}


def window_loss(W1, W2, examples):
    """La cross-entropy media sugli esempi (x, indice del token giusto)."""
    return sum(cross_entropy_from_logits(window_forward(W1, W2, x)["scores"], t) for x, t in examples) / len(examples)


def gradients(W1, W2, examples):
    """I gradienti ∂loss/∂W₁ e ∂loss/∂W₂ con la regola della catena, in media sugli esempi.

    ∂loss/∂W₁ and ∂loss/∂W₂ by the chain rule:
    δ = p − y at the scores, ∂W₂ = δ·hᵀ, back through W₂ and the ReLU
    (which lets through only where z > 0), ∂W₁ = δ_h·xᵀ; mean over examples.
    """
    n_hidden, n_in, n_out = len(W1), len(W1[0]), len(W2)
    G1 = [[0.0] * n_in for _ in range(n_hidden)]
    G2 = [[0.0] * n_hidden for _ in range(n_out)]
    m = len(examples)
    for x, t in examples:
        f = window_forward(W1, W2, x)
        delta = [p - (1.0 if k == t else 0.0) for k, p in enumerate(f["probs"])]
        for k in range(n_out):
            for j in range(n_hidden):
                G2[k][j] += delta[k] * f["h"][j] / m
        for j in range(n_hidden):
            if f["z"][j] > 0:
                back = sum(delta[k] * W2[k][j] for k in range(n_out))
                for i in range(n_in):
                    G1[j][i] += back * x[i] / m
    return G1, G2


def train_window_net(examples, n_hidden, n_out, seed=0, steps=2000, eta=0.5, spread=0.5):
    """La discesa del gradiente su tutto il dataset, da pesi casuali con il seme dato.

    Full-batch gradient descent from weights drawn uniformly in
    [−spread, spread] with random.Random(seed): the same seed, the same weights.
    """
    rng = random.Random(seed)
    n_in = len(examples[0][0])
    W1 = [[rng.uniform(-spread, spread) for _ in range(n_in)] for _ in range(n_hidden)]
    W2 = [[rng.uniform(-spread, spread) for _ in range(n_hidden)] for _ in range(n_out)]
    for _ in range(steps):
        G1, G2 = gradients(W1, W2, examples)
        W1, W2 = sgd_update(W1, G1, eta), sgd_update(W2, G2, eta)
    return W1, W2


def rounded(W, digits=1):
    """Ogni peso arrotondato (a un decimale, se non si dice altro), con −0,0 scritto come 0,0."""
    return [[round(w, digits) + 0.0 for w in row] for row in W]


def first_layer_size(n_tokens, d, neurons):
    """Ingressi e pesi del primo strato: n·d numeri in ingresso, un peso per ingresso per neurone."""
    inputs = n_tokens * d
    return inputs, inputs * neurons
