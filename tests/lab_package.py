"""A throwaway labs-like package for the authoring tests: a valid lab's source (VALID), a Package
under tmp_path (a copy of the labs/ layout: a package with ch<N> chapters) that labs.discover()
walks, so nothing is left in the repository, and the checks its problems are read with."""

import importlib
import importlib.util
import sys
import textwrap
import uuid

import labs

# A valid lab; the tests break one thing at a time. Line numbers below count from 1.
VALID = '''\
"""Una prosa di prova abbastanza lunga da essere una pagina: il laboratorio
moltiplica un numero per due e lo mostra, niente di più. Serve solo ai test
che rompono una cosa alla volta e guardano il messaggio che ne esce."""

from labs.kit import Choice, Edit, Group, Slider, Steps, Text, Toggle, stat, tag

TITLE = "Prova"
REF = "{ref}"

CONTROLS = [
    Slider("x", "Ingresso", -6.0, 6.0, 0.5, 1.0),
    Toggle("doppio", "Raddoppia", True),
]


def compute(params):
    """L'ingresso, raddoppiato se «Raddoppia» è acceso."""
    return {{"y": params["x"] * (2 if params["doppio"] else 1)}}


def view(state):
    return tag("div", stat("y", str(state["y"])))


EDITS = [
    Edit(
        "il doppio diventa triplo",
        change=("2 if params", "3 if params"),
        expect="Con «Raddoppia» acceso il risultato è il triplo dell'ingresso.",
        check=lambda before, after: after.state["y"] == 3 * before.state["y"] / 2,
    )
]
'''


class Package:
    """A throwaway labs-like package under tmp_path: write modules, then discover."""

    def __init__(self, root):
        self.name = f"labs_prova_{uuid.uuid4().hex[:8]}"
        self.dir = root / self.name
        self.dir.mkdir()
        (self.dir / "__init__.py").write_text("")

    def chapter(self, number, title="Capitolo di prova"):
        folder = self.dir / f"ch{number}"
        if not folder.exists():
            folder.mkdir()
            (folder / "__init__.py").write_text(f'"""{title}"""\n')
        return folder

    def write(self, chapter, name, source):
        path = self.chapter(chapter) / name
        path.write_text(textwrap.dedent(source) if not source.startswith('"""') else source, encoding="utf-8")
        return path

    def lab(self, chapter, name, ref=None, change=None):
        """A valid lab with REF ref (chapter.1 by default), its source passed through change()."""
        source = VALID.format(ref=f"{chapter}.1" if ref is None else ref)
        return self.write(chapter, f"{name}.py", change(source) if change else source)

    def discover(self):
        importlib.invalidate_caches()
        return labs.discover(importlib.import_module(self.name))


def made_package(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    made = Package(tmp_path)
    yield made
    for name in [n for n in sys.modules if n == made.name or n.startswith(made.name + ".")]:
        del sys.modules[name]


def only_problem(package):
    found, problems = package.discover()
    assert len(problems) == 1, problems
    (line,) = problems.values()
    assert "\n" not in line and "Traceback" not in line
    return found, line


def line_of(path, text):
    """The 1-based line of path that contains text."""
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)
