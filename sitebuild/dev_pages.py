"""make dev's pages: mkdocs kept open with every page read, so that one page is rendered again alone, then
written with the skip link and the CSP as the full build writes them; the search index and the lockfile's name
brought up to date in the pages already written.

When the navigation changes (a lab added or removed, a title, a REF), mkdocs reads DOCS' files again, keeps the
pages it has already read, reads the new ones, and renders every page again through the same theme templates
(each page's navigation, its neighbours' links), with the 404 page and the sitemap: no Markdown is converted
again but the changed pages'."""

import json
import logging
import re
import shutil
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
        self.read = {file.src_uri: file.page for file in files.documentation_pages()}  # every page read, kept
        self.dirty = set()  # pages whose Page holds Markdown that a failed rebuild put back: read them again
        self.order = None  # after a new navigation: every page's url, in the order the full build indexes them
        self.search = next(p for p in config.plugins.values() if hasattr(p, "search_index"))
        self.indexed = {}  # url → the page as the search index reads it, rendered and not yet indexed

    def target(self, src_uri):
        """The HTML file in SITE of a page of DOCS."""
        return Path(self.files.get_file_from_path(src_uri).abs_dest_path)

    def pages(self):
        """Every page of DOCS, in the order mkdocs builds them."""
        return [file.src_uri for file in self.files.documentation_pages()]

    def renavigate(self, nav):
        """mkdocs' files read again from DOCS with a new navigation (the full build's order, get_files'), each
        page already read kept with the title the navigation gives it; a new page is read when rendered."""
        from mkdocs.structure.files import get_files, set_exclusions
        from mkdocs.structure.nav import get_navigation

        config = self.config
        config["nav"] = nav
        files = get_files(config)
        files.add_files_from_theme(config.theme.get_env(), config)
        files = config.plugins.on_files(files, config=config)
        set_exclusions(files, config)
        from mkdocs.utils import get_build_date

        titles, today = dict(nav_entries(nav)), get_build_date()
        for file in files.documentation_pages():
            page = self.read.get(file.src_uri)
            if page is not None:
                page.file, file.page, page.update_date = file, page, today  # the sitemap's date: a build now
                if file.src_uri in titles:
                    page.title = titles[file.src_uri]
        self.nav = config.plugins.on_nav(get_navigation(files, config), config=config, files=files)
        self.files = files
        self.order = [file.page.url for file in files.documentation_pages()]

    def render(self, src_uri, read=True):
        """The page's file in SITE, rendered again from its Markdown in DOCS (read=False: from the Markdown
        already read, for a page whose navigation alone changed); mkdocs' warnings are errors, as in the full
        build (strict). What the search index needs of the page is kept for search_entries."""
        counter = logging.Handler(logging.WARNING)
        warnings = []
        counter.emit = lambda record: warnings.append(record.getMessage())
        logger = logging.getLogger("mkdocs")
        logger.addHandler(counter)
        index = self.search.search_index
        self.search.search_index = Indexed()
        try:
            file = self.files.get_file_from_path(src_uri)
            if read or file.page.content is None or src_uri in self.dirty:
                self.build._populate_page(file.page, self.config, self.files)
                self.read[src_uri] = file.page
                self.dirty.discard(src_uri)
            self.build._build_page(file.page, self.config, self.files.documentation_pages(), self.nav, self.env)
            file.page.validate_anchor_links(files=self.files, log_level=self.config.validation.links.anchors)
            self.indexed.update(self.search.search_index.pages)
        finally:
            self.search.search_index = index
            logger.removeHandler(counter)
        if warnings:
            raise Failed(f"docs/{src_uri}: {warnings[0]}")
        return Path(file.abs_dest_path)

    def static_targets(self):
        """The files the theme's own templates write (the 404 page, the sitemap and its gzip)."""
        site = Path(self.config.site_dir)
        targets = [site / name for name in self.config.theme.static_templates]
        return targets + [path.with_name(path.name + ".gz") for path in targets if path.name == "sitemap.xml"]

    def render_static(self):
        """The theme's own templates rendered again with the navigation: the HTML pages among them."""
        for name in self.config.theme.static_templates:
            self.build._build_theme_template(name, self.env, self.files, self.config, self.nav)
        return [path for path in self.static_targets() if path.suffix == ".html" and path.exists()]

    def search_entries(self):
        """({page url: its entries in the theme's search index} for the pages rendered since the last call,
        every page's url in the index's order if the navigation changed since, else None)."""
        entries = {}
        for url, page in self.indexed.items():
            index = type(self.search.search_index)(**self.search.search_index.config)
            index.add_entry_from_context(page)
            entries[url] = index.entries
        order, self.indexed, self.order = self.order, {}, None
        return entries, order


def nav_entries(nav):
    """(page, its title) for every page of a navigation as mkdocs gets it (sitebuild/pages.py navigation)."""
    for item in nav:
        for title, value in item.items():
            if isinstance(value, str):
                yield value, title
            else:
                yield from nav_entries(value)


class Indexed:
    """Stands for the theme's search index while a page renders: it keeps what the index reads of the page
    (its HTML as the index sees it, its table of contents), so that the index is made after the reload."""

    def __init__(self):
        self.pages = {}

    def add_entry_from_context(self, page):
        self.pages[page.url] = types.SimpleNamespace(
            content=page.content, toc=page.toc, url=page.url, meta=dict(page.meta), title=page.title
        )


def write_pages(theme, policy, secure, markdown, nav=None, removed=()):
    """Each page's Markdown into DOCS and its HTML through mkdocs into SITE, with the skip link and the
    CSP as the full build puts them; on any failure every file is put back as it was. With a new
    navigation (nav), the removed pages go, and every page and the theme's own templates are rendered again."""
    kept = {}  # file → its bytes before (None: it did not exist)

    def keep(path):
        if path not in kept:
            kept[path] = path.read_bytes() if path.exists() else None

    old_nav, folders = theme.config["nav"], []
    try:
        for path, text in markdown.items():
            keep(DOCS / path)
            (DOCS / path).parent.mkdir(parents=True, exist_ok=True)
            (DOCS / path).write_text(text, encoding="utf-8")
        for path in removed:
            folders.append(theme.target(path).parent)
            for gone in (DOCS / path, folders[-1] / "index.html"):
                keep(gone)
                gone.unlink()
        if nav is not None:
            theme.renavigate(nav)
        for path in theme.pages() if nav is not None else markdown:
            target = theme.target(path)
            keep(target)
            keep(target.parent / secure.LISTING_PAGE)
            written = theme.render(path, read=path in markdown)
            secure_page(secure, policy, written, written.read_text(encoding="utf-8"))
        if nav is not None:
            for target in theme.static_targets():
                keep(target)
            for written in theme.render_static():
                secure_page(secure, policy, written, written.read_text(encoding="utf-8"))
    except BaseException:
        for path, data in kept.items():
            if data is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(data)
        theme.dirty |= set(markdown)
        if nav is not None:
            theme.renavigate(old_nav)
        raise
    for folder in folders:  # the folder of a removed page, with what was beside it (its answers)
        shutil.rmtree(folder, ignore_errors=True)
    return [path.removesuffix(".md") for path in [*markdown, *removed]]


def secure_page(secure, policy, written, html):
    """A page as secure_pages leaves it: the skip link of a lab page, its code listing on a page of its own beside
    it, the CSP as a <meta> in both; NeedsFull if the page has an inline script the CSP does not know."""
    html, listing = secure.split_listing(secure.skip_to_lab(html, written.relative_to(SITE)), written)
    unknown = set(secure.script_hashes({written: html})) - set(re.findall(r"'sha256-[^']+'", policy))
    if unknown:
        raise NeedsFull("la pagina ha uno script in linea che la CSP non conosce")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    for path, text in ((written, html), (written.parent / secure.LISTING_PAGE, listing)):
        if text is not None:
            path.write_text(text.replace(secure.CHARSET, f"{secure.CHARSET}\n    {meta}", 1), encoding="utf-8")


def update_search(theme_stage, entries_by_url, all_labs, order=None):
    """The theme's search index with the rebuilt pages' entries in place of their old ones, trimmed as
    the full build trims it (sitebuild/theme.py search_index); with order (every page's url, after a new
    navigation: every page was rendered), the index made again from the entries in that order."""
    if not entries_by_url:
        return
    path = SITE / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    by_place = {f"{lab.path}#laboratorio": lab for lab in all_labs}

    def trimmed(entries):
        for entry in entries:
            lab = by_place.get(entry["location"])
            yield entry | {"text": theme_stage.lab_search_text(lab)} if lab else entry

    if order is not None:
        index["docs"] = [entry for url in order for entry in trimmed(entries_by_url[url])]
    else:
        docs = []
        for doc in index["docs"]:
            url = next((u for u in entries_by_url if doc["location"].split("#")[0] == u), None)
            if url is None:
                docs.append(doc)
            elif entries_by_url[url] is not None:
                docs.extend(trimmed(entries_by_url[url]))
                entries_by_url[url] = None
        index["docs"] = docs
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def rename_lockfile(old, new, theme):
    """Every page and every Markdown source names the new lockfile, and so do the pages mkdocs has read (a new
    navigation renders them from what it read)."""
    for root, pattern in ((SITE, "*.html"), (DOCS, "*.md")):
        for path in root.rglob(pattern):
            text = path.read_text(encoding="utf-8")
            if old in text:
                path.write_text(text.replace(old, new), encoding="utf-8")
    for page in theme.read.values():
        if page.markdown and old in page.markdown:
            page.markdown, page.content = page.markdown.replace(old, new), page.content.replace(old, new)
            page.meta = json.loads(json.dumps(page.meta).replace(old, new))
