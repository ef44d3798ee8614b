"""The labs: found by walking this package, rendered by one function.

A chapter is a package named ch<N> (its docstring's first line is the
chapter title); a lab is any module inside it whose name does not start
with «_» (_comune.py is a helper the labs of that chapter import), and it
declares TITLE, REF, CONTROLS, compute(params) and view(state). Its
docstring is the page's prose. Nothing else registers it.

A module that breaks the contract (kit/contract.py) is not a lab: it becomes
one Italian line in problems(), naming its file, and every other lab keeps
working. Asking for it by id raises ContractError with that line.
"""

import importlib
import json
import math
import re
import sys
from dataclasses import dataclass
from functools import cache

from .kit import LabError, timeline
from .kit.contract import ContractError, check_module, check_view, import_problem, place
from .kit.controls import FOLDS_PARAM, ParamError, flatten, parse_folds, parse_params
from .kit.spoken import spoken_summary
from .kit.svg import unique_ids


@dataclass(frozen=True)
class Chapter:
    """A chapter of the guide (ch1, ch9, …) or, with a letter (chA), a group
    of labs outside the numbered chapters."""

    number: str
    title: str

    @property
    def numbered(self):
        return self.number.isdigit()

    @property
    def slug(self):
        return f"capitolo-{self.number}" if self.numbered else f"approfondimenti-{self.number.lower()}"

    @property
    def label(self):
        return f"Capitolo {self.number} · {self.title}" if self.numbered else self.title


def ref_key(ref):
    """Natural order of refs: 1.2 < 1.10, 9B.2 < 9B.10 < 9C; numbered
    chapters before lettered groups (9G < A.1)."""
    parts = re.findall(r"\d+|[A-Za-z]+", ref)
    return (not ref[:1].isdigit(), *((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts))


class Lab:
    """One lab module, with the metadata the site and the tests need."""

    def __init__(self, module, chapter):
        self.module = module
        self.chapter = chapter
        self.id = module.__name__.rsplit(".", 1)[1].replace("_", "-")
        self.title = module.TITLE
        self.ref = module.REF
        self.controls = tuple(module.CONTROLS)
        self.prose = (module.__doc__ or "").strip()

    @property
    def order(self):
        return ref_key(self.ref)

    @property
    def path(self):
        """The page's URL path inside the site."""
        return f"{self.chapter.slug}/{self.id}/"

    @property
    def blurb(self):
        """The prose's first sentence, without Markdown marks: the home page's card text."""
        first = re.split(r"(?<=[.!?])\s", " ".join(self.prose.split("\n\n")[0].split()), maxsplit=1)[0]
        return re.sub(r"[*_`]", "", first)

    @property
    def params_list(self):
        return list(flatten(self.controls))

    @property
    def stepped(self):
        return any(c.kind == "steps" for c in self.params_list)

    def defaults(self):
        """Every parameter at its default: the controls', and no fold open."""
        return self.parse({})

    def parse(self, raw, strict=False):
        """The controls' values and, for a lab with FOLDS, the folds the reader has open (FOLDS_PARAM)."""
        if not self.folds:
            return parse_params(self.controls, raw, strict)
        raw = dict(raw)
        folds = parse_folds(raw.pop(FOLDS_PARAM, ()), self.folds, strict)
        return parse_params(self.controls, raw, strict) | {FOLDS_PARAM: folds}

    @property
    def folds(self):
        """The parts of the lab's view that Python draws only while the reader has them open (kit.fold)."""
        return tuple(getattr(self.module, "FOLDS", ()))

    @property
    def steps(self):
        """The Steps control of a stepped lab, else None."""
        return next((c for c in self.params_list if c.kind == "steps"), None)

    def compute(self, params):
        return self.module.compute(params)

    def view(self, state):
        return self.module.view(state)

    def follow(self, state):
        """{name: Follow} from the lab's optional follow(state): controls disabled, hidden or re-ranged now."""
        follow = getattr(self.module, "follow", None)
        return follow(state) if follow else {}

    def summary(self):
        return {"id": self.id, "ref": self.ref, "chapter": self.chapter.number,
                "chapter_title": self.chapter.label, "title": self.title, "path": self.path,
                "stepped": self.stepped}


LOADED = {}  # module name → Lab: each module is imported and wrapped once


def load(module_name):
    """The lab in one module (labs.ch3.bigrammi), importing only that one:
    the browser loads the lab on the page first and the others when idle."""
    if module_name not in LOADED:
        package_name, _, short = module_name.rpartition(".")
        package = importlib.import_module(package_name)
        number = package_name.rpartition(".ch")[2].upper()
        chapter = Chapter(number, (package.__doc__ or package_name).strip().splitlines()[0])
        LOADED[module_name] = Lab(importlib.import_module(module_name), chapter)
    return LOADED[module_name]


def warm_up(module_name, stage="page"):
    """Disegna in anticipo il laboratorio della pagina, perché il primo gesto del lettore costi quanto i successivi.

    stage "page": the lab at its defaults (the worker does it before it says
    «ready»). stage "next": a stepped lab's step after the default too (also
    before «ready»), drawn ahead and read back as the worker reads it: the
    code paths of a step and of render_json have run once, and the view
    «Avanti» asks for first is waiting.
    Returns whether the lab could be drawn; for stage "next", the next
    step's view (the page lays it out once, off screen: the first «Avanti»
    then finds the browser's caches warm), or "" if there is none."""
    lab = load(module_name)
    if stage == "page":
        return render(lab.id, {})["ok"]
    steps = lab.steps
    if not steps or steps.default >= steps.max:
        return ""
    raw_json = json.dumps({steps.name: str(steps.default + 1)})
    if not render_ahead(lab.id, raw_json):
        return ""
    return json.loads(render_json(lab.id, raw_json))["html"]  # the reader's path to it, run once


def discover(package):
    """The labs under package's ch<N> packages, in chapter and ref order, and
    the modules that break the contract: (labs, {id: Italian line})."""
    import pkgutil  # here: the browser loads labs one by one (load()) and need not pay for its import

    found, problems = [], {}
    for chapter_info in pkgutil.iter_modules(package.__path__):
        match = re.fullmatch(r"ch(\w+)", chapter_info.name)
        if not match:
            continue
        try:
            chapter_package = importlib.import_module(f"{package.__name__}.{chapter_info.name}")
        except Exception as error:
            problems[chapter_info.name] = import_problem(
                f"{chapter_info.module_finder.path}/{chapter_info.name}/__init__.py", error)
            continue
        for info in pkgutil.iter_modules(chapter_package.__path__):
            if info.name.startswith("_"):  # a helper module, not a lab
                continue
            lab_id = info.name.replace("_", "-")
            try:
                module = importlib.import_module(f"{chapter_package.__name__}.{info.name}")
                check_module(module, match.group(1).upper())
            except Exception as error:
                problems[lab_id] = import_problem(f"{info.module_finder.path}/{info.name}.py", error)
                continue
            twin = next((lab for lab in found if lab_id == lab.id or module.REF == lab.ref), None)
            if twin:
                what = f"l'id «{lab_id}»" if lab_id == twin.id else f"REF «{module.REF}»"
                problems[lab_id] = (f"{place(module.__file__)}: {what} è già usato da "
                                    f"{place(twin.module.__file__)}: ogni laboratorio vuole il suo")
                continue
            found.append(load(module.__name__))
    return tuple(sorted(found, key=lambda lab: lab.order)), problems


def from_file(path):
    """A lab from a file outside the package: the .py that «Il codice Python»
    downloads (the lab's module with the reader's edits). Its chapter comes from its REF."""
    if not path.is_file():
        raise LookupError(f"il file «{path}» non esiste")
    module = type(sys)(f"{__name__}.file.{path.stem}")  # its id is the file's name
    module.__file__ = str(path)
    try:
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    except Exception as error:
        raise LabError(f"{path}: il file non si esegue ({type(error).__name__}: {error})") from None
    number = re.match(r"[0-9]+|[A-Z]", str(getattr(module, "REF", "")))
    if not number:
        raise LabError(f"{path}: manca REF, il numero del laboratorio nella guida")
    package = importlib.import_module(f"{__name__}.ch{number.group(0)}")
    return Lab(module, Chapter(number.group(0), (package.__doc__ or "").strip().splitlines()[0]))


@cache
def _discovered():
    return discover(sys.modules[__name__])


def all_labs():
    """Every lab that meets the contract, in chapter and ref order."""
    return _discovered()[0]


def problems():
    """{id: one Italian line naming the file} for each module that is not a valid lab."""
    return dict(_discovered()[1])


def get(lab_id):
    """The lab with this id, or LookupError naming the known ones."""
    for lab in LOADED.values():
        if lab.id == lab_id:
            return lab
    for lab in all_labs():
        if lab.id == lab_id:
            return lab
    if lab_id in _discovered()[1]:
        raise ContractError(_discovered()[1][lab_id])
    known = ", ".join(lab.id for lab in all_labs())
    raise LookupError(f"laboratorio sconosciuto: «{lab_id}». Laboratori disponibili: {known}")


def check_finite(value, where="stato"):
    """Raise ValueError if a NaN or infinity hides anywhere in a JSON-like value."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"valore non finito in {where}")
    if isinstance(value, dict):
        for k, v in value.items():
            check_finite(v, f"{where}.{k}")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            check_finite(v, f"{where}[{i}]")


def render(lab_id, raw=None, strict=False):
    """Parse raw parameters, compute the state, draw it.

    Returns {"ok": True, "html", "params"} or, when the lab cannot compute,
    {"ok": False, "error": Italian message, "params"}: the page shows the
    message inside that lab and keeps everything else working.
    """
    lab = get(lab_id)
    params = lab.parse(raw or {}, strict)
    try:
        params, html, extras = draw(lab, params)
    except LabError as error:
        return {"ok": False, "error": str(error), "params": params}
    except Exception as error:  # a bug in a lab must not break the page
        return {"ok": False, "params": params,
                "error": f"Il laboratorio non è riuscito a fare il calcolo ({type(error).__name__}: {error})."}
    problem = view_problem(lab, html)
    if problem:
        return {"ok": False, "error": problem, "params": params}
    return {"ok": True, "html": str(html), "params": params, **extras}


def draw(lab, params, check=lambda state: None):
    """compute → follow → view, and what the page shows beside the view:
    the controls' states and, for a stepped lab, its timeline."""
    state = lab.compute(params)
    follows = lab.follow(state)
    narrowed = narrow(params, follows)
    if narrowed != params:  # a value the control can no longer take: show the state at the nearest one
        params, state = narrowed, lab.compute(narrowed)
    check(state)
    html = unique_ids(lab.view(state))  # a figure drawn twice in the view: its description keeps one id each
    extras = {"controls": {name: f.as_json() for name, f in follows.items()},
              "summary": spoken_summary(lab.module, state, html)}  # the aria-live line
    if lab.steps:
        extras["timeline"] = str(timeline(lab.steps, params[lab.steps.name], state))
    return params, html, extras


def render_edited(lab_id, text, raw=None):
    """render() with the reader's edited code (see labs/code.py), in a module of its own.

    Every failure is an Italian line with the line of the edited text where
    it happened: {"ok": False, "error", "line", "params"}; the page keeps
    the last good view.
    """
    from . import code  # here: a page imports it only once the reader edits
    lab = get(lab_id)
    params = lab.parse(raw or {})
    try:
        edited = Lab(code.edited_module(lab.module, text), lab.chapter)
        params, html, extras = draw(edited, params, code.check_state)
        code.check_html(html)
    except code.CodeError as error:
        return {"ok": False, "error": str(error), "line": error.line, "params": params}
    except LabError as error:
        return {"ok": False, "error": str(error), "line": None, "params": params}
    except Exception as error:  # the reader's code, or the lab on the reader's numbers
        problem = code.italian(error)
        return {"ok": False, "error": str(problem), "line": problem.line, "params": params}
    return {"ok": True, "html": str(html), "params": params, **extras}


def render_edited_json(lab_id, text, raw_json):
    """render_edited() for the browser worker."""
    return json.dumps(render_edited(lab_id, text, json.loads(raw_json)))


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


AHEAD = {}  # the one view drawn before the reader asked for it: {(lab id, parameters): render_json()'s answer}


def ahead_key(lab, raw):
    """What identifies a request for render_json: the lab and its parameters once parsed (so "0.8" = 0.8)."""
    return json.dumps([lab.id, lab.parse(raw)], sort_keys=True, default=str)


def render_ahead(lab_id, raw_json):
    """Disegna la vista che il lettore chiederà probabilmente dopo (il passo successivo), mentre guarda questa.

    The worker calls it when it has nothing else to do; render_json() then
    answers that request from here, marked "ahead". render() is a pure
    function of the parameters, so the answer is the one it would compute.
    Returns whether the view could be drawn."""
    lab, raw = get(lab_id), json.loads(raw_json)
    answer = render(lab_id, raw)
    AHEAD.clear()
    AHEAD[ahead_key(lab, raw)] = json.dumps({**answer, "ahead": True})
    return answer["ok"]


def render_json(lab_id, raw_json):
    """render() for the browser worker: JSON in, JSON out (the view drawn ahead, if it is this one)."""
    raw = json.loads(raw_json)
    if AHEAD:
        ahead = AHEAD.get(ahead_key(get(lab_id), raw))
        if ahead:
            return ahead
    return json.dumps(render(lab_id, raw))


__all__ = ["Chapter", "ContractError", "Lab", "LabError", "ParamError", "all_labs", "check_finite", "discover", "from_file", "get",
           "load", "problems", "ref_key", "render", "render_ahead", "render_json", "view_problem", "warm_up"]
