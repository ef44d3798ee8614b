"""What a line chart says to a screen reader: each series in a sentence (where it starts, ends, peaks),
the handles' places, remembered while the lines do not move."""

from .memory import Memory
from .memory import typed
from .scales import finite_points
from .svg import amount
from .svg import quoted

SERIES_TOLD = 3  # a description names this many series at most: a sentence, not the data
TOLD_LENGTH = 240  # characters: a further series is told only while the sentence stays this short


def x_words(x_label):
    """How a description names a place on the x axis: «passo 4» for the x
    label «passo di training» (its first word), «η = 0,5» for a symbol."""
    word = (x_label.split("(")[0].split() or ["x"])[0]
    return (lambda x: f"{word} = {amount(x)}") if len(word) == 1 else (lambda x: f"{word} {amount(x)}")


def describe_series(s, where, whole_x):
    """«loss scende da 2,3 a 0,741, minimo 0,5 (passo 3)»: where a series
    starts and ends (and at which x, unless whole_x: every series told spans
    the same x), and its extremes when they lie between."""
    name = quoted(s.label) if s.label else "la curva"
    points = finite_points(s.points)
    if not points:
        return f"{name}: nessun punto"
    (x0, y0), (x1, y1) = points[0], points[-1]
    if len(points) == 1:
        return f"{name}: un punto, {amount(y0)} ({where(x0)})"
    # a difference far below the series' own size is rounding, not a rise (sin(πx) at −1 and 1)
    ys = [y for _, y in points]
    noise = 1e-12 * max(map(abs, ys))
    say = lambda y: "0" if abs(y) <= noise else amount(y)  # noqa: E731
    low, high = points[ys.index(min(ys))], points[ys.index(max(ys))]  # the first lowest and highest
    if not s.line:  # dots in no order: where the lowest and the highest are
        return (
            f"{name + ': ' if s.label else ''}{len(points)} punti, il più basso {say(low[1])} ({where(low[0])}), "
            f"il più alto {say(high[1])} ({where(high[0])})"
        )
    ends = f"da {say(y0)} a {say(y1)}" if whole_x else f"da {say(y0)} ({where(x0)}) a {say(y1)} ({where(x1)})"
    if y1 - y0 > noise or y0 - y1 > noise:
        text_ = f"{name} {'sale' if y1 > y0 else 'scende'} {ends}"
    elif all(abs(y - y0) <= noise for _, y in points):
        return f"{name} resta a {say(y0)}"
    else:
        text_ = f"{name} vale {say(y0)} all'inizio e alla fine"
    if low[1] < min(y0, y1) - noise:
        text_ += f", minimo {say(low[1])} ({where(low[0])})"
    if high[1] > max(y0, y1) + noise:
        text_ += f", massimo {say(high[1])} ({where(high[0])})"
    return text_


def describe_handles(handles, where):
    """« Punto da trascinare: passo 12, a 0,5.» (its caption too), or how many there are."""
    if len(handles) > 1:
        return f" {len(handles)} punti da trascinare."
    if not handles:
        return ""
    h = handles[0]
    return f" Punto da trascinare: {where(h.x)}, a {amount(h.y)}{f' ({h.caption})' if h.caption else ''}."


TOLD = Memory(32)  # what the last charts' lines say: read again only when they move


def describe_chart(series, x_label, handles=()):
    """What a line chart shows: each series (the first SERIES_TOLD) from
    start to end, with its extremes; the x range once when they share it;
    then the point to drag, where it is. The lines' part is remembered by
    what it reads (TOLD)."""
    key = (typed([(s.label, s.points, s.line) for s in series[:SERIES_TOLD]]), len(series), typed(x_label))
    return TOLD.get(key, lambda: describe_lines(series, x_label)) + describe_handles(handles, x_words(x_label))


def describe_lines(series, x_label):
    """describe_chart()'s sentence on the lines, without the point to drag."""
    told = series[:SERIES_TOLD]
    where = x_words(x_label)
    if not told:
        return "Grafico vuoto."
    # the lines' common x range, said once (a single point and dots always say where they are)
    spans = {(p[0][0], p[-1][0]) for p in (finite_points(s.points) for s in told if s.line) if len(p) > 1}
    whole_x = len(spans) == 1
    head = f"Da {where(min(spans)[0])} a {where(min(spans)[1])}: " if whole_x else ""
    parts = [describe_series(told[0], where, whole_x)]
    for s in told[1:]:
        part = describe_series(s, where, whole_x)
        if len(head) + sum(len(p) + 2 for p in parts) + len(part) > TOLD_LENGTH:
            break
        parts.append(part)
    more = len(series) - len(parts)
    tail = "; e un'altra serie" if more == 1 else f"; e altre {more} serie" if more > 1 else ""
    return head + "; ".join(parts) + tail + "."
