"""Charts as SVG: a line chart (and the frame histograms.py draws in), with axes, ticks written the
Italian way, a legend, marker lines and draggable handles.

Colours come from CSS classes (labs.css, «kit: chart»): every series, bar,
marker and handle takes one of s1, s2, s3, s4, target, muted.

The plot area is its own nested <svg> whose viewBox is the data rectangle
in pixels, so when handles are present it carries data-plane="xmin xmax
ymin ymax" and the runtime turns a drag into data coordinates exactly.
"""

import math
import re
from dataclasses import KW_ONLY
from dataclasses import dataclass

from .chart_words import describe_chart
from .html import SCRIPTS
from .html import Html
from .html import esc
from .html import labelled
from .html import tag
from .label_layout import overlap
from .label_layout import place_labels
from .label_layout import text_box
from .memory import Memory
from .memory import typed
from .scales import Scale
from .scales import all_finite
from .scales import data_range
from .scales import finite
from .svg import circle
from .svg import description_text
from .svg import group
from .svg import line
from .svg import path
from .svg import rect
from .svg import svg
from .svg import text

# The smallest text of a chart, in user units: .lab-chart-tick, -legend and
# -caption in labs.css. A chart never shrinks below the width where it reads
# 11 px (svg.fit); the default width, 420, fits a phone's 358 px.
TEXT = 13
# A power of ten on a log axis («10¹¹»): the superscript glyphs are drawn at about 0,6 of the font's size, so
# the exponent gets a bigger font (.lab-chart-exp in labs.css) to read as the tick's digits do, 11 px or more.
POWER = re.compile(r"([^⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)")
LABEL_GAP = 2 * TEXT  # y tick numbers closer than this (a log axis of many powers) crowd: fewer are written


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


def legend_rows(items, width, left):
    """Legend entries (label, class, kind) laid out in rows: [(x, y, item)]. Rows are 20 apart, 4 more on each
    side of a row with a superscript or subscript (its bigger glyph, html.shown_text, makes the line taller)."""
    rows, x = [[]], left
    for item in items:
        size = 34 + 7 * len(item[0])
        if x + size > width and x > left:
            x = left
            rows.append([])
        rows[-1].append((x, item))
        x += size + 14
    placed, y, tall_before = [], 14 - 20, False
    for row in rows:
        tall = any(SCRIPTS.search(str(item[0])) for _, item in row)
        y += 20 + 4 * (tall + tall_before)
        placed += [(x, y, item) for x, item in row]
        tall_before = tall
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
    left = 4 + gap + 7.5 * max((len(as_wide(label)) for _, label in y_ticks), default=1) + (22 if y_label else 0)
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
        typed([f["x_label"], f["y_label"], f["x_ticks"], f["y_ticks"]]),
        scale_key(f["sx"]),
        scale_key(f["sy"]),
    )
    drawn, boxes = AXES.get(key, lambda: _axes(f))
    f["boxes"].extend(boxes)
    return drawn


def tick_box(x, y, label, anchor="middle"):
    """The box of a tick's number as tick() writes it: an exponent's glyph, in its bigger font, is about as wide
    as two digits."""
    x0, y0, x1, y1 = text_box(x, y, as_wide(label), TEXT, anchor)
    if isinstance(label, str) and POWER.fullmatch(label):  # the bigger font's line stands above and below
        y0, y1 = y - 1.25 * TEXT, y + 0.75 * TEXT
    return x0, y0, x1, y1


def as_wide(label):
    """A tick's number with each exponent glyph counted as two digits (see tick_box)."""
    return POWER.sub(lambda m: m[1] + "00" * len(m[2]), label) if isinstance(label, str) else label


def tick(x, y, label, anchor, value):
    """A tick's number; a power of ten's exponent in its own, bigger, tspan (POWER)."""
    power = POWER.fullmatch(label) if isinstance(label, str) else None
    content = Html(f'{esc(power[1])}<tspan class="lab-chart-exp">{esc(power[2])}</tspan>') if power else label
    return text(x, y, content, class_="lab-chart-tick", anchor=anchor, data_labelled=labelled(value))


def _axes(f):
    """axes()'s markup, and the boxes of the numbers it writes."""
    L, T, pw, ph, sx, sy = f["left"], f["top"], f["pw"], f["ph"], f["sx"], f["sy"]
    x_ticks, y_ticks = f["x_ticks"], f["y_ticks"]
    parts = []
    boxes = []
    inside = [(v, label, T + sy(v)) for v, label in y_ticks if -0.5 <= sy(v) <= ph + 0.5]
    spacing = min((abs(a[2] - b[2]) for a, b in zip(inside, inside[1:])), default=LABEL_GAP)
    every = max(1, math.ceil(LABEL_GAP / max(spacing, 1e-9)))  # the grid keeps every line
    for k, (v, label, y) in enumerate(inside):
        parts.append(line(L, y, L + pw, y, class_="lab-chart-grid"))
        if (len(inside) - 1 - k) % every == 0:  # the top one always written: the range's end
            parts.append(tick(L - f["gap"], y, label, "end", v))
            boxes.append(tick_box(L - f["gap"], y, label, "end"))
    y_boxes = list(boxes)
    shown = None  # the box of the last x tick number written: the next one must not touch it
    for v, label in x_ticks:
        x = L + sx(v)
        if -0.5 <= x - L <= pw + 0.5:
            parts.append(line(x, T + ph, x, T + ph + 5, class_="lab-chart-axis"))
            # a number that would leave the drawing slides back inside; one that would touch its neighbour is left out
            box = tick_box(x, T + ph + 16, label)
            at = x - max(0.0, box[2] - (f["width"] - 2)) + max(0.0, 2 - box[0])
            box = tick_box(at, T + ph + 16, label)
            if (shown and box[0] < shown[2] + 6) or any(overlap(box, b) > 0 for b in y_boxes):
                continue  # touching its neighbour, or the y axis's lowest number in the corner
            parts.append(tick(at, T + ph + 16, label, "middle", v))
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


def marker_boxes(f, markers):
    """The boxes of the marker lines, a few units thick, in chart coordinates: a caption never sits on one."""
    L, T, pw, ph, boxes = f["left"], f["top"], f["pw"], f["ph"], []
    for m in markers:
        if not finite(m.at):
            continue
        if m.axis == "x" and 0 <= f["sx"](m.at) <= pw:
            x = L + f["sx"](m.at)
            boxes.append((x - 3, T, x + 3, T + ph))
        elif m.axis != "x" and 0 <= f["sy"](m.at) <= ph:
            y = T + f["sy"](m.at)
            boxes.append((L, y - 3, L + pw, y + 3))
    return boxes


def series_boxes(f, series):
    """Small boxes along each series' line, every few units, in chart coordinates: a caption never sits on a
    curve (4.2's «η = …» on the dashed «η costante al picco»)."""
    L, T, pw, ph, boxes = f["left"], f["top"], f["pw"], f["ph"], []
    for s in series:
        if not s.line:
            continue
        points = [(f["sx"](x), f["sy"](y)) for x, y in s.points if finite(x) and finite(y)]
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            steps = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / 6))
            for k in range(steps + 1):
                x, y = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
                if 0 <= x <= pw and 0 <= y <= ph:
                    boxes.append((L + x - 1, T + y - 1, L + x + 1, T + y + 1))  # cheaper to cross than a text
    return boxes


def marker_legend(markers):
    seen, items = set(), []
    for m in markers:
        if m.label and (m.label, m.class_) not in seen:
            seen.add((m.label, m.class_))
            items.append((m.label, m.class_ + (" is-dashed" if m.dashed else ""), "marker"))
    return items


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
                        (0, 36, "middle"),  # farther, where a curve or a line passes close by
                        (0, -34, "middle"),
                    )
                ],
            )
            for h in handles
            if h.caption
        ],
        f["boxes"] + marker_boxes(f, markers) + (series_boxes(f, series) if handles else []),
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


__all__ = ["Series", "Handle", "Marker", "line_chart"]
