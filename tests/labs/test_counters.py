"""A stepped lab's counter counts what it names: when the machine stops
before the last step (stepping.ended), the counter counts to where it
stopped («Fusione 5 di 5 · finito»), a step asked past it reads as that one,
and no jump or phase chip leads beyond it; the counter carries the step
(data-step-end) for the runtime, which ends the scrubber and «Avanti» there.

Every stepped lab is tried twice: with a stop put into one of its own
states (the kit's rule, whatever the lab), and, where its machine can stop
early, on an input that makes it stop (STOPS_EARLY in test_italian).
`-k <lab id>` runs one lab."""

import re

import pytest
from test_italian import STOPS_EARLY, as_raw

import labs
from labs.kit.html import num
from labs.kit.stepping import ENDED, ended
from labs.kit.timelines import counter, timeline

STEPPED = [lab for lab in labs.all_labs() if lab.stepped]
IDS = [lab.id for lab in STEPPED]


def counter_of(html):
    """The counter's text and its data-step-end (None without one)."""
    found = re.search(r'<p class="lab-step-counter"[^>]*?(?: data-step-end="(\d+)")?>([^<]*)</p>', html)
    assert found, html
    return found.group(2), None if found.group(1) is None else int(found.group(1))


def targets(html):
    """The steps the timeline's chips and jumps lead to."""
    return [int(t) for t in re.findall(r'data-set="[^"=]+=(\d+)"', html)]


def assert_stops_at(lab, html, end, word):
    text, at = counter_of(html)
    assert text == f"{lab.steps.label} {end} di {end} · {word}", text
    assert at == end
    assert all(t <= end for t in targets(html)), targets(html)


@pytest.mark.parametrize("lab", STEPPED, ids=IDS)
def test_a_machine_that_stops_early_is_counted_to_where_it_stopped(lab):
    """The kit's rule, on one of the lab's own states: stopped at step 2 of its timeline."""
    step = min(3, lab.steps.max)
    state = lab.compute(lab.parse({lab.steps.name: str(step)}))
    assert ENDED not in state, f"{lab.id}: ai valori iniziali la macchina non si ferma"
    stopped = {**state, **ended(2)}
    for asked in (2, step, lab.steps.max):
        html = str(timeline(lab.steps, asked, stopped))
        assert_stops_at(lab, html, 2, "finito")
        assert counter(lab.steps, asked, stopped) == f"{lab.steps.label} 2 di 2 · finito"
    going = counter_of(str(timeline(lab.steps, 1, state)))
    assert going[0].startswith(f"{lab.steps.label} 1 di {num(lab.steps.max)}") and going[1] is None


@pytest.mark.parametrize("lab", STEPPED, ids=IDS)
def test_on_an_input_that_stops_it_the_counter_says_where(lab):
    if lab.id not in STOPS_EARLY:
        pytest.skip("nessun input noto ferma questa macchina prima dell'ultimo passo")
    last = labs.render(lab.id, as_raw({**STOPS_EARLY[lab.id], lab.steps.name: lab.steps.max}))
    assert last["ok"], last.get("error")
    text, end = counter_of(last["timeline"])
    assert end is not None and end < lab.steps.max, text
    word = text.rsplit(" · ", 1)[1]
    at_end = labs.render(lab.id, as_raw({**STOPS_EARLY[lab.id], lab.steps.name: end}))
    for result in (last, at_end):
        assert_stops_at(lab, result["timeline"], end, word)
    if end > 0:  # the step before: still going, counted to the timeline's last step
        before = labs.render(lab.id, as_raw({**STOPS_EARLY[lab.id], lab.steps.name: end - 1}))
        assert counter_of(before["timeline"])[1] is None
        assert counter_of(before["timeline"])[0].startswith(f"{lab.steps.label} {num(end - 1)} di {num(lab.steps.max)}")


def test_bpe_on_aaa_aaa_ab_stops_after_5_merges():
    result = labs.render("bpe", {"corpus": "aaa aaa ab", "passo": "80"})
    assert counter_of(result["timeline"]) == ("Fusione 5 di 5 · finito", 5)
    assert "si ferma dopo 5 fusioni" in result["html"]
