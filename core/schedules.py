"""The learning rate of a training run, step by step: a warm-up, then a
cosine decay (the schedule of Llama 2).
"""

import math


def warmup_cosine_lr(step, peak, warmup, total, floor=0.1):
    """Il learning rate al passo step: sale in linea retta nel warm-up, poi scende a mezzo coseno.

    The learning rate at step: it climbs in a straight line from 0 to peak
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
