"""make dev's pages: mkdocs kept open with every page read, so that one page is rendered again alone, then
written with the skip link and the CSP as the full build writes them; the search index and the lockfile's name
brought up to date in the pages already written."""

import json
import logging
import re
import types
from pathlib import Path

from . import DOCS, SITE
from .dev_graph import Failed, NeedsFull


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


def write_pages(theme, policy, secure, markdown):
    """Each page's Markdown into DOCS and its HTML through mkdocs into SITE, with the skip link and the
    CSP as the full build puts them; on any failure every page is put back as it was."""
    kept = {}
    try:
        for path, text in markdown.items():
            source = DOCS / path
            kept[source] = source.read_bytes()
            source.write_text(text, encoding="utf-8")
            target = theme.target(path)
            kept[target] = target.read_bytes()
            written = theme.render(path)
            html = secure.skip_to_lab(written.read_text(encoding="utf-8"), written.relative_to(SITE))
            unknown = set(secure.script_hashes({written: html})) - set(re.findall(r"'sha256-[^']+'", policy))
            if unknown:
                raise NeedsFull("la pagina ha uno script in linea che la CSP non conosce")
            meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
            written.write_text(html.replace(secure.CHARSET, f"{secure.CHARSET}\n    {meta}", 1), encoding="utf-8")
    except BaseException:
        for path, data in kept.items():
            path.write_bytes(data)
        raise
    return [path.removesuffix(".md") for path in markdown]


def update_search(theme_stage, entries_by_url, all_labs):
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


def rename_lockfile(old, new):
    """Every page and every Markdown source names the new lockfile."""
    for root, pattern in ((SITE, "*.html"), (DOCS, "*.md")):
        for path in root.rglob(pattern):
            text = path.read_text(encoding="utf-8")
            if old in text:
                path.write_text(text.replace(old, new), encoding="utf-8")
