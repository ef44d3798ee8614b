"""Stage 1: every lab meets the contract, and prerenders its default state in CPython."""

from pathlib import Path

import labs
from labs.cli import crash_line
from labs.kit.contract import place
from labs.styles import orphans

from . import ROOT, fail


def check_labs():
    """Stop on any lab module that breaks the contract: one line each, naming its file."""
    broken = [*labs.problems().values(), *orphans(Path(ROOT) / "labs", labs.all_labs())]
    if broken:
        raise SystemExit("\n".join(f"build.py: {line}" for line in broken))


def prerender(lab):
    """The lab's default state drawn by CPython (labs.render), or the build stops with one line."""
    result = labs.render(lab.id, {})
    if not result["ok"]:
        fail(prerender_problem(lab, result["error"]))
    return result


def prerender_problem(lab, error):
    """One line for a lab that does not prerender: render() keeps the page
    alive and says only what went wrong, so compute and draw once more here
    to say where (the last frame of the exception inside labs/ or core/)."""
    try:
        lab.view(lab.compute(lab.defaults()))
    except Exception as exception:
        return crash_line(lab, exception)
    own = place(lab.module.__file__)
    return error if error.startswith(own) else f"{own}: il laboratorio «{lab.id}» non si prerenderizza: {error}"
