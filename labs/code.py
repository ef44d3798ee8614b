"""«Il codice Python»: the functions behind a lab, shown in its page and
run again when the reader edits them.

What is shown is found, not listed: the lab's compute (for a stepped lab,
its start, advance and present), the lab's own functions that these call,
and every function or class of core/ reached from them, following the
names each one uses. The reader edits all of it as one text.

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
import re
import math
import textwrap
import traceback
import types

from .kit import Html, LabError
from .kit.stepping import StepMachine

FILENAME = "il tuo codice"
MAX_CODE = 60_000  # characters: an edit bigger than this is not a lab any more


def entry_points(module):
    """compute, or start/advance/present for a step machine."""
    compute = module.compute
    if isinstance(compute, StepMachine):
        return [compute.start, compute.advance, compute.present]
    return [compute]


def names_used(obj):
    """Every name a function or class reads (its body, defaults, decorators, bases)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(obj)))
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}


def shown_objects(module):
    """The functions and classes shown for a lab, in reading order: entry points,
    the lab's helpers they call, then core's, each module in order of discovery."""
    queue = list(entry_points(module))
    found = []
    while queue:
        obj = queue.pop(0)
        if obj in found:
            continue
        found.append(obj)
        scope = vars(inspect.getmodule(obj))
        for name in sorted(names_used(obj)):
            target = unwrapped(scope.get(name))
            if (inspect.isfunction(target) or inspect.isclass(target)) and is_ours(target, module) \
                    and target not in found and target.__name__ == name:
                queue.append(target)
    lab_part = [o for o in found if o.__module__ == module.__name__]
    return lab_part + [o for o in found if o.__module__ != module.__name__]


def unwrapped(obj):
    """The function under a functools.cache or lru_cache: shown with its decorator, run again with it."""
    inner = getattr(obj, "__wrapped__", None)
    return inner if callable(obj) and inspect.isfunction(inner) else obj


def is_ours(obj, module):
    """Shown if it is written in core/ or in this lab's own module."""
    return obj.__module__.startswith("core.") or obj.__module__ == module.__name__


def caption(obj):
    """The first line of a docstring: the function's one-line caption."""
    doc = inspect.getdoc(obj) or ""
    return doc.split("\n\n")[0].replace("\n", " ").strip()


def source_file(obj):
    return obj.__module__.replace(".", "/") + ".py"


def listing(module):
    """[(file, name, caption, source)] for every shown object."""
    return [(source_file(o), o.__name__, caption(o), inspect.getsource(o).rstrip() + "\n")
            for o in shown_objects(module)]


def editable_text(module):
    """All shown sources as one text, each introduced by the file it comes from."""
    parts = []
    for file, _, _, source in listing(module):
        parts.append(f"# ── da {file}\n{source}")
    return "\n\n".join(parts)


HEADER = re.compile(r"^# ── da (\S+\.py)\s*$")


def statements(text):
    """The edited text's top-level statements, each with the file its «# ── da file»
    header names (None before the first). SyntaxError names the editor's line."""
    tree = ast.parse(text, FILENAME)
    headers = [(number, m.group(1)) for number, line in enumerate(text.split("\n"), 1)
               if (m := HEADER.match(line))]
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
    if isinstance(machine, StepMachine):  # built from the originals: build it again from the edited three
        lab_namespace["compute"] = StepMachine(lab_namespace["start"], lab_namespace["advance"],
                                               lab_namespace["present"], machine.step, machine.view_only)


def edited_source(module, text):
    """The lab's module with the edited code applied at its end: a file that
    runs on its own (python -m labs run --file …)."""
    return (inspect.getsource(module).rstrip() + "\n\n\n# ── Il codice modificato nel browser\n"
            f"from labs.code import apply_edits  # noqa: E402\n\napply_edits(globals(), {text!r})\n")


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


def check_state(state, where="stato"):
    """NaN or infinity in the edited code's state, as an Italian CodeError."""
    if isinstance(state, float) and not math.isfinite(state):
        raise CodeError(f"Il calcolo ha prodotto un valore non finito ({state}) in {where}: "
                        "la vista non può disegnarlo.")
    if isinstance(state, dict):
        for k, v in state.items():
            check_state(v, f"{where}.{k}")
    elif isinstance(state, (list, tuple)):
        for i, v in enumerate(state):
            check_state(v, f"{where}[{i}]")


def check_html(html):
    if not isinstance(html, Html):
        raise CodeError("La vista deve restituire l'HTML del kit (Html), non "
                        f"{'niente' if html is None else type(html).__name__}.")


# ── «Prova a cambiare…»: the edits a lab suggests (labs.kit.Edit, in its EDITS list)

def edit_change(module, edit):
    """(old, new) in the panel's text: the edit's own pair, or for a function's
    new source the shown source of the function with that name and the new one."""
    if isinstance(edit.change, str):
        new = textwrap.dedent(edit.change).strip("\n")
        defined = [node.name for node in ast.parse(new).body
                   if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
        shown = {name: source for _, name, _, source in listing(module)}
        if len(defined) != 1 or defined[0] not in shown:
            raise LookupError(f"il nuovo codice deve definire una funzione del pannello ({', '.join(shown)}), "
                              f"non {', '.join(defined) or 'niente'}")
        return shown[defined[0]].rstrip("\n"), new
    old, new = edit.change
    return old, new


def edit_problem(module, edit):
    """None if the edit applies to the panel's text; else one Italian line saying why not."""
    try:
        old, new = edit_change(module, edit)
    except (LookupError, SyntaxError) as error:
        return f"la modifica «{edit.title}»: {error}"
    if not (isinstance(old, str) and isinstance(new, str)) or old == new or not old:
        return f"la modifica «{edit.title}»: change dev'essere (vecchio, nuovo), due testi diversi e non vuoti"
    found = editable_text(module).count(old)
    if found != 1:
        where = "non c'è" if found == 0 else f"compare {found} volte"
        return (f"la modifica «{edit.title}»: il testo da cambiare {where} nel codice del pannello "
                f"(deve comparire una volta sola): «{old[:60]}»")
    return None


def apply_edit(module, edit):
    """The panel's text with the edit made, and the line (from 1) of its first changed line."""
    text = editable_text(module)
    old, new = edit_change(module, edit)
    at = text.index(old)
    same = 0
    for a, b in zip(old.split("\n"), new.split("\n")):
        if a != b:
            break
        same += 1
    line = text[:at].count("\n") + 1 + min(same, new.count("\n"))
    return text[:at] + new + text[at + len(old):], line


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
    import labs  # labs imports this module: here it is already loaded

    raw = raw_params(edit.params)
    before = labs.render(lab.id, raw)
    params = before["params"]
    original = Outcome(lab.compute(params), before.get("html"), before.get("error")) if before["ok"] \
        else Outcome(None, None, before["error"])
    text, _ = apply_edit(lab.module, edit)
    after = labs.render_edited(lab.id, text, raw)
    if not after["ok"]:
        return original, Outcome(None, None, after["error"])
    return original, Outcome(edited_module(lab.module, text).compute(after["params"]), after["html"], None)
