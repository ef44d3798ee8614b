"""The labs: found by walking this package, rendered by one function.

A chapter is a package named ch<N> (its docstring's first line is the
chapter title); a lab is any public module inside it that declares TITLE,
REF, CONTROLS, compute(params) and view(state). Its docstring is the page's
prose. Nothing else registers it.
"""

import importlib
import json
import math
import pkgutil
import re
from dataclasses import dataclass
from functools import cache

from .kit import LabError
from .kit.controls import ParamError, flatten, parse_params


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
        return {c.name: c.default for c in self.params_list}

    def parse(self, raw, strict=False):
        return parse_params(self.controls, raw, strict)

    def compute(self, params):
        return self.module.compute(params)

    def view(self, state):
        return self.module.view(state)

    def summary(self):
        return {"id": self.id, "ref": self.ref, "chapter": self.chapter.number,
                "chapter_title": self.chapter.label, "title": self.title, "path": self.path,
                "stepped": self.stepped}


@cache
def all_labs():
    """Every lab, in chapter and ref order."""
    found = []
    for chapter_info in pkgutil.iter_modules(__path__):
        match = re.fullmatch(r"ch(\w+)", chapter_info.name)
        if not match:
            continue
        package = importlib.import_module(f"{__name__}.{chapter_info.name}")
        chapter = Chapter(match.group(1).upper(), (package.__doc__ or chapter_info.name).strip().splitlines()[0])
        for info in pkgutil.iter_modules(package.__path__):
            if not info.name.startswith("_"):
                found.append(Lab(importlib.import_module(f"{package.__name__}.{info.name}"), chapter))
    return tuple(sorted(found, key=lambda lab: lab.order))


def get(lab_id):
    """The lab with this id, or LookupError naming the known ones."""
    for lab in all_labs():
        if lab.id == lab_id:
            return lab
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
        html = lab.view(lab.compute(params))
    except LabError as error:
        return {"ok": False, "error": str(error), "params": params}
    except Exception as error:  # a bug in a lab must not break the page
        return {"ok": False, "params": params,
                "error": f"Il laboratorio non è riuscito a fare il calcolo ({type(error).__name__}: {error})."}
    return {"ok": True, "html": str(html), "params": params}


def render_json(lab_id, raw_json):
    """render() for the browser worker: JSON in, JSON out."""
    return json.dumps(render(lab_id, json.loads(raw_json)))


__all__ = ["Chapter", "Lab", "LabError", "ParamError", "all_labs", "check_finite", "get", "ref_key", "render", "render_json"]
