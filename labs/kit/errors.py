"""What goes wrong in a lab, and where: the kit's errors and the places they name.

A mistake is one Italian line that starts with the file (and the line, where
it is known) written from the project folder: «labs/ch1/ombrello.py, riga 12».
This module is the kit's leaf: it imports nothing of the project.
"""

import ast
import inspect
import os
import sys

# the folder that holds labs/ and core/: paths in messages are written from here
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KIT = os.path.dirname(os.path.abspath(__file__))


class LabError(Exception):
    """A problem the reader can fix (the message is Italian and is shown in the lab)."""


class ParamError(ValueError):
    """A raw value that a control cannot accept (the message is Italian)."""


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
    while frame is not None and (
        frame.f_code.co_filename.startswith("<") or os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == KIT
    ):
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
    return path.startswith((os.path.join(ROOT, "labs") + os.sep, os.path.join(ROOT, "core") + os.sep)) or path in {
        os.path.abspath(f) for f in also
    }


def describe(error):
    """«ZeroDivisionError: float division by zero», on one line."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


__all__ = ["ContractError", "LabError", "ParamError", "crash_place", "declared_at", "describe", "line_of", "place"]
