"""«Prova»: every experiment a lab declares (labs/kit/experiments.py) performed here as the page performs it.

The settings are drawn through the lab's one render path (labs.drawing.draw, as the page's worker draws
them), the declared check runs on the state they give, and the part the button scrolls to is in the view
drawn. The sentence beside the button meets the prose's rules (Italian agreement, words of place, sums).
Ids are «lab-id:sentence», so `-k <lab id>` selects one lab's experiments.
"""

import re
import sys
from pathlib import Path

import pytest

import labs
from labs.drawing import draw
from labs.kit import Experiment, esc
from labs.kit.contract import check_module
from labs.kit.errors import ContractError, place
from labs.kit.experiments import experiment_failure, experiments_problem, flat, prose_with_experiments, raw_settings

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
