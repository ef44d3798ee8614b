"""The labs as the site knows them: found by walking the package labs, or loaded one by one.

A chapter is a package named ch<N> (its docstring's first line is the
chapter title); a lab is any module inside it whose name does not start
with «_» (_comune.py is a helper the labs of that chapter import), and it
declares TITLE, REF, CONTROLS, compute(params) and view(state). Its
docstring is the page's prose. Nothing else registers it.

A module that breaks the contract (kit/contract.py, and for its suggested
edits labs/kit/listing.py) is not a lab: it becomes one Italian line in
problems(), naming its file, and every other lab keeps working. Asking for
it by id raises ContractError with that line.
"""

import importlib
import re
import sys
from dataclasses import dataclass
from functools import cache

from .kit.contract import check_module
from .kit.contract import import_problem
from .kit.controls import flatten
from .kit.controls import parse_params
from .kit.errors import ContractError
from .kit.errors import LabError
from .kit.errors import place
from .kit.folds import FOLDS_PARAM
from .kit.folds import parse_folds

PACKAGE = "labs"  # the package whose ch<N> subpackages hold the labs
# A paragraph of the prose that is this heading alone splits it: what comes before opens the page above the
# lab (the idea, and its «Prova»), what comes after goes below the lab, in a fold of that title.
MORE = "Per saperne di più"
MORE_MARK = re.compile(r"\n\s*\n## " + MORE + r"[ \t]*\n\s*\n")


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


def split_more(prose):
    """(above, below): a page's prose split at its «## Per saperne di più» paragraph ("" below without one)."""
    above, *below = MORE_MARK.split(prose, maxsplit=1)
    return above, (below[0] if below else "")


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
    def experiments(self):
        """The experiments the lab declares (kit Experiment, in its EXPERIMENTS list)."""
        return tuple(getattr(self.module, "EXPERIMENTS", ()))

    @property
    def page_prose(self):
        """The prose as the page shows it: each experiment's «Prova» after the paragraph that suggests it."""
        from .kit.experiments import prose_with_experiments  # here: the browser never draws the prose

        return prose_with_experiments(self.prose, self.id, self.experiments)

    @property
    def page_parts(self):
        """(above, below): the page's prose before the lab and, in the fold «Per saperne di più» after it,
        the rest ("" when the prose has no such heading)."""
        return split_more(self.page_prose)

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
        return {
            "id": self.id,
            "ref": self.ref,
            "chapter": self.chapter.number,
            "chapter_title": self.chapter.label,
            "title": self.title,
            "path": self.path,
            "stepped": self.stepped,
        }


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


def discover(package):
    """The labs under package's ch<N> packages, in chapter and ref order, and
    the modules that break the contract: (labs, {id: Italian line})."""
    import pkgutil  # here: the browser loads labs one by one (load()) and need not pay for its import

    from .kit.exercises import check_exercises  # the exercises' and questions' contract
    from .kit.listing import check_captions  # the code panel's contract: the browser never discovers
    from .kit.listing import check_edits
    from .kit.listing import listing

    found, problems = [], {}
    for chapter_info in pkgutil.iter_modules(package.__path__):
        match = re.fullmatch(r"ch(\w+)", chapter_info.name)
        if not match:
            continue
        try:
            chapter_package = importlib.import_module(f"{package.__name__}.{chapter_info.name}")
        except Exception as error:
            problems[chapter_info.name] = import_problem(
                f"{chapter_info.module_finder.path}/{chapter_info.name}/__init__.py", error
            )
            continue
        for info in pkgutil.iter_modules(chapter_package.__path__):
            if info.name.startswith("_"):  # a helper module, not a lab
                continue
            lab_id = info.name.replace("_", "-")
            try:
                module = importlib.import_module(f"{chapter_package.__name__}.{info.name}")
                check_module(module, match.group(1).upper())
                check_edits(module)
                check_captions(module)
                check_exercises(module, {name for _, name, _, _ in listing(module)})
            except Exception as error:
                problems[lab_id] = import_problem(f"{info.module_finder.path}/{info.name}.py", error)
                continue
            twin = next((lab for lab in found if lab_id == lab.id or module.REF == lab.ref), None)
            if twin:
                what = f"l'id «{lab_id}»" if lab_id == twin.id else f"REF «{module.REF}»"
                problems[lab_id] = (
                    f"{place(module.__file__)}: {what} è già usato da "
                    f"{place(twin.module.__file__)}: ogni laboratorio vuole il suo"
                )
                continue
            found.append(load(module.__name__))
    return tuple(sorted(found, key=lambda lab: lab.order)), problems


def from_file(path):
    """A lab from a file outside the package: the .py that «Il codice Python»
    downloads (the lab's module with the reader's edits). Its chapter comes from its REF."""
    if not path.is_file():
        raise LookupError(f"il file «{path}» non esiste")
    module = type(sys)(f"{PACKAGE}.file.{path.stem}")  # its id is the file's name
    module.__file__ = str(path)
    try:
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    except Exception as error:
        raise LabError(f"{path}: il file non si esegue ({type(error).__name__}: {error})") from None
    number = re.match(r"[0-9]+|[A-Z]", str(getattr(module, "REF", "")))
    if not number:
        raise LabError(f"{path}: manca REF, il numero del laboratorio nella guida")
    package = importlib.import_module(f"{PACKAGE}.ch{number.group(0)}")
    return Lab(module, Chapter(number.group(0), (package.__doc__ or "").strip().splitlines()[0]))


@cache
def _discovered():
    return discover(importlib.import_module(PACKAGE))


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


__all__ = ["Chapter", "Lab", "all_labs", "discover", "from_file", "get", "load", "problems", "ref_key"]
