"""labs.kit.bar_charts: values → bar geometry, signs, clamping, escaping, actions."""

import re
import xml.etree.ElementTree as ET

import pytest

from labs.kit import Bar, bars

SVG = "{http://www.w3.org/2000/svg}"


def parse(html):
    root = ET.fromstring(str(html))
    assert root.tag == "div" and not re.search(r"\b(nan|inf)\b", str(html))
    (svg,) = [e for e in root if "lab-svg" in e.get("class", "")]  # beside it, the strut of the frame
    return svg


def rows(svg):
    return [g for g in svg.iter(f"{SVG}g") if "lab-bar-row" in (g.get("class") or "")]


def rect(row, cls):
    (r,) = [r for r in row.iter(f"{SVG}rect") if (r.get("class") or "").split()[0] == cls]
    return float(r.get("x")), float(r.get("width"))


def texts(row):
    return [t.text for t in row.iter(f"{SVG}text")]


def test_bars_are_proportional_to_their_values():
    svg = parse(bars([Bar("a", 0.25), Bar("b", 0.5), Bar("c", 1.0)], label="prova"))
    (x0, track), *_ = [rect(r, "lab-bar-track") for r in rows(svg)]
    widths = [rect(r, "lab-bar")[1] for r in rows(svg)]
    assert all(rect(r, "lab-bar")[0] == pytest.approx(x0) for r in rows(svg))
    assert widths == pytest.approx([track / 4, track / 2, track], abs=0.02)
    assert [texts(r) for r in rows(svg)] == [["a", "0,25"], ["b", "0,50"], ["c", "1,00"]]


def test_signed_values_grow_either_way_from_zero():
    svg = parse(bars([Bar("giù", -0.88, class_="sign"), Bar("su", 0.3, class_="sign")], label="s", lo=-1, hi=1))
    (zero,) = [ln for ln in svg.iter(f"{SVG}line") if ln.get("class") == "lab-bar-zero"]
    z = float(zero.get("x1"))
    (x_neg, w_neg), (x_pos, w_pos) = (rect(r, "lab-bar") for r in rows(svg))
    assert x_neg + w_neg == pytest.approx(z, abs=0.02) and x_pos == pytest.approx(z, abs=0.02)
    assert w_neg / w_pos == pytest.approx(0.88 / 0.3, rel=1e-3)
    classes = [
        next(r.get("class") for r in row.iter(f"{SVG}rect") if "lab-bar " in (r.get("class") or "") + " ")
        for row in rows(svg)
    ]
    assert classes == ["lab-bar neg", "lab-bar pos"]
    assert [texts(r)[1] for r in rows(svg)] == ["−0,88", "+0,30"]


def test_out_of_range_and_non_finite_values_stay_inside():
    svg = parse(
        bars([Bar("troppo", 3.0), Bar("vuoto", float("nan")), Bar("enorme", float("inf"), text="molto")], label="x")
    )
    x0, track = rect(rows(svg)[0], "lab-bar-track")
    assert rect(rows(svg)[0], "lab-bar") == pytest.approx((x0, track))
    assert rect(rows(svg)[1], "lab-bar")[1] == 0
    assert texts(rows(svg)[1])[1] == "—" and texts(rows(svg)[2])[1] == "molto"
    assert rows(svg)[1].get("data-value") is None


def test_text_is_escaped_and_rows_can_be_buttons():
    html = str(bars([Bar("<b>x</b>", 0.5, action="token=a", spoken="Scegli a", highlight=True)], label="<i>"))
    assert "<b>" not in html and "&lt;b&gt;" in html
    (row,) = rows(parse(html))
    assert row.get("data-set") == "token=a" and row.get("tabindex") == "0" and row.get("role") == "button"
    # named by its <title>: what the row shows (WCAG 2.5.3, label in name), then what pressing it does
    assert row.get("aria-label") is None and "is-hl" in row.get("class")
    assert "<title>&lt;b&gt;x&lt;/b&gt;: 0,50 — Scegli a</title>" in html


def test_previous_values_are_outlined_with_a_legend():
    svg = parse(bars([Bar("a", 0.6, before=0.2)], label="x", before_label="prima"))
    (row,) = rows(svg)
    x0, track = rect(row, "lab-bar-track")
    assert rect(row, "lab-bar-before")[1] == pytest.approx(0.2 * track, abs=0.02)
    assert "prima" in [t.text for t in svg.iter(f"{SVG}text")]


def test_columns_make_room_for_the_longest_label_and_number():
    short = parse(bars([Bar("a", 0.5)], label="x"))
    long = parse(bars([Bar("pavimento lunghissimo", 0.5, text="99,99 % e oltre")], label="x"))
    (sx, sw), (lx, lw) = rect(rows(short)[0], "lab-bar-track"), rect(rows(long)[0], "lab-bar-track")
    assert lx > sx and lx + lw < sx + sw
