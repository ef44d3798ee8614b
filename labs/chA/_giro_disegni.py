"""I disegni che le schermate di A.6 condividono: un vettore come barre (con il valore di prima tratteggiato e la
dimensione che è cambiata di più), la striscia dei 64 neuroni del feed-forward, le barre di un token per testa."""

from labs.chA._giro_modello import CONFIG
from labs.chA._giro_modello import VOCAB
from labs.kit import Bar
from labs.kit import bars
from labs.kit import formula
from labs.kit import num
from labs.kit import shape_label
from labs.kit import tag
from labs.kit.html import digits_each
from labs.kit.svg import group
from labs.kit.svg import line
from labs.kit.svg import quoted
from labs.kit.svg import rect
from labs.kit.svg import svg
from labs.kit.svg import text

D, DH, H, F = CONFIG.d_model, CONFIG.d_head, CONFIG.n_heads, CONFIG.d_ffn
DIMS = tuple(f"d{j + 1}" for j in range(D))


def word(i):
    return quoted(VOCAB[i])


def cap(text_):
    return text_[:1].upper() + text_[1:]


def shapes(operation, *parts):
    """The operation, then its shapes: tuples become [1 × n], strings are the operators between them."""
    return formula(
        tag("span", operation, class_="lab-giro-del-token-op"),
        " ",
        tag("span", *(shape_label(*p) if isinstance(p, tuple) else p for p in parts), class_="lab-giro-del-token-dims"),
    )


def vector_bars(after, before, label, before_label, names=DIMS, cls="sign", lo=None, digits=2):
    """One bar per dimension, the dashed outline is the vector before this step; the dimension that moved
    most is lit, and a legend says what the bars of the unnamed dimensions tell. digits: the decimals the
    screen writes these numbers with (a bar that would read as another gets more, in the legend too)."""
    every = [abs(v) for v in after + (before or [])]
    hi = max(every + [1e-9]) * 1.05
    most = None if before is None else max(range(len(after)), key=lambda j: (abs(after[j] - before[j]), -j))
    items = [
        Bar(n, v, class_=cls, before=None if before is None else before[j], highlight=j == most)
        for j, (n, v) in enumerate(zip(names, after))
    ]
    figure = bars(
        items,
        label=label,
        lo=-hi if lo is None else lo,
        hi=hi,
        before_label=before_label if before else "",
        row_height=24,
        part="barre",
        digits=digits,
    )
    if names != DIMS:
        return figure
    shown = digits_each(after, digits)[most] if most is not None else digits
    return tag("div", figure, legend(after, before, most, shown), class_="lab-giro-del-token-bars")


def legend(after, before, most, digits=2):
    """What a reader can read from the bars of dimensions that have no name."""
    said = [
        f"Ogni barra è una delle {D} dimensioni del vettore: nessuna ha un nome, il training le ha usate come "
        "gli servivano. La barra dice il valore: verso destra se è positivo, verso sinistra se è negativo, "
        "più lunga quanto più è grande."
    ]
    if before is not None:
        said.append(
            f"Il tratteggio è il valore prima di questa operazione; in evidenza {DIMS[most]}, la dimensione "
            f"cambiata di più (da {num(before[most], digits)} a {num(after[most], digits)})."
        )
    return tag("p", " ".join(said), class_="lab-giro-del-token-legend", data_part="legenda")


def moved(before, after, names=DIMS):
    """The dimension that moved most, in words."""
    j = max(range(len(after)), key=lambda j: (abs(after[j] - before[j]), -j))
    return f"la dimensione che si sposta di più è {names[j]}, da {num(before[j])} a {num(after[j])}"


def rms_of(n):
    return 1.0 / n["inv_rms"]  # √(mean of the squares + ε), as RMSNorm divides by it


def strip_description(values):
    """The strip in words: how many neurons are above, at and below zero, and the two extremes."""
    top = max(range(len(values)), key=lambda k: values[k])
    low = min(range(len(values)), key=lambda k: values[k])
    signs = [sum(1 for v in values if v > 0), sum(1 for v in values if v == 0), sum(1 for v in values if v < 0)]
    return (
        f"{len(values)} neuroni: {signs[0]} sopra lo zero, {signs[1]} a zero, {signs[2]} sotto; il più alto è "
        f"il neurone {top + 1} ({num(values[top])}), il più basso il neurone {low + 1} ({num(values[low])})."
    )


def strip(values, before, label):
    """The 64 numbers of the feed-forward as thin bars around zero, the dashed ones before this step."""
    col, pad, height, mid, reach = 6, 20, 160, 72, 56  # reach: the tallest bar, above or below the zero line
    width = len(values) * col + 2 * pad
    hi = max([abs(v) for v in values + (before or [])] + [1e-9])
    y = lambda v: mid - reach * v / hi  # noqa: E731
    parts = [line(pad, mid, width - pad, mid, class_="lab-bar-zero")]
    for k, v in enumerate(values):
        x = pad + k * col
        cls = "muted" if v == 0 else "pos" if v > 0 else "neg"
        shape = [
            tag("title", f"neurone {k + 1}: {num(v)}"),
            rect(x + 0.5, min(mid, y(v)), col - 1, abs(y(v) - mid), class_=f"lab-bar {cls}"),
        ]
        if before is not None and before[k] != v:
            shape.append(
                rect(x + 0.5, min(mid, y(before[k])), col - 1, abs(y(before[k]) - mid), class_="lab-bar-before")
            )
        parts.append(group(*shape, data_value=round(v, 12)))
    for k in (1, 16, 32, 48, 64):
        parts.append(text(pad + (k - 0.5) * col, height - 14, str(k), class_="lab-bar-label"))
    return tag(
        "div",
        svg(
            width,
            height,
            *parts,
            label=label,
            class_="lab-svg lab-bars",
            text=14,
            description=strip_description(values),
        ),
        class_="lab-giro-del-token-strip",
        data_part="barre",
    )


def head_span(h):
    return f"d{h * DH + 1}–d{(h + 1) * DH}"


def token_bars(s, per_head, texts, lo, hi, before=None, before_label=""):
    """One bar per token of the sentence: the visible ones carry a value, the later ones are hidden."""
    pos, items = s["position"], []
    for k, i in enumerate(s["ids"]):
        if k <= pos:
            items.append(
                Bar(
                    f"{k}. {VOCAB[i]}",
                    per_head[k],
                    text=texts[k],
                    highlight=k == pos,
                    class_="sign",
                    before=None if before is None else before[k],
                )
            )
        else:
            items.append(Bar(f"{k}. {VOCAB[i]}", 0.0, text="nascosto (−∞)", class_="muted"))
    return items, dict(lo=lo, hi=hi, before_label=before_label)
