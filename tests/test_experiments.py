"""«Prova»: every experiment a lab declares (labs/kit/experiments.py) performed here as the page performs it.

The settings are drawn through the lab's one render path (labs.drawing.draw, as the page's worker draws
them), the declared check runs on the state they give, and the part the button scrolls to is in the view
drawn. The sentence beside the button meets the prose's rules (Italian agreement, words of place, sums).
Ids are «lab-id:sentence», so `-k <lab id>` selects one lab's experiments.
"""

import html
import re
import sys
from functools import lru_cache
from pathlib import Path

import pytest

import labs
from labs.answers import page_raw
from labs.drawing import draw
from labs.kit import Experiment, esc
from labs.kit.contract import check_module
from labs.kit.controls import flatten
from labs.kit.errors import ContractError, place
from labs.kit.experiments import (
    after_click,
    experiment_failure,
    experiments_problem,
    flat,
    prose_with_experiments,
    raw_settings,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "labs"))
from test_arithmetic import problems  # noqa: E402
from test_italian import ONE_PLURAL, WRONG_ARTICLE  # noqa: E402
from test_layout_words import places  # noqa: E402

ALL = labs.all_labs()
CASES = [(lab, e) for lab in ALL for e in lab.experiments]
IDS = [f"{lab.id}:{e.sentence[:48]}" for lab, e in CASES]


def perform(lab, experiment):
    """The lab drawn at the experiment's settings (labs.drawing.draw) and whether its check holds on the state."""
    drawing = draw(lab, raw_settings(experiment))
    assert drawing.ok, f"{lab.id}: {drawing.error}"
    return drawing, bool(experiment.check(drawing.state))


@pytest.mark.parametrize(("lab", "experiment"), CASES, ids=IDS)
def test_an_experiment_shows_what_it_promises(lab, experiment):
    drawing = draw(lab, raw_settings(experiment))
    assert drawing.ok, f"{lab.id}: {drawing.error}"
    failure = experiment_failure(experiment, drawing.state, drawing.html)
    assert failure is None, f"{place(experiment.where or lab.module.__file__)}: {failure}"
    asked = lab.parse(raw_settings(experiment))
    moved = {k for k in experiment.settings if drawing.params.get(k) != asked.get(k)}
    assert not moved, f"{lab.id}: la vista ha spostato {moved} (follow): la frase parla d'altro"


@pytest.mark.parametrize(("lab", "experiment"), CASES, ids=IDS)
def test_the_sentence_reads_right(lab, experiment):
    text = experiment.sentence
    assert not places(text), f"{lab.id}: parole di luogo in «{text}»"
    assert not problems(text), f"{lab.id}: conti che non tornano in «{text}»: {problems(text)}"
    assert not ONE_PLURAL.search(text) and not WRONG_ARTICLE.search(text), text


@pytest.mark.parametrize("lab", ALL, ids=[lab.id for lab in ALL])
def test_every_lab_suggests_at_least_two_experiments(lab):
    assert not labs.problems(), labs.problems()  # a lab refused by the contract would be missing from ALL
    assert len(lab.experiments) >= 2, f"{lab.id}: {len(lab.experiments)} esperimenti (ne servono almeno due)"


@pytest.mark.parametrize("lab", [lab for lab in ALL if lab.experiments], ids=lambda lab: lab.id)
def test_each_experiment_has_its_button_after_its_paragraph(lab):
    parts = lab.page_prose.split("\n\n")
    for e in lab.experiments:
        at = next(i for i, part in enumerate(parts) if f">{esc(e.sentence)}</span></li>" in part)
        assert parts[at].startswith('<div class="lab-experiments"') and "\n" not in parts[at]
        if e.after:
            assert flat(e.after) in flat(parts[at - 1]), f"{lab.id}: «Prova» non segue il paragrafo «{e.after}»"


def lab_named(lab_id):
    return next(lab for lab in ALL if lab.id == lab_id)


def test_a_wrong_check_is_reported():
    """The test above fails for a declaration whose check does not hold: η = 0,01 does not converge."""
    lab = lab_named("learning-rate")
    wrong = Experiment(
        "Con η = 0,01 il peso arriva sul fondo.", {"eta": 0.01}, "vista-scodella", lambda s: s["verdict"] == "converge"
    )
    _, shown = perform(lab, wrong)
    assert not shown
    with pytest.raises(AssertionError, match=r"check\(stato\) ha dato False leggendo verdict = 'striscia'"):
        test_an_experiment_shows_what_it_promises(lab, wrong)
    missing = Experiment("Con η = 0,5 il peso arriva sul fondo.", {"eta": 0.5}, "vista-altrove", lambda s: True)
    with pytest.raises(
        AssertionError, match=r"la parte «vista-altrove» non è nella vista disegnata \(.*vista-scodella"
    ):
        test_an_experiment_shows_what_it_promises(lab, missing)
    broken = Experiment("Con η = 0,5 il peso arriva sul fondo.", {"eta": 0.5}, "vista-scodella", lambda s: s["nulla"])
    with pytest.raises(AssertionError, match=r"check\(stato\) si è interrotto: KeyError: 'nulla'"):
        test_an_experiment_shows_what_it_promises(lab, broken)
    many = Experiment("Dopo 15 passi.", {"eta": 0.5}, "vista-scodella", lambda s: s["weights"][-1] > 100)
    with pytest.raises(AssertionError, match=r"leggendo weights = \[16 valori, gli ultimi 3, 3, 3\]"):
        test_an_experiment_shows_what_it_promises(lab, many)


def test_the_contract_refuses_a_broken_declaration():
    """Unknown control, value out of range or off the slider's grid, a part the view does not give, a
    paragraph the prose does not have: each one Italian line naming the lab's file and the line."""
    lab = lab_named("learning-rate")
    ok = lambda s: True  # noqa: E731
    broken = {
        "sconosciuto": Experiment("Con il comando sbagliato non succede niente.", {"beta": 1}, "vista-scodella", ok),
        "tra 0.01 e 1.2": Experiment("Con η = 5 il peso scappa.", {"eta": 5}, "vista-scodella", ok),
        "a passi di 0.01": Experiment("Con η = 0,505 il peso arriva.", {"eta": 0.505}, "vista-scodella", ok),
        "vista-nessuna": Experiment("Con η = 0,5 il peso arriva.", {"eta": 0.5}, "vista-nessuna", ok),
        "dev'essere una parte": Experiment("Con η = 0,5 il peso arriva.", {"eta": 0.5}, "#scodella", ok),
        "non c'è nella prosa": Experiment("Con η = 0,5 il peso arriva.", {"eta": 0.5}, "vista-scodella", ok, "xyz"),
        "italiano": Experiment("With a large step the weight diverges.", {"eta": 1.1}, "vista-scodella", ok),
    }
    for expected, experiment in broken.items():
        module = type(sys)("labs.ch2.finto")
        module.__dict__.update(vars(lab.module))
        module.__file__ = lab.module.__file__
        module.EXPERIMENTS = [experiment]
        with pytest.raises(ContractError, match=re.escape(expected)) as error:
            check_module(module, "2")
        assert re.match(r"\S+\.py, riga \d+: ", str(error.value)), str(error.value)
    assert experiments_problem(lab.module, lab.module.CONTROLS) is None


def test_the_prose_places_each_box_after_its_paragraph():
    ok = lambda s: True  # noqa: E731
    first = Experiment("Prova uno.", {"a": 1}, "vista-a", ok, after="primo")
    second = Experiment("Prova due.", {"a": 2}, "vista-a", ok, after="primo")
    last = Experiment("Prova tre.", {"a": 3}, "vista-a", ok)
    page = prose_with_experiments("Il primo paragrafo.\n\nIl secondo.", "x", [first, second, last])
    parts = page.split("\n\n")
    assert parts[0] == "Il primo paragrafo." and parts[2] == "Il secondo."
    assert parts[1].count("data-experiment ") == 2 and 'data-set="a=1"' in parts[1] and "\n" not in parts[1]
    assert parts[3].count("data-experiment ") == 1 and "Ripristina" in parts[3]


def test_a_slider_setting_is_written_as_the_page_writes_it():
    e = Experiment("Con η = 1 rimbalza.", {"eta": 1.0, "passi": 30, "mostra": True}, "vista-a", lambda s: True)
    assert e.data_set == "eta=1;passi=30;mostra=1"


# Experiments in any order: the page after «Prova» A, then «Prova» B, shows B's promise.


@lru_cache(maxsize=None)
def drawn(lab_id, raw_items):
    drawing = draw(lab_named(lab_id), dict(raw_items))
    assert drawing.ok, f"{lab_id}: {drawing.error}"
    return drawing


def click(lab, before, experiment, rule=after_click):
    """The page's raw values and drawing after a click on the experiment's «Prova», from the raw values before
    (the view's follow() may narrow what the click set, as the page's controls are narrowed)."""
    raw = rule(lab.controls, before, experiment)
    drawing = drawn(lab.id, tuple(sorted(raw.items())))
    return page_raw(lab, drawing.params), drawing


def out_of_order(lab, rule=after_click):
    """[(A, B)] of the lab's experiments whose B, clicked right after A, does not show its promise or shows
    another state than clicked first."""
    start = page_raw(lab, lab.defaults())
    alone = {b.sentence: click(lab, start, b, rule)[1] for b in lab.experiments}
    wrong = []
    for a in lab.experiments:
        after_a, _ = click(lab, start, a, rule)
        for b in lab.experiments:
            if b is a:
                continue
            drawing = click(lab, after_a, b, rule)[1]
            if not b.check(drawing.state) or drawing.state != alone[b.sentence].state:
                wrong.append((a.sentence, b.sentence))
    return wrong


@pytest.mark.parametrize("lab", [lab for lab in ALL if len(lab.experiments) > 1], ids=lambda lab: lab.id)
def test_an_experiment_shows_its_promise_whatever_came_before(lab):
    wrong = out_of_order(lab)
    assert not wrong, f"{lab.id}: dopo «{wrong[0][0]}», «{wrong[0][1]}» non si vede ({len(wrong)} coppie così)"


def test_an_experiment_that_set_only_its_own_controls_depended_on_the_one_before():
    """The rule the page had (the named controls set, the others left as the reader or the last «Prova» had
    them) fails the test above on A.5: after «Genera 1.000 token» the others showed T = 1.000."""

    def named_only(controls, before, experiment):
        return before | raw_settings(experiment)

    lab = lab_named("costo-kv-cache")
    assert out_of_order(lab, named_only)
    assert not out_of_order(lab)


def test_a_click_resets_what_it_does_not_name():
    lab = lab_named("costo-kv-cache")
    before = page_raw(lab, lab.defaults()) | {"generati": "1000", "strati": "80"}
    after = after_click(lab.controls, before, lab.experiments[0])
    assert after["n"] == "4000" and after["generati"] == "100" and after["strati"] == "32"


# Every number an experiment's sentence promises is on screen after the click, written the Italian way.

NUMBER = re.compile(r"(?<![\w.,])−?\d{1,3}(?:\.\d{3})+(?:,\d+)?(?!\w)|(?<![\w.,])−?\d+(?:,\d+)?(?!\w)")
# a number after these words is a bound («sotto 0,01», «tra 1 e 2.000»), not a value the view must show
BOUND = re.compile(
    r"(?:sotto|sopra|supera|superano|meno d\w*|più d\w*|circa|oltre|almeno|quasi|fino a|tra|tra \S+ e)\s*$"
)


def text_of(markup):
    """The words a page shows: tags dropped, entities read, minus signs as the view writes them."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", str(markup)))
    return " ".join(text.replace("-", "−").split())


def value_of(number):
    return float(number.replace(".", "").replace(",", ".").replace("−", "-"))


def decimals(number):
    return len(number.partition(",")[2])


def shown(promised, numbers, percent=False):
    """Whether a number on screen reads as the promised one: the same at the promised decimals (0,62 is
    0,621 rounded; 12 % is 12,0 %; 77 % is 0,774 as a probability)."""
    wanted = value_of(promised), decimals(promised)
    targets = [wanted] + ([(wanted[0] / 100, wanted[1] + 2)] if percent else [])
    for number in numbers:
        v, k = value_of(number), decimals(number)
        if any(k >= d and round(v, d) == round(w, d) for w, d in targets):
            return True
    return False


def control_texts(lab, experiment):
    """What the controls an experiment sets show: each value as its output writes it and a choice's label."""
    controls = {c.name: c for c in flatten(lab.controls)}
    texts = []
    for name, raw in raw_settings(experiment).items():
        texts.append(raw.replace(".", ",").replace("-", "−"))
        options = getattr(controls.get(name), "options", ())
        texts += [label for value, label in options if value == raw] if isinstance(options, tuple) else []
    return " ".join(texts)


def promised_numbers(sentence):
    """[(number, followed by «%»)] of the values a sentence promises, bounds left out."""
    sentence = sentence.replace("-", "−")
    return [
        (m.group(), sentence[m.end() :].lstrip().startswith("%"))
        for m in NUMBER.finditer(sentence)
        if not BOUND.search(sentence[: m.start()])
    ]


def unseen_numbers(lab, experiment):
    drawing, _ = perform(lab, experiment)
    on_screen = NUMBER.findall(text_of(drawing.html) + " " + control_texts(lab, experiment))
    return [n for n, percent in promised_numbers(experiment.sentence) if not shown(n, on_screen, percent)]


@pytest.mark.parametrize(("lab", "experiment"), CASES, ids=IDS)
def test_every_number_a_sentence_promises_is_on_screen(lab, experiment):
    missing = unseen_numbers(lab, experiment)
    assert not missing, f"{lab.id}: «{experiment.sentence}» promette {missing}, che la vista non mostra"


def test_the_promised_numbers_are_read_the_italian_way():
    found = promised_numbers("Con 4.000 token i confronti sono 8.002.000, sotto 0,01 e tra 1 e 2.000: −0,70 e 12 %.")
    assert found == [("4.000", False), ("8.002.000", False), ("−0,70", False), ("12", True)]
    assert shown("0,62", ["0,621"]) and shown("12", ["0,12"], percent=True) and shown("8.002.000", ["8.002.000"])
    assert not shown("8.002.000", ["8", "16"]) and not shown("2,49", ["2,05"]) and not shown("0,621", ["0,62"])
