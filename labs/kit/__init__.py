"""The lab kit: declared controls, safe HTML, SVG and shared figures.

A lab imports what it needs from here; nothing in the kit knows any lab.
Each name is read from its module the first time a lab asks for it: a page
of the site imports only the parts of the kit its lab draws with, which in
the browser (where every module is compiled from source) saves a good part
of the start. A module of the kit is never named like a function it exports
(planes.py exports plane): labs.kit.plane is always the function.
"""

import importlib

from .errors import LabError

PARTS = {
    "controls": ("Choice", "Curve", "Follow", "Group", "Jump", "Slider", "Steps", "Text", "Toggle"),
    "errors": ("ParamError",),
    "folds": ("opened",),
    "stepping": ("Memo", "step_machine"),
    "prerendered": ("known",),
    "screens": ("phase_screen",),
    "timelines": ("timeline",),
    "edits": ("Edit",),
    "experiments": ("Experiment",),
    "symbols": ("Symbol",),
    "exercises": ("Case", "Exercise", "Question", "Wrong"),
    "html": ("Html", "esc", "factor", "join", "num", "percent", "raw", "tag"),
    "italian": ("plural", "share", "the"),
    "figures": (
        "ChainNode",
        "Node",
        "callout",
        "chain",
        "columns",
        "fold",
        "formula",
        "network",
        "panel",
        "stat",
        "stats",
        "table",
    ),
    "chart": ("Handle", "Marker", "Series", "line_chart"),
    "histograms": ("histogram",),
    "scales": ("nice_ticks",),
    "matrices": ("cell_text", "equation", "heat_class", "matrix", "shape_label"),
    "vectors": ("vector",),
    "heat_pictures": ("heat",),
    "memory": ("frozen",),
    "tokens": ("corpus_problem", "quoted", "read_words", "recap", "stage_buttons", "token_chips"),
    "bar_charts": ("Bar", "bars"),
    "label_layout": ("label_sides",),
    "plane_items": ("Arc", "Arrow", "Circle", "Guide", "Label", "Point", "Shape"),
    "planes": ("plane", "presets", "term", "vector_text"),
    "quantities": ("big", "data_size", "duration", "sci", "significant"),
}
WHERE = {name: part for part, names in PARTS.items() for name in names}
__all__ = ["LabError", *WHERE]


def __getattr__(name):
    """A kit name, imported from its module on first use (PEP 562)."""
    if name not in WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
