"""The timeline of a stepped lab, drawn by Python for every step.

The page has the moving parts (scrubber, «Avanti», «Indietro», Play); this
module writes what depends on the step and the state: the one step counter
(«Passo 12 di 80»), the phases as chips, the named jumps and the curve so
far. Chips and jumps are `data-set` buttons, so the runtime needs to know
nothing about them. The prerendered page and the live one use this same code.

A machine that stops before the last step says so in its state
(stepping.ended): the counter then counts to where it stopped («Fusione 5
di 5 · finito»), whatever step was asked past it, no jump goes beyond, and
the counter carries the step (data-step-end) for the runtime, which ends the
scrubber and «Avanti» there.
"""

from .controls import Jump
from .html import Html
from .html import join
from .html import num
from .html import svg_number
from .html import tag
from .stepping import ENDED
from .svg import amount
from .svg import described


def round_length(steps):
    return len(steps.phases) - steps.prelude


def phase_of(steps, step):
    """Index in steps.phases of the phase shown at this step (None without phases)."""
    if not steps.phases:
        return None
    if step < steps.prelude:
        return step
    return steps.prelude + (step - steps.prelude) % round_length(steps)


def round_start(steps, step):
    """First step of the round that contains step (0 inside the prelude)."""
    if step < steps.prelude:
        return 0
    return step - (step - steps.prelude) % round_length(steps)


def end_of(steps, state):
    """The step where the machine stopped before the last one (stepping.ended), or None."""
    end = state.get(ENDED) if isinstance(state, dict) else None
    at = end.get("at") if isinstance(end, dict) else None
    return at if isinstance(at, int) and 0 <= at < steps.max else None


def last_step(steps, state):
    """The last step there is: where the machine stopped, else the timeline's last."""
    end = end_of(steps, state)
    return steps.max if end is None else end


def phase_target(steps, step, index, last=None):
    """The step showing phase `index` in the current round (the prelude's phases happen once), at most last."""
    if index < steps.prelude:
        return min(index, steps.max if last is None else last)
    start = round_start(steps, step) if step >= steps.prelude else steps.prelude
    return min(steps.max if last is None else last, start + index - steps.prelude)


def default_jumps(steps):
    jumps = [Jump("fine del giro", "giro")] if round_length(steps) > 1 else []
    jumps += [Jump(f"+{n}", n) for n in (10, 100) if steps.max >= 2 * n]
    return [*steps.jumps, *jumps, Jump("fine", "fine")]


def jump_target(steps, jump, step, state):
    """Where a jump lands from step, or None when it would not move (never past the last step)."""
    last = last_step(steps, state)
    step = min(step, last)
    if jump.to == "fine":
        target = last
    elif jump.to == "giro":
        target = phase_target(steps, step, len(steps.phases) - 1)
        if target <= step:  # already at the end of a round: the end of the next one
            target = phase_target(steps, step + 1, len(steps.phases) - 1)
    elif callable(jump.to):
        target = jump.to(state)
    else:
        target = step + jump.to
    if target is None:
        return None
    target = min(last, max(0, int(target)))
    return None if target == step else target


def counter(steps, step, state=None):
    """The one wording of the step counter: «Passo 12 di 80 · Forward»; at or past the step where the
    machine stopped, «Fusione 5 di 5 · finito»."""
    end = end_of(steps, state)
    if end is not None and step >= end:
        return f"{steps.label} {num(end)} di {num(end)} · {state[ENDED].get('word') or 'finito'}"
    text = f"{steps.label} {num(step)} di {num(steps.max)}"
    index = phase_of(steps, step)
    return text if index is None else f"{text} · {steps.phases[index]}"


def sparkline(curve, values, width=240, height=56):
    """The curve so far, with its axes fixed by curve.points: it grows and never shows the future
    (an empty frame before the first value, so the page does not jump)."""
    total = max(curve.points, len(values), 2)
    high = max(values, default=1.0) or 1.0
    low = min([0.0, *values])
    x = lambda i: 4 + (width - 8) * i / (total - 1)  # noqa: E731
    y = lambda v: height - 4 - (height - 8) * (v - low) / ((high - low) or 1.0)  # noqa: E731
    points = " ".join(f"{svg_number(x(i))},{svg_number(y(v))}" for i, v in enumerate(values))
    last = len(values) - 1
    label = f"Andamento di {curve.label} finora"
    desc, note, describedby = described(label, describe_spark(values))
    return join(
        tag(
            "svg",
            tag("title", f"{curve.label}: {len(values)} valori finora"),
            desc,
            tag("polyline", points=points, class_="lab-spark-line") if values else None,
            tag("circle", cx=x(last), cy=y(values[last]), r=3, class_="lab-spark-dot") if values else None,
            viewBox=f"0 0 {width} {height}",
            class_="lab-spark",
            role="img",
            aria_label=label,
            aria_describedby=describedby,
        ),
        note,
    )


def describe_spark(values):
    """«12 valori: dal primo, 2,68, all'ultimo, 1,2; il più basso 1,1.»"""
    if not values:
        return "Ancora nessun valore."
    if len(values) == 1:
        return f"Un valore: {amount(values[0])}."
    text_ = f"{num(len(values))} valori: dal primo, {amount(values[0])}, all'ultimo, {amount(values[-1])}"
    low, high = min(values), max(values)
    if low < min(values[0], values[-1]):
        text_ += f"; il più basso {amount(low)}"
    if high > max(values[0], values[-1]):
        text_ += f"; il più alto {amount(high)}"
    return text_ + "."


def timeline(steps, step, state):
    """Counter, phase chips, jumps and curve for this step: the part of the timeline that Python draws."""
    end = end_of(steps, state)
    last = steps.max if end is None else end
    parts = [
        tag("p", counter(steps, step, state), class_="lab-step-counter", data_step_counter=True, data_step_end=end)
    ]
    step = min(step, last)
    if steps.phases:
        now = phase_of(steps, step)
        parts.append(
            tag(
                "div",
                *(
                    tag(
                        "button",
                        name,
                        type="button",
                        class_="lab-chip" + (" is-current" if i == now else ""),
                        data_set=f"{steps.name}={phase_target(steps, step, i, last)}",
                        aria_current="step" if i == now else None,
                    )
                    for i, name in enumerate(steps.phases)
                ),
                class_="lab-chips",
                role="group",
                aria_label="Fasi",
            )
        )
    jumps = [(j.label, jump_target(steps, j, step, state)) for j in default_jumps(steps)]
    parts.append(
        tag(
            "div",
            *(
                tag(
                    "button",
                    label,
                    type="button",
                    class_="lab-jump",
                    data_set=None if target is None else f"{steps.name}={target}",
                    disabled=target is None,
                    title=None if target is None else f"vai al passo {num(target)}",
                )
                for label, target in jumps
            ),
            class_="lab-jumps",
            role="group",
            aria_label="Salti",
        )
    )
    if steps.curve:
        values = state.get(steps.curve.key) or []
        now = num(values[-1], 3) if values else "ancora nessun valore"
        parts.append(
            tag(
                "figure",
                sparkline(steps.curve, values),
                tag("figcaption", f"{steps.curve.label}: {now}"),
                class_="lab-spark-figure",
            )
        )
    return Html(tag("div", *parts, class_="lab-timeline-info"))
