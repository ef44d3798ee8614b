"""The build behind make dev: one full build (build.py), then each saved file rebuilds only what depends on it.

A saved lab module rebuilds that lab: it is imported again (only it, and what imports it), checked by the
contract, prerendered; its wheel, the lockfile and its page are written again, the page through the same
mkdocs configuration as the full build, kept in memory with every other page already read. A saved module of
core/ or of the kit rebuilds every lab whose imports reach it, or whose wheels depend on a wheel that changed.
What the full build makes differently comes from the same stage functions (sitebuild/), so the files are the
same bytes as build.py's for the same sources (tests/test_dev_loop.py compares them).

A new module of core/ is one wheel more, entered in the lockfile as build.py's pyodide enters it, and no page
changes until a lab imports the module. A lab added or removed is its wheel in the lockfile or out of it, its
page, and a new navigation: mkdocs renders every page again from the Markdown it has already read (each page's
navigation, its neighbours' links), the 404 page and the sitemap, and the search index is made again; a title
or a REF that changes takes the same path. What the pages cannot change alone is left to a full build: a
template, the build itself, the base's or core/'s own wheel coming or going, a formula that KaTeX has not
rendered yet, an inline script the CSP does not know.

The answers of a new lab's costly «Prova» (sitebuild/answers.py) are computed with its page and written beside
it as build.py writes them; a changed lab's come from their cache only (a save replays no training): without
them its page names none, and its «Prova» replays in the browser until the next full build.

A rebuild that fails raises Failed with the Italian line of the contract (file and line); nothing is written,
so the site keeps its last good pages.
"""

import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import DIST, DOCS, PACKAGE, ROOT, SITE
from .bundle import boot_script
from .dev_graph import (
    FULL,
    MEMO,
    Failed,
    NeedsFull,
    changed_files,
    changed_wheels,
    dependents,
    forget,
    guide_imports,
    import_graph,
    lab_modules,
    python_modules,
    reload_labs,
    sources,
    stages,
    wheel_key,
)
from .dev_pages import Theme, rename_lockfile, update_search, write_pages
from .lockfile import closure
from .wheels import imported_modules

__all__ = ["DevBuild", "Failed", "NeedsFull", "changed_files", "sources"]


def saved_labs(all_labs, changed):
    """The ids of the labs whose module is among the changed paths."""
    return [lab.id for lab in all_labs if Path(lab.module.__file__).resolve().relative_to(ROOT).as_posix() in changed]


class DevBuild:
    """The site in SITE kept up to date with the sources, one saved file at a time."""

    def __init__(self):
        self.labs = ()
        self.stage = None  # the stages of a rebuild whose finish() is due
        self.whole = True  # the next rebuild is a full one
        self.files = {}  # the sources as the last build read them: the watcher starts from these
        self.failing = set()  # the files saved since the last good rebuild: they are rebuilt with the next save
        self.saved = []  # the ids of the labs whose own file the last good rebuild read anew

    # ── the full build ─────────────────────────────────────────────────────────────────────────────
    def full(self):
        """build.py in its own process, then the state the next rebuilds start from. Failed with build.py's lines."""
        started = time.perf_counter()
        # the sources as this build reads them: a file saved or created while it runs differs from them, so the
        # watcher (which starts from self.files) rebuilds it next, and a lab added meanwhile is an added lab
        before = sources()
        self.files = before
        result = subprocess.run([sys.executable, str(ROOT / "build.py")], cwd=ROOT, capture_output=True, text=True)
        if result.returncode != 0:
            self.whole = True  # build/ is half made: the next save builds everything again
            lines = [line for line in (result.stderr + result.stdout).splitlines() if line.startswith("build.py: ")]
            raise Failed("\n".join(lines) or result.stderr.strip().splitlines()[-1])
        self.warm(before)
        return f"costruito tutto il sito in {time.perf_counter() - started:.1f} s"

    def warm(self, files=None):
        """Read what the last full build left: the labs, the lockfile, the wheels' contents, mkdocs' pages.
        files: the sources as that build read them (sources() now, without)."""
        forget([name for name in sys.modules if name.split(".")[0] in ("core", "labs")])
        stage = stages()
        import labs

        # the labs that build read: a lab written while it ran has no page yet, and is an added lab for the watcher
        self.labs = tuple(lab for lab in labs.all_labs() if (DOCS / stage["pages"].lab_page_path(lab)).exists())
        named = re.search(
            r"^  lockfile: (\S+)$", (DOCS / stage["pages"].lab_page_path(self.labs[0])).read_text("utf-8"), re.M
        )
        self.lockfile = DIST / named.group(1)  # the one the pages name
        self.lock = json.loads(self.lockfile.read_text(encoding="utf-8"))
        version, groups, parents, requires = stage["wheels"].plan_wheels()
        self.keys = {
            name: wheel_key(files, requires[name]) for name, files in groups.items() if name in self.lock["packages"]
        }
        self.formulas, _ = stage["formulas"].render_formulas(self.labs)
        self.nav = stage["pages"].navigation(self.labs)
        self.theme = Theme(stage["theme"].mkdocs_config(self.nav, boot_script()))
        self.policy = (SITE / "_headers").read_text(encoding="utf-8").split("Content-Security-Policy: ", 1)[1]
        self.policy = self.policy.split("\n", 1)[0]
        self.files = sources() if files is None else files
        self.env = stage["pages"].templates()
        # the templates compiled now, not on the first save: the home page written again, the same bytes
        write_pages(
            self.theme, self.policy, stage["secure"], {"index.md": (DOCS / "index.md").read_text(encoding="utf-8")}
        )
        self.stage = stage
        self.finish()
        self.whole = False

    # ── one saved file ─────────────────────────────────────────────────────────────────────────────
    def rebuild(self, changed):
        """Rebuild what the changed paths (relative to the project) reach; a summary line, or Failed."""
        started = time.perf_counter()
        now = sources()
        changed = sorted(set(changed) | self.failing)
        self.failing = set(changed)
        try:
            if self.whole:
                raise NeedsFull("l'ultimo build completo non è riuscito")
            if any(p.startswith(FULL) for p in changed):
                raise NeedsFull("un file del build o un template")
            pages = self.pages_for(changed)
        except NeedsFull as reason:
            print(f"ricostruisco tutto il sito ({reason})…", flush=True)
            summary = self.full()
            self.failing = set()
            self.saved = saved_labs(self.labs, changed)
            return summary
        self.files, self.failing = now, set()
        self.saved = saved_labs(self.labs, changed)
        took = time.perf_counter() - started
        if len(pages) > 3:
            return f"ricostruite {len(pages)} pagine ({', '.join(pages[:3])}, …) in {took:.2f} s"
        return f"ricostruito {', '.join(pages) or 'nulla: le pagine non cambiano'} in {took:.2f} s"

    def pages_for(self, changed):
        """The incremental rebuild itself: compute everything, then write; the pages rebuilt."""
        modules = python_modules()
        graph = import_graph(modules, MEMO.wrap(imported_modules))
        changed_modules = {name for name, path in modules.items() if path.relative_to(ROOT).as_posix() in changed}
        stale = dependents(graph, changed_modules)
        forget(stale)
        try:
            stage = stages()
        except Exception as error:  # a module of the kit or of core/ that raises when imported
            from labs.kit.contract import import_problem

            raise Failed(import_problem(str(modules[min(changed_modules)]), error)) from None
        wheels = stage["wheels"]
        forget(set(sys.modules) & ({lab.module.__name__ for lab in self.labs} - set(modules)))  # labs removed
        all_labs = reload_labs(lab_modules(modules), self.labs, stale)
        pages = stage["pages"]
        nav = pages.navigation(all_labs)
        formulas = stage["formulas"]
        if {f for lab in all_labs for f in formulas.formulas_of(lab.prose)} != set(self.formulas):
            raise NeedsFull("le formule da far scrivere a KaTeX sono cambiate")
        from labs.kit.errors import ContractError
        from labs.styles import lab_styles, orphans

        try:
            styles = lab_styles(all_labs)
        except ContractError as error:
            raise Failed(str(error)) from None
        lost = orphans(ROOT / "labs", all_labs)
        if lost:
            raise Failed(lost[0])

        # wheels and lockfile, in memory until every page is ready
        lock, keys, new_wheels, gone = changed_wheels(wheels, self.lock, self.keys)
        lock_text = json.dumps(lock, separators=(",", ":"))
        lock_name = f"pyodide-lock.{hashlib.sha256(lock_text.encode()).hexdigest()[:12]}.json"
        modules_of_labs = lock["tool"][PACKAGE]["modules"]
        affected = [
            lab
            for lab in all_labs
            if lab.module.__name__ in stale or closure(lock, modules_of_labs[lab.module.__name__]) & set(new_wheels)
        ]

        # the pages' Markdown
        env = self.env  # the compiled templates kept; the filters from the kit as it is now
        fresh = pages.templates()
        env.filters.update(fresh.filters)
        env.globals.update(fresh.globals)
        env.globals["lockfile"] = lock_name
        env.filters["tex"] = formulas.tex_filter(self.formulas)
        try:
            prepared = self.answers(stage, affected, {lab.id for lab in self.labs})
            markdown = self.markdown(stage, env, lock, affected, all_labs, stale, prepared)
        except BaseException:
            for name, wheel in new_wheels.items():  # DIST as it was: only the wheels of the last good build
                if wheel.name != self.lock["packages"].get(name, {}).get("file_name"):
                    wheel.unlink(missing_ok=True)
            raise

        # write: wheels and lockfile first (the new pages name them), then the pages, then what lists them
        runtime_dir = SITE / "pyodide"
        for wheel in new_wheels.values():
            (runtime_dir / wheel.name).write_bytes(wheel.read_bytes())
        for root in (DIST, runtime_dir):
            (root / lock_name).write_text(lock_text, encoding="utf-8")
        removed = sorted(
            {pages.lab_page_path(lab) for lab in self.labs} - {pages.lab_page_path(lab) for lab in all_labs}
        )
        written = write_pages(
            self.theme, self.policy, stage["secure"], markdown, nav if nav != self.nav else None, removed
        )
        if nav != self.nav:
            written.append("la navigazione di ogni pagina")
        for lab in affected:  # a lab's answers as build.py writes them beside its page: only this build's
            for old in (SITE / lab.path).glob("prova-*"):
                old.unlink()
            for old in (SITE / lab.path).glob("passi-*"):
                shutil.rmtree(old)
        stage["answers"].write_answers(prepared, SITE)
        old_lock = self.lockfile.name
        if lock_name != old_lock:
            rename_lockfile(old_lock, lock_name, self.theme)
        if (SITE / pages.LAB_STYLES).read_text(encoding="utf-8") != styles:
            for root in (DOCS, SITE):
                (root / pages.LAB_STYLES).write_text(styles, encoding="utf-8")
            written.append("gli stili dei laboratori")
        for name in (new_wheels.keys() | set(gone)) & self.lock["packages"].keys():  # a new wheel had none before
            old = self.lock["packages"][name]["file_name"]
            for root in (DIST, runtime_dir):
                (root / old).unlink(missing_ok=True)
        if lock_name != old_lock:
            for root in (DIST, runtime_dir):
                (root / old_lock).unlink(missing_ok=True)
        self.lock, self.keys, self.labs, self.lockfile, self.nav = lock, keys, all_labs, DIST / lock_name, nav
        self.stage = stage
        return written

    def finish(self):
        """What lists the rebuilt pages, done once the open pages have been told to reload: the search
        index and the service worker (which hashes every file of the site)."""
        if self.stage is None:
            return
        entries, order = self.theme.search_entries()
        update_search(self.stage["theme"], entries, self.labs, order)
        self.stage["offline"].write_service_worker(SITE)
        self.stage = None

    @staticmethod
    def answers(stage, affected, known):
        """{lab id: [Answer]} of the affected labs' costly experiments (sitebuild/answers.py): a new lab's (not
        among the known ids) computed, another's only if its cache has them for these sources, so that a save
        replays no training (3.2's answers take a minute and a half; without them its «Prova» replays in the
        browser until the next full build); Failed with the line of an answer that does not draw."""
        from labs.answers import machine_of  # only a stepped lab has costly experiments

        answers = stage["answers"]
        ready = [
            lab
            for lab in affected
            if lab.id not in known
            or (machine_of(lab) and (answers.CACHE / f"{lab.id}-{answers.sources_hash(lab)}.pickle").exists())
        ]
        try:
            return answers.prepare_answers(ready)
        except ValueError as error:
            lab = next(lab for lab in affected if str(error).startswith(f"{lab.id}:"))
            from labs.kit.errors import place

            raise Failed(f"{place(lab.module.__file__)}: {str(error).removeprefix(f'{lab.id}: ')}") from None

    def markdown(self, stage, env, lock, affected, all_labs, stale, prepared):
        """{page in DOCS: its new Markdown} for the affected labs and the pages whose Markdown changed with them;
        Failed with the contract's line for a lab that does not prerender."""
        import labs
        from labs.cli import crash_line

        pages, lockfile = stage["pages"], stage["lockfile"]
        modules_of_labs = lock["tool"][PACKAGE]["modules"]
        runtime = lockfile.runtime_bytes()
        markdown = {}
        for lab in affected:
            drawing = labs.draw(lab)
            if not drawing.ok:
                raise Failed(stage["contract"].prerender_problem(lab, drawing))
            try:
                size = runtime + lockfile.download_size(lock, modules_of_labs[lab.module.__name__])
                answers = stage["answers"].answer_names(prepared).get(lab.id)
                checkpoints = stage["answers"].link_manifests(prepared).get(lab.id)
                markdown[pages.lab_page_path(lab)] = pages.lab_page(env, lab, size, answers, checkpoints)
            except SystemExit as error:
                raise Failed(str(error).removeprefix("build.py: ")) from None
            except Exception as error:
                raise Failed(crash_line(lab, error)) from None
        markdown["index.md"] = pages.index_page(env, all_labs)
        markdown[pages.PROGRESS_PAGE] = pages.progress_page(env, all_labs)
        if stale & guide_imports():
            markdown[pages.GUIDE_PAGE] = pages.guide_page(env)
        return {
            path: text
            for path, text in markdown.items()
            if path.endswith(tuple(f"{lab.id}.md" for lab in affected))
            or (DOCS / path).read_text(encoding="utf-8") != text
        }
