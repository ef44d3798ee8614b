"""Stage 5: the browser runtime, bundled by esbuild from the ES modules of templates/runtime/.

    page/main.js    → assets/labs/runtime.js   the page's runtime (a module script, every page)
    worker/main.js  → assets/labs/worker.js    Python's worker (a module worker); its Python (.py) inlined as text
    boot.js         → inline in a lab page's <head> (the theme's block site_meta, templates/overrides/main.html)
    editor.js       → assets/labs/vendor/editor.js   CodeMirror, imported only when the reader presses «Modifica»
    page/progress-page.js → assets/labs/progress-page.js   «I tuoi esercizi», imported only by that page

Minified: their comments, which say why each thing is as it is, stay in templates/runtime/. Every page loads
runtime.js and worker.js (bench.py --bytes prints their size). morphdom stays a file of its own (assets/labs/vendor/).
"""

from . import DOCS, ROOT, run

SOURCES = ROOT / "templates" / "runtime"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
MODULES = {
    "page/main.js": "assets/labs/runtime.js",
    "worker/main.js": "assets/labs/worker.js",
    "editor.js": "assets/labs/vendor/editor.js",
    "page/progress-page.js": "assets/labs/progress-page.js",
}
COMMON = ["--bundle", "--minify", "--log-level=warning", "--loader:.py=text"]


def esbuild(entry, *options):
    """esbuild's output for one entry module (written to a file if options say --outfile)."""
    return run([str(ESBUILD), str(SOURCES / entry), *COMMON, *options]).stdout


def bundle_runtime(docs=DOCS):
    """runtime.js, worker.js and the editor into docs/assets/labs; morphdom stays external (its own file)."""
    for entry, target in MODULES.items():
        esbuild(entry, "--format=esm", "--external:./vendor/morphdom.js", f"--outfile={docs / target}")


def boot_script():
    """The boot script's code as the <head> gets it: one classic script (an IIFE), no comments."""
    return esbuild("boot.js", "--format=iife").strip()
