"""Every exercise of the site: its reference passes its own cases, every typical wrong answer it declares is
caught with its remark, a passed function draws the lab as the reference does, and the contract refuses
unsound declarations with the file and line. The analogue of a page that runs every exercise's solution."""

import json
import types

import pytest

import labs
from labs import code_exercises
from labs.kit import Case, Exercise, Experiment, Question, Wrong
from labs.kit.errors import ContractError
from labs.kit.exercises import MIN_CASES, check_exercises, question_problem
from labs.kit.listing import listing

EXERCISES = [(lab, exercise) for lab in labs.all_labs() for exercise in code_exercises.exercises_of(lab)]
QUESTIONS = [(lab, e.predict) for lab in labs.all_labs() for e in lab.experiments if e.predict is not None]
IDS = [f"{lab.id}:{exercise.name}" for lab, exercise in EXERCISES]


def test_the_site_has_at_least_twelve_exercises_in_six_chapters_and_six_labs_with_questions():
    assert len(EXERCISES) >= 12, [i for i in IDS]
    assert len({lab.chapter.number for lab, _ in EXERCISES}) >= 6
    assert len({lab.id for lab, _ in QUESTIONS}) >= 6


@pytest.mark.parametrize(("lab", "exercise"), EXERCISES, ids=IDS)
def test_the_reference_passes_its_own_cases(lab, exercise):
    answer = code_exercises.check(lab, exercise, exercise.solution())
    assert answer["ok"], answer["message"]
    assert answer["passed"] == answer["total"] >= MIN_CASES
    assert answer["message"] == f"Giusto: {answer['total']} casi su {answer['total']}."


@pytest.mark.parametrize(("lab", "exercise"), EXERCISES, ids=IDS)
def test_every_declared_wrong_answer_is_caught_with_its_remark(lab, exercise):
    for wrong in exercise.wrong:
        answer = code_exercises.check(lab, exercise, wrong.code)
        assert not answer["ok"], f"non presa: {wrong.code}"
        assert answer["remark"] == wrong.remark, answer
        assert answer["message"].startswith("Con "), answer["message"]


@pytest.mark.parametrize(("lab", "exercise"), EXERCISES, ids=IDS)
def test_the_starter_fails_kindly_and_names_the_function(lab, exercise):
    starter = exercise.starter()
    assert starter.startswith(f"def {exercise.name}(")
    answer = code_exercises.check(lab, exercise, starter)
    assert not answer["ok"]
    assert answer["passed"] == 0 or answer["message"]  # a body of «...» returns None: «manca un return?»


@pytest.mark.parametrize(("lab", "exercise"), EXERCISES, ids=IDS)
def test_a_passed_function_draws_the_lab_as_the_reference(lab, exercise):
    """The lab on the reader's function (here the reference's own text, through the code panel's path) is
    the same lab, number for number."""
    codes = json.dumps({exercise.name: exercise.solution()})
    mine = json.loads(code_exercises.render_exercises_json(lab.id, codes, "{}"))
    assert mine["ok"] and "fallback" not in mine, mine.get("error") or mine.get("fallback")
    assert mine["html"] == labs.render(lab.id, {})["html"]


@pytest.mark.parametrize(("lab", "exercise"), EXERCISES, ids=IDS)
def test_the_exercise_is_on_a_function_the_lab_shows(lab, exercise):
    assert exercise.name in {name for _, name, _, _ in listing(lab.module)}


def test_a_wrong_function_changes_the_figure_and_a_failing_one_falls_back():
    lab = labs.get("softmax-temperatura")
    flat = "def softmax(logits, temperature=1.0):\n    return [1 / len(logits)] * len(logits)\n"
    mine = json.loads(code_exercises.render_exercises_json(lab.id, json.dumps({"softmax": flat}), "{}"))
    assert mine["ok"] and mine["html"] != labs.render(lab.id, {})["html"]
    broken = "def softmax(logits, temperature=1.0):\n    raise ValueError('no')\n"
    mine = json.loads(code_exercises.render_exercises_json(lab.id, json.dumps({"softmax": broken}), "{}"))
    assert mine["ok"] and mine["html"] == labs.render(lab.id, {})["html"]
    assert "ValueError" in mine["fallback"]


def check(code, name="softmax-temperatura", function="softmax"):
    lab = labs.get(name)
    return code_exercises.check(lab, code_exercises.exercise_of(lab, function), code)


def test_the_checker_says_what_went_wrong_in_italian():
    assert "Errore di sintassi alla riga 1" in check("def softmax(l, t=1.0)\n    return l\n")["message"]
    assert "non c'è la funzione softmax" in check("def soft(l, t=1.0):\n    return l\n")["message"]
    answer = check("def softmax(l, t=1.0):\n    x = 1\n    return x / 0\n")
    assert answer["line"] == 3 and "divisione per zero alla riga 3" in answer["message"]
    answer = check("def softmax(l, t=1.0):\n    pass\n")
    assert "non restituisce niente (None)" in answer["message"]
    answer = check("def softmax(l, t=1.0):\n    return [0.5] * (len(l) + 1)\n")
    assert "la lunghezza" in answer["message"]
    answer = check("def softmax(l, t=1.0):\n    return 1\n")
    assert "il tipo" in answer["message"]


def test_a_function_that_changes_its_input_does_not_spoil_the_next_case():
    code = (
        "def softmax(logits, temperature=1.0):\n"
        "    top = max(logits)\n"
        "    for i, z in enumerate(logits):\n"
        "        logits[i] = math.exp((z - top) / temperature)\n"
        "    total = sum(logits)\n"
        "    return [e / total for e in logits]\n"
    )
    assert check(code)["ok"]


def test_cases_are_seeded_the_same_every_time():
    exercise = code_exercises.exercise_of(labs.get("softmax-temperatura"), "softmax")
    assert code_exercises.cases(exercise) == code_exercises.cases(exercise)


def test_difference_reads_shapes_and_tolerance():
    assert code_exercises.difference([1.0, 2.0], [1.0, 2.0 + 1e-12], 1e-9) is None
    assert code_exercises.difference([1.0, 2.0], [1.0, 2.1], 1e-9) == "l'elemento [1]"
    assert code_exercises.difference({"a": 1}, {"a": 1, "b": 2}, 1e-9) == "le chiavi"
    assert code_exercises.difference(("ab", 3), ("ab", 3), 0.0) is None
    assert code_exercises.difference(True, 1, 0.0) == "il valore"


def fake_lab(**names):
    """A module standing for a lab with the given EXERCISES / EXPERIMENTS."""
    module = types.ModuleType("labs.ch9.finto")
    module.__file__ = "labs/ch9/finto.py"
    vars(module).update(names)
    return module


def sound_exercise(**changes):
    from core.softmax import softmax

    fields = {
        "function": softmax,
        "task": "Scrivi la softmax della lista di logit.",
        "cases": tuple(Case(([float(k), 0.0],), "due logit") for k in range(MIN_CASES)),
        "wrong": (
            Wrong("def softmax(logits, temperature=1.0):\n    return logits\n", "Manca la divisione per la somma."),
        ),
    }
    return Exercise(**(fields | changes))


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"task": "Write the softmax of the logits."}, "task dev'essere in italiano"),
        ({"wrong": ()}, "almeno una risposta sbagliata tipica"),
        ({"cases": (Case(([1.0],)),)}, "ne servono da"),
        ({"hints": ("Use the max of the list.",)}, "suggerimenti in italiano"),
        ({"wrong": (Wrong("def other(x):\n    return x\n", "Manca la somma."),)}, "deve definire softmax"),
        ({"function": len}, "dev'essere una funzione di core/"),
    ],
)
def test_the_contract_refuses_an_unsound_exercise_naming_its_line(changes, words):
    exercise = sound_exercise(**changes)
    with pytest.raises(ContractError) as refused:
        check_exercises(fake_lab(EXERCISES=[exercise]), {"softmax"})
    assert words in str(refused.value)
    assert str(refused.value).startswith("tests/test_exercises.py, riga ")


def test_the_contract_refuses_an_exercise_on_a_function_the_lab_does_not_show():
    with pytest.raises(ContractError, match="il laboratorio non la usa"):
        check_exercises(fake_lab(EXERCISES=[sound_exercise()]), {"compute", "view"})
    check_exercises(fake_lab(EXERCISES=[sound_exercise()]), {"softmax"})


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (Question("Che cosa succede?", ("sale",), 0, "Perché sì, è così."), "da due a cinque"),
        (Question("Che cosa succede?", ("sale", "scende"), 2, "Perché sì, è così."), "indice della risposta"),
        (Question("What happens?", ("sale", "scende"), 0, "Perché sì, è così."), "in italiano"),
        (Question("Che cosa succede?", ("sale", "sale"), 0, "Perché sì, è così."), "testi diversi"),
    ],
)
def test_the_contract_refuses_an_unsound_question(question, words):
    assert words in question_problem(question)
    experiment = Experiment("Prova a muovere la temperatura.", {"t": 1}, "vista", bool, predict=question)
    with pytest.raises(ContractError, match=words):
        check_exercises(fake_lab(EXPERIMENTS=[experiment]), set())


@pytest.mark.parametrize(("lab", "question"), QUESTIONS, ids=[f"{lab.id}:{q.prompt[:20]}" for lab, q in QUESTIONS])
def test_every_question_is_sound(lab, question):
    assert question_problem(question) is None
