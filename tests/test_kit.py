from labs.kit import Html, Slider, Steps, Text, Toggle, callout, esc, num, table, tag
from labs.kit.controls import Choice, ParamError

import pytest
from hypothesis import given
from hypothesis import strategies as st


def test_text_is_escaped_and_html_is_kept():
    out = tag("p", "<script>alert(1)</script>", tag("b", "a & b"), title='"x"')
    assert out == '<p title="&quot;x&quot;">&lt;script&gt;alert(1)&lt;/script&gt;<b>a &amp; b</b></p>'
    assert isinstance(out, Html)
    assert esc(out) is out


def test_components_escape_their_text():
    assert "<img" not in callout("<img src=x onerror=alert(1)>")
    assert "<img" not in table(["<img>"], [["<img src=x>"]])


def test_numbers_are_written_the_italian_way():
    assert num(0.69) == "0,69"
    assert num(-0.88) == "−0,88"
    assert num(-0.001) == "0,00"
    assert num(1_000_000) == "1.000.000"
    assert num(12345.678, 1) == "12.345,7"
    assert num(0.3, signed=True) == "+0,30"
    assert num(float("nan")) == "indefinito"


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
