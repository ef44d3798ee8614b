"""The built site (site/): one page per lab with its prerendered view, the
home cards, the navigation, and Pyodide's files with our wheel."""

import hashlib
import html
import html.parser
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import labs
from labs.kit.prerendered import read_answers
from sitebuild.pages import known_answers

ROOT = Path(__file__).resolve().parent.parent
ALL = labs.all_labs()
per_lab = pytest.mark.parametrize("lab", ALL, ids=[lab.id for lab in ALL])


def page(site_dir, lab):
    return (site_dir / lab.path / "index.html").read_text(encoding="utf-8")


@per_lab
def test_every_lab_has_a_page_with_its_prerendered_view(site_dir, lab):
    html = page(site_dir, lab)
    assert f'data-lab="{lab.id}"' in html
    assert labs.render(lab.id, {})["html"] in html, f"{lab.id}: la vista prerenderizzata è stata alterata"
    assert f"{lab.ref} · {lab.title}".replace("'", "&#39;") in html or f"{lab.ref} · {lab.title}" in html


@per_lab
def test_home_and_navigation_list_every_lab(site_dir, lab):
    home = (site_dir / "index.html").read_text(encoding="utf-8")
    assert f'data-lab-card="{lab.id}"' in home
    assert f'href="{lab.path}"' in home
    assert lab.chapter.label in home
    assert lab.blurb[:40] in html.unescape(home)
    assert '<html lang="it"' in home


def test_pyodide_runtime_and_our_wheels_are_served(site_dir):
    runtime = site_dir / "pyodide"
    (lockfile,) = runtime.glob("pyodide-lock.*.json")  # named by its content hash
    lock = json.loads(lockfile.read_text())
    for name, package in lock["packages"].items():
        wheel = runtime / package["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == package["sha256"], name
        assert name.startswith("laboratori-llm") and package["imports"] in (["labs"], ["core"]), name
    assert lock["packages"]["laboratori-llm"]["imports"] == ["labs"]
    assert lock["packages"]["laboratori-llm-core"]["imports"] == ["core"]
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        assert (runtime / name).stat().st_size > 0
    # only what the site serves: Pyodide's catalogue (numpy & co., 119 kB) is not the labs' business
    pyodide_lock = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"] == pyodide_lock["info"]
    assert not set(lock["packages"]) & set(pyodide_lock["packages"])


def wheel_files(runtime, lock, package):
    """{path: bytes} of a package's wheel and of every wheel it depends on."""
    import zipfile

    files, todo, seen = {}, [package], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        with zipfile.ZipFile(runtime / lock["packages"][name]["file_name"]) as archive:
            files |= {n: archive.read(n) for n in archive.namelist() if not n.endswith(("RECORD", "METADATA", "WHEEL"))}
        todo += lock["packages"][name]["depends"]
    return files


def served_lock(site_dir):
    runtime = site_dir / "pyodide"
    (lockfile,) = runtime.glob("pyodide-lock.*.json")
    return runtime, json.loads(lockfile.read_text())


def test_the_wheels_hold_every_lab_and_all_of_core_and_labs_but_the_tools(site_dir):
    runtime, lock = served_lock(site_dir)
    assert set(lock["tool"]["laboratori-llm"]["modules"]) == {lab.module.__name__ for lab in ALL}
    everything = wheel_files(runtime, lock, "laboratori-llm")
    for name in lock["packages"]:
        everything |= wheel_files(runtime, lock, name)
    source = {p.relative_to(ROOT).as_posix() for d in ("core", "labs") for p in (ROOT / d).rglob("*.py")}
    # the command line and the build's own helpers stay out of the browser
    assert source - set(everything) == {
        "labs/__main__.py",
        "labs/answers.py",
        "labs/cli.py",
        "labs/scaffold.py",
        "labs/styles.py",
    }


def test_the_base_wheel_carries_the_kit_slimmed_and_the_labs_and_core_as_written(site_dir):
    """The base (kit and engine) without docstrings and comments, each statement on its line; core's
    and the labs' files, which «Il codice Python» shows and edits, byte for byte."""
    import zipfile

    from sitebuild.slim import slim

    runtime, lock = served_lock(site_dir)
    with zipfile.ZipFile(runtime / lock["packages"]["laboratori-llm"]["file_name"]) as archive:
        base = {n: archive.read(n) for n in archive.namelist() if n.endswith(".py")}
    assert "labs/kit/stepping.py" in base
    for name, data in base.items():
        source = (ROOT / name).read_text(encoding="utf-8")
        assert data.decode() == slim(source), name
        assert data.count(b"\n") == source.count("\n"), f"{name}: una riga si è spostata"
    for package in lock["packages"]:
        if package != "laboratori-llm" and package.startswith("laboratori-llm"):
            for name, data in wheel_files(runtime, lock, package).items():
                if name not in base:
                    assert data == (ROOT / name).read_bytes(), name


class ShownText(html.parser.HTMLParser):
    """The text «Modifica» starts from, read from a page as code-panel.js reads it: each
    section[data-lab-code-file]'s <pre> text after a line naming its file, a blank line between."""

    def __init__(self):
        super().__init__()
        self.parts, self.in_pre = [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-lab-code-file" in attrs:
            self.parts.append([attrs["data-lab-code-file"], ""])
        self.in_pre = self.in_pre or (tag == "pre" and bool(self.parts))

    def handle_endtag(self, tag):
        self.in_pre = self.in_pre and tag != "pre"

    def handle_data(self, data):
        if self.in_pre:
            self.parts[-1][1] += data

    def text(self):
        return "\n\n".join(f"# ── da {file}\n{source}" for file, source in self.parts)


@per_lab
def test_the_code_panel_text_is_read_from_its_listing_on_a_page_beside_the_lab_s(site_dir, lab):
    """The lab page carries a link to its listing's page (sitebuild/secure.py split_listing), not the listing."""
    from labs.kit.listing import editable_text
    from sitebuild.secure import LISTING_PAGE

    listing = (site_dir / lab.path / LISTING_PAGE).read_text(encoding="utf-8")
    reader = ShownText()
    reader.feed(listing)
    assert reader.text() == editable_text(lab.module)
    assert "data-lab-code-file" not in page(site_dir, lab) and "data-lab-source" not in page(site_dir, lab)
    assert (
        f'data-lab-code-listing data-src="{LISTING_PAGE}"><p class="lab-code-wait"><a href="{LISTING_PAGE}">'
        in page(site_dir, lab)
    )
    # a page of the site: the lab page's stylesheets, the CSP, a way back
    assert (
        '<link rel="stylesheet" href="../../assets/labs/labs.css">' in listing and "Content-Security-Policy" in listing
    )
    assert '<a href="./">Torna al laboratorio</a>' in listing
    assert lab.title in html.unescape(re.search(r"<h1>Il codice Python · (.*?)</h1>", listing)[1])


@per_lab
def test_each_lab_page_s_own_bytes_stay_within_the_budget(lab):
    """What a page fetches of ours before it is ready (scripts/bench_page.our_files), gzip."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_page import our_files
    from experiment_times import PAGE_BUDGET_KB

    assert sum(our_files(lab).values()) <= PAGE_BUDGET_KB * 1000


@per_lab
def test_each_lab_has_a_wheel_whose_dependencies_hold_all_it_imports(site_dir, tmp_path, lab):
    """A page downloads its lab's wheel and those it depends on, not every lab's: in a
    Python that has only those files (as Pyodide will), the lab imports and renders."""
    runtime, lock = served_lock(site_dir)
    modules = lock["tool"]["laboratori-llm"]["modules"]
    files = wheel_files(runtime, lock, modules[lab.module.__name__])
    others = {m for m, p in modules.items() if p != modules[lab.module.__name__]}
    assert not {f.removesuffix(".py").replace("/", ".") for f in files} & others, lab.id
    folder = tmp_path / lab.id
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    # -I -S: no site-packages (the editable install of the repo) and no current folder: only these files
    check = (
        f"import sys; sys.path.insert(0, {str(folder)!r}); import json, labs; "
        f"assert labs.__file__.startswith({str(folder)!r}); lab = labs.load({lab.module.__name__!r}); "
        f"r = json.loads(labs.render_json(lab.id, '{{}}')); assert r['ok'], r; "
        "import labs.code; import sys; "
        "assert not {'labs.cli', 'labs.styles', 'labs.scaffold'} & set(sys.modules)"
    )
    result = subprocess.run([sys.executable, "-I", "-S", "-c", check], capture_output=True, text=True)
    assert result.returncode == 0, f"{lab.id}: {result.stderr[-2000:]}"


def test_a_page_imports_only_the_parts_of_the_kit_its_lab_draws_with():
    """What the worker runs before «ready» (labs, then the page's lab drawn once):
    the 1.2 page draws a network and tables, so the kit's charts, planes and bars
    and the code panel's module wait (in Pyodide each module is compiled from
    source: ~60 ms of a page's start). A part imported later does not hide a function:
    labs.kit.plane and labs.kit.matrix stay functions once planes.py and matrices.py are imported."""
    check = (
        "import sys, labs; labs.warm_up('labs.ch1.ombrello', 'page'); "
        "left = {'labs.code', 'labs.kit.chart', 'labs.kit.planes', 'labs.kit.bar_charts'} & set(sys.modules); "
        "assert not left, left; "
        "import labs.kit.planes, labs.kit.matrices; from labs.kit import plane, matrix, Slider; "
        "assert callable(plane) and callable(matrix) and not isinstance(matrix, type(sys)), (plane, matrix)"
    )
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]


def test_the_worker_unpacks_wheels_without_importing_importlib_metadata(site_dir, tmp_path):
    """templates/runtime/worker/unpack.py as the worker runs it, on a page's wheels and then on another lab's of the
    same chapter: the new lab imports from a folder Python has already read, and importlib.metadata (with email,
    csv…: ~40 ms in Pyodide, which importlib.invalidate_caches() costs) is not imported on the way to «pronto»."""
    import shutil

    runtime, lock = served_lock(site_dir)
    modules, packages = lock["tool"]["laboratori-llm"]["modules"], lock["packages"]

    def closure(module):
        wanted, seen = [modules[module]], set()
        while wanted:
            name = wanted.pop()
            if name not in seen:
                seen.add(name)
                wanted += packages[name]["depends"]
        return seen

    def copies(names):
        return [str(shutil.copy(runtime / packages[name]["file_name"], tmp_path)) for name in sorted(names)]

    first = copies(closure("labs.ch1.ombrello"))
    second = copies(closure("labs.ch1.parole_come_vettori") - closure("labs.ch1.ombrello"))
    folder = tmp_path / "site-packages"
    folder.mkdir()
    unpack = ROOT / "templates" / "runtime" / "worker" / "unpack.py"
    check = "\n".join(
        [
            "import sys",
            f"sys.path.insert(0, {str(folder)!r})",
            "scope = {}",
            f"exec(open({str(unpack)!r}).read(), scope)",
            f"scope['unpack']({chr(10).join(first)!r})",
            "import labs",
            "assert labs.__file__.startswith(sys.path[0]), labs.__file__",
            "labs.warm_up('labs.ch1.ombrello', 'page')",
            "assert 'importlib.metadata' not in sys.modules",
            f"scope['unpack']({chr(10).join(second)!r})",
            "labs.load('labs.ch1.parole_come_vettori')",
        ]
    )
    result = subprocess.run([sys.executable, "-I", "-S", "-c", check], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]


def test_our_assets_load_nothing_from_outside(site_dir):
    for path in (site_dir / "assets" / "labs").rglob("*"):
        if not path.is_file() or path.suffix not in (".js", ".css", ".mjs"):
            continue
        text = path.read_text(encoding="utf-8")
        if "vendor" in path.parts:  # npm libraries: XML namespaces and comments name URLs, none is loaded
            text = re.sub(r"https?://www\.w3\.org/[\w/.]+|//[^\n]*https?://[^\n]*", "", text)
        assert not re.search(r"https?://", text), path
    home = (site_dir / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis" not in home and "fonts.gstatic" not in home
    for src in re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', home):
        assert not src.startswith(("http://", "https://", "//")) or src.startswith("http://127.0.0.1"), src


@per_lab
def test_no_inline_scripts_of_ours(site_dir, lab):
    html = page(site_dir, lab)
    start = html.index('data-lab="')
    block = html[start : html.index("data-lab-view", start)]
    assert "<script" not in block and "onclick" not in block


def test_the_authors_guide_is_a_page_linked_from_the_navigation_and_the_home(site_dir):
    guide = (site_dir / "scrivere-un-laboratorio" / "index.html").read_text(encoding="utf-8")
    assert "<h1" in guide and "Scrivere un laboratorio" in guide and '<html lang="it"' in guide
    home = (site_dir / "index.html").read_text(encoding="utf-8")
    assert home.count('href="scrivere-un-laboratorio/"') >= 2  # in the navigation and in the text
    nav = re.findall(r'<a href="([^"]+)" class="md-nav__link', home)
    last_lab = labs.all_labs()[-1].path
    assert nav.index("scrivere-un-laboratorio/") > max(i for i, href in enumerate(nav) if href == last_lab)
    # the example lab, drawn by the build, and one drawing per kit component
    assert 'data-set="giusta=cane"' in guide and "lab-guide-example" in guide
    assert guide.count('class="lab-view lab-guide-figure"') >= 14
    for name in (
        "Slider(name, label, min, max, step, default",
        "Bar(label, value, *, text=None",
        "line_chart(series, *, label",
        "plane(items, x_range, y_range, label",
    ):
        assert html.escape(name, quote=False) in guide or name.replace("'", "&#x27;") in guide, name


def test_each_lab_stylesheet_is_served_scoped_and_the_global_one_has_none(site_dir):
    served = (site_dir / "assets" / "labs" / "lab-styles.css").read_text(encoding="utf-8")
    assert '[data-lab="transformer-miniatura"] .lab-transformer-miniatura-panel {' in served
    assert '.md-typeset [data-lab="bpe"] ol.lab-bpe-merges {' in served
    assert '[data-lab="bigrammi"] .lab-bigrammi .lab-mx-table {' in served
    kit = (site_dir / "assets" / "labs" / "labs.css").read_text(encoding="utf-8")
    assert not re.search(r"\.lab-(transformer-miniatura|bpe|bigrammi|embedding-vicini|ombrello)\b", kit)
    page_ = page(site_dir, labs.get("transformer-miniatura"))
    assert 'href="../../assets/labs/lab-styles.css"' in page_


def test_every_lab_page_gets_the_runtime_scripts_minified(site_dir):
    """runtime.js and worker.js, bundled from the modules of templates/runtime/, which keep their comments;
    the pages get them without (every lab page loads both: 21 kB gzip of its 300)."""
    sources = ROOT / "templates" / "runtime"
    for name, folder in (("runtime.js", "page"), ("worker.js", "worker")):
        served = (site_dir / "assets" / "labs" / name).read_text(encoding="utf-8")
        source = sum(len(path.read_text(encoding="utf-8")) for path in (sources / folder).glob("*.js"))
        assert "// " not in served and len(served) < 0.6 * source, name


def test_the_site_asks_to_be_cross_origin_isolated(site_dir):
    """worker.js shares a word of memory with the page only then (a retraining the reader left stops)."""
    headers = (site_dir / "_headers").read_text(encoding="utf-8")
    assert "Cross-Origin-Opener-Policy: same-origin" in headers
    assert "Cross-Origin-Embedder-Policy: require-corp" in headers


def test_every_page_carries_the_strict_csp_with_the_hash_of_each_inline_script(site_dir):
    import base64

    headers = (site_dir / "_headers").read_text(encoding="utf-8")
    policy = re.search(r"Content-Security-Policy: (.*)", headers).group(1)
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    for path in site_dir.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert f'<meta http-equiv="Content-Security-Policy" content="{policy}">' in text, path
        if "<script" in text:  # a listing's page has none
            assert text.index("Content-Security-Policy") < text.index("<script"), path
        for attributes, body in re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", text, re.S):
            if "application/json" not in attributes:
                digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
                assert f"'sha256-{digest}'" in policy, path
        assert not re.search(r"<[^>]+\sstyle=", text), f"{path}: style-src 'self' blocks style attributes"


THEME = re.compile(r'<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js">')


def test_the_guide_is_not_a_lab_page_and_runs_the_theme_as_usual(site_dir):
    # the authors' guide writes data-lab="ombrello" in its text: not a lab page, its theme's script runs as usual
    guide = (site_dir / "scrivere-un-laboratorio" / "index.html").read_text(encoding="utf-8")
    assert 'data-lab="ombrello"' in html.unescape(guide)
    assert "data-lab-boot" not in guide and "data-theme-script" not in guide and THEME.search(guide)


@per_lab
def test_only_a_page_with_a_lab_starts_python_and_defers_the_theme(site_dir, lab):
    from sitebuild.bundle import boot_script

    boot = boot_script()
    text = page(site_dir, lab)
    assert "data-theme-script" in text and not THEME.search(text), lab.id
    # the boot script, inline at the top of the <head> (after the CSP, before any stylesheet), says what
    # the lab element says: the worker starts before the stylesheets and the body are parsed
    head = text[: text.index("</head>")]
    tag, body = re.search(r"<script (data-lab-boot[^>]*)>(.*?)</script>", head, re.S).groups()
    assert head.index("Content-Security-Policy") < head.index("data-lab-boot") < head.index("stylesheet")
    assert body.strip() == boot and "//" not in body, lab.id  # templates/runtime/boot.js bundled, no comments
    element = re.search(r'<div class="lab" data-lab="[^"]*"([^>]*)>', text).group(1)
    for name in ("module", "package", "lockfile"):
        said = re.search(rf'data-{name}="([^"]+)"', tag).group(1)
        assert said == re.search(rf'data-{name}="([^"]+)"', element).group(1), (lab.id, name)
    page_dir = (site_dir / lab.path).resolve()
    for name, target in (("worker", site_dir / "assets" / "labs" / "worker.js"), ("pyodide", site_dir / "pyodide")):
        said = re.search(rf'data-{name}="([^"]+)"', tag).group(1)
        assert (page_dir / said).resolve() == target.resolve(), (lab.id, name)


def test_a_lab_page_carries_the_answers_its_first_drawing_takes_from_the_build(site_dir):
    """labs.kit.prerendered: 3.2's page carries the losses at step 0 that the build computed, for the boot script to
    give to the worker; a lab with no @known function carries none."""
    lab = labs.get("transformer-allenato")
    known = re.search(r'<script data-lab-boot[^>]*\sdata-known="([^"]+)"', page(site_dir, lab)).group(1)
    assert read_answers(known) == read_answers(known_answers(lab))
    assert 'data-known=""' in page(site_dir, labs.get("ombrello"))


def test_the_wheel_and_lockfile_are_named_by_their_content_and_pages_name_that_lockfile(site_dir):
    runtime = site_dir / "pyodide"
    (lockfile,) = runtime.glob("pyodide-lock.*.json")
    assert hashlib.sha256(lockfile.read_bytes()).hexdigest()[:12] in lockfile.name
    wheel = runtime / json.loads(lockfile.read_text())["packages"]["laboratori-llm"]["file_name"]
    assert hashlib.sha256(wheel.read_bytes()).hexdigest()[:12] in wheel.name


@per_lab
def test_each_lab_page_names_the_served_lockfile(site_dir, lab):
    (lockfile,) = (site_dir / "pyodide").glob("pyodide-lock.*.json")
    assert f'data-lockfile="{lockfile.name}"' in page(site_dir, lab)


def test_the_service_worker_lists_every_page_and_file_with_its_sha256(site_dir):
    import base64

    sw = (site_dir / "sw.js").read_text(encoding="utf-8")
    build = re.search(r'const BUILD = "(\w+)";', sw).group(1)
    files = dict(json.loads(re.search(r"const FILES = (.*);", sw).group(1)))
    assert build != "dev" and "./" in files and "404.html" in files
    assert {lab.path for lab in ALL} <= set(files)
    for url, integrity in files.items():
        path = site_dir / (url + "index.html" if url.endswith("/") else url).removeprefix("./")
        if integrity:
            assert integrity == "sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode(), url
    assert any(name.startswith("pyodide/") and name.endswith(".whl") for name in files)


def test_formulas_are_rendered_at_build_time_without_katex_javascript(site_dir):
    text = page(site_dir, next(lab for lab in labs.all_labs() if lab.id == "loss"))
    assert '<div class="lab-math"><span class="katex-display">' in text and "<math" in text
    assert "$$" not in text and "katex.min.js" not in text
    css = (site_dir / "assets" / "katex" / "katex.css").read_text(encoding="utf-8")
    for font in re.findall(r"url\((fonts/[^)]+)\)", css):
        assert (site_dir / "assets" / "katex" / font).exists(), font
    assert ".kx-" in (site_dir / "assets" / "katex" / "formulas.css").read_text(encoding="utf-8")


def test_the_search_index_holds_the_labs_prose_and_functions_not_their_drawings(site_dir):
    docs = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    by_place = {doc["location"]: doc for doc in docs}
    umbrella = by_place["capitolo-1/ombrello/#laboratorio"]["text"]
    assert "weighted_sum" in umbrella and "somma pesata" in umbrella
    assert (site_dir / "search" / "search_index.json").stat().st_size < 400_000  # was 888 kB with the drawings


@per_lab
def test_the_search_index_holds_each_lab_s_prose_and_names_its_functions(site_dir, lab):
    docs = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    by_place = {doc["location"]: doc for doc in docs}
    section = by_place[f"{lab.path}#laboratorio"]["text"]
    for word in ("Ricomincia", "Avanti →", "Python si sta caricando", "Il codice Python di questo laboratorio"):
        assert word not in section, f"{lab.id}: «{word}» della vista o dei comandi nell'indice della ricerca"
    assert re.match(r"(compute|start) \(labs/", section), f"{lab.id}: nell'indice la sezione non nomina le funzioni"
    assert by_place[lab.path]["text"], f"{lab.id}: la prosa del laboratorio manca dall'indice"


def test_the_search_splits_words_at_apostrophes(site_dir):
    config = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
    for elided in ("dell'ombrello", "l’attention"):
        assert len(re.split(config["separator"], elided)) == 2, f"«{elided}»: la ricerca non trova la parola da sola"


def test_the_authors_preview_wraps_a_view_as_the_site_does(site_dir):
    """scripts/preview.py puts a lab's view in a page of its own: its <body> carries what the site's does
    (mkdocs-material lays out some parts by [dir=ltr]: without it, a fold's summary ran under its icon)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "preview", Path(__file__).resolve().parent.parent / "scripts" / "preview.py"
    )
    preview = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(preview)
    lab = labs.get("ombrello")
    body = lambda html: dict(re.findall(r'([\w-]+)="([^"]*)"', re.search(r"<body([^>]*)>", html).group(1)))  # noqa: E731
    assert body(preview.page_html(lab, "", "default", 1100)) == body(page(site_dir, lab))


def test_the_home_says_why_the_chapters_jump_from_4_to_9():
    from sitebuild.pages import index_page, templates

    home = " ".join(index_page(templates(), ALL).split())
    chapters = {lab.chapter.label.split(" · ")[0] for lab in ALL}
    assert "Capitolo 4" in chapters and "Capitolo 9" in chapters
    assert not chapters & {f"Capitolo {k}" for k in range(5, 9)}
    assert "dopo il 4 si passa al 9 perché i capitoli dal 5 all'8 non hanno laboratori" in home


STARTS_THAT_INVITE = ["transformer-miniatura", "giro-del-token"]


@pytest.mark.parametrize("lab_id", STARTS_THAT_INVITE)
def test_a_lab_that_opens_with_its_idea_keeps_the_rest_in_a_fold_below_the_lab(site_dir, lab_id):
    """The prose's heading «Per saperne di più» splits it: one short paragraph and its «Prova» above the lab,
    the rest in a fold after it, its Markdown rendered (lists, bold), never as text."""
    lab = labs.get(lab_id)
    above, below = lab.page_parts
    paragraphs = [p for p in above.split("\n\n") if not p.startswith('<div class="lab-experiments"')]
    assert len(paragraphs) == 1 and len(paragraphs[0]) <= 500, paragraphs
    assert len(lab.experiments) >= 2 and above.count("data-experiment data-set=") == len(lab.experiments)
    assert below and "Per saperne di più" not in above + below
    text = page(site_dir, lab)
    start, fold, code = (text.index(s) for s in ('class="lab"', 'class="lab-prose-more"', 'class="lab-code"'))
    assert start < fold < code
    inside = text[fold : text.index("</details>", fold)]
    assert "<summary>Per saperne di più</summary>" in inside and "<strong>" in inside and "**" not in inside


def test_a_prose_without_the_heading_is_all_above_the_lab():
    lab = labs.get("ombrello")
    assert lab.page_parts == (lab.page_prose, "")
