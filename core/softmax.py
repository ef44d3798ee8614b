"""Softmax taken apart, to show each step, and how spread out its result is.

p = softmax(z / T): divide the logits by the temperature, subtract the
largest, exponentiate, add up, divide by the sum. Subtracting the largest
changes nothing in the result (it divides every exponential by the same
number) but keeps every exponential between 0 and 1, so none overflows.
"""

import math

OVERFLOW = math.log(1.7976931348623157e308)  # e^x beyond this is not a float any more


def softmax_steps(logits, temperature=1.0):
    """Every intermediate list of the stable softmax with temperature:
    scaled = z/T, shifted = z/T − max, exps = e^shifted, total = Σ exps,
    probs = exps / total."""
    if temperature <= 0:
        raise ValueError("la temperatura deve essere positiva")
    scaled = [z / temperature for z in logits]
    top = max(scaled)
    shifted = [s - top for s in scaled]
    exps = [math.exp(s) for s in shifted]
    total = math.fsum(exps)
    return {"scaled": scaled, "max": top, "shifted": shifted, "exps": exps, "total": total,
            "probs": [e / total for e in exps]}


def naive_exp(x):
    """e^x, or None where it overflows: what the softmax without the max would meet."""
    return math.exp(x) if x <= OVERFLOW else None


def entropy(probs):
    """−Σ p·ln p, in nats (0·ln 0 counts 0): 0 when one token is certain,
    ln n when n tokens are equally likely."""
    return -math.fsum(p * math.log(p) for p in probs if p > 0)
