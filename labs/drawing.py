"""Drawing a lab: one function, draw(), for the page, the command line, the build and the code panel.

draw(lab, raw) parses the raw parameters, computes the state, lets the
lab's follow() narrow the parameters (a value its control can no longer
take: the state is computed again at the nearest one), draws the view and
returns one Drawing: the parameters as drawn, the state, the HTML, what the
page shows beside the view, or the Italian line that says what went wrong
and the exception that did it (its place: Drawing.where). A failure never
escapes draw() except a bad raw value asked strictly (ParamError): the page
keeps working, and each caller says the failure its own way.
"""

import math
from dataclasses import dataclass
from dataclasses import field

from .kit.contract import check_view
from .kit.errors import LabError
from .kit.errors import crash_place
from .kit.spoken import spoken_summary
from .kit.svg import unique_ids
from .kit.timelines import timeline
from .registry import get


class NotFinite(ValueError):
    """A NaN or an infinity in a state: the view cannot draw it. where is its path («stato.loss[3]»)."""

    def __init__(self, value, where):
        super().__init__(f"valore non finito in {where}")
        self.value, self.where = value, where


class WrongView(LabError):
    """view() returned something that is not the kit's Html (the message is check_view's Italian line)."""

    def __init__(self, message, html):
        super().__init__(message)
        self.html = html


def check_finite(value, where="stato"):
    """Raise NotFinite (a ValueError) if a NaN or infinity hides anywhere in a JSON-like value."""
    if isinstance(value, float) and not math.isfinite(value):
        raise NotFinite(value, where)
    if isinstance(value, dict):
        for k, v in value.items():
            check_finite(v, f"{where}.{k}")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            check_finite(v, f"{where}[{i}]")


def page_error(error):
    """(Italian line, None): what the page shows in the lab when drawing raised error."""
    if isinstance(error, LabError):
        return str(error), None
    return f"Il laboratorio non è riuscito a fare il calcolo ({type(error).__name__}: {error}).", None


@dataclass
class Drawing:
    """One drawing of a lab. ok: html and extras are set; else error says why, failure is what was raised
    (None when the lab broke no rule but its view, see WrongView) and line, for edited code, its line."""

    params: dict
    state: object = None
    html: object = None
    extras: dict = field(default_factory=dict)
    error: str | None = None
    failure: BaseException | None = None
    line: int | None = None

    @property
    def ok(self):
        return self.error is None

    @property
    def where(self):
        """The file and line where drawing failed («labs/ch2/loss.py, riga 40»), or None if that is not known."""
        if self.failure is None or isinstance(self.failure, LabError):
            return None
        return crash_place(self.failure)

    def page(self):
        """What the page's worker receives (JSON-ready): {"ok", "html", "params", controls, summary, timeline?}
        or {"ok": False, "error", "params"}."""
        if not self.ok:
            return {"ok": False, "error": self.error, "params": self.params}
        return {"ok": True, "html": str(self.html), "params": self.params, **self.extras}


def draw(lab, raw=None, strict=False, explain=page_error, finite=False):
    """The lab drawn at raw parameters (see the module docstring).

    explain(error) → (Italian line, line or None) says what a failure means
    (the page's words by default; the code panel names the edited line);
    finite=True refuses a state with a NaN or an infinity (NotFinite)."""
    params = lab.parse(raw or {}, strict)
    drawing = Drawing(params)
    try:
        state = lab.compute(params)
        follows = lab.follow(state)
        narrowed = narrow(params, follows)
        if narrowed != params:  # a value the control can no longer take: show the state at the nearest one
            params, state = narrowed, lab.compute(narrowed)
        drawing.params, drawing.state = params, state
        if finite:
            check_finite(state)
        html = unique_ids(lab.view(state))  # a figure drawn twice in the view: its description keeps one id each
        extras = {
            "controls": {name: f.as_json() for name, f in follows.items()},
            "summary": spoken_summary(lab.module, state, html),
        }  # the aria-live line
        if lab.steps:
            extras["timeline"] = str(timeline(lab.steps, params[lab.steps.name], state))
        problem = view_problem(lab, html)
        if problem:
            raise WrongView(problem, html)
    except Exception as error:  # a bug in a lab (or in the reader's code) must not break the page
        drawing.error, drawing.line = explain(error)
        drawing.failure = None if isinstance(error, WrongView) else error
        return drawing
    drawing.html, drawing.extras = html, extras
    return drawing


def render(lab_id, raw=None, strict=False):
    """The lab with this id drawn for the page: Drawing.page() of draw().

    {"ok": True, "html", "params", …} or, when the lab cannot compute,
    {"ok": False, "error": Italian message, "params"}: the page shows the
    message inside that lab and keeps everything else working.
    """
    return draw(get(lab_id), raw, strict).page()


def view_problem(lab, html):
    """None if view() returned the kit's Html; else the Italian line that says
    what it returned instead (a plain str would skip the kit's escaping)."""
    return check_view(lab.module, html)


def narrow(params, follows):
    """params with every value inside the range that follow() gives its control now."""
    narrowed = dict(params)
    for name, f in follows.items():
        value = narrowed.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if f.max is not None and value > f.max:
                narrowed[name] = type(value)(f.max)
            if f.min is not None and value < f.min:
                narrowed[name] = type(value)(f.min)
    return narrowed


__all__ = ["Drawing", "NotFinite", "check_finite", "draw", "narrow", "render", "view_problem"]
