"""Horizontal bars, one row per item: the probabilities of the candidate
tokens, the gradient of each logit, a row of a bigram table.

An SVG like the charts, so it scales with its box: the item's name on the
left, its bar, its number on the right in a column of its own (a number
never sits on a bar or on a name). Values live in [lo, hi]; when lo < 0 < hi
the bars grow left or right from a zero line, so a signed value reads at a
glance. Numbers are written with two decimals (or the lab's), and a bar that
would read the same as another different one with as many more as tell them
apart: the others keep the decimals the rest of the view writes them with.
A previous value (before) is drawn as a dashed outline, to show what a
change did.

Colours come from CSS classes («kit: bars» in labs.css): every bar takes one
of s1, s2, s3, s4, pos, neg, target, muted; "sign" picks pos or neg by the
sign of the value.
"""

import math
from dataclasses import KW_ONLY
from dataclasses import dataclass

from .html import digits_each
from .html import labelled
from .html import num
from .html import tag
from .svg import counted
from .svg import description_text
from .svg import frame
from .svg import group
from .svg import line
from .svg import rect
from .svg import svg
from .svg import text

CHAR = 7.8  # width of a character of 14px text, roughly: the columns are sized from it
TEXT = 14  # the size of every text of the bars (.lab-bar-label, -value, -legend in labs.css), in user units


@dataclass(frozen=True)
class Bar:
    """One row: label on the left, value as a bar, text (by default the
    value, Italian) on the right. highlight makes the row stand out; action
    is a data-set string that makes the row a button (spoken is read aloud)."""

    label: str
    value: float
    _: KW_ONLY
    text: str | None = None
    class_: str = "s1"
    highlight: bool = False
    before: float | None = None
    action: str | None = None
    spoken: str = ""


def finite(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def describe_bars(items, texts):
    """«3 barre. Valore più alto: gatto, 62 %; più basso: topo, 7 %.»: the
    count, the highest and lowest bar with the text they show, and the row
    in evidence when it is neither."""
    head = counted(len(items), "barra", "barre", feminine=True)
    shown = [(b, t) for b, t in zip(items, texts) if finite(b.value)]
    if not shown:
        return f"{head.capitalize()}, senza valori."
    top = max(shown, key=lambda bt: bt[0].value)
    low = min(shown, key=lambda bt: bt[0].value)

    def who(bt):
        ties = sum(1 for b, _ in shown if b.value == bt[0].value) - 1
        more = " (e un'altra)" if ties == 1 else f" (e altre {ties})" if ties else ""
        return f"{bt[0].label}{more}, {bt[1]}"

    if len(shown) == 1:
        text_ = f"{head.capitalize()}: {who(top)}."
    elif top[0].value == low[0].value:
        text_ = f"{head.capitalize()}, tutte a {top[1]}."
    else:
        text_ = f"{head.capitalize()}. Valore più alto: {who(top)}; più basso: {who(low)}."
    marked = [bt for bt in shown if bt[0].highlight]
    if len(marked) == 1 and marked[0][0].value not in (top[0].value, low[0].value):
        text_ += f" In evidenza: {marked[0][0].label}, {marked[0][1]}."
    return text_


def bars(
    items,
    *,
    label,
    lo=0.0,
    hi=1.0,
    before_label="",
    width=420,
    row_height=30,
    part=None,
    description=None,
    digits=2,
    quantity=None,
):
    """Bars for items (a list of Bar) on a common scale from lo to hi.

    Values outside the range are cut at its edge (the text still says the
    true number). before_label names the dashed outlines in a legend. The
    drawing is at least wide enough for the names, the numbers and a bar of
    120 units between them: long names make it wider, and on a narrow
    screen its frame scrolls rather than the text shrinking.

    digits: the decimals of a bar's number, the ones the lab writes that quantity with elsewhere in the view;
    a bar that would read the same as another different one gets as many more as tell them apart.
    quantity: what the bars' numbers are numbers of (by default the label), for the test of one quantity
    with one number of decimals in a view.

    description: what a screen reader hears after the label. By default the
    number of bars, the highest and the lowest with their text; a string
    replaces it, a function gets it and returns the sentence to use.
    """
    if not hi > lo:
        lo, hi = lo - 0.5, hi + 0.5
    signed = lo < 0 < hi
    each = digits_each([b.value if b.text is None else None for b in items], digits)  # more where bars read alike
    texts = [
        b.text
        if b.text is not None
        else num(b.value, d, signed=signed, quantity=quantity or label)
        if finite(b.value)
        else "—"
        for b, d in zip(items, each)
    ]
    left = 12 + CHAR * max((len(b.label) for b in items), default=1)
    right = 12 + CHAR * max((len(t) for t in texts), default=1)
    width = max(width, left + right + 120)
    x0, x1 = left, width - right
    top = 30 if before_label and any(b.before is not None for b in items) else 6

    def x(v):
        v = min(hi, max(lo, v)) if finite(v) else (0.0 if signed else lo)
        return x0 + (v - lo) / (hi - lo) * (x1 - x0)

    base = x(0.0) if signed else x(lo)
    bar_h = round(row_height * 0.6, 1)
    rows = []
    for i, (b, shown) in enumerate(zip(items, texts)):
        y = top + i * row_height
        mid = y + row_height / 2
        end = x(b.value)
        cls = b.class_
        if cls == "sign":
            cls = "neg" if finite(b.value) and b.value < 0 else "pos"
        parts = [tag("title", f"{b.label}: {shown}")]
        if b.highlight:
            parts.append(rect(0, y + 1, width, row_height - 2, class_="lab-bar-hl", rx=4))
        parts.append(rect(x0, mid - bar_h / 2, x1 - x0, bar_h, class_="lab-bar-track"))
        parts.append(rect(min(base, end), mid - bar_h / 2, abs(end - base), bar_h, class_=f"lab-bar {cls}"))
        if b.before is not None and finite(b.before):
            start = x(b.before)
            parts.append(
                rect(min(base, start), mid - bar_h / 2 - 2, abs(start - base), bar_h + 4, class_="lab-bar-before")
            )
        parts.append(text(x0 - 8, mid, b.label, class_="lab-bar-label", anchor="end"))
        parts.append(
            text(
                width - 4,
                mid,
                shown,
                class_="lab-bar-value",
                anchor="end",
                data_labelled=labelled(b.value) if finite(b.value) else None,
            )
        )
        attrs = {
            "class_": "lab-bar-row" + (" is-hl" if b.highlight else ""),
            "data_value": round(b.value, 12) if finite(b.value) else None,
        }
        if b.action:
            # no aria-label: the row's <title> names it with what it shows (label and value), then what pressing it does
            attrs.update(data_set=b.action, tabindex="0", role="button")
            if b.spoken:
                parts[0] = tag("title", f"{b.label}: {shown} — {b.spoken}")
        rows.append(group(*parts, **attrs))
    bottom = top + len(items) * row_height
    extra = []
    if signed:
        extra.append(line(base, top - 2, base, bottom + 2, class_="lab-bar-zero"))
    if top > 6:
        extra.append(
            group(
                rect(x0, 8, 22, 12, class_="lab-bar-before"),
                text(x0 + 30, 14, before_label, class_="lab-bar-legend", anchor="start"),
            )
        )
    drawing, narrowest = svg(
        width,
        bottom + 6,
        *rows,
        *extra,
        label=label,
        class_="lab-svg lab-bars",
        text=TEXT,
        framed=False,
        description=description_text(description, lambda: describe_bars(items, texts)),
    )
    return frame(drawing, narrowest, data_part=part)


__all__ = ["Bar", "bars"]
