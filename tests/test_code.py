"""«Il codice Python»: what each lab shows of its code, and the reader's
edits run in a module of their own."""

import inspect
import re

import pytest

import labs
from labs import code

ALL = labs.all_labs()
IDS = [lab.id for lab in ALL]


def core_names_in(source, module):
    """Names in a piece of source that the lab module imported from core."""
    words = set(re.findall(r"\b\w+\b", source))
    return {name for name in words
            if (inspect.isfunction(getattr(module, name, None)) or inspect.isclass(getattr(module, name, None)))
            and getattr(module, name).__module__.startswith("core.")}


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_the_panel_lists_compute_and_every_core_function_it_calls(lab):
    shown = code.listing(lab.module)
    names = [name for _, name, _, _ in shown]
    entry = ["start", "advance", "present"] if lab.stepped and hasattr(lab.module, "start") else ["compute"]
    assert names[:len(entry)] == entry
    lab_sources = "".join(source for file, _, _, source in shown if file.startswith("labs/"))
    # every core function the lab module imports and its shown functions use appears, with its file
    for name in core_names_in(lab_sources, lab.module):
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


@pytest.mark.parametrize("broken, expected, line", [
    ("def compute(p:\n    return 1\n", "Errore di sintassi alla riga", 1),
    ("def compute(p):\n    return 1 / 0\n", "Divisione per zero alla riga", 2),
    ("def compute(p):\n    return {'x': float('nan')}\n", "non finito", None),
    ("def view(s):\n    return '<b>testo</b>'\n", "Html", None),
    ("def view(s):\n    pass\n", "niente", None),
])
def test_broken_edits_give_one_italian_line(broken, expected, line):
    text = code.editable_text(labs.get("loss").module) + "\n\n"
    result = labs.render_edited("loss", text + broken, {})
    assert not result["ok"] and expected in result["error"], result["error"]
    if line:
        where = len(text.splitlines()) + line
        assert result["line"] == where and f"riga {where}" in result["error"]


def test_what_the_edited_view_shows_is_escaped():
    text = code.editable_text(labs.get("loss").module) + (
        "\n\nfrom labs.kit import tag\ndef view(s):\n    return tag('p', '<script>alert(1)</script>')\n")
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
    assert str(namespace["view"](namespace["compute"](lab.defaults()))) == labs.render(lab.id, {})["html"]


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

# words that give an English sentence away and are not Italian words
ENGLISH = {"the", "of", "and", "is", "are", "with", "by", "for", "from", "when", "each", "every", "its", "it",
           "that", "this", "one", "on", "to", "return", "returns", "compute", "computes", "which", "as", "at",
           "an", "be", "or", "into", "than", "without", "only", "after", "before", "how", "many", "where",
           "whether", "not", "both", "all", "whose", "their", "what", "gives", "given", "number", "numbers",
           "up", "down", "over", "between", "same", "other", "first", "last", "new", "times", "rows", "columns",
           "weights", "add", "multiply", "pairs", "then", "if", "has", "have", "can", "does", "there", "them",
           "these", "those", "most", "more", "less", "but", "also", "any", "was", "were", "will", "would"}
# one of these is in any Italian sentence of more than a couple of words
ITALIAN = {"il", "lo", "la", "i", "gli", "le", "l", "un", "una", "uno", "di", "del", "dello", "della", "dei",
           "degli", "delle", "e", "è", "che", "per", "con", "da", "dal", "dalla", "dai", "in", "nel", "nella",
           "nei", "su", "sul", "sulla", "a", "al", "alla", "ai", "non", "ogni", "come", "tra", "se", "o",
           "quanti", "quante", "quanto", "sono", "ne", "si", "dove", "quando"}
# core/transformer.py is another engineer's file: its docstrings are being translated there.
# Remove this allowance as soon as its captions pass.
PENDING = {"core/transformer.py"}


def english_in(caption):
    """The words of a caption that are English, not Italian (identifiers and code left out)."""
    prose = re.sub(r"`[^`]*`", " ", caption)
    words = [w.lower() for w in re.findall(r"[\w'’-]+", prose) if w.isalpha()]
    return [w for w in words if w in ENGLISH]


def caption_problem(obj):
    """None if obj has a one-line Italian caption, else what is wrong with it."""
    caption = code.caption(obj)
    if not caption:
        return "manca la docstring (la sua prima riga è la didascalia)"
    if "\n" in inspect.getdoc(obj).split("\n\n")[0]:
        return f"la prima riga della docstring dev'essere una frase sola, seguita da una riga vuota: «{caption}»"
    if len(caption) > 120:
        return f"didascalia di {len(caption)} caratteri (al massimo 120): «{caption}»"
    english = english_in(caption)
    if english:
        return f"didascalia in inglese ({', '.join(english)}): «{caption}»"
    words = {w.lower() for w in re.findall(r"\w+", caption)}
    if not words & ITALIAN:
        return f"didascalia senza una parola italiana: «{caption}»"
    return None


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

    assert caption_problem(italian) is None
    for obj in (english, formula, wrapped, missing):
        assert caption_problem(obj), obj.__name__


def test_every_function_in_a_panel_has_an_italian_caption():
    problems, seen = [], set()
    for lab in ALL:
        for obj in code.shown_objects(lab.module):
            file = code.source_file(obj)
            if (file, obj.__name__) in seen or file in PENDING:
                continue
            seen.add((file, obj.__name__))
            problem = caption_problem(obj)
            if problem:
                problems.append(f"{file}: {obj.__name__}: {problem}")
    assert not problems, f"{len(problems)} didascalie da sistemare:\n" + "\n".join(problems)
