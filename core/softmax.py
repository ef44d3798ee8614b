"""Softmax: from scores to probabilities, every step in view.

p = softmax(z / T): divide the logits by the temperature, subtract the
largest, exponentiate, add up, divide by the sum. Subtracting the largest
changes nothing in the result (it divides every exponential by the same
number) but keeps every exponential between 0 and 1, so none overflows.
T < 1 sharpens the distribution, T > 1 flattens it.

A score of −∞ (a masked position in attention) gets weight exactly 0, since
e^−∞ = 0. A list with no finite score has nothing to share out: that is an
error, not a NaN.

softmax_steps computes it once, keeping every intermediate list for the labs
that show them; softmax and log_softmax read what they need from it.
"""

import math

OVERFLOW = math.log(1.7976931348623157e308)  # e^x beyond this is not a float any more


def softmax_steps(logits, temperature=1.0):
    """La softmax stabile con temperatura, con ogni lista intermedia: z/T, meno il massimo, exp, somma, divisione.

    Every intermediate list of the stable softmax with temperature:
    scaled = z/T, shifted = z/T − max, exps = e^shifted, total = Σ exps,
    probs = exps / total.
    """
    if temperature <= 0:
        raise ValueError("la temperatura deve essere positiva")
    scaled = [z / temperature for z in logits]
    top = max(scaled)
    if top == -math.inf:
        raise ValueError("una riga tutta mascherata non ha pesi")
    shifted = [s - top for s in scaled]
    exps = [math.exp(s) for s in shifted]
    total = math.fsum(exps)
    return {
        "scaled": scaled,
        "max": top,
        "shifted": shifted,
        "exps": exps,
        "total": total,
        "probs": [e / total for e in exps],
    }


def softmax(logits, temperature=1.0):
    """La softmax con temperatura exp(zᵢ/T) / Σⱼ exp(zⱼ/T): le probabilità di softmax_steps."""
    return softmax_steps(logits, temperature)["probs"]


def log_softmax(logits):
    """La log-softmax (zᵢ − max) − log Σⱼ exp(zⱼ − max), esatta anche dove p verrebbe 0.

    log softmax(z)ᵢ = (zᵢ − max) − log Σⱼ exp(zⱼ − max): exact even where
    the probability itself would round to 0.
    """
    steps = softmax_steps(logits)
    log_total = math.log(steps["total"])
    return [s - log_total for s in steps["shifted"]]


def naive_exp(x):
    """e^x, o None dove va in overflow: ciò che troverebbe la softmax senza togliere il massimo."""
    return math.exp(x) if x <= OVERFLOW else None


def entropy(probs):
    """L'entropia −Σ p·ln p in nat: 0 se un token è certo, ln n se n token sono alla pari.

    −Σ p·ln p, in nats (0·ln 0 counts 0): 0 when one token is certain,
    ln n when n tokens are equally likely.
    """
    return -math.fsum(p * math.log(p) for p in probs if p > 0)
