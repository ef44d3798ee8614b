"""Stage 2b: the answers of the costly «Prova» and the checkpoints of each stepped lab's default run
(labs.answers), computed once and kept between builds, written beside each lab's page after mkdocs.

Computing them replays long trainings (3.2: three of them, about a minute in all: its default run gives
four answers and the links' checkpoints), so each lab's are kept in WORK/answers/, under a name made from
everything they depend on: the Python that made them, the sources of core/ and labs/ (the kit, the engine,
the lab's module). A change to any of them computes that lab's again; the next build reads them back.
"""

import hashlib
import os
import pickle
import sys
from pathlib import Path

import labs
from labs.answers import shipment

from . import ROOT, SITE, WORK
from .wheels import imported_modules

# LABS_ANSWERS_DIR: another build's answers to read (and add to), as the tests that build a copy of the
# sources do with the answers of the build they test
CACHE = Path(os.environ.get("LABS_ANSWERS_DIR", WORK / "answers"))


def module_file(name):
    """The source file of a module of core/ or labs/, or None (a name imported from a module, say)."""
    path = ROOT / name.replace(".", "/")
    return next((p for p in (path.with_suffix(".py"), path / "__init__.py") if p.is_file()), None)


def imported_files(path, module):
    """The files of core/ and labs/ that the module at path imports, and theirs, itself included."""
    found, todo = {}, [(module, path)]
    while todo:
        name, file = todo.pop()
        if file in found.values():
            continue
        found[name] = file
        for imported in imported_modules(file, name):
            target = module_file(imported) if imported.split(".")[0] in ("core", "labs") else None
            if target is not None and imported not in found:
                todo.append((imported, target))
    return set(found.values())


def sources_hash(lab):
    """What a lab's answers depend on: the Python version, core/, the lab engine and kit, the lab's module
    and every module of labs/ it imports (its helper modules beside it, its chapter's)."""
    digest = hashlib.sha256(sys.version.encode())
    lab_file = Path(lab.module.__file__).resolve()
    files = {
        *(ROOT / "core").rglob("*.py"),
        *(ROOT / "labs" / "kit").rglob("*.py"),
        *(ROOT / "labs").glob("*.py"),
        *imported_files(lab_file, lab.module.__name__),
        lab_file.parent / "__init__.py",
    }
    for path in sorted(files):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:20]


def lab_shipment(lab):
    """([Answer], Checkpoints or None) of the lab (labs.answers.shipment), from the cache or computed (and kept)."""
    kept = CACHE / f"{lab.id}-{sources_hash(lab)}.pickle"
    try:
        return pickle.loads(kept.read_bytes())
    except FileNotFoundError:  # not made yet, or made for other sources by a build sharing the cache
        pass
    computed = shipment(lab)
    CACHE.mkdir(parents=True, exist_ok=True)
    for old in CACHE.glob(f"{lab.id}-*.pickle"):
        old.unlink(missing_ok=True)
    partial = kept.with_suffix(f".{os.getpid()}.part")  # a build reading the cache never sees half a file
    partial.write_bytes(pickle.dumps(computed))
    partial.replace(kept)
    return computed


def lab_answers(lab):
    """[Answer] of the lab's costly experiments."""
    return lab_shipment(lab)[0]


def prepare_answers(all_labs):
    """{lab id: ([Answer], Checkpoints or None)} for the labs that have costly experiments or steps."""
    return {lab.id: found for lab in all_labs if (lab.experiments or lab.steps) and any(found := lab_shipment(lab))}


def answer_names(prepared):
    """{lab id: {experiment index: (answer file, checkpoint file)}}: what the «Prova» buttons name."""
    return {lab_id: {a.index: (a.name, a.checkpoint) for a in found} for lab_id, (found, _) in prepared.items()}


def link_manifests(prepared):
    """{lab id: the manifest of its default run's checkpoints}: what the page's data-checkpoints says."""
    return {lab_id: links.manifest() for lab_id, (_, links) in prepared.items() if links}


def write_answers(prepared, site=SITE):
    """Every answer and checkpoint beside its lab's page; returns the number of files and their bytes."""
    count = size = 0
    for lab_id, (found, links) in prepared.items():
        folder = site / labs.get(lab_id).path
        files = {name: data for answer in found for name, data in answer.files().items()}
        files |= links.named_files() if links else {}
        for name, data in files.items():
            (folder / name).parent.mkdir(exist_ok=True)
            (folder / name).write_bytes(data)
            count, size = count + 1, size + len(data)
    return count, size
