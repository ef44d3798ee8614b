"""The losses of the training that comes after pretraining (chapter 4).

SFT: the usual −log p, counted on the answer only. DPO: a loss on a pair of
answers, pushing the chosen one up and the rejected one down, each measured
against a frozen reference model. GRPO: each attempt's advantage inside a
group of attempts at the same prompt. Distillation: the KL divergence
between a student's and a teacher's next-token distributions.
"""

import math

from core.activations import log_sigmoid, sigmoid
from core.stats import fmean, pstdev


def masked_mean(values, mask):
    """La media Σ mᵢ·vᵢ / Σ mᵢ, solo sulle posizioni con maschera 1."""
    count = math.fsum(mask)
    if count <= 0:
        raise ValueError("la maschera non seleziona nessuna posizione")
    return math.fsum(m * v for m, v in zip(mask, values)) / count


def sft_loss(probabilities, mask):
    """La loss del fine-tuning supervisionato: −log p mediato sui soli token della risposta.

    Supervised fine-tuning: −log p of each token, averaged over the tokens
    of the answer only (mask 1). The prompt's tokens are still read as
    context, but how well the model would have predicted them does not count.
    """
    return masked_mean([-math.log(p) for p in probabilities], mask)


def dpo_margin(chosen, ref_chosen, rejected, ref_rejected, beta):
    """Il margine DPO β·(Δ_c − Δ_r): quanto il modello ha alzato la risposta scelta più della scartata.

    β·(Δ_c − Δ_r), with Δ = log π(answer) − log π_ref(answer): how much
    more the model has raised the chosen answer than the rejected one,
    each measured against the frozen reference model.
    """
    return beta * ((chosen - ref_chosen) - (rejected - ref_rejected))


def dpo_loss(chosen, ref_chosen, rejected, ref_rejected, beta):
    """La loss DPO, −log σ(margine): log 2 se il modello non si è mosso, verso 0 se il margine cresce.

    −log σ(margin): log 2 when the model has moved neither answer, → 0 as
    the margin grows, ≈ −margin when the model prefers the rejected one.
    """
    return -log_sigmoid(dpo_margin(chosen, ref_chosen, rejected, ref_rejected, beta))


def dpo_gradient(chosen, ref_chosen, rejected, ref_rejected, beta):
    """Le derivate della loss DPO rispetto ai log π delle due risposte: −β·σ(−margine) e +β·σ(−margine).

    ∂loss/∂log π(chosen) and ∂loss/∂log π(rejected): −β·σ(−margin) and
    +β·σ(−margin). Training moves against them, raising the chosen answer and
    lowering the rejected one, hard while the pair is wrong, hardly at all
    once it is well separated.
    """
    weight = beta * sigmoid(-dpo_margin(chosen, ref_chosen, rejected, ref_rejected, beta))
    return -weight, weight


def grpo_advantages(rewards):
    """Il vantaggio GRPO (rᵢ − media) / dev. std dentro un gruppo di risposte allo stesso prompt.

    (rᵢ − mean) / std inside one group of answers to the same prompt: above
    the group's mean is reinforced, below it discouraged.

    std is the population one (÷ n); some libraries divide by n − 1, which
    scales every advantage by the same factor. When every answer got the same
    reward the std is 0 and so is every advantage: the group teaches nothing.
    """
    centre, spread = fmean(rewards), pstdev(rewards)
    if spread < 1e-12:
        return [0.0 for _ in rewards]
    return [(r - centre) / spread for r in rewards]


def kl_divergence(p, q):
    """La divergenza KL(p ‖ q) = Σ pᵢ·log(pᵢ/qᵢ): mai negativa, zero solo se p = q.

    KL(p ‖ q) = Σ pᵢ·log(pᵢ/qᵢ) ≥ 0, zero only when p = q. A term with pᵢ = 0
    counts 0; qᵢ must be positive wherever pᵢ is.
    """
    return math.fsum(pi * (math.log(pi) - math.log(qi)) for pi, qi in zip(p, q) if pi > 0)


def reverse_kl(student, teacher):
    """La KL inversa KL(studente ‖ insegnante): la loss della distillazione on-policy su un token.

    KL(student ‖ teacher), the loss of on-policy distillation at one token:
    weighted by the student's own probabilities, so it is large where the
    student puts mass on tokens the teacher finds unlikely.
    """
    return kl_divergence(student, teacher)
