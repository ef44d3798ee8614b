"""«Esercizio»: the reader's function checked against the reference, case by case, and the lab run on it.

check(lab, exercise, code) runs the reader's text in a copy of the
reference's core/ module (so its helpers and imports are there), takes the
function of that name and calls it on every case: the author's named ones
first, then the seeded random ones. Arguments are copied for each call, so
a function that changes its input cannot spoil the next case. A result
matches the reference's when it has the same shape and every number is
within the exercise's tolerance; where the reference raises (an input it
refuses), the reader's function must raise too. The first case that does
not match is the answer, in Italian, with the author's remark when one of
the declared wrong answers fails that case the same way.

lab_text(lab, {name: code}) is the code panel's text with each of those
functions' shown source replaced by the reader's: labs/code.py runs it, so
the lab's figures come from the reader's functions wherever the lab names
them.
"""

import copy
import json
import math
import random

from .code import FILENAME
from .code import MAX_CODE
from .code import CodeError
from .code import italian
from .code import render_edited
from .kit.listing import listing
from .registry import get

SHOWN = 6  # items of a list written out in a message; the rest is «…»


def exercises_of(lab):
    return tuple(getattr(lab.module, "EXERCISES", ()))


def exercise_of(lab, name):
    """The lab's exercise on the function called name."""
    for exercise in exercises_of(lab):
        if exercise.name == name:
            return exercise
    raise LookupError(f"il laboratorio {lab.id} non ha un esercizio su {name}")


def cases(exercise):
    """[(args, why)]: the named cases, then `count` random ones drawn with their own seeds."""
    found = [(case.args, case.why) for case in exercise.cases]
    if exercise.random is not None:
        for k in range(exercise.count):
            found.append((tuple(exercise.random(random.Random(f"{exercise.name}:{k}"))), ""))
    return found


def reader_function(exercise, code):
    """The function the reader wrote, compiled in a copy of its reference's module. Raises CodeError."""
    if not isinstance(code, str) or len(code) > MAX_CODE:
        raise CodeError(f"Il codice è troppo lungo: al massimo {MAX_CODE:,} caratteri.".replace(",", "."))
    module = __import__(exercise.function.__module__, fromlist=["_"])
    namespace = dict(vars(module))
    namespace.pop(exercise.name, None)
    try:
        exec(compile(code, FILENAME, "exec"), namespace)
    except Exception as error:  # the reader's code: every failure becomes an Italian line
        raise italian(error) from None
    function = namespace.get(exercise.name)
    if not callable(function):
        raise CodeError(
            f"Nel tuo codice non c'è la funzione {exercise.name}: scrivila con questo nome (def {exercise.name}(…):)."
        )
    return function


def outcome(function, args):
    """("value", result) or ("error", exception) of one call, on a copy of the arguments."""
    try:
        return "value", function(*copy.deepcopy(args))
    except RecursionError as error:
        return "error", error
    except Exception as error:  # what the function does with this input is the answer
        return "error", error


def difference(got, expected, tolerance):
    """None if got matches expected (same shape, numbers within tolerance), else where they differ, in Italian."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return None if got is expected or (type(got) is type(expected) and got == expected) else "il valore"
    if isinstance(expected, (int, float)):
        if not isinstance(got, (int, float)):
            return f"il tipo (un numero atteso, non {kind(got)})"
        if math.isnan(expected) or math.isinf(expected) or math.isnan(got) or math.isinf(got):
            return None if str(float(got)) == str(float(expected)) else "il valore"
        return None if abs(got - expected) <= tolerance * max(1.0, abs(expected)) else "il valore"
    if isinstance(expected, (list, tuple)):
        if not isinstance(got, (list, tuple)):
            return f"il tipo (una lista attesa, non {kind(got)})"
        if len(got) != len(expected):
            return f"la lunghezza ({len(got)} invece di {len(expected)})"
        for i, (g, e) in enumerate(zip(got, expected)):
            inner = difference(g, e, tolerance)
            if inner:
                return f"l'elemento [{i}]" if inner == "il valore" else f"l'elemento [{i}]: {inner}"
        return None
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return f"il tipo (un dizionario atteso, non {kind(got)})"
        if set(got) != set(expected):
            return "le chiavi"
        for key in expected:
            inner = difference(got[key], expected[key], tolerance)
            if inner:
                return f"la chiave {key!r}" if inner == "il valore" else f"la chiave {key!r}: {inner}"
        return None
    return None if got == expected else "il valore"


def kind(value):
    names = {list: "una lista", tuple: "una tupla", dict: "un dizionario", str: "un testo", type(None): "None"}
    return names.get(type(value), "un numero" if isinstance(value, (int, float)) else type(value).__name__)


def shown(value):
    """A value as Python writes it, long floats to 6 significant digits and long lists cut: for a message."""
    if isinstance(value, float):
        return repr(value) if len(repr(value)) <= 9 or not math.isfinite(value) else format(value, ".6g")
    if isinstance(value, (list, tuple)):
        items = [shown(v) for v in value[:SHOWN]] + (["…"] if len(value) > SHOWN else [])
        inner = ", ".join(items) + ("," if isinstance(value, tuple) and len(value) == 1 else "")
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {shown(v)}" for k, v in list(value.items())[:SHOWN]) + "}"
    return repr(value)


def call_text(exercise, args):
    return f"{exercise.name}({', '.join(shown(a) for a in args)})"


def same_outcome(a, b, tolerance):
    """Whether two outcomes are the same failure: both the same kind of error, or values that match."""
    if a[0] != b[0]:
        return False
    if a[0] == "error":
        return type(a[1]) is type(b[1])
    return difference(a[1], b[1], tolerance) is None


def failure(exercise, args, why, got, expected, line=None):
    """The Italian account of the first case that does not match."""
    call = call_text(exercise, args)
    about = f" ({why})" if why else ""
    if expected[0] == "error":
        wanted = f"un errore ({type(expected[1]).__name__}: {expected[1]})"
        said = f"ha restituito {shown(got[1])}"
        return f"Con {call}{about} la tua funzione {said}, ma doveva rifiutare l'input: ci si aspettava {wanted}."
    if got[0] == "error":
        problem = italian(got[1])
        return f"Con {call}{about}: {lower_first(str(problem))}"
    if got[1] is None:
        return f"Con {call}{about} la tua funzione non restituisce niente (None): manca un return?"
    where = difference(got[1], expected[1], exercise.tolerance)
    return (
        f"Con {call}{about} la tua funzione restituisce {shown(got[1])}, ma il risultato giusto è "
        f"{shown(expected[1])}: è diverso {where}."
    )


def lower_first(text):
    return text[:1].lower() + text[1:]


def check(lab, exercise, code):
    """«Verifica»: {"ok", "passed", "total", "message", "remark", "line"} for the reader's code."""
    every = cases(exercise)
    total = len(every)
    try:
        function = reader_function(exercise, code)
    except CodeError as error:
        return {"ok": False, "passed": 0, "total": total, "message": str(error), "remark": "", "line": error.line}
    wrongs = None
    for passed, (args, why) in enumerate(every):
        expected = outcome(exercise.function, args)
        got = outcome(function, args)
        if expected[0] == "error" and got[0] == "error":
            continue
        if expected[0] == "value" and got[0] == "value" and difference(got[1], expected[1], exercise.tolerance) is None:
            continue
        if wrongs is None:
            wrongs = [(w, reader_function(exercise, w.code)) for w in exercise.wrong]
        remark = next((w.remark for w, f in wrongs if same_outcome(outcome(f, args), got, exercise.tolerance)), "")
        line = italian(got[1]).line if got[0] == "error" else None
        return {
            "ok": False,
            "passed": passed,
            "total": total,
            "message": failure(exercise, args, why, got, expected),
            "remark": remark,
            "line": line,
        }
    return {"ok": True, "passed": total, "total": total, "message": f"Giusto: {total} casi su {total}.", "remark": ""}


def check_json(lab_id, name, code):
    """check() for the browser worker."""
    lab = get(lab_id)
    return json.dumps(check(lab, exercise_of(lab, name), code))


def lab_text(lab, codes):
    """The code panel's text with the shown source of each function in codes ({name: the reader's code})
    replaced by the reader's: the lab run on the reader's functions (labs.code.draw_edited)."""
    parts = []
    for file, name, _, source in listing(lab.module):
        parts.append(f"# ── da {file}\n{codes[name].strip()}\n" if name in codes else f"# ── da {file}\n{source}")
    return "\n\n".join(parts)


def render_exercises_json(lab_id, codes_json, raw_json):
    """The page's view with the reader's passed functions ({name: code}) in place of the reference's; a
    failure on this state draws the lab as written, with the reason in "fallback"."""
    lab = get(lab_id)
    text = lab_text(lab, json.loads(codes_json))
    return json.dumps(render_edited(lab_id, text, json.loads(raw_json), fallback=True))


__all__ = [
    "cases",
    "check",
    "check_json",
    "difference",
    "exercise_of",
    "exercises_of",
    "lab_text",
    "reader_function",
    "render_exercises_json",
]
