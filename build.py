"""Build the site into site/.

    python build.py

1. find every lab and prerender its default state with CPython;
2. render the pages (home, one per lab) through the Jinja templates;
3. pack core/ + labs/ as small pure-Python wheels (the base, each core module,
   each chapter, each lab) and list them in a lockfile with Pyodide's "info"
   (`pyodide lockfile add-wheels`): a page downloads only its lab's wheels;
4. run mkdocs (strict) and copy the Pyodide runtime from node_modules/pyodide.

Nothing is downloaded: Pyodide comes from the npm package installed by
`npm ci`, everything else from this repository.
"""

import ast
import base64
import hashlib
import html
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import jinja2
import pygments
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config

import labs
from labs import code
from labs.cli import crash_line
from labs.kit.italian import control_value
from labs.kit.contract import place
from labs.styles import lab_styles, orphans

ROOT = Path(__file__).resolve().parent
# LABS_BUILD_DIR / LABS_SITE_DIR let two builds run side by side (tests, several authors)
WORK = Path(os.environ.get("LABS_BUILD_DIR", ROOT / "build")).resolve()  # scratch space
DOCS = WORK / "docs"
DIST = WORK / "dist"
SITE = Path(os.environ.get("LABS_SITE_DIR", ROOT / "site")).resolve()
PYODIDE = ROOT / "node_modules" / "pyodide"
PACKAGE = "laboratori-llm"
# what a page needs from Pyodide: the loader, the runtime, the standard library
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"]
# browser libraries from npm (package-lock.json pins them), served by the site itself
VENDOR = {"morphdom/dist/morphdom-esm.js": "assets/labs/vendor/morphdom.js"}
EDITOR = "assets/labs/vendor/editor.js"  # CodeMirror, bundled from templates/editor/ by esbuild
FETCHED = ["pyodide.asm.wasm", "python_stdlib.zip"]  # what the worker's progress bar counts, with the wheel
LAB_STYLES = "assets/labs/lab-styles.css"  # every lab's own stylesheet, scoped (labs/styles.py); mkdocs.yml links it
GUIDE_PAGE = "scrivere-un-laboratorio.md"


def fail(message):
    sys.exit(f"build.py: {message}")


def run(command, **kwargs):
    """Run a tool quietly; on failure show what it said and stop."""
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        fail(f"{' '.join(command[:4])} … non è riuscito:\n{result.stdout}\n{result.stderr}")


def templates():
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(ROOT / "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["it"] = control_value  # a slider's output, grouped as the runtime groups it (500.000)
    env.filters["tojson"] = lambda value: json.dumps(value, ensure_ascii=False)
    # raw HTML in the Markdown page must not hold blank lines: newlines become entities
    env.filters["oneline"] = lambda value: html.escape(value).replace("\n", "&#10;")
    # numbers as JavaScript's String() writes them, so the runtime can tell a default from a change
    env.filters["js"] = lambda value: str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    return env


def prerender(lab):
    drawing = labs.draw(lab)
    if not drawing.ok:
        fail(prerender_problem(lab, drawing))
    return drawing.page()


def prerender_problem(lab, drawing):
    """One line for a lab that does not prerender, from its failed drawing: where compute or view raised
    (the last frame of the exception inside labs/ or core/), or the lab's file for a view that breaks the contract."""
    if drawing.failure is not None:
        return crash_line(lab, drawing.failure)
    own = place(lab.module.__file__)
    return drawing.error if drawing.error.startswith(own) else \
        f"{own}: il laboratorio «{lab.id}» non si prerenderizza: {drawing.error}"


def check_labs():
    """Stop on any lab module that breaks the contract: one line each, naming its file."""
    broken = [*labs.problems().values(), *orphans(ROOT / "labs", labs.all_labs())]
    if broken:
        sys.exit("\n".join(f"build.py: {line}" for line in broken))


def write_guide(env):
    """The author's guide, «Scrivere un laboratorio», from templates/guide/ and the kit itself."""
    spec = importlib.util.spec_from_file_location("guide.guida", ROOT / "templates" / "guide" / "guida.py")
    guide = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(guide)
    (DOCS / GUIDE_PAGE).write_text(env.get_template("guide.md.j2").render(**guide.context()), encoding="utf-8")


def code_panel(lab):
    """«Il codice Python»: the lab's functions highlighted now (Pygments), so
    the page ships no highlighter; the editor comes only with «Modifica»."""
    formatter = HtmlFormatter(cssclass="highlight")
    functions = [{"file": file, "name": name, "caption": caption,
                  "html": pygments.highlight(source, PythonLexer(), formatter).replace("\n", "&#10;")}
                 for file, name, caption, source in code.listing(lab.module)]
    return {"functions": functions, "text": code.editable_text(lab.module), "edits": suggested_edits(lab)}


def suggested_edits(lab):
    """«Prova a cambiare…»: each edit of the lab's EDITS as the panel's button needs it (the text to
    replace and its replacement, the line to go to, the controls to set as name=value;…)."""
    edits = []
    for edit in getattr(lab.module, "EDITS", ()):
        old, new = code.edit_change(lab.module, edit)
        _, line = code.apply_edit(lab.module, edit)
        params = ";".join(f"{k}={v}" for k, v in code.raw_params(edit.params).items())
        edits.append({"title": edit.title, "expect": edit.expect, "old": old, "new": new, "line": line,
                      "params": params})
    return edits


def bundle_editor():
    """CodeMirror with Python, bundled by esbuild into one file the page imports on demand."""
    run([str(ROOT / "node_modules" / ".bin" / "esbuild"), str(ROOT / "templates" / "editor" / "editor.js"),
         "--bundle", "--format=esm", "--minify", "--log-level=warning", f"--outfile={DOCS / EDITOR}"])


RUNTIME_SCRIPTS = ("assets/labs/runtime.js", "assets/labs/worker.js")


def minify_runtime():
    """runtime.js and worker.js as every lab page gets them: minified by esbuild (their comments, which say
    why each thing is as it is, stay in templates/; every page loads both: 21 → 11.5 kB gzip)."""
    for name in RUNTIME_SCRIPTS:
        run([str(ROOT / "node_modules" / ".bin" / "esbuild"), str(SITE / name), "--minify", "--format=esm",
             "--log-level=warning", f"--outfile={SITE / name}", "--allow-overwrite"])


# The labs' Python as wheels for Pyodide, so that a page downloads only what
# its lab needs: the base (the kit, labs/__init__), the modules of core/ that
# it imports, the lab's chapter (its __init__ and _helpers) and the lab
# itself; the worker fetches the other labs when the reader is idle. Each wheel's Requires-Dist names the
# wheels its imports need, which become the lockfile's "depends".
NOT_IN_BROWSER = {"labs/__main__.py", "labs/cli.py", "labs/scaffold.py", "labs/styles.py"}  # command line, build


def wheel_owner(module):
    """(package, the package it sits on) for the wheel that holds a module:
    labs.ch3.bigrammi → (laboratori-llm-ch3-bigrammi, laboratori-llm-ch3);
    labs.ch3._comune → (laboratori-llm-ch3, laboratori-llm); core.bpe → (laboratori-llm-core-bpe,
    laboratori-llm-core); core → (laboratori-llm-core, None); labs.kit.chart → (laboratori-llm, None)."""
    parts = module.split(".")
    if parts[0] == "core":  # a page gets only the maths its lab uses
        if len(parts) == 1:
            return f"{PACKAGE}-core", None
        return f"{PACKAGE}-core-{parts[1]}".replace("_", "-"), f"{PACKAGE}-core"
    if parts[0] != "labs" or len(parts) < 2 or not re.fullmatch(r"ch\w+", parts[1]):
        return PACKAGE, None
    chapter = f"{PACKAGE}-{parts[1]}".lower()
    if len(parts) > 2 and not parts[2].startswith("_"):
        return f"{chapter}-{parts[2]}".lower().replace("_", "-"), chapter
    return chapter, PACKAGE


def imported_modules(path, module):
    """Every module a source file imports when imported (relative imports resolved), at any depth
    in the file except under «if __name__ == "__main__"» (a helper's script part may import its lab)."""
    def main_block(node):
        return (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                and ast.unparse(node.test).replace("'", '"') == '__name__ == "__main__"')

    def walk(node):
        yield node
        for child in ast.iter_child_nodes(node):
            if not main_block(child):
                yield from walk(child)

    found = set()
    for node in walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            # a relative import counts from the file's package: a package's __init__ is its own
            parts = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
            package = parts[: len(parts) - node.level + 1] if node.level else []
            base = ".".join(package + ([node.module] if node.module else []))
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}  # «from . import _comune» is a module
    return found


def write_wheel(name, version, files, requires):
    """A pure-Python wheel (PEP 427) of {path in the wheel: source file}, the same bytes from the
    same sources (fixed dates), named by its content hash (its build tag) in DIST."""
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    entries = {arcname: source.read_bytes() for arcname, source in sorted(files.items())}
    entries[f"{info}/METADATA"] = "".join(
        [f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nRequires-Python: >=3.12\n",
         *(f"Requires-Dist: {r}\n" for r in sorted(requires))]).encode()
    entries[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = [f"{arcname},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},"
              f"{len(data)}" for arcname, data in entries.items()]
    entries[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,", ""]).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for arcname, data in entries.items():
            entry = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    data = buffer.getvalue()
    wheel = DIST / f"{dist}-{version}-0{hashlib.sha256(data).hexdigest()[:12]}-py3-none-any.whl"
    wheel.write_bytes(data)
    return wheel


def build_wheels():
    """[wheel], {lab module: its package}: the base, one wheel per chapter, one per lab."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    groups, parents = {}, {}  # package → {path in the wheel: source file}, package → the one it sits on
    for path in sorted([*(ROOT / "core").rglob("*.py"), *(ROOT / "labs").rglob("*.py")]):
        arcname = path.relative_to(ROOT).as_posix()
        if arcname not in NOT_IN_BROWSER and "__pycache__" not in arcname:
            name, parents[name] = wheel_owner(module_of(arcname))
            groups.setdefault(name, {})[arcname] = path
    DIST.mkdir(parents=True, exist_ok=True)
    wheels, modules, requires = [], {}, {}
    for name, files in groups.items():
        needed = {wheel_owner(m)[0] for arcname, path in files.items()
                  for m in imported_modules(path, module_of(arcname)) if m.split(".")[0] in ("core", "labs")}
        requires[name] = (needed | {parents[name]}) - {name, None}
        wheels.append(write_wheel(name, version, files, requires[name]))
        if parents[name] not in (PACKAGE, f"{PACKAGE}-core", None):  # a lab's own wheel
            modules |= {module_of(arcname): name for arcname in files}
    for name in requires:  # Pyodide's loadPackage would wait for ever on a cycle
        path, todo = [], [(name, [name])]
        while todo:
            current, path = todo.pop()
            for other in requires[current]:
                if other == name:
                    fail(f"le wheel dipendono l'una dall'altra in cerchio: {' → '.join([*path, name])}")
                if other not in path:
                    todo.append((other, [*path, other]))
    return wheels, modules


def module_of(arcname):
    """core/bpe.py → core.bpe; labs/ch1/__init__.py → labs.ch1."""
    return arcname.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


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
    run([pyodide_cli(), "lockfile", "add-wheels", "--input", str(empty),
         "--output", str(target), "--base-path", str(DIST), *map(str, wheels)])
    empty.unlink()
    lock = json.loads(target.read_text(encoding="utf-8"))
    lock.setdefault("tool", {})[PACKAGE] = {"modules": modules}
    target.write_text(json.dumps(lock, separators=(",", ":")), encoding="utf-8")
    return lock


def download_size(lock, package):
    """Bytes a page downloads for a package of ours: its wheel and those it depends on."""
    seen, todo = set(), [package]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += lock["packages"][name]["depends"]
    return sum((DIST / lock["packages"][name]["file_name"]).stat().st_size for name in seen)


def write_pages(env, download_bytes):
    shutil.copytree(ROOT / "templates" / "assets", DOCS / "assets")
    (DOCS / LAB_STYLES).write_text(lab_styles(labs.all_labs()), encoding="utf-8")
    for source, target in VENDOR.items():
        (DOCS / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / "node_modules" / source, DOCS / target)
    bundle_editor()
    chapters = {}
    for lab in labs.all_labs():
        chapters.setdefault(lab.chapter, []).append(lab)
        page = DOCS / lab.chapter.slug / f"{lab.id}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(env.get_template("lab.md.j2").render(
            lab=lab, result=prerender(lab), code=code_panel(lab), package=PACKAGE, download_bytes=download_bytes[lab.id]), encoding="utf-8")
    (DOCS / "index.md").write_text(env.get_template("index.md.j2").render(chapters=chapters.items()), encoding="utf-8")
    nav = [{"Tutti i laboratori": "index.md"}]
    for chapter, chapter_labs in chapters.items():
        nav.append({chapter.label:
                    [{f"{lab.ref} {lab.title}": f"{lab.chapter.slug}/{lab.id}.md"} for lab in chapter_labs]})
    write_guide(env)
    nav.append({"Scrivere un laboratorio": GUIDE_PAGE})
    return nav


def content_hash(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def content_named_lockfile(lockfile):
    """pyodide-lock.<hash>.json: the page names it (data-lockfile), so an old page never reads a new one."""
    return lockfile.rename(lockfile.with_name(f"pyodide-lock.{content_hash(lockfile)}.json"))


# Formulas in a lab's prose: $…$ inline, $$…$$ on their own (\$ is a dollar sign).
# KaTeX renders them here, once, by Node: the page gets HTML and CSS, no KaTeX JavaScript.
DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.S)
INLINE_MATH = re.compile(r"(?<![\\$])\$(?=\S)([^$]+?)(?<=[^\s\\])\$(?![$\d])")
KATEX = "assets/katex"


def formulas_of(prose):
    display = [(m.group(1).strip(), True) for m in DISPLAY_MATH.finditer(prose)]
    inline = [(m.group(1), False) for m in INLINE_MATH.finditer(DISPLAY_MATH.sub("", prose))]
    return display + inline


def render_formulas(all_labs):
    """({(tex, display): html}, css) for every formula in every lab's prose, from scripts/katex.mjs."""
    owners = {}
    for lab in all_labs:
        for formula in formulas_of(lab.prose):
            owners.setdefault(formula, lab)
    formulas = list(owners)
    if not formulas:
        return {}, ""
    result = subprocess.run(["node", str(ROOT / "scripts" / "katex.mjs")], capture_output=True, text=True,
                            input=json.dumps([{"tex": tex, "display": display} for tex, display in formulas]))
    if result.returncode != 0:
        found = re.match(r"formula (\d+): (.*)", result.stderr, re.S)
        if not found:
            fail(f"scripts/katex.mjs non è riuscito:\n{result.stderr}")
        (tex, _), lab = formulas[int(found.group(1))], owners[formulas[int(found.group(1))]]
        fail(f"{place(lab.module.__file__)}: KaTeX non capisce la formula «{tex}»: {found.group(2).strip()}")
    rendered = json.loads(result.stdout)
    return dict(zip(formulas, rendered["html"])), rendered["css"]


def tex_filter(rendered):
    """The Jinja filter that puts the rendered formulas in a prose (raw HTML that Markdown leaves alone)."""
    def tex(prose):
        prose = DISPLAY_MATH.sub(lambda m: f'\n\n<div class="lab-math">{rendered[(m.group(1).strip(), True)]}</div>\n\n',
                                 prose)
        return INLINE_MATH.sub(lambda m: rendered[(m.group(1), False)], prose).replace(r"\$", "$")
    return tex


def write_katex(css):
    """KaTeX's stylesheet and fonts (woff2, which every browser the site supports reads), served by the site."""
    source = ROOT / "node_modules" / "katex" / "dist"
    target = DOCS / KATEX
    (target / "fonts").mkdir(parents=True)
    for font in (source / "fonts").glob("*.woff2"):
        shutil.copy2(font, target / "fonts" / font.name)
    stylesheet = (source / "katex.min.css").read_text(encoding="utf-8")
    stylesheet = re.sub(r',url\(fonts/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)', "", stylesheet)
    (target / "katex.css").write_text(stylesheet, encoding="utf-8")
    (target / "formulas.css").write_text(css, encoding="utf-8")  # KaTeX's inline styles, as classes


# After mkdocs: what the theme's HTML needs for keyboard and screen-reader users,
# the Content-Security-Policy, and the service worker that keeps the site offline.
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{hashes}; style-src 'self'; "
       "img-src 'self' data:; worker-src 'self'; connect-src 'self'")
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", re.S)
THEME_NAMES = {'class="md-progress" data-md-component="progress" role="progressbar"':  # a visual cue only
               'aria-label="Caricamento della pagina" aria-hidden="true"',
               'class="md-search" data-md-component="search" role="dialog"': 'aria-label="Cerca nel sito"'}
SKIP = '<div data-md-component="skip">'
THEME_SCRIPT = re.compile(r'<script src="([^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js)"></script>')
BOOT = ROOT / "templates" / "boot.js"  # inline in a lab page's <head> (boot_from_head)
LAB_ELEMENT = '<div class="lab" data-lab="'  # a lab page's (the authors' guide writes data-lab="…" in its text)
OFFLINE_SKIPPED = re.compile(r"(\.map|\.gz|^_headers|^sw\.js|^assets/javascripts/lunr/"
                             r"(?!min/lunr\.(?:stemmer\.support|it|multi)\.min\.js).*)$")


def theme_fixes(html, where):
    """Names for the theme's progress bar and search dialog; on a lab page «Vai al laboratorio», and the
    theme's script left for runtime.js to start once Python has started (a prefetch meanwhile)."""
    for markup, name in THEME_NAMES.items():
        if markup in html:
            html = html.replace(markup, f"{markup} {name}", 1)
        elif 'data-md-component="progress"' in html or "md-search" in html:
            fail(f"{where}: il tema ha cambiato il markup di «{markup}»: aggiorna THEME_NAMES in build.py")
    if 'id="laboratorio"' in html:
        html = html.replace(SKIP, f'{SKIP}<a href="#laboratorio" class="md-skip">Vai al laboratorio</a>', 1)
    if LAB_ELEMENT in html:
        html, found = THEME_SCRIPT.subn(r'<link rel="prefetch" href="\1" data-theme-script>', html, count=1)
        if not found:
            fail(f"{where}: non trovo lo script del tema: aggiorna THEME_SCRIPT in build.py")
        html = boot_from_head(html, where)
    return html


def boot_from_head(html, where):
    """templates/boot.js written inline at the top of the <head>, its tag saying what the lab element says
    of Python (its module, package and lockfile) and where worker.js and Pyodide are: the worker starts
    as soon as the parser reaches it, before the stylesheets and the site's navigation. Inline, not a file
    of its own: a module script (async) ran only after the first paint, a classic one held the parser."""
    element = re.search(LAB_ELEMENT + r'[^"]*"([^>]*)>', html).group(1)
    said = " ".join(re.findall(r'data-(?:module|package|lockfile)="[^"]*"', element))
    if said.count("data-") != 3 or '<meta charset="utf-8">' not in html:
        fail(f"{where}: il laboratorio o la pagina hanno cambiato markup: aggiorna boot_from_head in build.py")
    up = "../" * (len(Path(where).parts) - 1)
    body = "".join(line for line in BOOT.read_text(encoding="utf-8").splitlines(True) if not line.startswith("//"))
    tag = (f'<script data-lab-boot {said} data-worker="{up}assets/labs/worker.js" '
           f'data-pyodide="{up}pyodide/">\n{body}</script>')
    return html.replace('<meta charset="utf-8">', f'<meta charset="utf-8">\n    {tag}', 1)


def script_hashes(pages):
    """The sha256 sources of every inline script the theme writes (the same set on every page, so
    that instant navigation, which keeps the first page's policy, runs them all)."""
    hashes = set()
    for html in pages.values():
        for attributes, body in INLINE_SCRIPT.findall(html):
            if "application/json" not in attributes:
                hashes.add("'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'")
    return sorted(hashes)


def secure_pages():
    """Every page with the theme fixes and the CSP as a <meta>, and _headers for hosts that read one
    (with the cross-origin isolation, which has no <meta>: without it the site works as before)."""
    pages = {path: theme_fixes(path.read_text(encoding="utf-8"), path.relative_to(SITE))
             for path in SITE.rglob("*.html")}
    hashes = script_hashes(pages)
    policy = CSP.format(hashes="".join(f" {h}" for h in hashes))
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    for path, html in pages.items():
        if '<meta charset="utf-8">' not in html:
            fail(f"{path.relative_to(SITE)}: manca <meta charset>, non so dove mettere la CSP")
        path.write_text(html.replace('<meta charset="utf-8">', f'<meta charset="utf-8">\n    {meta}', 1),
                        encoding="utf-8")
    # cross-origin isolated: the page and Python's worker may share memory (a SharedArrayBuffer), through
    # which a reader who moves on stops a retraining made for them (worker.js, «Answers nobody waits for»).
    # Everything the site loads is its own: no embedded resource needs anything more.
    isolation = "  Cross-Origin-Opener-Policy: same-origin\n  Cross-Origin-Embedder-Policy: require-corp\n"
    (SITE / "_headers").write_text(f"/*\n  Content-Security-Policy: {policy}\n{isolation}", encoding="utf-8")
    return policy


def search_index():
    """The theme's search index without the labs' drawings. A lab's section («Il laboratorio»)
    reaches the index as the text of its controls, its prerendered view and its code: numbers and
    options, four fifths of the index, which no reader searches for and which the theme's search
    worker downloads and indexes in the reader's browser while Python starts on a lab page. The
    section keeps what it is about: the functions the lab runs, with what each computes."""
    path = SITE / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    by_place = {f"{lab.path}#laboratorio": lab for lab in labs.all_labs()}
    for doc in index["docs"]:
        lab = by_place.get(doc["location"])
        if lab:
            doc["text"] = " ".join(f"{name} ({file}): {caption}" for file, name, caption, _ in code.listing(lab.module))
    missing = set(by_place) - {doc["location"] for doc in index["docs"]}
    if missing:
        fail(f"l'indice della ricerca non ha la sezione del laboratorio di {', '.join(sorted(missing))}")
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def write_service_worker():
    """sw.js at the site's root (its scope is then the whole site), with this build's files and
    their sha256: it caches them all at once under a name made from their hashes."""
    (SITE / "assets" / "labs" / "sw.js").unlink(missing_ok=True)
    files = []
    for path in sorted(p for p in SITE.rglob("*") if p.is_file()):
        relative = path.relative_to(SITE).as_posix()
        if OFFLINE_SKIPPED.search(relative):
            continue
        url = relative.removesuffix("index.html") or "./"
        digest = base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()
        # serve.py writes the serving address into sitemap.xml: its bytes are the host's, not ours
        files.append([url, "" if relative == "sitemap.xml" else f"sha256-{digest}", path.stat().st_size])
    build = hashlib.sha256(json.dumps(files).encode()).hexdigest()[:16]
    template = (ROOT / "templates" / "assets" / "labs" / "sw.js").read_text(encoding="utf-8")
    for line, value in (('const BUILD = "dev";', f'const BUILD = "{build}";'),
                        ("const FILES = [];", f"const FILES = {json.dumps([f[:2] for f in files])};")):
        if line not in template:
            fail(f"templates/assets/labs/sw.js: manca la riga «{line}»")
        template = template.replace(line, value)
    (SITE / "sw.js").write_text(template, encoding="utf-8")
    return build, len(files), sum(f[2] for f in files)


def main():
    started = time.perf_counter()
    if not PYODIDE.exists():
        fail("manca node_modules/pyodide: esegui prima 'npm ci' (o 'make build')")
    check_labs()
    shutil.rmtree(DOCS, ignore_errors=True)
    shutil.rmtree(DIST, ignore_errors=True)
    DOCS.mkdir(parents=True)  # also makes WORK

    wheels, modules = build_wheels()
    lockfile = DIST / "pyodide-lock.json"
    lock = write_lockfile(wheels, modules, lockfile)
    lockfile = content_named_lockfile(lockfile)
    runtime_bytes = sum((PYODIDE / f).stat().st_size for f in FETCHED)
    download_bytes = {lab.id: runtime_bytes + download_size(lock, modules[lab.module.__name__]) for lab in labs.all_labs()}

    env = templates()
    env.globals["lockfile"] = lockfile.name
    formulas, formulas_css = render_formulas(labs.all_labs())
    env.filters["tex"] = tex_filter(formulas)
    nav = write_pages(env, download_bytes)
    write_katex(formulas_css)
    config = load_config(str(ROOT / "mkdocs.yml"), docs_dir=str(DOCS), site_dir=str(SITE), nav=nav, strict=True)
    mkdocs_build(config)
    minify_runtime()
    search_index()

    runtime = SITE / "pyodide"
    runtime.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, runtime / name)
    for wheel in wheels:
        shutil.copy2(wheel, runtime / wheel.name)
    shutil.copy2(lockfile, runtime / lockfile.name)
    secure_pages()
    build, count, size = write_service_worker()
    print(f"build.py: CSP in ogni pagina e in _headers; sw.js (build {build}) tiene offline {count} file, "
          f"{size / 1e6:.1f} MB")
    print(f"build.py: {len(labs.all_labs())} laboratori → {SITE} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
