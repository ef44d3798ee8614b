"""Stage 2b: the lockfile of our wheels, made by `pyodide lockfile add-wheels` and named by its content."""

import hashlib
import json
import shutil
import sys
from pathlib import Path

from . import DIST, PACKAGE, PYODIDE, fail, run

# what a page needs from Pyodide: the loader, the runtime, the standard library
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"]
FETCHED = ["pyodide.asm.wasm", "python_stdlib.zip"]  # what the worker's progress bar counts, with the wheels


def pyodide_cli():
    cli = Path(sys.executable).with_name("pyodide")
    return str(cli) if cli.exists() else shutil.which("pyodide") or fail("manca il comando 'pyodide' (pyodide-build)")


def write_lockfile(wheels, modules, target):
    """A lockfile that lists only what the site serves: our wheels, so the page
    can loadPackage() them. Pyodide's own catalogue (119 kB) stays out: the labs
    use the standard library only, which python_stdlib.zip holds whole; its
    "info" (Python version, ABI) is kept, as Pyodide checks it. Under "tool",
    which package holds each lab module, for the worker."""
    catalogue = json.loads((PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))
    empty = target.with_name("pyodide-lock.empty.json")
    empty.write_text(json.dumps({**catalogue, "packages": {}}), encoding="utf-8")
    run(
        [
            pyodide_cli(),
            "lockfile",
            "add-wheels",
            "--input",
            str(empty),
            "--output",
            str(target),
            "--base-path",
            str(DIST),
            *map(str, wheels),
        ]
    )
    empty.unlink()
    lock = json.loads(target.read_text(encoding="utf-8"))
    lock.setdefault("tool", {})[PACKAGE] = {"modules": modules}
    target.write_text(json.dumps(lock, separators=(",", ":")), encoding="utf-8")
    return lock


def closure(lock, package):
    """A package of ours and every package it depends on, from the lockfile."""
    seen, todo = set(), [package]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += lock["packages"][name]["depends"]
    return seen


def download_size(lock, package):
    """Bytes a page downloads for a package of ours: its wheel and those it depends on."""
    return sum((DIST / lock["packages"][name]["file_name"]).stat().st_size for name in closure(lock, package))


def runtime_bytes():
    """Bytes of Pyodide itself that every lab page downloads before Python starts."""
    return sum((PYODIDE / f).stat().st_size for f in FETCHED)


def content_hash(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def content_named_lockfile(lockfile):
    """pyodide-lock.<hash>.json: the page names it (data-lockfile), so an old page never reads a new one."""
    return lockfile.rename(lockfile.with_name(f"pyodide-lock.{content_hash(lockfile)}.json"))


def copy_runtime(site, wheels, lockfile):
    """Pyodide's files, our wheels and the lockfile under site/pyodide/."""
    runtime = site / "pyodide"
    runtime.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, runtime / name)
    for wheel in [*wheels, lockfile]:
        shutil.copy2(wheel, runtime / wheel.name)
