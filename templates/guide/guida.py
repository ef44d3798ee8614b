"""What the page «Scrivere un laboratorio» shows, computed when the site is
built: the example lab (esempio.py) with its source, controls and view, and
the kit's components with their signatures, the first paragraph of their
docstrings and a drawing made by the call listed in componenti.py.

Nothing here is written by hand twice: if the kit or the example changes,
the page follows; if they break, the build (and tests/test_authors_guide.py) fails.
"""

import dataclasses
import importlib.util
import inspect
from pathlib import Path

import labs
import labs.kit
from labs.kit.contract import check_module
from labs.kit.exercises import MAX_CASES, MIN_CASES

HERE = Path(__file__).resolve().parent
EXAMPLE_CHAPTER = "1"


def load(name):
    """A Python file of this folder as a module (they are not in any package)."""
    spec = importlib.util.spec_from_file_location(f"guide.{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def example_lab():
    """The example as a Lab, checked as discovery checks every lab."""
    module = load("esempio")
    check_module(module, EXAMPLE_CHAPTER)
    return labs.Lab(module, labs.Chapter(EXAMPLE_CHAPTER, "Esempio"))


def example_result(lab):
    """What render() gives for a lab at its defaults, for a lab that is not on the site."""
    params = lab.defaults()
    state = lab.compute(params)
    html = lab.view(state)
    problem = labs.view_problem(lab, html)
    if problem:
        raise labs.ContractError(problem)
    return {
        "ok": True,
        "html": str(html),
        "params": params,
        "state": state,
        "controls": {name: f.as_json() for name, f in lab.follow(state).items()},
    }


def signature(obj):
    """name(arguments) without type annotations, keyword-only marker included."""
    try:
        sig = inspect.signature(obj)
    except ValueError:  # a subclass of a builtin (Html is a str): its constructor is str's
        return f"{obj.__name__}(testo)"
    factories = (
        {f.name: f.default_factory() for f in dataclasses.fields(obj) if f.default_factory is not dataclasses.MISSING}
        if dataclasses.is_dataclass(obj)
        else {}
    )
    plain = sig.replace(
        parameters=[
            p.replace(annotation=inspect.Parameter.empty, default=factories.get(p.name, p.default))
            for p in sig.parameters.values()
        ],
        return_annotation=inspect.Signature.empty,
    )
    return f"{obj.__name__}{plain}"


def summary(obj):
    """The docstring's first paragraph, on one line."""
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n")[0].split())


def entry(name):
    obj = getattr(labs.kit, name)
    return {
        "name": name,
        "signature": signature(obj),
        "summary": summary(obj),
        "kind": "classe" if inspect.isclass(obj) else "funzione",
    }


def run(code):
    """The value of a catalogue call, evaluated with everything labs.kit exports."""
    return eval(code, {name: getattr(labs.kit, name) for name in labs.kit.__all__})  # noqa: S307 (our own file)


def figures(catalogue):
    found = []
    for name, parts, code in catalogue.FIGURES:
        html = run(code)
        if not isinstance(html, labs.kit.Html):
            raise TypeError(f"componenti.py: l'esempio di {name} non restituisce Html")
        found.append({**entry(name), "parts": [entry(p) for p in parts], "code": code, "html": str(html)})
    return found


def texts(catalogue):
    """The text helpers: their call and what it returns (a string as it is, anything else as repr)."""
    return [
        {**entry(name), "code": code, "value": str(value) if isinstance(value, str) else repr(value)}
        for name, code in catalogue.TEXT
        for value in [run(code)]
    ]


def documented(catalogue):
    """Every kit name the catalogue covers."""
    names = [n for name, parts, _ in catalogue.FIGURES for n in (name, *parts)]
    names += [name for name, _ in catalogue.TEXT] + catalogue.CONTROLS + catalogue.STEPPED + catalogue.CODE
    names += catalogue.ERRORS + catalogue.EXERCISES
    return names


def sample_error():
    """A real message of the contract, without its place: what a slider with its default outside says."""
    try:
        labs.kit.Slider("x", "Ingresso", -6.0, 6.0, 0.5, 10.0)
    except labs.ContractError as error:
        return str(error).split(": ", 1)[1]
    raise AssertionError("il kit ha accettato un cursore con il valore iniziale fuori dall'intervallo")


def swatches():
    """The kit's colour classes drawn as bars, one row each, in the colours of the page's scheme."""
    names = ("s1", "s2", "s3", "s4", "target", "muted")
    rows = [labs.kit.Bar(name, 1.0 - 0.12 * i, text=f'class_="{name}"', class_=name) for i, name in enumerate(names)]
    return str(labs.kit.bars(rows, label="Le classi di colore del kit"))


def context():
    """Everything guide.md.j2 needs."""
    catalogue = load("componenti")
    lab = example_lab()
    return {
        "example": lab,
        "example_source": (HERE / "esempio.py").read_text(encoding="utf-8").rstrip("\n"),
        "result": example_result(lab),
        "figures": figures(catalogue),
        "texts": texts(catalogue),
        "controls": [entry(name) for name in catalogue.CONTROLS],
        "stepped": [entry(name) for name in catalogue.STEPPED],
        "errors": [entry(name) for name in catalogue.ERRORS],
        "code": [entry(name) for name in catalogue.CODE],
        "exercises": [entry(name) for name in catalogue.EXERCISES],
        "sample_error": sample_error(),
        "swatches": swatches(),
        "min_cases": MIN_CASES,
        "max_cases": MAX_CASES,
    }
