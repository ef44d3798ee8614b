"""What «Il codice Python» shows of a lab, and the edits it suggests on that text.

What is shown is found, not listed: the lab's compute (for a stepped lab,
its start, advance and present), the lab's own functions that these call,
and every function or class of core/ reached from them, following the
names each one uses. The reader reads (and edits, labs/code.py) all of it
as one text, each part introduced by the file it comes from.

Each shown function and class is introduced by its caption, the first line
of its docstring: one Italian sentence of at most CAPTION_MAX characters
(check_captions, at import like the rest of the contract).

A lab's EDITS («Prova a cambiare…») are changes of that text: discovery
(labs/registry.py) checks them here, so a suggested edit that no longer
applies is a contract problem naming the lab's file, like a missing TITLE.
"""

import ast
import inspect
import textwrap

from .contract import short
from .controls import parse_params
from .edits import Edit
from .edits import english_words
from .edits import sounds_italian
from .errors import ContractError
from .errors import ParamError
from .errors import line_of
from .errors import place
from .folds import FOLDS_PARAM
from .folds import parse_folds
from .stepping import StepMachine

CAPTION_MAX = 120


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
            if (
                (inspect.isfunction(target) or inspect.isclass(target))
                and is_ours(target, module)
                and target not in found
                and target.__name__ == name
            ):
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


def own_doc(obj):
    """obj's docstring as written: None for a class without one (a dataclass's generated «Nome(campo: tipo)»
    and a base class's docstring are not its own)."""
    doc = obj.__doc__ if inspect.isclass(obj) else inspect.getdoc(obj)
    if inspect.isclass(obj) and doc and "__dataclass_fields__" in vars(obj) and doc.startswith(f"{obj.__name__}("):
        return None
    return inspect.cleandoc(doc) if doc else None


def caption_problem(obj):
    """None if obj (a function or class of the panel) has a one-line Italian caption, else what is wrong."""
    what = "la classe" if inspect.isclass(obj) else "la funzione"
    doc = own_doc(obj)
    if not doc or not doc.strip():
        return f"{what} {obj.__name__} non ha una docstring: la sua prima riga è la didascalia nel pannello del codice"
    caption = doc.split("\n\n")[0].replace("\n", " ").strip()
    if "\n" in doc.split("\n\n")[0]:
        return (
            f"la prima riga della docstring di {obj.__name__} dev'essere una frase sola, seguita da una riga vuota: "
            f"«{caption}»"
        )
    if len(caption) > CAPTION_MAX:
        return f"la didascalia di {obj.__name__} è di {len(caption)} caratteri (al massimo {CAPTION_MAX}): «{caption}»"
    english = english_words(caption)
    if english:
        return f"la didascalia di {obj.__name__} è in inglese ({', '.join(english)}): «{caption}»"
    if not sounds_italian(caption):
        return f"la didascalia di {obj.__name__} non ha una parola italiana: «{caption}»"
    return None


def object_place(obj):
    """«labs/ch2/x.py, riga 12»: where a function or class of the panel is written."""
    line = line_of(inspect.getmodule(obj), obj.__name__)  # the «def» or «class» line, below its decorators
    return place(inspect.getsourcefile(obj) or source_file(obj), line)


def check_captions(module):
    """Raise ContractError, naming the file and line of the function or class, unless everything the code panel
    shows of the lab (its own functions and classes and core's) has a one-line Italian caption."""
    for obj in shown_objects(module):
        problem = caption_problem(obj)
        if problem:
            lab_id = module.__name__.rpartition(".")[2].replace("_", "-")
            whose = "" if obj.__module__ == module.__name__ else f" («Il codice Python» di {lab_id} la mostra)"
            raise ContractError(f"{object_place(obj)}: {problem}{whose}")


def source_file(obj):
    return obj.__module__.replace(".", "/") + ".py"


def listing(module):
    """[(file, name, caption, source)] for every shown object."""
    return [
        (source_file(o), o.__name__, caption(o), inspect.getsource(o).rstrip() + "\n") for o in shown_objects(module)
    ]


def editable_text(module):
    """All shown sources as one text, each introduced by the file it comes from."""
    parts = []
    for file, _, _, source in listing(module):
        parts.append(f"# ── da {file}\n{source}")
    return "\n\n".join(parts)


# ── «Prova a cambiare…»: the edits a lab suggests (labs.kit.Edit, in its EDITS list)


def edit_change(module, edit):
    """(old, new) in the panel's text: the edit's own pair, or for a function's
    new source the shown source of the function with that name and the new one."""
    if isinstance(edit.change, str):
        new = textwrap.dedent(edit.change).strip("\n")
        defined = [node.name for node in ast.parse(new).body if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
        shown = {name: source for _, name, _, source in listing(module)}
        if len(defined) != 1 or defined[0] not in shown:
            raise LookupError(
                f"il nuovo codice deve definire una funzione del pannello ({', '.join(shown)}), "
                f"non {', '.join(defined) or 'niente'}"
            )
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
    original = editable_text(module)
    found = original.count(old)
    if found != 1:
        where = "non c'è" if found == 0 else f"compare {found} volte"
        return (
            f"la modifica «{edit.title}»: il testo da cambiare {where} nel codice del pannello "
            f"(deve comparire una volta sola): «{old[:60]}»"
        )
    text, line = apply_edit(module, edit)
    changed = text.splitlines()[line - 1]
    if changed in original.splitlines():
        return (
            f"la modifica «{edit.title}»: la prima riga che cambia, «{changed.strip()[:60]}», c'è già uguale nel "
            "codice originale: l'editor porterebbe il lettore a una riga che non vede cambiata"
        )
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
    return text[:at] + new + text[at + len(old) :], line


def edits_problem(module):
    """None if the lab's EDITS («Prova a cambiare…») are sound, else one Italian line."""
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
        if not callable(edit.check):
            return (
                f"la modifica «{edit.title}»: manca check, la funzione check(prima, dopo) che dimostra l'effetto "
                "promesso (i test la eseguono)"
            )
        try:
            parse_params(module.CONTROLS, {k: v for k, v in edit.params.items() if k != FOLDS_PARAM}, strict=True)
            parse_folds(edit.params.get(FOLDS_PARAM, ()), getattr(module, "FOLDS", ()), strict=True)
        except ParamError as error:
            return f"la modifica «{edit.title}»: params non va ({error})"
        problem = edit_problem(module, edit)
        if problem:
            return problem
    return None


def check_edits(module):
    """Raise ContractError, naming the line of EDITS (or the file, without EDITS), unless the lab suggests one to three
    sound edits."""
    if not hasattr(module, "EDITS"):
        raise ContractError(
            f"{place(module.__file__)}: manca EDITS, la lista delle modifiche «Prova a cambiare…» "
            "(almeno una Edit(titolo, change=(vecchio, nuovo), expect=…, check=…) del kit)"
        )
    problem = edits_problem(module)
    if problem:
        raise ContractError(f"{place(module.__file__, line_of(module, 'EDITS'))}: {problem}")


__all__ = [
    "apply_edit",
    "caption",
    "caption_problem",
    "check_captions",
    "check_edits",
    "edit_change",
    "edit_problem",
    "editable_text",
    "edits_problem",
    "entry_points",
    "listing",
    "names_used",
    "shown_objects",
    "source_file",
]
