"""The contract a lab module meets, checked where it is broken.

A mistake in a lab — a missing TITLE, a REF of another chapter, a slider
whose default it cannot show, a view that returns a plain string — is
reported when the lab is imported or drawn, as one Italian line that names
the lab's file and, where it can, the line: never as a traceback from deep
inside the kit, and never as a failure of every other lab.
"""

import inspect
import os
import re

from .errors import ContractError
from .errors import crash_place
from .errors import declared_at
from .errors import describe
from .errors import line_of
from .errors import place
from .errors import traceback_frames
from .folds import FOLD_NAME
from .html import Html

# 1.2, 9B.10, 9C, A.3, 2.4.1: the chapter (digits, or a letter for a group outside
# the numbered chapters), an optional section letter, then any number of «.n»
# (a lab placed between 2.4 and 2.5 is 2.4.1, and nobody else's REF changes)
REF_PATTERN = re.compile(r"(\d+[A-Z]?|[A-Z])(\.\d+)*")
CONTROL_KINDS = ("slider", "choice", "text", "toggle", "steps", "group")


def ref_chapter(ref):
    """The chapter a REF belongs to: «9B.2» → 9, «A.1» → A, «1.3» → 1."""
    return re.match(r"\d+|[A-Z]", ref).group()


def one_argument(function):
    """True if function can be called with one positional argument."""
    try:
        inspect.signature(function).bind(None)
    except TypeError:
        return False
    except ValueError:  # no signature to read (a builtin): give it the benefit of the doubt
        return True
    return True


def check_module(module, chapter):
    """Raise ContractError if module is not a valid lab of chapter (its
    number: "1", "9", "A"): the names the site needs, of the right type."""
    file = module.__file__

    def refuse(name, message):
        raise ContractError(f"{place(file, line_of(module, name))}: {message}")

    def require(name, what):
        if hasattr(module, name):
            return getattr(module, name)
        names = {n.lower(): n for n in vars(module) if not n.startswith("__")}
        import difflib  # here, only for a broken lab: its import costs Pyodide's start about 0.08 s

        near = difflib.get_close_matches(name.lower(), names, n=1, cutoff=0.6)
        hint = f" (c'è «{names[near[0]]}»: forse volevi scrivere {name}?)" if near else ""
        raise ContractError(
            f"{place(file)}: manca {name}, {what}{hint}. "
            "Un file di aiuto che non è un laboratorio va chiamato con «_» davanti (_comune.py)"
        )

    title = require("TITLE", "il titolo della pagina")
    if not isinstance(title, str) or not title.strip():
        refuse("TITLE", f"TITLE dev'essere il titolo della pagina, una stringa non vuota (è {short(title)})")
    ref = require("REF", 'il numero del laboratorio nella guida (per esempio "1.2")')
    if not isinstance(ref, str) or not REF_PATTERN.fullmatch(ref):
        refuse("REF", f'REF dev\'essere una stringa come "1.2", "9B.3", "9C", "A.1" o "2.4.1" (è {short(ref)})')
    if ref_chapter(ref) != chapter:
        folder = os.path.dirname(place(file))
        refuse(
            "REF",
            f"REF «{ref}» è del capitolo {ref_chapter(ref)}, ma il file è in {folder}/: "
            f"spostalo in ch{ref_chapter(ref)}/ o cambia REF",
        )
    controls = require("CONTROLS", "la lista dei comandi (anche vuota: CONTROLS = [])")
    if not isinstance(controls, (list, tuple)):
        refuse("CONTROLS", f"CONTROLS dev'essere una lista di comandi del kit (è {short(controls)})")
    seen = {}
    for control in flatten_any(controls):
        if getattr(control, "kind", None) not in CONTROL_KINDS:
            refuse(
                "CONTROLS",
                f"in CONTROLS c'è {short(control)}, che non è un comando del kit "
                "(Slider, Choice, Text, Toggle, Steps, Group)",
            )
        if control.kind == "group":
            continue
        if control.name in seen:
            first = seen[control.name]
            raise ContractError(
                f"{getattr(control, '_where', place(file))}: il nome «{control.name}» è già usato "
                f"da un altro comando ({first}): ogni comando vuole un nome suo"
            )
        seen[control.name] = getattr(control, "_where", place(file))
    for name, what in (
        ("compute", "la funzione compute(params) che calcola lo stato"),
        ("view", "la funzione view(state) che disegna lo stato"),
    ):
        function = require(name, what)
        if not callable(function):
            refuse(name, f"{name} dev'essere una funzione, non {short(function)}")
        if not one_argument(function):
            argument = "params" if name == "compute" else "state"
            refuse(name, f"{name} deve accettare un argomento ({name}({argument}))")
    folds = getattr(module, "FOLDS", ())
    if not isinstance(folds, (list, tuple)) or not all(isinstance(f, str) and FOLD_NAME.fullmatch(f) for f in folds):
        refuse("FOLDS", f'FOLDS dev\'essere una lista di nomi di sezioni come "embedding" (è {short(folds)})')
    if len(set(folds)) != len(folds):
        refuse("FOLDS", "FOLDS vuole nomi diversi")
    if hasattr(module, "SYMBOLS"):
        from .symbols import declaration_problem  # here: the browser never checks a lab's contract

        problem = declaration_problem(module.SYMBOLS, module.__doc__ or "")
        if problem:
            refuse("SYMBOLS", problem)
    if hasattr(module, "EXPERIMENTS"):
        from .experiments import experiments_problem  # here: the browser never checks a lab's contract

        problem = experiments_problem(module, controls)
        if problem:
            where, message = problem
            raise ContractError(f"{where or place(file, line_of(module, 'EXPERIMENTS'))}: {message}")


def flatten_any(controls):
    """Controls in order, groups included and opened, whatever they hold."""
    for c in controls:
        yield c
        if getattr(c, "kind", None) == "group":
            yield from flatten_any(c.controls)


def check_view(module, html):
    """None if html is the kit's Html, else the Italian line that says what view() returned."""
    if isinstance(html, Html):
        return None
    where = place(module.__file__, line_of(module, "view"))
    if html is None:
        return f"{where}: view() non ha restituito niente (manca il return?): deve restituire l'Html del kit"
    if isinstance(html, str):
        return (
            f"{where}: view() ha restituito una str, non l'Html del kit: il testo non passerebbe "
            "dall'escape; costruisci la vista con tag(), join() e i componenti del kit"
        )
    return f"{where}: view() ha restituito {type(html).__name__}, non l'Html del kit (tag(), join(), …)"


def import_problem(filename, error):
    """The Italian line for a lab module that could not be imported: its file
    and the line of its own that was running, and where the exception came
    from if that is another file."""
    if isinstance(error, ContractError):
        return str(error)
    if isinstance(error, SyntaxError):
        return f"{place(error.filename or filename, error.lineno)}: errore di sintassi ({error.msg})"
    own = os.path.abspath(filename)
    lines = [line for name, line in traceback_frames(error) if os.path.abspath(name) == own]
    where = crash_place(error, also=(filename,))
    elsewhere = "" if where.startswith(place(filename)) else f" (a {where})"
    return f"{place(filename, lines[-1] if lines else None)}: il modulo non si importa: {describe(error)}{elsewhere}"


def short(value):
    """A value as a message shows it: its repr, cut short, and its type."""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "…"
    return f"{text} ({type(value).__name__})"


__all__ = [
    "ContractError",
    "check_module",
    "check_view",
    "crash_place",
    "declared_at",
    "describe",
    "import_problem",
    "place",
    "ref_chapter",
]
