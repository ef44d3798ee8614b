"""labs.kit.chart: data → SVG coordinates, bins, ticks, escaping, handles."""

import math
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from labs.kit import Handle, Marker, Series, histogram, line_chart, nice_ticks, tag
from labs.kit.chart import LABEL_GAP

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(svg):
    """The chart's <svg>, out of the frame that scrolls it on a narrow screen."""
    frame = ET.fromstring(str(svg))
    assert frame.tag == "div" and "lab-fig" in frame.get("class") and not re.search(r"\b(nan|inf)\b", str(svg))
    (root,) = [e for e in frame if "lab-svg" in e.get("class", "")]
    return root


def plots(root):
    """The nested plot areas: (element, x, y, width, height)."""
    return [(p, *(float(p.get(k)) for k in ("x", "y", "width", "height"))) for p in root.findall("s:svg", NS)]


def path_points(d):
    return [(cmd, float(x), float(y)) for cmd, x, y in re.findall(r"([ML])(-?[\d.]+),(-?[\d.]+)", d)]


def tick_labels(root):
    return [
        "".join(t.itertext())
        for t in root.iter("{http://www.w3.org/2000/svg}text")
        if t.get("class") == "lab-chart-tick"
    ]


@pytest.mark.parametrize(
    "lo, hi, expected, digits",
    [
        (0, 1, [0, 0.2, 0.4, 0.6, 0.8, 1.0], 1),
        (-1, 1, [-1, -0.5, 0, 0.5, 1], 1),
        (0, 97, [0, 20, 40, 60, 80], 0),
        (-0.078, 0.078, [-0.05, 0, 0.05], 2),
        (0, 0.3, [0, 0.1, 0.2, 0.3], 1),
        (0, 4096, [0, 1000, 2000, 3000, 4000], 0),
    ],
)
def test_nice_ticks(lo, hi, expected, digits):
    ticks, d = nice_ticks(lo, hi)
    assert ticks == pytest.approx(expected) and d == digits


def test_line_chart_maps_data_onto_the_plot_area():
    svg = line_chart([Series("a", ((0, 0), (5, 2.5), (10, 5)))], label="prova", x_range=(0, 10), y_range=(0, 5))
    root = parse(svg)
    ((plot, _, _, w, h),) = plots(root)
    assert plot.get("viewBox") == f"0 0 {w:.2f} {h:.2f}"
    (line,) = plot.findall("s:path", NS)
    points = path_points(line.get("d"))
    assert [c for c, _, _ in points] == ["M", "L", "L"]
    assert points[0][1:] == pytest.approx((0, h), abs=0.01)
    assert points[1][1:] == pytest.approx((w / 2, h / 2), abs=0.01)
    assert points[2][1:] == pytest.approx((w, 0), abs=0.01)


def test_missing_values_break_the_line_and_never_reach_the_svg():
    svg = line_chart([Series("a", ((0, 1), (1, None), (2, float("nan")), (3, 2), (4, 3)))], label="x")
    ((plot, *_),) = plots(parse(svg))
    assert [c for c, _, _ in path_points(plot.find("s:path", NS).get("d"))] == ["M", "M", "L"]


def test_ticks_are_written_the_italian_way():
    root = parse(line_chart([Series("a", ((-1, 0), (1, 2000)))], label="x", x_range=(-1, 1), y_range=(0, 2000)))
    labels = tick_labels(root)
    assert "−0,5" in labels and "0,5" in labels and "2.000" in labels
    assert all(re.fullmatch(r"−?\d{1,3}(\.\d{3})*(,\d+)?", t) for t in labels), labels


def test_log_axis_ticks_powers_of_ten_and_survives_zero():
    svg = line_chart(
        [Series("a", ((1, 1e-6), (2, 0.0), (3, 0.5), (4, 4096)))],
        label="x",
        y_log=True,
        y_range=(1e-6, 1e4),
        x_ticks=[(2, "due")],
    )
    root = parse(svg)
    labels = tick_labels(root)
    assert {"10⁻⁶", "10⁻⁵", "0,001", "1", "1.000", "10.000", "due"} <= set(labels)
    x_log = parse(line_chart([Series("a", ((2, 1), (4096, 2)))], label="x", x_log=True, x_ticks=(2, 10, 4096)))
    assert {"2", "10", "4.096"} <= set(tick_labels(x_log))


def test_a_log_axis_of_many_powers_writes_them_apart_and_legible():
    """A.5's y axis, 1 to 10¹¹ in 320 px: twelve powers would touch; every line is drawn, the numbers written
    at least LABEL_GAP apart, the top one kept, and each exponent in its bigger tspan (.lab-chart-exp)."""
    svg = line_chart([Series("a", ((1, 1.0), (10, 1e11)))], label="x", y_log=True, x_log=True, height=320)
    root = parse(svg)
    ticks = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "lab-chart-tick"]
    ys = sorted(float(t.get("y")) for t in ticks if t.get("text-anchor") == "end")
    assert len(ys) < 12 and all(b - a >= LABEL_GAP for a, b in zip(ys, ys[1:]))
    assert "10¹¹" in tick_labels(root) and str(svg).count("lab-chart-grid") >= 12
    assert '10<tspan class="lab-chart-exp">¹¹</tspan>' in str(svg)


def test_labels_are_escaped():
    evil = "<script>alert(1)</script>"
    svg = str(
        line_chart(
            [Series(evil, ((0, 0), (1, 1)))], label=evil, x_label=evil, y_label=evil, markers=[Marker(0.5, evil)]
        )
    )
    svg += str(histogram([1, 2, 3], label=evil, bar_label=evil, x_label=evil))
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_histogram_counts_values_like_numpy():
    values = np.random.default_rng(0).normal(size=500)
    svg = histogram(list(values), bins=12, lo=-3, hi=3, label="h")
    ((plot, _, _, w, h),) = plots(parse(svg))
    bars = [r for r in plot.iter("{http://www.w3.org/2000/svg}rect") if r.get("data-count") is not None]
    assert len(bars) == 12
    expected, _ = np.histogram(values, bins=12, range=(-3, 3))
    assert [int(b.get("data-count")) for b in bars] == expected.tolist()
    # bar heights are proportional to the counts, side by side across the plot
    heights = np.array([float(b.get("height")) for b in bars])
    top = max(expected)
    assert heights.max() <= h + 0.01 and np.allclose(heights / heights.max(), expected / top, atol=0.01)
    xs = [float(b.get("x")) for b in bars]
    assert xs == sorted(xs) and xs[0] == pytest.approx(0.5, abs=0.01)
    assert float(bars[-1].get("x")) + float(bars[-1].get("width")) == pytest.approx(w - 0.5, abs=0.02)


def test_histogram_with_unequal_edges_counts_like_numpy():
    values = np.random.default_rng(1).uniform(-1, 3, size=300)
    edges = [-1.0, -0.2, 0.0, 0.5, 2.0, 2.5]
    root = parse(histogram(list(values), edges=edges, label="h"))
    bars = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("data-count") is not None]
    assert [int(b.get("data-count")) for b in bars] == np.histogram(values, bins=edges)[0].tolist()


def test_histogram_from_counts_with_markers():
    svg = histogram(
        counts=[1, 4, 2, 0],
        lo=-1,
        hi=1,
        markers=[Marker(0.0, "media", class_="s2"), Marker(0.5, "media", class_="s2")],
        label="h",
        bar_label="coppie",
    )
    root = parse(svg)
    ((plot, _, _, w, _),) = plots(root)
    lines = [ln for ln in plot.iter("{http://www.w3.org/2000/svg}line") if "lab-chart-marker" in ln.get("class")]
    assert [float(ln.get("x1")) for ln in lines] == pytest.approx([w / 2, 3 * w / 4], abs=0.01)
    legend = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "lab-chart-legend"]
    assert legend == ["coppie", "media"]  # one entry per label
    assert set(tick_labels(root)) >= {"0", "1", "2", "3", "4", "−1,0", "1,0"}
    with pytest.raises(ValueError):
        histogram(counts=[1, 2], edges=[0, 1], label="h")


def test_handles_live_on_an_exact_data_plane():
    svg = line_chart(
        [Series("a", ((-1, 0), (1, 0)))],
        label="x",
        x_range=(-1, 1),
        y_range=(-1.5, 1.5),
        handles=[
            Handle(0.5, 0.75, x_name="e1", y_name="h1", label="Gomito 1", caption="1"),
            Handle(-1, 0.0, x_name=None, y_name="inizio", label="Estremo"),
        ],
    )
    root = parse(svg)
    planes = [p for p in plots(root) if p[0].get("data-plane")]
    ((plane, _, _, w, h),) = planes
    assert plane.get("data-plane") == "-1 1 -1.5 1.5" and plane.get("viewBox") == f"0 0 {w:.2f} {h:.2f}"
    grips = plane.findall("s:g[@data-drag]", NS)
    assert [g.get("data-drag") for g in grips] == ["e1 h1", "- inizio"]
    dot = grips[0].findall("s:circle", NS)[1]
    x, y = float(dot.get("cx")), float(dot.get("cy"))
    # the runtime's inverse map gives back the data point
    assert -1 + x / w * 2 == pytest.approx(0.5, abs=1e-3) and 1.5 - y / h * 3 == pytest.approx(0.75, abs=1e-3)
    with pytest.raises(ValueError):
        line_chart([], label="x", handles=[Handle(0, 0, x_name="a", y_name="b", label="c")])


def test_clickable_points_set_controls():
    svg = line_chart(
        [Series("e", ((1, 0.1), (2, 0.01)), markers=True, actions=(("n=1", "Uno"), ("n=2", "Due")))],
        label="x",
        y_log=True,
    )
    buttons = [g for g in parse(svg).iter("{http://www.w3.org/2000/svg}g") if g.get("data-set")]
    assert [(b.get("data-set"), b.get("role"), b.get("tabindex"), b.get("aria-label")) for b in buttons] == [
        ("n=1", "button", "0", "Uno"),
        ("n=2", "button", "0", "Due"),
    ]


def test_far_values_stay_finite_and_short():
    svg = line_chart([Series("a", ((0, 1e300), (1, -1e300), (2, 0)))], label="x", y_range=(0, 1))
    numbers = [float(v) for v in re.findall(r"-?\d+\.?\d*", str(svg))]
    assert all(math.isfinite(v) and abs(v) < 1e5 for v in numbers)


def test_points_can_be_named_beside_their_dots():
    svg = line_chart(
        [
            Series(
                "noti",
                ((1, 1), (2, 2), (3, 3)),
                line=False,
                class_="target",
                labels=("GPT-3", ("Chinchilla", "w"), None),
            )
        ],
        label="x",
        x_range=(0, 4),
        y_range=(0, 4),
    )
    texts = [t for t in parse(svg).iter("{http://www.w3.org/2000/svg}text") if "lab-chart-caption" in t.get("class")]
    assert [(t.text, t.get("text-anchor")) for t in texts] == [("GPT-3", "start"), ("Chinchilla", "end")]
    dots = [c for c in parse(svg).iter("{http://www.w3.org/2000/svg}circle") if "lab-chart-dot" in c.get("class")]
    assert float(texts[0].get("x")) > float(dots[0].get("cx")) and float(texts[1].get("x")) < float(dots[1].get("cx"))
    assert "&lt;b&gt;" in str(line_chart([Series("a", ((1, 1),), labels=("<b>",))], label="x"))


def test_axes_are_remembered_and_whatever_the_drawing_tells_apart_the_memory_does_too():
    from labs.kit.html import Html
    from labs.kit.memory import forget_all

    series = [Series("loss", ((0, 1.0), (5, 0.5)))]

    def chart(**kw):
        return line_chart(series, label="L", **{"x_range": (0, 10), "y_range": (0, 2), **kw})

    variants = [
        {},
        {"y_range": (0, 3)},
        {"x_range": (0, 20)},
        {"y_ticks": [0, 1, 2]},
        {"x_ticks": [0, 5, 10]},
        {"x_ticks": [(0, "zero"), 5, 10]},
        {"y_label": "loss"},
        {"y_label": Html("<b>loss</b>")},
        {"x_label": "passo"},
        {"height": 300},
        {"width": 400},
        {"x_log": True, "x_range": (1, 100)},
        {"y_ticks": [0, 2]},
        {"handles": [Handle(1, 1, x_name="p", y_name=None, label="a")]},
    ]
    fresh = [(forget_all(), chart(**kw))[1] for kw in variants]  # each from nothing
    assert len(set(fresh)) == len(variants)
    assert [chart(**kw) for kw in variants] == fresh  # remembered: the same
    forget_all()
    assert [chart(**kw) for kw in reversed(variants)] == fresh[::-1]  # drawn in another order from nothing


def test_lines_and_what_they_say_are_remembered_by_their_points_and_labels():
    from labs.kit.memory import forget_all

    def chart(points, name="loss", x_label="passo", handle=None):
        handles = [Handle(handle, 1.0, x_name="p", y_name=None, label="a")] if handle is not None else []
        return line_chart(
            [Series(name, points), Series("costante", ((0, 1.0), (10, 1.0)), line=False)],
            label="L",
            x_range=(0, 10),
            y_range=(0, 2),
            x_label=x_label,
            handles=handles,
        )

    variants = [
        (((0, 1.0), (5, 0.5)),),
        (((0, 1.0), (5, 0.25)),),
        (((0, 1.0), (6, 0.5)),),
        (((0, 1.0), (5, 0.5)), "errore"),
        (((0, 1.0), (5, 0.5)), "loss", "epoch"),
        (((0, 1.0), (5, 0.5)), "loss", "passo", 2.0),
        (((0, 1.0), (5, 0.5)), "loss", "passo", 3.0),
        (((0, 1), (5, 0.5)),),
        (((0, 1.0), (5, float("nan")), (6, 0.5)),),
    ]
    fresh = [(forget_all(), chart(*v))[1] for v in variants]  # each from nothing
    assert len(set(fresh[:7])) == 7  # what differs in the numbers, the names or the handle shows
    assert [chart(*v) for v in variants] == fresh
    forget_all()
    assert [chart(*v) for v in reversed(variants)] == fresh[::-1]


@given(
    numbers=st.lists(
        st.one_of(st.integers(-(10**6), 10**6), st.floats(-1e6, 1e6, allow_nan=False)), min_size=4, max_size=4
    ),
    class_=st.text(max_size=12),
    count=st.one_of(st.integers(0, 10**6), st.floats(0, 1e6, allow_nan=False)),
    title=st.text(max_size=20),
)
def test_a_histogram_bar_is_the_rect_tag_would_write(numbers, class_, count, title):
    """histogram_bar writes its markup in one string: the same as tag() with the same attributes and title."""
    from labs.kit.histograms import histogram_bar
    from labs.kit.html import labelled

    x, y, w, h = numbers
    assert histogram_bar(x, y, w, h, class_, count, title, (x, w)) == tag(
        "rect",
        tag("title", title),
        x=float(x),
        y=float(y),
        width=float(w),
        height=float(h),
        class_=class_,
        data_count=count,
        data_labelled=labelled((x, w)),
    )


ODD_VALUES = st.one_of(
    st.floats(-1e6, 1e6), st.floats(), st.integers(-(10**300), 10**300), st.booleans(), st.none(), st.just("3")
)


@given(
    values=st.lists(
        st.one_of(st.floats(-1e6, 1e6, allow_nan=False), st.integers(-(10**6), 10**6), ODD_VALUES), max_size=30
    )
)
def test_checking_a_whole_curve_at_once_says_what_checking_each_value_says(values):
    """all_finite and finite_points look at a curve in C when they can: never a different answer from
    finite() value by value, whatever the values (nan, infinities, ints near a float's limit, bools, text)."""
    from labs.kit.scales import all_finite, finite, finite_points

    if all_finite(values):
        assert all(map(finite, values))
    clean = [v for v in values if finite(v) and type(v) is not bool and abs(v) < 1e300]
    assert all_finite(clean)  # ints and floats, finite, not near overflowing: answered in C
    points = list(zip(values, reversed(values)))
    assert finite_points(points) == [(x, y) for x, y in points if finite(x) and finite(y)]


@given(
    lo=st.floats(-1e3, 1e3),
    width=st.floats(1e-3, 1e3),
    log=st.booleans(),
    where=st.lists(st.floats(-13, 14), max_size=20),
)
def test_a_scale_maps_a_whole_curve_as_it_maps_each_value(lo, width, log, where):
    """Scale.many is [scale(v) for v in values], far-away values (clamped to 10 plots before, 11 after) too."""
    from labs.kit.scales import Scale

    lo = abs(lo) + 1e-3 if log else lo
    scale = Scale(lo, lo + width, 10.0, 250.0, log)
    values = [lo + width * t for t in (*where, -10.5, -10, -9.5, 0, 1, 10.5, 11, 11.5, 12)]
    assert scale.many(values) == [scale(v) for v in values]


@given(points=st.lists(st.tuples(st.floats(-50, 50), st.one_of(st.floats(-5, 5), ODD_VALUES)), max_size=25))
def test_a_curve_without_gaps_is_the_path_drawn_point_by_point(points):
    """_series_path writes a curve with every point finite in one pass: the same path as pen up, pen down
    point by point (the plain loop, kept for curves with gaps)."""
    from labs.kit.chart import _pen_path, _series_path
    from labs.kit.scales import Scale

    f = {"sx": Scale(-50, 50, 0, 400), "sy": Scale(-5, 5, 300, 0)}
    assert _series_path(f, points) == _pen_path(f, points)


def test_a_handle_caption_never_sits_on_a_marker_line():
    """4.3: «loss 0,513» was written across the dashed log 2 line just above the handle."""
    from labs.kit.label_layout import text_box

    chart = line_chart(
        [Series("a", ((0, 0.3), (10, 0.9)))],
        handles=[Handle(5, 0.62, x_name="x", y_name=None, label="h", caption="loss 0,620")],
        markers=[Marker(0.693, "log 2", axis="y")],
        x_range=(0, 10),
        y_range=(0, 1),
        label="x",
        height=280,
    )
    root = parse(chart)
    ns = "{http://www.w3.org/2000/svg}"
    marker = next(el for el in root.iter(f"{ns}line") if "lab-chart-marker" in (el.get("class") or ""))
    caption = next(el for el in root.iter(f"{ns}text") if el.get("class") == "lab-chart-caption")
    plot = next(el for el in root.iter(f"{ns}svg") if el.get("data-plane"))
    # both in the plot's coordinates (the caption's group is the plot area's)
    box = text_box(float(caption.get("x")), float(caption.get("y")), caption.text, 13, caption.get("text-anchor"))
    line_y = float(marker.get("y1"))
    assert plot is not None and not (box[1] - 3 < line_y < box[3] + 3), (box, line_y)
