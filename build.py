"""Build the site into site/.

    python build.py

1. find every lab and prerender its default state with CPython;
2. render the pages (home, one per lab) through the Jinja templates;
3. pack core/ + labs/ as a pure-Python wheel and list it in a copy of
   Pyodide's pyodide-lock.json (`pyodide lockfile add-wheels`);
4. run mkdocs (strict) and copy the Pyodide runtime from node_modules/pyodide.

Nothing is downloaded: Pyodide comes from the npm package installed by
`npm ci`, everything else from this repository.
"""

import html
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
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
    env.filters["it"] = lambda value: str(value).replace(".", ",").replace("-", "−")
    env.filters["tojson"] = lambda value: json.dumps(value, ensure_ascii=False)
    # raw HTML in the Markdown page must not hold blank lines: newlines become entities
    env.filters["oneline"] = lambda value: html.escape(value).replace("\n", "&#10;")
    # numbers as JavaScript's String() writes them, so the runtime can tell a default from a change
    env.filters["js"] = lambda value: str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    return env


def prerender(lab):
    result = labs.render(lab.id, {})
    if not result["ok"]:
        fail(prerender_problem(lab, result["error"]))
    return result


def prerender_problem(lab, error):
    """One line for a lab that does not prerender: render() keeps the page
    alive and says only what went wrong, so compute and draw once more here
    to say where (the last frame of the exception inside labs/ or core/)."""
    try:
        lab.view(lab.compute(lab.defaults()))
    except Exception as exception:
        return crash_line(lab, exception)
    own = place(lab.module.__file__)
    return error if error.startswith(own) else f"{own}: il laboratorio «{lab.id}» non si prerenderizza: {error}"


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
    return {"functions": functions, "text": code.editable_text(lab.module)}


def bundle_editor():
    """CodeMirror with Python, bundled by esbuild into one file the page imports on demand."""
    run([str(ROOT / "node_modules" / ".bin" / "esbuild"), str(ROOT / "templates" / "editor" / "editor.js"),
         "--bundle", "--format=esm", "--minify", "--log-level=warning", f"--outfile={DOCS / EDITOR}"])


def build_wheel():
    # from a copy of the sources: setuptools writes build/ and *.egg-info beside
    # them, and a stale or shared folder would leak into the wheel
    source = WORK / "source"
    shutil.rmtree(source, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("core", "labs"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    # cwd=WORK: from ROOT, `python -m build` would import this file instead of PyPA's build
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(DIST), str(source)], cwd=WORK)
    wheels = sorted(DIST.glob("*.whl"))
    if len(wheels) != 1:
        fail(f"attesa una wheel in {DIST}, trovate {len(wheels)}")
    return wheels[0]


def pyodide_cli():
    cli = Path(sys.executable).with_name("pyodide")
    return str(cli) if cli.exists() else shutil.which("pyodide") or fail("manca il comando 'pyodide' (pyodide-build)")


def write_lockfile(wheel, target):
    """Pyodide's lockfile plus our wheel, so the page can loadPackage() it."""
    run([pyodide_cli(), "lockfile", "add-wheels", "--input", str(PYODIDE / "pyodide-lock.json"),
         "--output", str(target), "--base-path", str(wheel.parent), str(wheel)])


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
            lab=lab, result=prerender(lab), code=code_panel(lab), package=PACKAGE, download_bytes=download_bytes), encoding="utf-8")
    (DOCS / "index.md").write_text(env.get_template("index.md.j2").render(chapters=chapters.items()), encoding="utf-8")
    nav = [{"Tutti i laboratori": "index.md"}]
    for chapter, chapter_labs in chapters.items():
        nav.append({chapter.label:
                    [{f"{lab.ref} {lab.title}": f"{lab.chapter.slug}/{lab.id}.md"} for lab in chapter_labs]})
    write_guide(env)
    nav.append({"Scrivere un laboratorio": GUIDE_PAGE})
    return nav


def main():
    started = time.perf_counter()
    if not PYODIDE.exists():
        fail("manca node_modules/pyodide: esegui prima 'npm ci' (o 'make build')")
    check_labs()
    shutil.rmtree(DOCS, ignore_errors=True)
    shutil.rmtree(DIST, ignore_errors=True)
    DOCS.mkdir(parents=True)  # also makes WORK

    wheel = build_wheel()
    lockfile = DIST / "pyodide-lock.json"
    write_lockfile(wheel, lockfile)
    download_bytes = sum((PYODIDE / f).stat().st_size for f in FETCHED) + wheel.stat().st_size

    nav = write_pages(templates(), download_bytes)
    config = load_config(str(ROOT / "mkdocs.yml"), docs_dir=str(DOCS), site_dir=str(SITE), nav=nav, strict=True)
    mkdocs_build(config)

    runtime = SITE / "pyodide"
    runtime.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, runtime / name)
    shutil.copy2(wheel, runtime / wheel.name)
    shutil.copy2(lockfile, runtime / "pyodide-lock.json")
    print(f"build.py: {len(labs.all_labs())} laboratori → {SITE} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
