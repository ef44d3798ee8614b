"""What make dev's rebuilds know of the sources: which files changed, which modules import which, which
wheels changed, and how to import the stages and the labs afresh."""

import hashlib
import importlib
import json
import linecache
import sys
from pathlib import Path

from . import PACKAGE, ROOT
from .wheels import imported_modules

# a change under these rebuilds everything (build.py in a process of its own, as make build runs it)
FULL = ("templates/", "sitebuild/", "build.py", "mkdocs.yml", "pyproject.toml", "package-lock.json")
WATCHED = ("core", "labs", "templates", "sitebuild", "build.py", "mkdocs.yml")
STAGES = ("answers", "contract", "formulas", "lockfile", "offline", "pages", "secure", "theme", "wheels")


class Failed(Exception):
    """A rebuild that cannot be done: its message is the Italian line (file and line) to show."""


class NeedsFull(Exception):
    """What changed reaches beyond the pages being rebuilt: the message says why."""


# what tools and editors write beside the sources: never a change of the site
TOOL_SUFFIXES = ("~", ".pyc", ".pyo", ".swp", ".swo", ".swx", ".tmp", ".bak", ".orig", ".rej")


def is_tool_file(relative):
    """True for a file that a tool or an editor writes beside the sources, not the author: anything under a
    hidden folder or itself hidden (.ruff_cache/, .pytest_cache/, .mypy_cache/, vim's .x.py.swp, emacs' .#x.py),
    __pycache__/, a name ending in ~ .swp .swo .swx .pyc .tmp .bak, emacs' #x.py#, and vim's probe file 4913."""
    parts = Path(relative).parts
    name = parts[-1]
    return (
        any(part.startswith(".") or part == "__pycache__" for part in parts)
        or name.endswith(TOOL_SUFFIXES)
        or (name.startswith("#") and name.endswith("#"))
        or name == "4913"
    )


def sources():
    """{path relative to the project: (mtime in ns, size)} of every file make dev watches (is_tool_file: not
    those a tool or an editor writes beside them)."""
    found = {}
    for name in WATCHED:
        top = ROOT / name
        for path in [top] if top.is_file() else top.rglob("*"):
            relative = path.relative_to(ROOT).as_posix()
            if not is_tool_file(relative) and path.is_file():
                info = path.stat()
                found[relative] = (info.st_mtime_ns, info.st_size)
    return found


def changed_files(before, after):
    """The paths added, removed or modified between two snapshots of sources()."""
    return sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))


def python_modules():
    """{module name: its file} for core/ and labs/."""
    return {
        path.relative_to(ROOT).with_suffix("").as_posix().removesuffix("/__init__").replace("/", "."): path
        for top in ("core", "labs")
        for path in sorted((ROOT / top).rglob("*.py"))
        if "__pycache__" not in path.parts
    }


def import_graph(modules, imported_modules):
    """{module: the modules of ours it imports}, from the files' import statements."""
    return {name: {m for m in imported_modules(path, name) if m in modules} - {name} for name, path in modules.items()}


def dependents(graph, changed):
    """The changed modules and every module whose imports reach one of them; a package brings its
    submodules (a package imported again must find them imported again with it)."""
    stale = set(changed)
    grew = True
    while grew:
        before = len(stale)
        stale |= {name for name, imports in graph.items() if imports & stale}
        stale |= {name for name in graph if any(name.startswith(package + ".") for package in stale)}
        grew = len(stale) != before
    return stale


def guide_imports():
    """The modules of ours that the author's guide imports (templates/guide/: the guide and its examples)."""
    remembered = MEMO.wrap(imported_modules)
    return {m for path in sorted((ROOT / "templates" / "guide").glob("*.py")) for m in remembered(path, "guide")}


def wheel_key(files, requires):
    """A digest of what a wheel holds: its files' paths and bytes, and what it requires."""
    digest = hashlib.sha256()
    for arcname, path in sorted(files.items()):
        digest.update(arcname.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(json.dumps(sorted(requires)).encode())
    return digest.hexdigest()


def changed_wheels(wheels, lock, keys):
    """(the lockfile, the wheels' keys, {package: its new wheel}, [packages gone]) with the wheels whose files or
    requirements changed written again (wheels is the stage module); Failed on a cycle. A wheel that comes (a
    new module of core/, a new lab, a new chapter) is entered in the lockfile as pyodide enters its siblings:
    the fields of the wheel it sits on, packages sorted by name, each lab module named with its package in
    the order build_wheels names them (tests/test_dev_loop.py compares the bytes with build.py's); a wheel that
    goes leaves the lockfile. NeedsFull if the base or core/'s own wheel would come or go."""
    version, groups, parents, requires = wheels.plan_wheels()
    cycle = wheels.dependency_cycle(requires)
    if cycle:
        raise Failed(f"le wheel dipendono l'una dall'altra in cerchio: {' → '.join(cycle)}")
    core = f"{PACKAGE}-core"
    added, gone = set(groups) - set(lock["packages"]), sorted(set(lock["packages"]) - set(groups))
    if {PACKAGE, core} - set(groups) or {PACKAGE, core} & added:
        raise NeedsFull("è cambiato l'elenco delle wheel")
    lock, new_keys, new_wheels = json.loads(json.dumps(lock)), dict(keys), {}
    for name in gone:
        del lock["packages"][name]
        new_keys.pop(name, None)
    for name in sorted(added, key=lambda n: n.count("-")):  # a chapter before its labs
        lock["packages"][name] = {**lock["packages"][parents[name]], "name": name, "version": version}
    lock["packages"] = dict(sorted(lock["packages"].items()))
    lock["tool"][PACKAGE]["modules"] = wheels.lab_modules(groups, parents)
    for name, files in groups.items():
        new_keys[name] = wheel_key(files, requires[name])
        if name in added or new_keys[name] != keys.get(name):
            wheel = wheels.write_wheel(name, version, files, requires[name])
            new_wheels[name] = wheel
            lock["packages"][name] |= {
                "depends": sorted(requires[name]),
                "file_name": wheel.name,
                "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            }
    return lock, new_keys, new_wheels, gone


def forget(names):
    """Drop modules from sys.modules, and their bytecode caches: a file saved twice in one second with the
    same size would otherwise be read from a .pyc of the previous version."""
    for name in names:
        module = sys.modules.pop(name, None)
        cached = getattr(module, "__cached__", None)
        if cached:
            Path(cached).unlink(missing_ok=True)
    importlib.invalidate_caches()
    linecache.checkcache()


class ImportsMemo:
    """wheels.imported_modules, remembered per file until the file changes (parsing every file is the slow part)."""

    def __init__(self):
        self.seen = {}

    def wrap(self, imported_modules):
        def remembered(path, module):
            info = path.stat()
            key = (str(path), module, info.st_mtime_ns, info.st_size)
            if key not in self.seen:
                try:
                    self.seen[key] = imported_modules(path, module)
                except SyntaxError as error:  # the line the contract gives at import, before anything is written
                    from labs.kit.contract import import_problem

                    error.filename = str(path)  # ast.parse names no file
                    raise Failed(import_problem(str(path), error)) from None
            return self.seen[key]

        return remembered


MEMO = ImportsMemo()


def stages():
    """The build's stage modules imported afresh, so that they see the labs and the kit as they are now."""
    forget([f"sitebuild.{name}" for name in STAGES])
    found = {name: importlib.import_module(f"sitebuild.{name}") for name in STAGES}
    found["wheels"].imported_modules = MEMO.wrap(found["wheels"].imported_modules)
    found["answers"].imported_modules = found["wheels"].imported_modules  # its sources' hash reads the imports too
    return found


def lab_modules(modules):
    """The modules of python_modules() that are labs, as the registry discovers them: labs.ch<N>.<name>, not
    a helper (_name)."""
    return [
        name
        for name in modules
        if len(parts := name.split(".")) == 3
        and parts[0] == "labs"
        and parts[1].startswith("ch")
        and not parts[2].startswith("_")
    ]


def reload_labs(names, known, stale):
    """The labs of these modules in the registry's order, each one checked as discover() checks it: the
    known ones (Lab) kept unless stale, the stale and the new ones imported again."""
    import labs
    from labs import registry
    from labs.kit.contract import check_module, import_problem
    from labs.kit.errors import place
    from labs.kit.exercises import check_exercises
    from labs.kit.listing import check_captions, check_edits, listing

    kept = {lab.module.__name__: lab for lab in known}
    found = []
    for name in names:
        lab = kept.get(name)
        if lab is None or name in stale or "labs.registry" in stale:
            registry.LOADED.pop(name, None)
            file = ROOT / (name.replace(".", "/") + ".py")
            try:
                module = importlib.import_module(name)
                check_module(module, name.split(".")[1].removeprefix("ch").upper())
                check_edits(module)
                check_captions(module)
                check_exercises(module, {function for _, function, _, _ in listing(module)})
            except Exception as error:
                raise Failed(import_problem(str(file), error)) from None
            lab = labs.load(name)
        found.append(lab)
    for kind in ("id", "ref"):
        seen = {}
        for lab in found:
            twin = seen.setdefault(getattr(lab, kind), lab)
            if twin is not lab:
                raise Failed(f"{place(lab.module.__file__)}: {kind} «{getattr(lab, kind)}» è già usato da «{twin.id}»")
    found = tuple(sorted(found, key=lambda lab: lab.order))
    registry._discovered = lambda: (found, {})  # what all_labs() answers until the next full build
    return found
