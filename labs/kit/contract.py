"""The contract a lab module meets, checked where it is broken.

A mistake in a lab — a missing TITLE, a REF of another chapter, a slider
whose default it cannot show, a view that returns a plain string — is
reported when the lab is imported or drawn, as one Italian line that names
the lab's file and, where it can, the line: never as a traceback from deep
inside the kit, and never as a failure of every other lab.
"""

import ast
import inspect
import os
import re
import sys

from .html import Html

# the folder that holds labs/ and core/: paths in messages are written from here
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KIT = os.path.dirname(os.path.abspath(__file__))

# 1.2, 9B.10, 9C, A.3: the chapter (digits, or a letter for a group outside
# the numbered chapters), an optional section letter, an optional number
REF_PATTERN = re.compile(r"(\d+[A-Z]?|[A-Z])(\.\d+)?")
CONTROL_KINDS = ("slider", "choice", "text", "toggle", "steps", "group")
# A lab's folds (FOLDS = ("part", …)): sections the reader opens and closes, which Python draws only
# while they are open (figures.fold). The page sends which are open under FOLDS_PARAM with every change.
FOLDS_PARAM = "sezioni"
FOLD_NAME = re.compile(r"[a-z][a-z0-9-]*")  # a fold's name: its data-part in the view, and what the page sends


class ContractError(Exception):
    """A lab that breaks the contract. The message is one Italian line that
    starts with the lab's file (and line, where it is known)."""


def place(filename, line=None):
    """«labs/ch1/ombrello.py» or «labs/ch1/ombrello.py, riga 12»: the path
    from the project folder (absolute when the file lives elsewhere)."""
    path = os.path.abspath(filename)
    try:
        relative = os.path.relpath(path, ROOT)
    except ValueError:  # another drive
        relative = path
    shown = path if relative.startswith("..") else relative
    return f"{shown}, riga {line}" if line else shown


def declared_at():
    """Where the declaration being built was written: the first frame
    outside the kit and, if a helper of the lab built it, the outermost frame
    of that same file (the line of CONTROLS that calls the helper)."""
    frame = sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename.startswith("<")
                                 or os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == KIT):
        frame = frame.f_back
    if frame is None:
        return "?"
    filename = frame.f_code.co_filename
    while frame.f_back is not None and frame.f_back.f_code.co_filename == filename:
        frame = frame.f_back
    return place(filename, frame.f_lineno)


def line_of(module, name):
    """The line where a module assigns or defines name at top level, or None."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return None
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            targets = [node.target.id]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            targets = [node.name]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            targets = [(a.asname or a.name).split(".")[0] for a in node.names]
        if name in targets:
            return node.lineno
    return None


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
        raise ContractError(f"{place(file)}: manca {name}, {what}{hint}. "
                            "Un file di aiuto che non è un laboratorio va chiamato con «_» davanti (_comune.py)")

    title = require("TITLE", "il titolo della pagina")
    if not isinstance(title, str) or not title.strip():
        refuse("TITLE", f"TITLE dev'essere il titolo della pagina, una stringa non vuota (è {short(title)})")
    ref = require("REF", "il numero del laboratorio nella guida (per esempio \"1.2\")")
    if not isinstance(ref, str) or not REF_PATTERN.fullmatch(ref):
        refuse("REF", f"REF dev'essere una stringa come \"1.2\", \"9B.3\", \"9C\" o \"A.1\" (è {short(ref)})")
    if ref_chapter(ref) != chapter:
        folder = os.path.dirname(place(file))
        refuse("REF", f"REF «{ref}» è del capitolo {ref_chapter(ref)}, ma il file è in {folder}/: "
                      f"spostalo in ch{ref_chapter(ref)}/ o cambia REF")
    controls = require("CONTROLS", "la lista dei comandi (anche vuota: CONTROLS = [])")
    if not isinstance(controls, (list, tuple)):
        refuse("CONTROLS", f"CONTROLS dev'essere una lista di comandi del kit (è {short(controls)})")
    seen = {}
    for control in flatten_any(controls):
        if getattr(control, "kind", None) not in CONTROL_KINDS:
            refuse("CONTROLS", f"in CONTROLS c'è {short(control)}, che non è un comando del kit "
                               "(Slider, Choice, Text, Toggle, Steps, Group)")
        if control.kind == "group":
            continue
        if control.name in seen:
            first = seen[control.name]
            raise ContractError(f"{getattr(control, '_where', place(file))}: il nome «{control.name}» è già usato "
                                f"da un altro comando ({first}): ogni comando vuole un nome suo")
        seen[control.name] = getattr(control, "_where", place(file))
    for name, what in (("compute", "la funzione compute(params) che calcola lo stato"),
                       ("view", "la funzione view(state) che disegna lo stato")):
        function = require(name, what)
        if not callable(function):
            refuse(name, f"{name} dev'essere una funzione, non {short(function)}")
        if not one_argument(function):
            argument = "params" if name == "compute" else "state"
            refuse(name, f"{name} deve accettare un argomento ({name}({argument}))")
    folds = getattr(module, "FOLDS", ())
    if not isinstance(folds, (list, tuple)) or not all(isinstance(f, str) and FOLD_NAME.fullmatch(f) for f in folds):
        refuse("FOLDS", f"FOLDS dev'essere una lista di nomi di sezioni come \"embedding\" (è {short(folds)})")
    if len(set(folds)) != len(folds) or FOLDS_PARAM in seen:
        refuse("FOLDS", f"FOLDS vuole nomi diversi, e nessun comando può chiamarsi «{FOLDS_PARAM}»")
    if hasattr(module, "EDITS"):
        problem = edits_problem(module)
        if problem:
            refuse("EDITS", problem)


def edits_problem(module):
    """None if the lab's EDITS («Prova a cambiare…») are sound, else one Italian line."""
    from labs import code  # the panel's text: labs.code builds on the kit, so it is imported here

    from .controls import ParamError, parse_folds, parse_params
    from .edits import Edit, sounds_italian

    edits = module.EDITS
    if not isinstance(edits, (list, tuple)) or not 1 <= len(edits) <= 3:
        return f"EDITS dev'essere una lista di una, due o tre modifiche Edit(…) (è {short(edits)})"
    for edit in edits:
        if not isinstance(edit, Edit):
            return f"in EDITS c'è {short(edit)}, che non è un Edit(titolo, change=(vecchio, nuovo), expect=…) del kit"
        for what, text in (("il titolo", edit.title), ("expect, l'effetto atteso,", edit.expect)):
            if not isinstance(text, str) or not text.strip():
                return f"una modifica di EDITS ha {what} vuoto: scrivilo in italiano"
            if not sounds_italian(text):
                return f"la modifica «{edit.title}»: {what} dev'essere in italiano («{text}»)"
        if edit.check is not None and not callable(edit.check):
            return f"la modifica «{edit.title}»: check dev'essere una funzione check(prima, dopo)"
        try:
            parse_params(module.CONTROLS, {k: v for k, v in edit.params.items() if k != FOLDS_PARAM}, strict=True)
            parse_folds(edit.params.get(FOLDS_PARAM, ()), getattr(module, "FOLDS", ()), strict=True)
        except ParamError as error:
            return f"la modifica «{edit.title}»: params non va ({error})"
        problem = code.edit_problem(module, edit)
        if problem:
            return problem
    return None


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
        return (f"{where}: view() ha restituito una str, non l'Html del kit: il testo non passerebbe "
                "dall'escape; costruisci la vista con tag(), join() e i componenti del kit")
    return f"{where}: view() ha restituito {type(html).__name__}, non l'Html del kit (tag(), join(), …)"


def crash_place(error, also=()):
    """Where an exception happened: the last frame of its traceback inside
    labs/ or core/ (the kit included) or in one of the files also, or else
    the last frame of all."""
    if isinstance(error, SyntaxError) and error.filename:
        return place(error.filename, error.lineno)
    frames = traceback_frames(error)
    ours = [f for f in frames if inside(f[0], also)]
    chosen = (ours or frames or [None])[-1]
    return place(*chosen) if chosen else "?"


def traceback_frames(error):
    """[(filename, line)] of error's traceback, outermost first."""
    frames, tb = [], error.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    return frames


def inside(filename, also=()):
    path = os.path.abspath(filename)
    return path.startswith((os.path.join(ROOT, "labs") + os.sep, os.path.join(ROOT, "core") + os.sep)) or \
        path in {os.path.abspath(f) for f in also}


def describe(error):
    """«ZeroDivisionError: float division by zero», on one line."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


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


__all__ = ["ContractError", "check_module", "check_view", "crash_place", "declared_at", "describe",
           "import_problem", "place", "ref_chapter"]
