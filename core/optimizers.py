"""Training a model whose parameters are a dict name → tensor (a matrix
as a list of rows, or a vector): Adam or plain SGD, with a warm-up + cosine
learning rate (core.schedules) and clipping of the global gradient norm.

A step never modifies a state: it returns a new TrainState, so a saved
state stays valid. Adam's running means m and v keep each tensor as one
flat list, row after row, and Adam runs on it as one list.
"""

import math
from dataclasses import dataclass
from itertools import chain

from core.schedules import warmup_cosine_lr

sumprod = math.sumprod


def grad_norm(grads):
    """La norma globale del gradiente ‖g‖ = √(Σ g²), su ogni numero di ogni tensore."""
    return math.sqrt(sum(squared_norm(g) for g in grads.values()))


def squared_norm(tensor):
    """La somma dei quadrati dei numeri di un tensore (vettore o matrice)."""
    rows = tensor if isinstance(tensor[0], list) else [tensor]
    return sum(sumprod(r, r) for r in rows)


@dataclass(frozen=True)
class OptimizerConfig:
    """Le scelte dell'ottimizzatore: Adam o SGD, learning rate con warm-up e coseno, clipping.

    Adam (or plain SGD) with warm-up + cosine learning rate and clipping of
    the global gradient norm at clip (None: no clipping).
    """

    kind: str = "adam"  # "adam" | "sgd"
    lr: float = 1e-2
    warmup: int = 10
    total_steps: int = 500
    floor: float = 0.1  # the final learning rate, as a share of lr
    beta1: float = 0.9
    beta2: float = 0.99
    eps: float = 1e-8
    clip: float | None = 1.0

    def __post_init__(self):
        if self.kind not in ("adam", "sgd"):
            raise ValueError(f"ottimizzatore sconosciuto: {self.kind!r} (adam o sgd)")


@dataclass(frozen=True)
class TrainState:
    """Lo stato del training: i pesi, le medie mobili di Adam e quanti passi sono stati fatti.

    Everything training needs to continue: the weights, Adam's running means
    of g (m) and g² (v), each tensor's as one flat list, row after row, and
    how many steps were taken. Steps never modify a state: they return a new
    one, so a saved state stays valid.
    """

    params: dict
    m: dict
    v: dict
    step: int = 0


def flat(tensor):
    """I numeri di un tensore in una lista sola, riga dopo riga."""
    return list(chain.from_iterable(tensor)) if isinstance(tensor[0], list) else list(tensor)


def shaped(values, like):
    """Una lista di numeri rimessa nella forma di like: le righe di una matrice, o un vettore."""
    if not isinstance(like[0], list):
        return values
    width = len(like[0])
    return [values[i : i + width] for i in range(0, len(values), width)]


def learning_rate(step, opt):
    """Il learning rate dell'aggiornamento che chiude il passo `step` (contato da 0).

    The schedule read at step + 1, so the first update already moves.
    """
    return warmup_cosine_lr(step + 1, opt.lr, opt.warmup, opt.total_steps, opt.floor)


def clip_factor(norm, clip):
    """Il fattore che riporta la norma del gradiente a clip quando la supera."""
    return 1.0 if clip is None or norm <= clip else clip / norm


def adam_update(p, g, m, v, lr, k, opt, t):
    """Adam su una lista di pesi: m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g², p ← p − lr·m̂/(√v̂ + ε).

    m̂ = m/(1−β₁ᵗ) and v̂ = v/(1−β₂ᵗ) undo the pull towards 0 of the first
    steps; g is first multiplied by the clipping factor k. The corrections
    are folded into lr and ε, so each entry costs a few multiplications.
    """
    b1, b2 = opt.beta1, opt.beta2
    gm, gv = (1.0 - b1) * k, (1.0 - b2) * k * k
    root = math.sqrt(1.0 - b2**t)
    step, eps = lr * root / (1.0 - b1**t), opt.eps * root
    m = [b1 * a + gm * x for a, x in zip(m, g)]
    v = [b2 * a + gv * x * x for a, x in zip(v, g)]
    p = [w - step * a / (s + eps) for w, a, s in zip(p, m, map(math.sqrt, v))]
    return p, m, v


def sgd_tensor(p, g, lr):
    """La discesa del gradiente semplice p ← p − lr·g, su un vettore o su una matrice."""
    if not isinstance(p[0], list):
        return [w - lr * x for w, x in zip(p, g)]
    return [[w - lr * x for w, x in zip(pr, gr)] for pr, gr in zip(p, g)]


def apply_gradients(state, grads, opt):
    """Un aggiornamento dell'ottimizzatore: clipping, learning rate del passo, Adam o SGD.

    Returns the new state and the norm of the gradient before clipping.
    """
    norm = grad_norm(grads)
    k, lr = clip_factor(norm, opt.clip), learning_rate(state.step, opt)
    if opt.kind == "sgd":
        params = {name: sgd_tensor(p, grads[name], lr * k) for name, p in state.params.items()}
        return TrainState(params, state.m, state.v, state.step + 1), norm
    params, m, v, t = {}, {}, {}, state.step + 1
    for name, p in state.params.items():
        new, m[name], v[name] = adam_update(flat(p), flat(grads[name]), state.m[name], state.v[name], lr, k, opt, t)
        params[name] = shaped(new, p)
    return TrainState(params, m, v, t), norm
