"""Charts as SVG: a histogram and a line chart, with axes, ticks written the
Italian way, a legend, marker lines and draggable handles.

Colours come from CSS classes (labs.css, «kit: chart»): every series, bar,
marker and handle takes one of s1, s2, s3, s4, target, muted.

The plot area is its own nested <svg> whose viewBox is the data rectangle
in pixels, so when handles are present it carries data-plane="xmin xmax
ymin ymax" and the runtime turns a drag into data coordinates exactly.
"""

import bisect
import math
from dataclasses import KW_ONLY, dataclass
from itertools import chain

from core.stats import bin_counts, bin_edges

from .html import Html, attrs_html, digits_apart, escape, labelled, num, svg_number, tag
from .italian import plural
from .label_layout import place_labels, text_box
from .memory import Memory, typed
from .svg import amount, circle, counted, description_text, group, line, path, quoted, rect, svg, text

# The smallest text of a chart, in user units: .lab-chart-tick, -legend and
# -caption in labs.css. A chart never shrinks below the width where it reads
# 11 px (svg.fit); the default width, 420, fits a phone's 358 px.
TEXT = 13


@dataclass(frozen=True)
class Series:
    """A named line through points (x, y); a None or non-finite y breaks it.

    actions, if given, is one (data-set, aria-label) pair per point: the
    markers become buttons that set controls when clicked. labels, if given,
    names each point beside its dot: a text, or (text, side) with side one
    of e, w, n, s, ne, nw, se, sw (e by default), to keep close labels apart.
    """

    label: str
    points: tuple
    _: KW_ONLY
    class_: str = "s1"
    markers: bool = False
    line: bool = True
    dashed: bool = False
    actions: tuple = ()
    labels: tuple = ()


# where a point's label sits, from its dot: dx, dy and the text anchor
LABEL_SIDES = {
    "e": (9, 0, "start"),
    "w": (-9, 0, "end"),
    "n": (0, -12, "middle"),
    "s": (0, 13, "middle"),
    "ne": (6, -10, "start"),
    "nw": (-6, -10, "end"),
    "se": (6, 11, "start"),
    "sw": (-6, 11, "end"),
}


def point_label(px, py, label, class_):
    content, side = label if isinstance(label, tuple) else (label, "e")
    dx, dy, anchor = LABEL_SIDES[side]
    return text(px + dx, py + dy, content, class_=f"lab-chart-caption {class_}", anchor=anchor)


@dataclass(frozen=True)
class Handle:
    """A point the reader drags; x_name and y_name are the sliders it moves
    (None for a coordinate that stays fixed). label is read aloud."""

    x: float
    y: float
    _: KW_ONLY
    x_name: str | None
    y_name: str | None
    label: str
    class_: str = "s1"
    caption: str = ""


@dataclass(frozen=True)
class Marker:
    """A straight line across the plot: vertical at x = at (axis "x") or
    horizontal at y = at (axis "y"). Its label goes in the legend."""

    at: float
    label: str = ""
    _: KW_ONLY
    class_: str = "muted"
    axis: str = "x"
    dashed: bool = True


def finite(v):
    return isinstance(v, (int, float)) and math.isfinite(v)


NUMBERS = {int, float}


def all_finite(values):
    """Whether every value is an int or a float, none infinite or nan: the
    same as all(map(finite, values)) for ints and floats, checked in C (a
    curve has hundreds of points, redrawn at every change). False, never
    wrong, for anything else (a bool, a huge int, a sum that overflows):
    the caller then checks value by value."""
    try:
        return set(map(type, values)) <= NUMBERS and math.isfinite(sum(values))
    except OverflowError:  # an int too large for a float
        return False


def finite_points(points):
    """The (x, y) points whose coordinates are both finite numbers, in order."""
    if points and all_finite([x for x, _ in points]) and all_finite([y for _, y in points]):
        return list(points)
    return [(x, y) for x, y in points if finite(x) and finite(y)]


def decimals(step):
    """The decimals needed to write multiples of step (0.25 → 2, 50 → 0)."""
    for d in range(10):
        if abs(round(step, d) - step) <= 1e-9 * abs(step):
            return d
    return 10


def nice_ticks(lo, hi, count=5):
    """Round tick values (steps of 1, 2, 2.5 or 5 × 10ᵏ) covering [lo, hi],
    about count of them, and the number of decimals they need."""
    span = hi - lo
    if not span > 0:
        return [lo], 2
    magnitude = 10 ** math.floor(math.log10(span / count))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if span / (m * magnitude) <= count)
    first = math.ceil(lo / step - 1e-9)
    ticks = [round(k * step, 12) for k in range(first, math.floor(hi / step + 1e-9) + 1)]
    return ticks, decimals(step)


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_label(value):
    """A power of ten for a log axis: 0,01 … 10.000 in full, else 10⁻⁵."""
    k = round(math.log10(value))
    if -3 <= k <= 4:
        return num(10.0**k, max(0, -k))
    return "10" + str(k).translate(SUPERSCRIPT)


def is_power_of_ten(v):
    return v > 0 and abs(math.log10(v) - round(math.log10(v))) < 1e-9


def log_ticks(lo, hi):
    return [10.0**k for k in range(math.ceil(math.log10(lo) - 1e-9), math.floor(math.log10(hi) + 1e-9) + 1)]


class Scale:
    """Data value → pixel along one axis, linear or logarithmic."""

    def __init__(self, lo, hi, start, end, log=False):
        if log and not 0 < lo < hi:
            raise ValueError("una scala logaritmica vuole 0 < minimo < massimo")
        if not lo < hi:
            lo, hi = lo - 0.5, hi + 0.5
        self.lo, self.hi, self.start, self.end, self.log = lo, hi, start, end, log

    def __call__(self, v):
        if self.log:
            t = (math.log10(v) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo)) if v > 0 else -10
        else:
            t = (v - self.lo) / (self.hi - self.lo)
        # far-away values stay far away (the plot clips them) but finite and short
        return self.start + max(-10.0, min(11.0, t)) * (self.end - self.start)

    def many(self, values):
        """[self(v) for v in values] for finite numbers, in one pass (a curve has hundreds of points)."""
        if self.log:
            lo = math.log10(self.lo)
            width = math.log10(self.hi) - lo
            ts = [(math.log10(v) - lo) / width if v > 0 else -10 for v in values]
        else:
            lo, width = self.lo, self.hi - self.lo
            ts = [(v - lo) / width for v in values]
        start, span = self.start, self.end - self.start
        return [start + ((t if t < 11.0 else 11.0) if t > -10.0 else -10.0) * span for t in ts]

    def ticks(self, given=None, count=5):
        """(value, label) pairs: given ones (values or pairs), else automatic."""
        if given is not None:
            pairs = [t if isinstance(t, tuple) else (t, None) for t in given]
            digits = max((decimals(v) for v, label in pairs if label is None and finite(v)), default=0)
            digits = digits_apart([v for v, label in pairs if label is None], min(digits, 6), 10)
            return [
                (
                    v,
                    label
                    if label is not None
                    else power_label(v)
                    if self.log and is_power_of_ten(v)
                    else num(float(v), digits),
                )
                for v, label in pairs
            ]
        if self.log:
            return [(v, power_label(v)) for v in log_ticks(self.lo, self.hi)]
        values, digits = nice_ticks(self.lo, self.hi, count)
        return [(v, num(float(v), digits)) for v in values]


def data_range(values, fixed, log=False, pad=0.05):
    """The axis range: fixed if given, else the data's with a little room."""
    if fixed is not None:
        return fixed
    if log or not all_finite(values):
        values = [v for v in values if finite(v) and (v > 0 or not log)]
    if not values:
        return (0.1, 1.0) if log else (0.0, 1.0)
    lo, hi = min(values), max(values)
    if log:
        low, high = math.floor(math.log10(lo) + 1e-9), math.ceil(math.log10(hi) - 1e-9)
        return 10.0**low, 10.0 ** max(high, low + 1)
    if hi == lo:
        return lo - 1, hi + 1
    room = (hi - lo) * pad
    return lo - room, hi + room


def legend_rows(items, width, left):
    """Legend entries (label, class, kind) laid out in rows: [(x, y, item)]."""
    placed, x, row = [], left, 0
    for item in items:
        size = 34 + 7 * len(item[0])
        if x + size > width and x > left:
            x, row = left, row + 1
        placed.append((x, 14 + 20 * row, item))
        x += size + 14
    return placed


def legend(placed):
    parts = []
    for x, y, (label, class_, kind) in placed:
        if kind == "bar":
            swatch = rect(x, y - 6, 22, 12, class_=f"lab-chart-bar {class_}")
        elif kind == "dot":
            swatch = circle(x + 11, y, 4.5, class_=f"lab-chart-dot {class_}")
        else:
            swatch = line(x, y, x + 22, y, class_=f"lab-chart-{kind} {class_}")
        parts.append(group(swatch, text(x + 28, y, label, class_="lab-chart-legend", anchor="start")))
    return group(*parts, class_="lab-chart-legend-box")


def frame(width, height, sx, sy, x_ticks, y_ticks, x_label, y_label, legend_items, gap=8):
    """Margins, pixel scales, ticks and legend: what histogram and line_chart
    share. The left margin makes room for the longest y tick label; gap is
    the space between the y axis and its labels (wider under handles)."""
    left = 4 + gap + 7.5 * max((len(label) for _, label in y_ticks), default=1) + (22 if y_label else 0)
    placed = legend_rows(legend_items, width - 8, left)
    top = (max(y for _, y, _ in placed) + 16) if placed else 12
    bottom = 50 if x_label else 30
    pw, ph = width - left - 16, height - top - bottom
    sx.start, sx.end, sy.start, sy.end = 0, pw, ph, 0
    boxes = [text_box(x + 28, y, label, TEXT, "start") for x, y, (label, _, _) in placed]
    return {
        "left": left,
        "top": top,
        "pw": pw,
        "ph": ph,
        "legend": legend(placed) if placed else None,
        "sx": sx,
        "sy": sy,
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        "x_label": x_label,
        "y_label": y_label,
        "gap": gap,
        "width": width,
        "height": height,
        "boxes": boxes,
    }


AXES = Memory(32)  # the axes drawn last: a chart's ranges and ticks rarely move with a control


def scale_key(s):
    return (s.lo, s.hi, s.start, s.end, s.log)


def axes(f):
    """Grid, tick labels, axis lines and axis titles, in chart coordinates;
    the boxes of the tick numbers are added to f["boxes"]. Remembered by
    everything they depend on (AXES)."""
    key = (
        f["left"],
        f["top"],
        f["pw"],
        f["ph"],
        f["width"],
        f["gap"],
        typed([f["x_label"], f["y_label"]]),
        scale_key(f["sx"]),
        scale_key(f["sy"]),
        *(tuple(typed(t) for t in f[k]) for k in ("x_ticks", "y_ticks")),
    )
    drawn, boxes = AXES.get(key, lambda: _axes(f))
    f["boxes"].extend(boxes)
    return drawn


def _axes(f):
    """axes()'s markup, and the boxes of the numbers it writes."""
    L, T, pw, ph, sx, sy = f["left"], f["top"], f["pw"], f["ph"], f["sx"], f["sy"]
    x_ticks, y_ticks = f["x_ticks"], f["y_ticks"]
    parts = []
    boxes = []
    for v, label in y_ticks:
        y = T + sy(v)
        if -0.5 <= y - T <= ph + 0.5:
            parts.append(line(L, y, L + pw, y, class_="lab-chart-grid"))
            parts.append(text(L - f["gap"], y, label, class_="lab-chart-tick", anchor="end", data_labelled=labelled(v)))
            boxes.append(text_box(L - f["gap"], y, label, TEXT, "end"))
    shown = None  # the box of the last x tick number written: the next one must not touch it
    for v, label in x_ticks:
        x = L + sx(v)
        if -0.5 <= x - L <= pw + 0.5:
            parts.append(line(x, T + ph, x, T + ph + 5, class_="lab-chart-axis"))
            # a number that would leave the drawing slides back inside; one that would touch its neighbour is left out
            box = text_box(x, T + ph + 16, label, TEXT)
            at = x - max(0.0, box[2] - (f["width"] - 2)) + max(0.0, 2 - box[0])
            box = text_box(at, T + ph + 16, label, TEXT)
            if shown and box[0] < shown[2] + 6:
                continue
            parts.append(text(at, T + ph + 16, label, class_="lab-chart-tick", data_labelled=labelled(v)))
            boxes.append(shown := box)
    if not sy.log and sy.lo < 0 < sy.hi:
        parts.append(line(L, T + sy(0), L + pw, T + sy(0), class_="lab-chart-zero"))
    if not sx.log and sx.lo < 0 < sx.hi:
        parts.append(line(L + sx(0), T, L + sx(0), T + ph, class_="lab-chart-zero"))
    parts.append(line(L, T + ph, L + pw, T + ph, class_="lab-chart-axis"))
    parts.append(line(L, T, L, T + ph, class_="lab-chart-axis"))
    if f["x_label"]:
        parts.append(text(L + pw / 2, T + ph + 36, f["x_label"], class_="lab-chart-label"))
    if f["y_label"]:
        parts.append(
            text(12, T + ph / 2, f["y_label"], class_="lab-chart-label", transform=f"rotate(-90 12 {T + ph / 2:.1f})")
        )
    return group(*parts), tuple(boxes)


def plot_area(f, *children, clip=True, plane=None):
    """The nested svg of the data rectangle. Lines are clipped to it; dots
    and handles go in an unclipped one, so that they show whole at the edges."""
    return tag(
        "svg",
        *children,
        x=float(f["left"]),
        y=float(f["top"]),
        width=float(f["pw"]),
        height=float(f["ph"]),
        viewBox=f"0 0 {f['pw']:.2f} {f['ph']:.2f}",
        preserveAspectRatio="none",
        class_="lab-chart-plot",
        data_plane=plane,
        overflow=None if clip else "visible",
    )


def marker_lines(f, markers):
    parts = []
    for m in markers:
        if not finite(m.at):
            continue
        dash = " is-dashed" if m.dashed else ""
        if m.axis == "x":
            x = f["sx"](m.at)
            parts.append(line(x, 0, x, f["ph"], class_=f"lab-chart-marker {m.class_}{dash}"))
        else:
            y = f["sy"](m.at)
            parts.append(line(0, y, f["pw"], y, class_=f"lab-chart-marker {m.class_}{dash}"))
    return group(*parts)


def marker_legend(markers):
    seen, items = set(), []
    for m in markers:
        if m.label and (m.label, m.class_) not in seen:
            seen.add((m.label, m.class_))
            items.append((m.label, m.class_ + (" is-dashed" if m.dashed else ""), "marker"))
    return items


def describe_histogram(counts, edges):
    """«20 classi da −1 a 1, 100 valori; la più piena va da 0,1 a 0,2, con 14.»"""
    total = sum(counts)
    head = f"{counted(len(counts), 'classe', 'classi', feminine=True)} da {amount(edges[0])} a {amount(edges[-1])}"
    head = head[0].upper() + head[1:]
    if not total:
        return f"{head}, nessun valore."
    k = max(range(len(counts)), key=lambda i: counts[i])  # the first of the fullest
    if all(float(c).is_integer() for c in counts):
        total, fullest = plural(round(total), "valore", "valori"), plural(round(counts[k]), "valore", "valori")
    else:
        total, fullest = f"{amount(total)} in tutto", amount(counts[k])
    return f"{head}, {total}; la più piena va da {amount(edges[k])} a {amount(edges[k + 1])}, con {fullest}."


def histogram(
    values=None,
    *,
    label,
    counts=None,
    edges=None,
    bins=20,
    lo=None,
    hi=None,
    markers=(),
    bar_label="",
    x_label="",
    y_label="",
    x_ticks=None,
    class_="s1",
    width=420,
    height=300,
    description=None,
):
    """Bars for how many values fall in each class.

    Either values, counted here as numpy.histogram does (in the classes
    between edges, or in `bins` equal classes of [lo, hi], by default their
    own range), or counts already made, with their edges (or lo and hi for
    equal classes). markers draws vertical lines (e.g. the mean and
    mean ± std); bar_label names the bars in the legend. description, as
    for bars(): by default the classes, the count and the fullest class.
    """
    if counts is None and edges is not None:
        counts = [0] * (len(edges) - 1)
        for v in values or ():
            if finite(v) and edges[0] <= v <= edges[-1]:
                counts[min(len(counts) - 1, bisect.bisect_right(edges, v) - 1)] += 1
    if counts is None:
        values = [v for v in (values or ()) if finite(v)]
        lo = min(values, default=0.0) if lo is None else lo
        hi = max(values, default=1.0) if hi is None else hi
        if not hi > lo:
            lo, hi = lo - 0.5, hi + 0.5
        counts = bin_counts(values, lo, hi, bins)
    if edges is None:
        edges = bin_edges(lo, hi, len(counts))
    if len(edges) != len(counts) + 1:
        raise ValueError("servono tanti bordi quante classi più uno")
    top = max(counts, default=0)
    y_values, y_digits = nice_ticks(0, top if top > 0 else 1, 4)
    if all(float(c).is_integer() for c in counts) and y_values[1] < 1:
        y_values, y_digits = [0, 1], 0  # counts are whole: no tick at 0,25
    step = y_values[1] - y_values[0]
    y_hi = step * math.ceil(max(top, step) / step - 1e-9)
    y_values = [v for v in y_values if v <= y_hi + 1e-9] + ([y_hi] if y_values[-1] < y_hi - 1e-9 else [])
    items = ([(bar_label, class_, "bar")] if bar_label else []) + marker_legend(markers)
    sx = Scale(edges[0], edges[-1], 0, 1)
    f = frame(
        width,
        height,
        sx,
        Scale(0, y_hi, 1, 0),
        sx.ticks(x_ticks),
        [(v, num(float(v), y_digits)) for v in y_values],
        x_label,
        y_label,
        items,
    )
    sy = f["sy"]
    bars = []
    digits = digits_apart(edges, 2)  # as many decimals as tell neighbouring edges apart
    for (a, b), c in zip(zip(edges, edges[1:]), counts):
        x0, x1 = sx(a), sx(b)
        bars.append(
            histogram_bar(
                x0 + 0.5,
                sy(c),
                max(0.0, x1 - x0 - 1),
                max(0.0, sy(0) - sy(c)),
                f"lab-chart-bar {class_}",
                c,
                f"da {num(a, digits)} a {num(b, digits)}: {num(c)}",
                (a, b),
            )
        )
    return svg(
        width,
        height,
        axes(f),
        plot_area(f, group(*bars), marker_lines(f, markers)),
        f["legend"],
        label=label,
        class_="lab-svg lab-chart",
        text=TEXT,
        description=description_text(description, lambda: describe_histogram(counts, edges)),
    )


def histogram_bar(x, y, width, height, class_, count, title, edges):
    """One bar of a histogram, with its count and its tooltip: the markup of tag("rect", tag("title", title),
    x=…, y=…, width=…, height=…, class_=…, data_count=count, data_labelled=labelled(edges)), written in one
    string (a histogram of 4,096 values has dozens of them at every change)."""
    attrs = attrs_html({"data_count": count, "data_labelled": labelled(edges)})
    return Html(
        f'<rect x="{svg_number(float(x))}" y="{svg_number(float(y))}" width="{svg_number(float(width))}" '
        f'height="{svg_number(float(height))}" class="{escape(str(class_))}"{attrs}>'
        f"<title>{escape(str(title))}</title></rect>"
    )


LINES = Memory(32)  # the lines drawn last: a curve that a control does not move is not written again


def series_path(f, points):
    """An SVG path through the finite points; a gap where a y is missing.
    Remembered by the points and the scales (LINES)."""
    return LINES.get((tuple(points), scale_key(f["sx"]), scale_key(f["sy"])), lambda: _series_path(f, points))


def _series_path(f, points):
    if not points:
        return ""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    if all_finite(xs) and all_finite(ys):  # no gap: the whole curve projected at once
        return "M" + " L".join([f"{x:.2f},{y:.2f}" for x, y in zip(f["sx"].many(xs), f["sy"].many(ys))])
    return _pen_path(f, points)


def _pen_path(f, points):
    """The path point by point: the pen lifted at each missing point, put down again at the next."""
    d, pen_down = [], False
    for x, y in points:
        if not (finite(x) and finite(y)):
            pen_down = False
            continue
        d.append(f"{'L' if pen_down else 'M'}{f['sx'](x):.2f},{f['sy'](y):.2f}")
        pen_down = True
    return " ".join(d)


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
    key = (
        tuple(
            (typed([s.label]), tuple(map(tuple, s.points)), tuple(map(type, chain.from_iterable(s.points))), s.line)
            for s in series[:SERIES_TOLD]
        ),
        len(series),
        typed([x_label]),
    )
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


def line_chart(
    series,
    *,
    label,
    x_range=None,
    y_range=None,
    x_label="",
    y_label="",
    handles=(),
    markers=(),
    x_log=False,
    y_log=False,
    x_ticks=None,
    y_ticks=None,
    legend=True,
    width=420,
    height=320,
    description=None,
):
    """Several named series of (x, y) points on the same axes.

    Ranges are the data's unless fixed; handles (draggable) need fixed,
    linear ranges, because the drag maps pixels back onto them. x_ticks and
    y_ticks may list values or (value, label) pairs. description, as for
    bars(): by default where each series starts and ends, its extremes, and
    where the point to drag is.
    """
    xs = [p[0] for s in series for p in s.points] + [h.x for h in handles]
    ys = [p[1] for s in series for p in s.points] + [h.y for h in handles]
    if handles and (x_log or y_log or x_range is None or y_range is None):
        raise ValueError("le maniglie vogliono assi lineari con intervalli fissi")
    items = (
        [
            (s.label, s.class_ + (" is-dashed" if s.dashed else ""), "line" if s.line else "dot")
            for s in series
            if s.label
        ]
        if legend
        else []
    )
    items += marker_legend(markers) if legend else []
    sx = Scale(*data_range(xs, x_range, x_log, pad=0), 0, 1, x_log)
    sy = Scale(*data_range(ys, y_range, y_log), 1, 0, y_log)
    f = frame(
        width, height, sx, sy, sx.ticks(x_ticks), sy.ticks(y_ticks), x_label, y_label, items, gap=16 if handles else 8
    )
    drawn, on_top = [], []
    for s in series:
        cls = f"{s.class_}{' is-dashed' if s.dashed else ''}"
        if s.line:
            drawn.append(path(series_path(f, s.points), class_=f"lab-chart-line {cls}"))
        if s.markers or s.actions or s.labels:
            dots = []
            for i, (x, y) in enumerate(s.points):
                if not (finite(x) and finite(y)):
                    continue
                px, py = sx(x), sy(y)
                if not (-0.01 <= px <= f["pw"] + 0.01 and -0.01 <= py <= f["ph"] + 0.01):
                    continue  # a dot outside the plot would float over the axes
                if i < len(s.actions):
                    action, spoken = s.actions[i]
                    dots.append(
                        group(
                            circle(px, py, 12, class_="lab-chart-hit"),
                            circle(px, py, 4.5, class_=f"lab-chart-dot {s.class_}"),
                            data_set=action,
                            tabindex="0",
                            role="button",
                            aria_label=spoken,
                        )
                    )
                else:
                    dots.append(circle(px, py, 4, class_=f"lab-chart-dot {s.class_}"))
                if i < len(s.labels) and s.labels[i]:
                    dots.append(point_label(px, py, s.labels[i], s.class_))
            on_top.append(group(*dots))
    grips = []
    axes_drawn = axes(f)  # first: it records the boxes of the tick numbers, which captions must not cover
    # a caption goes above its handle, or below, right or left: where it covers no number and stays inside
    L, T = f["left"], f["top"]
    spots = place_labels(
        [
            (
                h.caption,
                TEXT,
                [
                    (L + sx(h.x) + dx, T + sy(h.y) + dy, anchor)
                    for dx, dy, anchor in (
                        (0, -17, "middle"),
                        (0, 19, "middle"),
                        (12, -12, "start"),
                        (-12, -12, "end"),
                        (12, 12, "start"),
                        (-12, 12, "end"),
                    )
                ],
            )
            for h in handles
            if h.caption
        ],
        f["boxes"],
        (0, 0, width, height),
    )
    spots = iter(spots)
    for h in handles:
        hx, hy = sx(h.x), sy(h.y)
        cx, cy, anchor = next(spots) if h.caption else (0, 0, "middle")
        grips.append(
            group(
                tag("title", h.label),
                circle(hx, hy, 14, class_="lab-chart-hit"),
                circle(hx, hy, 7, class_=f"lab-chart-handle {h.class_}"),
                text(cx - L, cy - T, h.caption, class_="lab-chart-caption", anchor=anchor) if h.caption else None,
                data_drag=f"{h.x_name or '-'} {h.y_name or '-'}",
                aria_label=h.label,
            )
        )
    plane = None
    if handles:
        plane = " ".join(f"{v:g}" for v in (sx.lo, sx.hi, sy.lo, sy.hi))
    return svg(
        width,
        height,
        axes_drawn,
        plot_area(f, marker_lines(f, markers), *drawn),
        plot_area(f, *on_top, *grips, clip=False, plane=plane) if on_top or grips else None,
        f["legend"] if legend else None,
        label=label,
        class_="lab-svg lab-chart",
        text=TEXT,
        description=description_text(description, lambda: describe_chart(series, x_label, handles)),
    )


__all__ = ["Series", "Handle", "Marker", "histogram", "line_chart", "nice_ticks"]
