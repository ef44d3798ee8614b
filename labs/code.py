"""«Il codice Python»: the functions behind a lab, shown in its page and
run again when the reader edits them.

What is shown, and the edits a lab suggests, is labs/kit/listing.py: the
reader edits all of it as one text, and this module runs the edited text.

Edited code runs apart: the lab's source is executed afresh as a module
of its own, and each definition of the edited text runs where its
original lives: in that lab module, or in a copy of its core module's
namespace (the «# ── da file» lines decide for anything new). A function
the reader replaced is then replaced wherever the other copies named it,
so the lab's compute calls the edited softmax, and the edited softmax the
helpers of its own module.
The installed `core` and `labs` modules never change.
"""

import ast
import hashlib
import importlib
import inspect
import json
import re
import traceback
import types

from .drawing import Drawing
from .drawing import NotFinite
from .drawing import WrongView
from .drawing import draw
from .kit.errors import LabError
from .kit.listing import apply_edit
from .kit.listing import caption
from .kit.listing import edit_change
from .kit.listing import edit_problem
from .kit.listing import editable_text
from .kit.listing import edits_problem
from .kit.listing import entry_points
from .kit.listing import listing
from .kit.listing import names_used
from .kit.listing import shown_objects
from .kit.listing import source_file
from .kit.stepping import StepMachine
from .registry import Lab
from .registry import get

FILENAME = "il tuo codice"
MAX_CODE = 60_000  # characters: an edit bigger than this is not a lab any more


HEADER = re.compile(r"^# ── da (\S+\.py)\s*$")


def statements(text):
    """The edited text's top-level statements, each with the file its «# ── da file»
    header names (None before the first). SyntaxError names the editor's line."""
    tree = ast.parse(text, FILENAME)
    headers = [(number, m.group(1)) for number, line in enumerate(text.split("\n"), 1) if (m := HEADER.match(line))]
    for node in tree.body:
        file = None
        for number, name in headers:
            if number <= node.lineno:
                file = name
        yield node, file


def home(name, file, lab_namespace):
    """Where a statement of the edited text runs: a def replacing a function of
    core.x runs in core.x's copy, one replacing the lab's own in the lab; any
    other statement where its section's header says."""
    original = lab_namespace.get(name)
    if inspect.isfunction(original) or inspect.isclass(original):
        return original.__module__ if original.__module__.startswith("core.") else None
    if file and file.startswith("core/"):
        return file[:-3].replace("/", ".")
    return None


def apply_edits(lab_namespace, text):
    """Run the edited text over a lab module's namespace (see the module docstring).
    Raises CodeError for anything the reader's code does wrong."""
    namespaces = {None: lab_namespace}
    replaced = {}  # id(original) → (original, edited)
    try:
        for node, file in statements(text):
            name = getattr(node, "name", None)
            key = home(name, file, lab_namespace)
            if key not in namespaces:
                namespaces[key] = dict(vars(importlib.import_module(key)))
            namespace = namespaces[key]
            old = namespace.get(name) if name else None
            exec(compile(ast.Module(body=[node], type_ignores=[]), FILENAME, "exec"), namespace)
            if old is not None and old is not namespace[name]:
                replaced[id(old)] = (old, namespace[name])
    except Exception as error:  # the reader's code: every failure becomes an Italian line
        raise italian(error) from None
    for namespace in namespaces.values():
        for name, value in list(namespace.items()):
            if id(value) in replaced and replaced[id(value)][0] is value:
                namespace[name] = replaced[id(value)][1]
    machine = lab_namespace.get("compute")
    if isinstance(machine, StepMachine):  # built from the originals: the same machine over the edited three
        lab_namespace["compute"] = machine.with_functions(
            lab_namespace["start"], lab_namespace["advance"], lab_namespace["present"]
        )


def edited_source(module, text):
    """The lab's module with the edited code applied at its end: a file that
    runs on its own (python -m labs run --file …)."""
    return (
        inspect.getsource(module).rstrip() + "\n\n\n# ── Il codice modificato nel browser\n"
        f"from labs.code import apply_edits  # noqa: E402\n\napply_edits(globals(), {text!r})\n"
    )


class CodeError(LabError):
    """Edited code that cannot run: the message is Italian and names the line."""

    def __init__(self, message, line=None):
        super().__init__(message)
        self.line = line


def user_line(error):
    """The line of the edited text where an exception happened (the innermost), or None."""
    if isinstance(error, SyntaxError) and error.filename == FILENAME:
        return error.lineno
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == FILENAME]
    return lines[-1] if lines else None


def italian(error):
    """One Italian sentence for an error in edited code."""
    line = user_line(error)
    where = f" alla riga {line}" if line else ""
    if isinstance(error, SyntaxError):
        return CodeError(f"Errore di sintassi{where}: {error.msg}.", line)
    if isinstance(error, OverflowError):
        return CodeError(f"Un numero è diventato troppo grande (overflow){where}: {error}.", line)
    if isinstance(error, ZeroDivisionError):
        return CodeError(f"Divisione per zero{where}.", line)
    if isinstance(error, RecursionError):
        return CodeError(f"Troppe chiamate annidate (ricorsione senza fine?){where}.", line)
    text = f"{error}".rstrip()
    if not text:
        return CodeError(f"Il codice si è fermato{where} con {type(error).__name__}.", line)
    end = "" if text.endswith((".", "!", "?", "»")) else "."
    return CodeError(f"Il codice si è fermato{where} con {type(error).__name__}: {text}{end}", line)


_MODULES = {}  # (lab module, sha256 of the text) → the edited module, so moving a slider does not re-exec


def edited_module(module, text):
    """A fresh module: the lab's source, then the edited text on top. Raises CodeError."""
    if len(text) > MAX_CODE:
        raise CodeError(f"Il codice modificato è troppo lungo: al massimo {MAX_CODE:,} caratteri.".replace(",", "."))
    key = (module.__name__, hashlib.sha256(text.encode()).hexdigest())
    if key in _MODULES:
        return _MODULES[key]
    fresh = types.ModuleType(module.__name__, module.__doc__)
    fresh.__file__ = module.__file__
    fresh.__package__ = module.__package__
    exec(compile(inspect.getsource(module), module.__file__, "exec"), fresh.__dict__)
    apply_edits(fresh.__dict__, text)
    _MODULES.clear()  # one edited version at a time is enough
    _MODULES[key] = fresh
    return fresh


def explain(error):
    """(Italian line, line of the edited text or None) for a failure of the edited lab: draw()'s explain."""
    if isinstance(error, CodeError):
        return str(error), error.line
    if isinstance(error, NotFinite):
        return (
            f"Il calcolo ha prodotto un valore non finito ({error.value}) in {error.where}: "
            "la vista non può disegnarlo.",
            None,
        )
    if isinstance(error, WrongView):
        html = error.html
        return (
            f"La vista deve restituire l'HTML del kit (Html), non {'niente' if html is None else type(html).__name__}.",
            None,
        )
    if isinstance(error, LabError):
        return str(error), None
    problem = italian(error)  # the reader's code, or the lab on the reader's numbers
    return str(problem), problem.line


def draw_edited(lab, text, raw=None):
    """draw() of the lab with the reader's edited code, in a module of its own (edited_module):
    every failure is an Italian line with the line of the edited text where it happened."""
    try:
        edited = Lab(edited_module(lab.module, text), lab.chapter)
    except CodeError as error:  # nothing is drawn: the parameters as parsed, and the line
        return Drawing(lab.parse(raw or {}), error=str(error), failure=error, line=error.line)
    return draw(edited, raw, explain=explain, finite=True)


def render_edited(lab_id, text, raw=None, fallback=False):
    """The page's render() with the reader's edited code: {"ok": True, "html", "params", …}, or
    {"ok": False, "error", "line", "params"} (the page keeps the last good view). With fallback, a failure
    draws the lab as written instead, and says why in "fallback" (an exercise the reader passed that fails
    on a state the lab reaches)."""
    lab = get(lab_id)
    drawing = draw_edited(lab, text, raw)
    if drawing.ok:
        return drawing.page()
    if fallback:
        return {**draw(lab, raw).page(), "fallback": drawing.error}
    return {**drawing.page(), "line": drawing.line}


def render_edited_json(lab_id, text, raw_json):
    """render_edited() for the browser worker."""
    return json.dumps(render_edited(lab_id, text, json.loads(raw_json)))


# ── «Prova a cambiare…»: the edits a lab suggests (labs.kit.Edit, in its EDITS list)


def raw_params(params):
    """An edit's params as the page writes them (a toggle as 1 or 0)."""
    return {k: ("1" if v else "0") if isinstance(v, bool) else str(v) for k, v in params.items()}


class Outcome:
    """What the reader sees of one run: the state (None if it failed), the view's HTML and the error line."""

    def __init__(self, state=None, html=None, error=None):
        self.state, self.html, self.error = state, html, error

    def __repr__(self):
        return f"Outcome(error={self.error!r})" if self.error else f"Outcome(state keys={sorted(self.state)[:8]})"


def try_edit(lab, edit):
    """(before, after): the lab with the edit's params, on its own code and on the edited one."""
    raw = raw_params(edit.params)
    text, _ = apply_edit(lab.module, edit)
    return outcome(draw(lab, raw)), outcome(draw_edited(lab, text, raw))


def outcome(drawing):
    """What the reader sees of one drawing: its state and HTML, or its error alone."""
    if not drawing.ok:
        return Outcome(None, None, drawing.error)
    return Outcome(drawing.state, str(drawing.html), None)


__all__ = [
    "CodeError",
    "Outcome",
    "apply_edit",
    "apply_edits",
    "caption",
    "draw_edited",
    "edit_change",
    "edit_problem",
    "editable_text",
    "edited_module",
    "edited_source",
    "edits_problem",
    "entry_points",
    "listing",
    "names_used",
    "render_edited",
    "render_edited_json",
    "shown_objects",
    "source_file",
    "try_edit",
]
