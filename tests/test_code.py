"""«Il codice Python»: what each lab shows of its code, and the reader's
edits run in a module of their own."""

import inspect
from dataclasses import dataclass

import pytest

import labs
from labs import code
from labs.kit import Edit
from labs.kit.errors import ContractError
from labs.kit.listing import caption_problem, check_edits, edits_problem
from labs.kit.svg import unique_ids

ALL = labs.all_labs()
IDS = [lab.id for lab in ALL]


def core_names_in(objects, module):
    """Names the shown objects read that the lab module imported from core."""
    words = set().union(*(code.names_used(obj) for obj in objects))
    return {
        name
        for name in words
        if (inspect.isfunction(getattr(module, name, None)) or inspect.isclass(getattr(module, name, None)))
        and getattr(module, name).__module__.startswith("core.")
    }


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_the_panel_lists_compute_and_every_core_function_it_calls(lab):
    shown = code.listing(lab.module)
    names = [name for _, name, _, _ in shown]
    entry = ["start", "advance", "present"] if lab.stepped and hasattr(lab.module, "start") else ["compute"]
    assert names[: len(entry)] == entry
    lab_objects = [obj for obj in code.shown_objects(lab.module) if obj.__module__ == lab.module.__name__]
    # every core function the lab module imports and its shown functions use appears, with its file
    for name in core_names_in(lab_objects, lab.module):
        assert name in names, f"{lab.id}: manca {name} nel pannello"
    for file, name, _, source in shown:
        assert f"def {name}" in source or f"class {name}" in source
        assert file.startswith(("core/", "labs/"))


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_unedited_code_draws_the_same_view(lab):
    result = labs.render_edited(lab.id, code.editable_text(lab.module), {})
    assert result["ok"], result.get("error")
    assert result["html"] == labs.render(lab.id, {})["html"]


def softmax_edit(text):
    return text.replace("shifted = [s - top for s in scaled]", "shifted = scaled", 1)


def test_softmax_without_the_max_overflows_with_an_italian_message_and_its_line():
    lab = labs.get("softmax-temperatura")
    text = code.editable_text(lab.module)
    edited = softmax_edit(text)
    assert edited != text
    fine = labs.render_edited(lab.id, edited, {})
    assert fine["ok"]  # small logits: the naive softmax still works
    broken = labs.render_edited(lab.id, edited, {"aggiunta": "1000"})
    assert not broken["ok"]
    assert "overflow" in broken["error"] and f"riga {broken['line']}" in broken["error"]
    assert "math.exp(s)" in edited.splitlines()[broken["line"] - 1]


def test_edits_stay_in_their_own_module():
    lab = labs.get("softmax-temperatura")
    before = labs.render(lab.id, {"aggiunta": "1000"})
    labs.render_edited(lab.id, softmax_edit(code.editable_text(lab.module)), {"aggiunta": "1000"})
    assert labs.render(lab.id, {"aggiunta": "1000"}) == before
    import core.softmax

    assert "top" in inspect.getsource(core.softmax.softmax_steps)


@pytest.mark.parametrize(
    "broken, expected, line",
    [
        ("def compute(p:\n    return 1\n", "Errore di sintassi alla riga", 1),
        ("def compute(p):\n    return 1 / 0\n", "Divisione per zero alla riga", 2),
        ("def compute(p):\n    return {'x': float('nan')}\n", "non finito", None),
        ("def view(s):\n    return '<b>testo</b>'\n", "Html", None),
        ("def view(s):\n    pass\n", "niente", None),
    ],
)
def test_broken_edits_give_one_italian_line(broken, expected, line):
    text = code.editable_text(labs.get("loss").module) + "\n\n"
    result = labs.render_edited("loss", text + broken, {})
    assert not result["ok"] and expected in result["error"], result["error"]
    if line:
        where = len(text.splitlines()) + line
        assert result["line"] == where and f"riga {where}" in result["error"]


def test_what_the_edited_view_shows_is_escaped():
    text = code.editable_text(labs.get("loss").module) + (
        "\n\nfrom labs.kit import tag\ndef view(s):\n    return tag('p', '<script>alert(1)</script>')\n"
    )
    result = labs.render_edited("loss", text, {})
    assert result["ok"] and "<script>" not in result["html"] and "&lt;script&gt;" in result["html"]


def test_an_edited_step_machine_is_rebuilt_from_the_edited_functions():
    lab = next(lab for lab in ALL if lab.stepped and hasattr(lab.module, "start"))
    text = code.editable_text(lab.module) + "\n\ndef advance(m, p):\n    raise RuntimeError('modificata')\n"
    result = labs.render_edited(lab.id, text, {lab.steps.name: "1"})
    assert not result["ok"] and "modificata" in result["error"]


def test_too_long_code_is_refused_in_italian():
    result = labs.render_edited("loss", "x = 1\n" * 20_000, {})
    assert not result["ok"] and "troppo lungo" in result["error"]


@pytest.mark.parametrize("lab", ALL[:6], ids=IDS[:6])
def test_the_downloaded_module_is_a_whole_lab(lab, tmp_path):
    source = code.edited_source(lab.module, code.editable_text(lab.module))
    namespace = {"__name__": lab.module.__name__}
    exec(compile(source, "modificato.py", "exec"), namespace)
    # render() gives a figure drawn twice in the view its own description id (kit.svg.unique_ids)
    view = unique_ids(namespace["view"](namespace["compute"](lab.defaults())))
    assert str(view) == labs.render(lab.id, {})["html"]


def test_the_downloaded_file_runs_with_the_cli(tmp_path, capsys):
    from labs.__main__ import main

    lab = labs.get("softmax-temperatura")
    path = tmp_path / "softmax_temperatura_modificato.py"
    path.write_text(code.edited_source(lab.module, softmax_edit(code.editable_text(lab.module))), encoding="utf-8")
    assert main(["run", "--file", str(path), "temperatura=2"]) == 0
    assert '"temperatura": 2.0' in capsys.readouterr().out
    assert main(["run", "aggiunta=1000", "--file", str(path)]) == 2  # the edit overflows where the original does not
    assert "OverflowError" in capsys.readouterr().err
    assert main(["run", "softmax-temperatura", "aggiunta=1000"]) == 0


# ── Italian captions: each function of a panel says in Italian what it computes

# files whose captions are still being translated (none now: core/transformer.py's pass)
PENDING = set()


def test_the_caption_check_tells_english_from_italian():
    def english():
        """Return the softmax of the logits, one row at a time."""

    def italian():
        """La softmax dei logit, una riga alla volta (`one_hot` e `is_visible` sono nomi)."""

    def formula():
        """a · b = Σ aᵢbᵢ: multiply in pairs, add up."""

    def wrapped():
        """La softmax dei logit,
        una riga alla volta."""

    def missing():
        pass

    @dataclass(frozen=True)
    class Training:
        weights: tuple

    @dataclass(frozen=True)
    class Allenamento:
        """I pesi e le loss di un allenamento, un passo dopo l'altro."""

        weights: tuple

    assert caption_problem(italian) is None and caption_problem(Allenamento) is None
    for obj in (english, formula, wrapped, missing):
        assert caption_problem(obj), obj.__name__
    # a dataclass without a docstring has a generated one, «Training(weights: tuple)»: it is missing, not English
    assert caption_problem(Training) == (
        "la classe Training non ha una docstring: la sua prima riga è la didascalia nel pannello del codice"
    )


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_every_function_in_a_panel_has_an_italian_caption(lab):
    problems = []
    for obj in code.shown_objects(lab.module):
        file = code.source_file(obj)
        problem = None if file in PENDING else caption_problem(obj)
        if problem:
            problems.append(f"{file}: {obj.__name__}: {problem}")
    assert not problems, f"{len(problems)} didascalie da sistemare:\n" + "\n".join(problems)


# ── «Prova a cambiare…»: the edits each lab suggests, applied and checked

SUGGESTED = [(lab, edit) for lab in ALL for edit in getattr(lab.module, "EDITS", ())]


@pytest.mark.parametrize("lab, edit", SUGGESTED, ids=[f"{lab.id}:{edit.title}" for lab, edit in SUGGESTED])
def test_a_suggested_edit_shows_what_it_promises(lab, edit):
    assert code.edit_problem(lab.module, edit) is None
    original = code.editable_text(lab.module)
    text, line = code.apply_edit(lab.module, edit)
    old, new = code.edit_change(lab.module, edit)
    assert text != original and text.count(new) >= 1
    changed = text.splitlines()[line - 1]
    assert any(part.strip() and part.strip() in changed for part in new.splitlines()), (
        "the editor goes to a line the edit changed"
    )
    assert changed not in original.splitlines()
    before, after = code.try_edit(lab, edit)
    assert before.error is None, before.error  # the lab's own code works where the edit shows its effect
    assert after.error is not None or after.html != before.html, "the edit changes nothing the reader sees"
    assert edit.check is not None, f"{lab.id}: «{edit.title}» non dichiara check(prima, dopo)"
    assert edit.check(before, after), f"{lab.id}: «{edit.title}»: l'effetto promesso non c'è ({after})"


def test_the_softmax_edit_overflows_where_the_original_subtracts_the_max():
    lab = labs.get("softmax-temperatura")
    edit = next(e for e in lab.module.EDITS if "massimo" in e.title)
    before, after = code.try_edit(lab, edit)
    assert before.state["extra"] == 1000 and before.state["probs"] == pytest.approx(
        lab.compute(lab.defaults())["probs"], abs=1e-12
    )  # adding 1000 to every logit changes no probability
    assert "overflow" in after.error and "riga" in after.error
    text, line = code.apply_edit(lab.module, edit)
    assert text.splitlines()[line - 1].strip() == "shifted = scaled"


def test_a_function_s_new_source_replaces_that_function():
    lab = labs.get("loss")
    edit = Edit(
        "la loss come 1 − p",
        change='''
        def cross_entropy(p):
            """La loss 1 − p: non cresce mai oltre 1."""
            return 1 - p
    ''',
        expect="La loss resta sotto 1.",
        params={"p": 0.01},
        check=lambda before, after: after.state["loss"] < 1,
    )
    text, line = code.apply_edit(lab.module, edit)
    assert "return 1 - p" in text and text.count("def cross_entropy(") == 1
    before, after = code.try_edit(lab, edit)
    assert before.state["loss"] == pytest.approx(4.605170185988091) and after.state["loss"] == pytest.approx(0.99)


SHOWN = lambda before, after: True  # noqa: E731 (a check that holds: the case is about another problem)


@pytest.mark.parametrize(
    "edit, expected",
    [
        (
            Edit(
                "un testo che non c'è", change=("questo testo non c'è", "x"), expect="Non cambia niente.", check=SHOWN
            ),
            "non c'è nel codice",
        ),
        (Edit("una lettera sola", change=("p", "q"), expect="Cambia tutto il testo.", check=SHOWN), "volte"),
        (
            Edit(
                "the max",
                change=("shifted = [s - top for s in scaled]", "shifted = scaled"),
                expect="It overflows.",
                check=SHOWN,
            ),
            "in italiano",
        ),
        (
            Edit(
                "la softmax senza massimo",
                change=("shifted = [s - top for s in scaled]", "shifted = scaled"),
                expect="Va in overflow.",
                params={"nessuno": 1},
                check=SHOWN,
            ),
            "params",
        ),
        (
            Edit(
                "una funzione che non c'è",
                change="def altrove(x):\n    return x\n",
                expect="Non cambia niente.",
                check=SHOWN,
            ),
            "funzione del pannello",
        ),
        (
            Edit(
                "la softmax senza massimo",
                change=("shifted = [s - top for s in scaled]", "shifted = scaled"),
                expect="Va in overflow.",
                params={"sezioni": "nessuna"},
                check=SHOWN,
            ),
            "sezione sconosciuta: nessuna",
        ),
        (
            Edit(
                "la softmax senza massimo",
                change=("shifted = [s - top for s in scaled]", "shifted = scaled"),
                expect="Va in overflow.",
            ),
            "manca check, la funzione check(prima, dopo)",
        ),
        (
            Edit(
                "una riga che c'è già",
                change=('"top": top,', '"seed": params["seme"],'),
                expect="Non cambia niente.",
                check=SHOWN,
            ),
            "c'è già uguale nel codice originale",
        ),
    ],
)
def test_a_broken_edit_is_one_italian_line_of_the_contract(edit, expected, monkeypatch):
    module = labs.get("softmax-temperatura").module
    monkeypatch.setattr(module, "EDITS", [edit])
    problem = edits_problem(module)
    assert problem and expected in problem, problem
    monkeypatch.setattr(module, "EDITS", "nessuna")
    assert "EDITS" in edits_problem(module)


def test_a_lab_without_edits_breaks_the_contract_naming_its_file(monkeypatch):
    module = labs.get("softmax-temperatura").module
    monkeypatch.delattr(module, "EDITS")
    with pytest.raises(
        ContractError, match=r"^labs/ch9/softmax_temperatura\.py: manca EDITS, la lista delle modifiche"
    ):
        check_edits(module)


def test_an_edit_may_open_the_folds_where_its_effect_shows(monkeypatch):
    """params={"sezioni": …} names folds of the lab (A.4's W_o product): accepted, and tried with them open."""
    lab = labs.get("multi-head")
    edit = lab.module.EDITS[0]
    assert edit.params == {"sezioni": "uscite"} and edits_problem(lab.module) is None
    before, after = code.try_edit(lab, edit)
    assert 'data-part="out"' in before.html and 'data-part="out"' in after.html
    monkeypatch.setattr(lab.module, "FOLDS", ())
    assert "sezione sconosciuta: uscite" in edits_problem(lab.module)


@pytest.mark.parametrize("lab_id", ["transformer-allenato", "embedding-vicini", "bpe"])
def test_an_edited_step_machine_keeps_every_option_of_the_labs_machine(lab_id):
    """packed (3.2), view_only (3.2, 2.6, 9A), the step's name: the machine the edited code runs on is the
    lab's own in all but its three functions, which are the edited ones, and its cache, which is new."""
    lab = labs.get(lab_id)
    machine = lab.module.compute
    edited = code.edited_module(lab.module, code.editable_text(lab.module)).compute

    def options(m):
        return {
            name: value
            for name, value in vars(m).items()
            if name not in ("start", "advance", "present", "cache", "step_seconds")
        }

    assert options(edited) == options(machine)
    assert edited.advance is not machine.advance and edited.cache is not machine.cache
