"""The aria-live line: a lab's own summary(state), else the key result read off its view."""

import random
import re
import types

import pytest

import labs
from labs.kit import callout, raw, stat, stats, tag
from labs.kit.spoken import CALLOUT, LIMIT, STATS, first_class, read_off, spoken_summary


def test_the_first_stats_row_is_read_as_label_value_pairs():
    view = tag(
        "div", tag("h3", "Titolo"), stats(stat("Loss", "2,12"), stat("Perplexity", "8,3")), stats(stat("Altro", "1"))
    )
    assert read_off(view) == "Loss: 2,12, Perplexity: 8,3"


def test_without_stats_a_callout_then_a_heading_is_read_and_svg_text_never():
    svg = tag("svg", tag("title", "Grafico"), tag("text", "0,5"))
    assert read_off(tag("div", svg, tag("h3", "La catena"))) == "La catena"
    assert read_off(tag("div", svg)) == ""


def test_with_no_stats_callout_or_heading_the_first_paragraph_or_drawing_title_is_read():
    drawing = tag("svg", tag("title", "Pesi A: la riga di «gatto» va a «il»"))
    assert (
        spoken_summary(types.SimpleNamespace(), {}, tag("div", drawing, tag("p", "Dopo")))
        == "Pesi A: la riga di «gatto» va a «il»"
    )
    assert (
        spoken_summary(types.SimpleNamespace(), {}, tag("div", tag("p", "La ", tag("b", "frase")), drawing))
        == "La frase"
    )


def test_a_lab_summary_wins_and_is_cut_to_one_line():
    module = types.SimpleNamespace(summary=lambda state: f"Scelto: {state['x']}\n  e basta")
    assert spoken_summary(module, {"x": "divano"}, tag("h3", "Altro")) == "Scelto: divano e basta"
    long = types.SimpleNamespace(summary=lambda state: "parola " * 100)
    assert len(spoken_summary(long, {}, "")) == LIMIT


@pytest.mark.parametrize("lab", labs.all_labs(), ids=lambda lab: lab.id)
def test_every_lab_says_something_after_an_update(lab):
    result = labs.render(lab.id, {})
    assert result["summary"].strip(), f"{lab.id}: nessuna frase per lo screen reader"
    assert not re.search(r"</?[a-z]", result["summary"]), lab.id


def test_the_shortcuts_read_the_same_line_as_parsing_every_element():
    from labs.kit import spoken

    nested = tag("div", tag("svg", tag("svg", tag("text", "dentro")), tag("h3", "no")), tag("h3", "Dopo"))
    assert "dentro" not in spoken._empty_svgs(nested) and read_off(nested) == "Dopo"
    assert read_off(tag("div", tag("svg"), raw("<svg/>"), tag("h3", "Sì"))) == "Sì"
    views = [labs.get(lab.id).view(lab.compute(lab.parse({}))) for lab in labs.all_labs()]
    views += [
        tag("div", stats(stat(" ", " ")), callout("Avviso")),
        tag("div", tag("div", class_="lab-stats"), stats(stat("A", "1")), callout("Avviso")),
        tag("div", tag("h3", "Prima"), callout(" "), tag("h3", "Dopo")),
    ]
    fast = [read_off(html) for html in views]
    everything = [spoken._line(spoken._parsed(str(html), stop_at=None)) for html in views]  # drawings too
    assert fast == everything


def test_the_class_found_by_its_name_is_the_one_the_regex_finds():
    """first_class() starts the regex where the class name is written: the same match as a search
    over the whole view, on every lab's view and on texts made to mislead it."""
    texts = [str(labs.render(lab.id, {})["html"]) for lab in labs.all_labs()]
    pieces = [
        '<div class="lab-stats">',
        '<p class="x lab-callout is-warn">',
        "lab-stats",
        "lab-callout",
        '<span class="lab-stats-label">',
        '<i class="a">',
        '"',
        ' class="',
        '<b class="lab-statsx y">',
        "testo ",
    ]
    rng = random.Random(2)
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(3000)]
    for text in texts:
        for name, pattern in (("lab-stats", STATS), ("lab-callout", CALLOUT)):
            found, expected = first_class(text, name, pattern), pattern.search(text)
            assert (found and found.span()) == (expected and expected.span()), text
