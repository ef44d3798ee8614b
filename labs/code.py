"""«Il codice Python»: the functions behind a lab, shown in its page and
run again when the reader edits them.

What is shown is found, not listed: the lab's compute (for a stepped lab,
its start, advance and present), the lab's own functions that these call,
and every function or class of core/ reached from them, following the
names each one uses. The reader edits all of it as one text.

Edited code runs in a module of its own: the lab's source is executed
afresh, then the edited text on top, so its definitions replace the
originals there and only there. Every shown function lives in that one
namespace, so an edited core function is the one that the lab's other
functions call. The installed `core` and `labs` modules never change.
"""

import ast
import hashlib
import inspect
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
            target = scope.get(name)
            if (inspect.isfunction(target) or inspect.isclass(target)) and is_ours(target, module) \
                    and target not in found and target.__name__ == name:
                queue.append(target)
    lab_part = [o for o in found if o.__module__ == module.__name__]
    return lab_part + [o for o in found if o.__module__ != module.__name__]


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


def imports_needed(module):
    """`from core.x import a, b` lines for the names that the shown core functions use from their modules."""
    shown = shown_objects(module)
    shown_names = {o.__name__ for o in shown}
    needed = {}
    for obj in shown:
        if obj.__module__ == module.__name__:
            continue
        home = vars(inspect.getmodule(obj))
        for name in names_used(obj) - shown_names:
            if name in home and not name.startswith("__"):
                needed.setdefault(obj.__module__, set()).add(name)
    return "".join(f"from {m} import {', '.join(sorted(names))}\n" for m, names in sorted(needed.items()))


def edited_source(module, text):
    """The whole module the edited code makes: runnable on its own (python -m labs run --file …)."""
    return (inspect.getsource(module).rstrip() + "\n\n\n# ── Il codice modificato nel browser\n"
            + imports_needed(module) + "\n" + text.rstrip() + "\n" + rebuild_machine(module))


def rebuild_machine(module):
    """A step machine must be built again from the edited start/advance/present."""
    compute = module.compute
    if not isinstance(compute, StepMachine):
        return ""
    return f"\ncompute = type(compute)(start, advance, present, step={compute.step!r})\n"


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
    return CodeError(f"Il codice si è fermato{where} con {type(error).__name__}: {error}", line)


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
    try:
        exec(compile(inspect.getsource(module), module.__file__, "exec"), fresh.__dict__)
        exec(compile(imports_needed(module), "<import>", "exec"), fresh.__dict__)
        exec(compile(text, FILENAME, "exec"), fresh.__dict__)
        exec(compile(rebuild_machine(module), "<macchina>", "exec"), fresh.__dict__)
    except Exception as error:  # the reader's code: every failure becomes an Italian line
        raise italian(error) from None
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
