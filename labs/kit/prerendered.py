"""Answers the build already has: what a lab computes before its first view, shipped with the page.

A lab page shows, before Python has started in the browser, the view the build drew at the
defaults (CPython, the same code). The browser's worker then draws the defaults once more before
«pronto», and some labs begin with something costly that this view already shows: 3.2 measures its
model's loss on the whole text at step 0, six forward passes, about a second in the browser. A
pure function marked @known gets its answers in that drawing from the build: the build records
them while it draws the defaults from nothing (recorded), the page carries them (answers_text), and
the worker's first drawing, at the defaults too, takes them (knowing). An answer is named by its
function and by the order of the call (the first call of `losses`, the second…), not by the
arguments: the same drawing makes the same calls, while the arguments' last bits may differ
between the build's Python and the browser's (3.2's initial weights come from math.log, math.cos
and math.sin, which C libraries may round differently in the last bit: its weights at step 0 are
not the same to the bit in CPython and in Pyodide), so the browser shows, at step 0, the very
numbers of the page it replaces. Outside that first drawing every call computes (a lab edited in
the code panel is never answered by the build's code).
"""

import base64
import functools

KNOWN = {}  # answer's name → answer, while the worker draws the page's first view (knowing)
RECORDING = None  # answer's name → answer, while the build draws the defaults (recorded)
CALLS = {}  # function's name → calls so far, in the drawing being recorded or answered
MODULES = set()  # the modules that have @known functions: the build records only their labs


def named(function):
    """The next call's name: the function's module and name, and how many calls of it came before."""
    name = f"{function.__module__}.{function.__qualname__}"
    CALLS[name] = CALLS.get(name, 0) + 1
    return f"{name}#{CALLS[name]}"


def known(function):
    """A pure function whose answers in the page's first drawing the build ships (see the module docstring)."""
    MODULES.add(function.__module__)

    @functools.wraps(function)
    def answer(*args):
        if not KNOWN and RECORDING is None:
            return function(*args)
        name = named(function)
        if name in KNOWN:
            return KNOWN[name]
        result = function(*args)
        if RECORDING is not None:
            RECORDING[name] = result
        return result

    return answer


def recorded(draw):
    """The answers of the @known functions that draw() calls, {key: answer} (the build: draw() computes the
    lab's defaults from nothing, no checkpoint cache in between)."""
    global RECORDING
    RECORDING = {}
    CALLS.clear()
    try:
        draw()
        return RECORDING
    finally:
        RECORDING = None
        CALLS.clear()


def answers_text(answers):
    """The answers as the page carries them: pickled, in base64 ("" for none)."""
    import _pickle

    return base64.b64encode(_pickle.dumps(answers, protocol=5)).decode() if answers else ""


def read_answers(text):
    """answers_text()'s answers back. Plain data only (numbers, texts, tuples, lists, dicts): a class or a
    function named in the text is refused (pickle.UnpicklingError), as for any bytes from a page."""
    import _pickle
    import io

    class Plain(_pickle.Unpickler):
        def find_class(self, module, name):
            raise _pickle.UnpicklingError(f"{module}.{name}: le risposte della pagina sono solo dati")

    return Plain(io.BytesIO(base64.b64decode(text))).load() if text else {}


def knowing(text, draw):
    """draw()'s result, with the answers of answers_text() `text` known while it runs (and forgotten after)."""
    KNOWN.update(read_answers(text))
    CALLS.clear()
    try:
        return draw()
    finally:
        KNOWN.clear()
        CALLS.clear()


__all__ = ["answers_text", "knowing", "known", "read_answers", "recorded"]
