"""Folds: parts of a lab's view that the reader opens and closes, drawn by Python only while open.

A lab names them in FOLDS = ("part", …) and asks opened(params, "part")
before it draws or computes what only that part shows (figures.fold frames
it). The page sends the names of the open folds under FOLDS_PARAM with every
change, as one more parameter; a step machine never restarts for it.
"""

import re

from .errors import ParamError

FOLDS_PARAM = "sezioni"
FOLD_NAME = re.compile(r"[a-z][a-z0-9-]*")  # a fold's name: its data-part in the view, and what the page sends


def parse_folds(raw, folds, strict=False):
    """The open folds: the names in raw (a list, or a text "a,b") that are folds of the lab, in the lab's order."""
    names = {str(name).strip() for name in (raw.split(",") if isinstance(raw, str) else raw or ())} - {""}
    unknown = sorted(names - set(folds))
    if strict and unknown:
        raise ParamError(f"sezione sconosciuta: {', '.join(unknown)}. Sezioni: {', '.join(folds) or 'nessuna'}")
    return tuple(fold for fold in folds if fold in names)


def opened(params, part):
    """Whether the reader has the fold part open (see FOLDS_PARAM): draw it, and compute what only it shows."""
    return part in params.get(FOLDS_PARAM, ())


__all__ = ["FOLDS_PARAM", "opened", "parse_folds"]
