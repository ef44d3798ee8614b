"""The build behind make dev: one full build (build.py), then each saved file rebuilds only what depends on it.

A saved lab module rebuilds that lab: it is imported again (only it, and what imports it), checked by the
contract, prerendered; its wheel, the lockfile and its page are written again, the page through the same
mkdocs configuration as the full build, kept in memory with every other page already read. A saved module of
core/ or of the kit rebuilds every lab whose imports reach it, or whose wheels depend on a wheel that changed.
What the full build makes differently comes from the same stage functions (sitebuild/), so the files are the
same bytes as build.py's for the same sources (tests/test_dev_loop.py compares them).

What one page cannot change alone is left to a full build: a template, the build itself, a lab added or
removed, a title or REF (every page's navigation), a formula that KaTeX has not rendered yet, an inline script
the CSP does not know.

A rebuild that fails raises Failed with the Italian line of the contract (file and line); nothing is written,
so the site keeps its last good pages.
"""

import hashlib
import importlib
import json
import linecache
import logging
import re
import subprocess
import sys
import time
import types
from pathlib import Path

from . import DIST, DOCS, PACKAGE, ROOT, SITE
from .bundle import boot_script
from .wheels import imported_modules

# a change under these rebuilds everything (build.py in a process of its own, as make build runs it)
FULL = ("templates/", "sitebuild/", "build.py", "mkdocs.yml", "pyproject.toml", "package-lock.json")
WATCHED = ("core", "labs", "templates", "sitebuild", "build.py", "mkdocs.yml")
STAGES = ("contract", "formulas", "lockfile", "offline", "pages", "secure", "theme", "wheels")


class Failed(Exception):
    """A rebuild that cannot be done: its message is the Italian line (file and line) to show."""


class NeedsFull(Exception):
    """What changed reaches beyond the pages being rebuilt: the message says why."""


def sources():
    """{path relative to the project: (mtime in ns, size)} of every file make dev watches."""
    found = {}
    for name in WATCHED:
        top = ROOT / name
        for path in [top] if top.is_file() else top.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and not path.name.endswith((".pyc", "~", ".swp")):
                info = path.stat()
                found[path.relative_to(ROOT).as_posix()] = (info.st_mtime_ns, info.st_size)
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


def closure(lock, package):
    """A package of ours and every package it depends on, from the lockfile."""
    seen, todo = set(), [package]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += lock["packages"][name]["depends"]
    return seen


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
    return found


class Theme:
    """mkdocs as its build runs it, stopped before writing: the configuration, the theme's environment
    and every page read, so that one page can be rendered again alone."""

    def __init__(self, config):
        from mkdocs.commands import build as mkdocs_build
        from mkdocs.structure.files import get_files, set_exclusions
        from mkdocs.structure.nav import get_navigation

        self.build = mkdocs_build
        config = config.plugins.on_config(config)
        config.plugins.on_pre_build(config=config)
        files = get_files(config)
        env = config.theme.get_env()
        files.add_files_from_theme(env, config)
        files = config.plugins.on_files(files, config=config)
        set_exclusions(files, config)
        nav = get_navigation(files, config)
        self.nav = config.plugins.on_nav(nav, config=config, files=files)
        for file in files.documentation_pages():
            mkdocs_build._populate_page(file.page, config, files)
        self.env = config.plugins.on_env(env, config=config, files=files)
        self.config, self.files = config, files
        self.search = next(p for p in config.plugins.values() if hasattr(p, "search_index"))
        self.indexed = {}  # url → the page as the search index reads it, rendered and not yet indexed

    def target(self, src_uri):
        """The HTML file in SITE of a page of DOCS."""
        return Path(self.files.get_file_from_path(src_uri).abs_dest_path)

    def render(self, src_uri):
        """The page's file in SITE, rendered again from its Markdown in DOCS; mkdocs' warnings are errors,
        as in the full build (strict). What the search index needs of the page is kept for search_entries."""
        counter = logging.Handler(logging.WARNING)
        warnings = []
        counter.emit = lambda record: warnings.append(record.getMessage())
        logger = logging.getLogger("mkdocs")
        logger.addHandler(counter)
        index = self.search.search_index
        self.search.search_index = Indexed()
        try:
            file = self.files.get_file_from_path(src_uri)
            self.build._populate_page(file.page, self.config, self.files)
            self.build._build_page(file.page, self.config, self.files.documentation_pages(), self.nav, self.env)
            file.page.validate_anchor_links(files=self.files, log_level=self.config.validation.links.anchors)
            self.indexed.update(self.search.search_index.pages)
        finally:
            self.search.search_index = index
            logger.removeHandler(counter)
        if warnings:
            raise Failed(f"docs/{src_uri}: {warnings[0]}")
        return Path(file.abs_dest_path)

    def search_entries(self):
        """{page url: its entries in the theme's search index} for the pages rendered since the last call."""
        entries = {}
        for url, page in self.indexed.items():
            index = type(self.search.search_index)(**self.search.search_index.config)
            index.add_entry_from_context(page)
            entries[url] = index.entries
        self.indexed = {}
        return entries


class Indexed:
    """Stands for the theme's search index while a page renders: it keeps what the index reads of the page
    (its HTML as the index sees it, its table of contents), so that the index is made after the reload."""

    def __init__(self):
        self.pages = {}

    def add_entry_from_context(self, page):
        self.pages[page.url] = types.SimpleNamespace(
            content=page.content, toc=page.toc, url=page.url, meta=dict(page.meta), title=page.title
        )


class DevBuild:
    """The site in SITE kept up to date with the sources, one saved file at a time."""

    def __init__(self):
        self.labs = ()
        self.stage = None  # the stages of a rebuild whose finish() is due
        self.whole = True  # the next rebuild is a full one
        self.failing = set()  # the files saved since the last good rebuild: they are rebuilt with the next save

    # ── the full build ─────────────────────────────────────────────────────────────────────────────
    def full(self):
        """build.py in its own process, then the state the next rebuilds start from. Failed with build.py's lines."""
        started = time.perf_counter()
        result = subprocess.run([sys.executable, str(ROOT / "build.py")], cwd=ROOT, capture_output=True, text=True)
        if result.returncode != 0:
            self.whole = True  # build/ is half made: the next save builds everything again
            lines = [line for line in (result.stderr + result.stdout).splitlines() if line.startswith("build.py: ")]
            raise Failed("\n".join(lines) or result.stderr.strip().splitlines()[-1])
        self.warm()
        return f"costruito tutto il sito in {time.perf_counter() - started:.1f} s"

    def warm(self):
        """Read what the last full build left: the labs, the lockfile, the wheels' contents, mkdocs' pages."""
        forget([name for name in sys.modules if name.split(".")[0] in ("core", "labs")])
        stage = stages()
        import labs

        self.labs = tuple(labs.all_labs())
        named = re.search(
            r"^  lockfile: (\S+)$", (DOCS / stage["pages"].lab_page_path(self.labs[0])).read_text("utf-8"), re.M
        )
        self.lockfile = DIST / named.group(1)  # the one the pages name
        self.lock = json.loads(self.lockfile.read_text(encoding="utf-8"))
        version, groups, parents, requires = stage["wheels"].plan_wheels()
        self.keys = {name: wheel_key(files, requires[name]) for name, files in groups.items()}
        self.formulas, _ = stage["formulas"].render_formulas(self.labs)
        self.nav = stage["pages"].navigation(self.labs)
        self.theme = Theme(stage["theme"].mkdocs_config(self.nav, boot_script()))
        self.policy = (SITE / "_headers").read_text(encoding="utf-8").split("Content-Security-Policy: ", 1)[1]
        self.policy = self.policy.split("\n", 1)[0]
        self.files = sources()
        self.env = stage["pages"].templates()
        # the templates compiled now, not on the first save: the home page written again, the same bytes
        self.write_pages(stage, {"index.md": (DOCS / "index.md").read_text(encoding="utf-8")}, self.labs)
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
        added_or_removed = (set(now) ^ set(self.files)) & {p for p in changed if p.endswith((".py", ".css"))}
        try:
            if self.whole:
                raise NeedsFull("l'ultimo build completo non è riuscito")
            if any(p.startswith(FULL) for p in changed) or added_or_removed:
                raise NeedsFull("un file del build, un template o un laboratorio aggiunto o tolto")
            pages = self.pages_for(changed)
        except NeedsFull as reason:
            print(f"ricostruisco tutto il sito ({reason})…", flush=True)
            summary = self.full()
            self.failing = set()
            return summary
        self.files, self.failing = now, set()
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
        all_labs = self.load_labs(stale)
        pages = stage["pages"]
        if pages.navigation(all_labs) != self.nav:
            raise NeedsFull("è cambiato un titolo, un REF o un capitolo: cambia la navigazione di ogni pagina")
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
        version, groups, parents, requires = wheels.plan_wheels()
        cycle = wheels.dependency_cycle(requires)
        if cycle:
            raise Failed(f"le wheel dipendono l'una dall'altra in cerchio: {' → '.join(cycle)}")
        if set(groups) != set(self.lock["packages"]):
            raise NeedsFull("è cambiato l'elenco delle wheel")
        lock = json.loads(json.dumps(self.lock))
        new_wheels, keys = {}, dict(self.keys)
        for name, files in groups.items():
            keys[name] = wheel_key(files, requires[name])
            if keys[name] != self.keys.get(name):
                wheel = wheels.write_wheel(name, version, files, requires[name])
                new_wheels[name] = wheel
                data = wheel.read_bytes()
                lock["packages"][name] |= {
                    "depends": sorted(requires[name]),
                    "file_name": wheel.name,
                    "sha256": hashlib.sha256(data).hexdigest(),
                }
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
            markdown = self.markdown(stage, env, lock, affected, all_labs, stale)
        except BaseException:
            for name, wheel in new_wheels.items():  # DIST as it was: only the wheels of the last good build
                if wheel.name != self.lock["packages"][name]["file_name"]:
                    wheel.unlink(missing_ok=True)
            raise

        # write: wheels and lockfile first (the new pages name them), then the pages, then what lists them
        runtime_dir = SITE / "pyodide"
        for wheel in new_wheels.values():
            (runtime_dir / wheel.name).write_bytes(wheel.read_bytes())
        for root in (DIST, runtime_dir):
            (root / lock_name).write_text(lock_text, encoding="utf-8")
        written = self.write_pages(stage, markdown, all_labs)
        old_lock = self.lockfile.name
        if lock_name != old_lock:
            self.rename_lockfile(old_lock, lock_name)
        if (SITE / pages.LAB_STYLES).read_text(encoding="utf-8") != styles:
            for root in (DOCS, SITE):
                (root / pages.LAB_STYLES).write_text(styles, encoding="utf-8")
            written.append("gli stili dei laboratori")
        for name in new_wheels:
            old = self.lock["packages"][name]["file_name"]
            for root in (DIST, runtime_dir):
                (root / old).unlink(missing_ok=True)
        if lock_name != old_lock:
            for root in (DIST, runtime_dir):
                (root / old_lock).unlink(missing_ok=True)
        self.lock, self.keys, self.labs, self.lockfile = lock, keys, all_labs, DIST / lock_name
        self.stage = stage
        return written

    def finish(self):
        """What lists the rebuilt pages, done once the open pages have been told to reload: the search
        index and the service worker (which hashes every file of the site)."""
        if self.stage is None:
            return
        self.update_search(self.stage["theme"], self.theme.search_entries(), self.labs)
        self.stage["offline"].write_service_worker(SITE)
        self.stage = None

    def markdown(self, stage, env, lock, affected, all_labs, stale):
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
                markdown[pages.lab_page_path(lab)] = pages.lab_page(env, lab, size)
            except SystemExit as error:
                raise Failed(str(error).removeprefix("build.py: ")) from None
            except Exception as error:
                raise Failed(crash_line(lab, error)) from None
        markdown["index.md"] = pages.index_page(env, all_labs)
        if stale & guide_imports():
            markdown[pages.GUIDE_PAGE] = pages.guide_page(env)
        return {
            path: text
            for path, text in markdown.items()
            if path.endswith(tuple(f"{lab.id}.md" for lab in affected))
            or (DOCS / path).read_text(encoding="utf-8") != text
        }

    def load_labs(self, stale):
        """Every lab, the stale ones imported again and checked as the contract checks them at import."""
        import labs
        from labs import registry
        from labs.kit.contract import check_module, import_problem
        from labs.kit.errors import place
        from labs.kit.listing import check_edits

        found = []
        for lab in self.labs:
            name = lab.module.__name__
            if name in stale or "labs.registry" in stale:
                registry.LOADED.pop(name, None)
                try:
                    module = importlib.import_module(name)
                    check_module(module, lab.chapter.number)
                    check_edits(module)
                except Exception as error:
                    raise Failed(import_problem(lab.module.__file__, error)) from None
                lab = labs.load(name)
            found.append(lab)
        for kind in ("id", "ref"):
            seen = {}
            for lab in found:
                twin = seen.setdefault(getattr(lab, kind), lab)
                if twin is not lab:
                    raise Failed(
                        f"{place(lab.module.__file__)}: {kind} «{getattr(lab, kind)}» è già usato da «{twin.id}»"
                    )
        registry._discovered = lambda: (tuple(found), {})  # what all_labs() answers until the next full build
        return tuple(found)

    def write_pages(self, stage, markdown, all_labs):
        """Each page's Markdown into DOCS and its HTML through mkdocs into SITE, with the skip link and the
        CSP as the full build puts them; on any failure every page is put back as it was."""
        secure = stage["secure"]
        kept = {}
        try:
            for path, text in markdown.items():
                source = DOCS / path
                kept[source] = source.read_bytes()
                source.write_text(text, encoding="utf-8")
                target = self.theme.target(path)
                kept[target] = target.read_bytes()
                written = self.theme.render(path)
                html = secure.skip_to_lab(written.read_text(encoding="utf-8"), written.relative_to(SITE))
                unknown = set(secure.script_hashes({written: html})) - set(re.findall(r"'sha256-[^']+'", self.policy))
                if unknown:
                    raise NeedsFull("la pagina ha uno script in linea che la CSP non conosce")
                meta = f'<meta http-equiv="Content-Security-Policy" content="{self.policy}">'
                written.write_text(html.replace(secure.CHARSET, f"{secure.CHARSET}\n    {meta}", 1), encoding="utf-8")
        except BaseException:
            for path, data in kept.items():
                path.write_bytes(data)
            raise
        return [path.removesuffix(".md") for path in markdown]

    def update_search(self, theme_stage, entries_by_url, all_labs):
        """The theme's search index with the rebuilt pages' entries in place of their old ones, trimmed as
        the full build trims it (sitebuild/theme.py search_index)."""
        if not entries_by_url:
            return
        path = SITE / "search" / "search_index.json"
        index = json.loads(path.read_text(encoding="utf-8"))
        by_place = {f"{lab.path}#laboratorio": lab for lab in all_labs}
        docs = []
        for doc in index["docs"]:
            url = next((u for u in entries_by_url if doc["location"].split("#")[0] == u), None)
            if url is None:
                docs.append(doc)
            elif entries_by_url[url] is not None:
                for entry in entries_by_url[url]:
                    lab = by_place.get(entry["location"])
                    docs.append(entry | {"text": theme_stage.lab_search_text(lab)} if lab else entry)
                entries_by_url[url] = None
        index["docs"] = docs
        path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")

    def rename_lockfile(self, old, new):
        """Every page and every Markdown source names the new lockfile."""
        for root, pattern in ((SITE, "*.html"), (DOCS, "*.md")):
            for path in root.rglob(pattern):
                text = path.read_text(encoding="utf-8")
                if old in text:
                    path.write_text(text.replace(old, new), encoding="utf-8")
