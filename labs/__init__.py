"""The labs of the site, one module per lab in the chapter packages ch<N>.

This package only re-exports the names its users call it by (build.py,
the command line, the tests, the browser's worker): the labs are found
and loaded by labs/registry.py, drawn by labs/drawing.py, served to the
worker by labs/worker_api.py; the code panel is labs/code.py and the kit
labs/kit/. The layers, each importing only the ones before it:

    core/ → labs/kit/ → labs/ch*/ → registry, render, worker_api → code panel → this package → build, CLI

The code panel's two entries are imported on the first call: a page loads
labs/code.py only once the reader edits the code.
"""

from .drawing import Drawing
from .drawing import check_finite
from .drawing import draw
from .drawing import narrow
from .drawing import render
from .drawing import view_problem
from .kit.errors import ContractError
from .kit.errors import LabError
from .kit.errors import ParamError
from .registry import Chapter
from .registry import Lab
from .registry import all_labs
from .registry import discover
from .registry import from_file
from .registry import get
from .registry import load
from .registry import problems
from .registry import ref_key
from .worker_api import AHEAD
from .worker_api import render_ahead
from .worker_api import render_json
from .worker_api import warm_up


def render_edited(lab_id, text, raw=None):
    """labs.code.render_edited (imported now, not with the package)."""
    from .code import render_edited

    return render_edited(lab_id, text, raw)


def render_edited_json(lab_id, text, raw_json):
    """labs.code.render_edited_json (imported now, not with the package)."""
    from .code import render_edited_json

    return render_edited_json(lab_id, text, raw_json)


__all__ = [
    "AHEAD",
    "Chapter",
    "ContractError",
    "Drawing",
    "Lab",
    "LabError",
    "ParamError",
    "all_labs",
    "check_finite",
    "discover",
    "draw",
    "from_file",
    "get",
    "load",
    "narrow",
    "problems",
    "ref_key",
    "render",
    "render_ahead",
    "render_edited",
    "render_edited_json",
    "render_json",
    "view_problem",
    "warm_up",
]
