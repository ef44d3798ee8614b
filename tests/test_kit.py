import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from labs.kit import Html, Slider, Steps, Text, Toggle, callout, columns, esc, num, panel, table, tag
from labs.kit.controls import Choice, ParamError


def test_text_is_escaped_and_html_is_kept():
    out = tag("p", "<script>alert(1)</script>", tag("b", "a & b"), title='"x"')
    assert out == '<p title="&quot;x&quot;">&lt;script&gt;alert(1)&lt;/script&gt;<b>a &amp; b</b></p>'
    assert isinstance(out, Html)
    assert esc(out) is out


def test_components_escape_their_text():
    assert "<img" not in callout("<img src=x onerror=alert(1)>")
    assert "<img" not in table(["<img>"], [["<img src=x>"]])


def test_a_panel_is_a_section_under_its_title_and_columns_put_panels_side_by_side():
    titled = panel(callout("ok"), title="<Prima>", part="prima", class_="lab-x-panel", data_row=2)
    assert titled == (
        '<section class="lab-panel lab-x-panel" data-part="prima" data-row="2"><h3>&lt;Prima&gt;</h3>'
        f"{callout('ok')}</section>"
    )
    assert panel("solo testo") == '<div class="lab-panel">solo testo</div>'
    assert columns(titled, None, panel("b")) == f'<div class="lab-columns">{titled}<div class="lab-panel">b</div></div>'


def test_numbers_are_written_the_italian_way():
    assert num(0.69) == "0,69"
    assert num(-0.88) == "−0,88"
    assert num(-0.001) == "0,00"
    assert num(1_000_000) == "1.000.000"
    assert num(12345.678, 1) == "12.345,7"
    assert num(0.3, signed=True) == "+0,30"
    assert num(float("nan")) == "indefinito"
    assert num(-0.0) == num(-0.004) == "0,00" and num(-998.999, 2) == "−999,00" and num(999.5, 0) == "1.000"


@given(
    x=st.one_of(st.floats(), st.floats(-2000, 2000), st.floats(-1, 1), st.integers(-(10**7), 10**7)),
    digits=st.integers(0, 6),
    signed=st.booleans(),
)
def test_small_numbers_are_written_as_every_number_is(x, digits, signed):
    """num() writes a float under 1.000 without grouping thousands (most numbers, written thousands of times
    per view): the same text as the general way, with its thousands, minus sign and negative zero."""
    import math

    if isinstance(x, float) and not math.isfinite(x):
        expected = "indefinito" if math.isnan(x) else "infinito" if x > 0 else "−infinito"
    else:
        text = f"{x:,}" if isinstance(x, int) else f"{x:,.{digits}f}"
        text = text.replace(",", " ").replace(".", ",").replace(" ", ".")
        if text.startswith("-"):
            text = "" if set(text[1:]) <= set("0,.") else "−"
            text += (
                (f"{abs(x):,}" if isinstance(x, int) else f"{abs(x):,.{digits}f}")
                .replace(",", " ")
                .replace(".", ",")
                .replace(" ", ".")
            )
        elif signed and x > 0:
            text = "+" + text
        expected = text
    assert num(x, digits, signed) == expected


def test_slider_clamps_and_snaps_leniently_and_refuses_strictly():
    s = Slider("v", "V", 0.0, 1.0, 0.05, 0.5)
    assert s.parse("0,42") == 0.4
    assert s.parse("7") == 1.0
    assert s.parse("nonsense") == 0.5
    with pytest.raises(ParamError):
        s.parse("7", strict=True)
    assert Slider("n", "N", 2, 4096, 1, 64).parse("100.4") == 100


def test_other_controls():
    assert Toggle("t", "T").parse("sì") is True
    assert Choice("c", "C", (("a", "A"), ("b", "B")), "a").parse("z") == "a"
    assert Text("t", "T", max_length=3).parse("abcdef") == "abc"
    assert Steps(max=10).parse("12") == 10
    with pytest.raises(ParamError):
        Steps(max=10).parse("1.5", strict=True)


@given(st.text())
def test_escape_is_the_standard_one_and_unescape_undoes_it(text):
    import html

    from labs.kit.html import escape, unescape

    assert escape(text) == html.escape(text, quote=True)
    assert unescape(escape(text)) == text


coordinate = st.one_of(st.integers(-(10**6), 10**6), st.floats(-1e6, 1e6, allow_nan=False))
class_name = st.one_of(st.none(), st.just(False), st.text(max_size=12))


@given(
    numbers=st.lists(coordinate, min_size=5, max_size=5),
    class_=class_name,
    anchor=st.one_of(st.none(), st.sampled_from(["start", "middle", "end", '"x<'])),
    content=st.one_of(st.none(), st.text(max_size=10), st.just(Html("<tspan>a</tspan>"))),
    rx=st.one_of(st.none(), coordinate),
)
def test_the_shapes_written_in_one_string_are_the_tags_of_the_kit(numbers, class_, anchor, content, rx):
    """rect, line, circle and text write their markup directly (they are most of a drawing's elements):
    the same markup as tag() with the same attributes, in the same order, escaped alike."""
    from labs.kit.svg import circle, line, rect, text

    a, b, c, d, _ = numbers
    f = float
    assert rect(a, b, c, d, class_=class_, rx=rx) == tag(
        "rect", x=f(a), y=f(b), width=f(c), height=f(d), rx=None if rx is None else f(rx), class_=class_
    )
    assert line(a, b, c, d, class_=class_) == tag("line", x1=f(a), y1=f(b), x2=f(c), y2=f(d), class_=class_)
    assert circle(a, b, c, class_=class_) == tag("circle", cx=f(a), cy=f(b), r=f(c), class_=class_)
    assert text(a, b, content, class_=class_, anchor=anchor) == tag(
        "text", content, x=f(a), y=f(b), class_=class_, text_anchor=anchor, dominant_baseline="middle"
    )
    for shape in (rect(a, b, c, d, class_=class_), text(a, b, content, class_=class_, anchor=anchor)):
        assert isinstance(shape, Html)


def test_the_names_the_page_keeps_for_itself_are_the_ones_its_url_writes():
    """No control may be called as the page's own URL parameters (kit.controls.PAGE_NAMES), and those are
    the names templates/runtime/page/url.js writes."""
    from pathlib import Path

    from labs.kit.controls import PAGE_NAMES

    url_js = (Path(__file__).resolve().parent.parent / "templates" / "runtime" / "page" / "url.js").read_text()
    written = set(re.findall(r'export const \w+_PARAM = "(\w+)"', url_js))
    assert written == set(PAGE_NAMES)
