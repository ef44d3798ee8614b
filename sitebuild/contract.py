"""Stage 1: every lab meets the contract, core/ keeps its two rules, and each lab prerenders its default state in
CPython."""

from pathlib import Path

import labs
from labs.cli import crash_line
from labs.kit.errors import place
from labs.styles import orphans

from . import ROOT, fail
from .core_rules import core_problems


def check_labs():
    """Stop on any lab module that breaks the contract, or any break of core/'s rules: one line each, naming its
    file."""
    broken = [*labs.problems().values(), *orphans(Path(ROOT) / "labs", labs.all_labs()), *core_problems(Path(ROOT))]
    if broken:
        raise SystemExit("\n".join(f"build.py: {line}" for line in broken))


def prerender(lab):
    """The lab's default state drawn by CPython (labs.draw), as the page carries it, or the build stops with one line."""
    drawing = labs.draw(lab)
    if not drawing.ok:
        fail(prerender_problem(lab, drawing))
    return drawing.page()


def prerender_problem(lab, drawing):
    """One line for a lab that does not prerender, from its failed drawing: where compute or view raised
    (the last frame of the exception inside labs/ or core/), or the lab's file for a view that breaks the contract."""
    if drawing.failure is not None:
        return crash_line(lab, drawing.failure)
    own = place(lab.module.__file__)
    return (
        drawing.error
        if drawing.error.startswith(own)
        else f"{own}: il laboratorio «{lab.id}» non si prerenderizza: {drawing.error}"
    )
