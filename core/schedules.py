"""The numbers of the training phases after the first loss of chapter 2.

A learning rate that changes with the step (warm-up, then cosine decay);
the SFT loss, counted on the answer only; the DPO loss on a pair of
answers; GRPO's advantages inside a group of attempts; the KL divergence
between a student's and a teacher's next-token distributions.
"""

import math

from core.stats import mean, std


def warmup_cosine_lr(step, peak, warmup, total, floor=0.1):
    """The learning rate at step: it climbs in a straight line from 0 to peak
    over the first warmup steps, then follows half a cosine down to
    floor·peak at step total, and stays there.

    η(t) = peak·t/W for t < W;  η(t) = η_min + (peak − η_min)·½(1 + cos(π·(t − W)/(T − W))).
    """
    warmup = min(warmup, total)
    low = floor * peak
    if step < warmup:
        return peak * step / warmup
    if step >= total:
        return low if total > warmup else peak
    progress = (step - warmup) / (total - warmup)
    return low + (peak - low) * 0.5 * (1 + math.cos(math.pi * progress))


def masked_mean(values, mask):
    """Σ mᵢ·vᵢ / Σ mᵢ: the mean over the positions whose mask is 1."""
    count = math.fsum(mask)
    if count <= 0:
        raise ValueError("la maschera non seleziona nessuna posizione")
    return math.fsum(m * v for m, v in zip(mask, values)) / count


def sft_loss(probabilities, mask):
    """Supervised fine-tuning: −log p of each token, averaged over the tokens
    of the answer only (mask 1). The prompt's tokens are still read as
    context, but how well the model would have predicted them does not count."""
    return masked_mean([-math.log(p) for p in probabilities], mask)


def log_sigmoid(x):
    """log σ(x) = −log(1 + e^(−x)), written so that no exponential overflows."""
    return -(max(-x, 0.0) + math.log1p(math.exp(-abs(x))))


def sigmoid(x):
    """σ(x) = 1 / (1 + e^(−x)), stable for large |x| of either sign."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def dpo_margin(chosen, ref_chosen, rejected, ref_rejected, beta):
    """β·(Δ_c − Δ_r), with Δ = log π(answer) − log π_ref(answer): how much
    more the model has raised the chosen answer than the rejected one,
    each measured against the frozen reference model."""
    return beta * ((chosen - ref_chosen) - (rejected - ref_rejected))


def dpo_loss(chosen, ref_chosen, rejected, ref_rejected, beta):
    """−log σ(margin): log 2 when the model has moved neither answer, → 0 as
    the margin grows, ≈ −margin when the model prefers the rejected one."""
    return -log_sigmoid(dpo_margin(chosen, ref_chosen, rejected, ref_rejected, beta))


def dpo_gradient(chosen, ref_chosen, rejected, ref_rejected, beta):
    """∂loss/∂log π(chosen) and ∂loss/∂log π(rejected): −β·σ(−margin) and
    +β·σ(−margin). Training moves against them, raising the chosen answer and
    lowering the rejected one, hard while the pair is wrong, hardly at all
    once it is well separated."""
    weight = beta * sigmoid(-dpo_margin(chosen, ref_chosen, rejected, ref_rejected, beta))
    return -weight, weight


def grpo_advantages(rewards):
    """(rᵢ − mean) / std inside one group of answers to the same prompt: above
    the group's mean is reinforced, below it discouraged.

    std is the population one (÷ n); some libraries divide by n − 1, which
    scales every advantage by the same factor. When every answer got the same
    reward the std is 0 and so is every advantage: the group teaches nothing.
    """
    centre, spread = mean(rewards), std(rewards)
    if spread < 1e-12:
        return [0.0 for _ in rewards]
    return [(r - centre) / spread for r in rewards]


def kl_divergence(p, q):
    """KL(p ‖ q) = Σ pᵢ·log(pᵢ/qᵢ) ≥ 0, zero only when p = q. A term with pᵢ = 0
    counts 0; qᵢ must be positive wherever pᵢ is."""
    return math.fsum(pi * (math.log(pi) - math.log(qi)) for pi, qi in zip(p, q) if pi > 0)


def reverse_kl(student, teacher):
    """KL(student ‖ teacher), the loss of on-policy distillation at one token:
    weighted by the student's own probabilities, so it is large where the
    student puts mass on tokens the teacher finds unlikely."""
    return kl_divergence(student, teacher)
