"""A histogram as SVG: bars counted from values (or given counts) over bins, on the chart's axes, each bar
with its count and its tooltip."""

import bisect
import math

from core.stats import bin_counts
from core.stats import bin_edges

from .chart import TEXT
from .chart import axes
from .chart import frame
from .chart import marker_legend
from .chart import marker_lines
from .chart import plot_area
from .html import Html
from .html import attrs_html
from .html import digits_apart
from .html import escape
from .html import labelled
from .html import num
from .html import svg_number
from .italian import plural
from .scales import Scale
from .scales import finite
from .scales import nice_ticks
from .svg import amount
from .svg import counted
from .svg import description_text
from .svg import group
from .svg import svg


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


__all__ = ["histogram"]
