"""Build the site into site/.

    python build.py

The stages live in sitebuild/ (its docstring lists them), each importable and testable alone:
the contract check, the wheels and their lockfile, the pages, the formulas, the runtime's bundle,
mkdocs with the theme's blocks, the CSP and the service worker. Nothing is downloaded: Pyodide,
esbuild and KaTeX come from node_modules/ (`npm ci`), everything else from this repository.
"""

import shutil
import time

import labs
from sitebuild import DIST, DOCS, PYODIDE, SITE, fail
from sitebuild.answers import answer_names, link_manifests, prepare_answers, write_answers
from sitebuild.bundle import boot_script, bundle_runtime
from sitebuild.contract import check_labs, prerender  # noqa: F401 (tests call them through build.py)
from sitebuild.formulas import render_formulas, tex_filter, write_katex
from sitebuild.lockfile import content_named_lockfile, copy_runtime, download_size, runtime_bytes, write_lockfile
from sitebuild.offline import write_service_worker
from sitebuild.pages import copy_assets, templates, write_pages
from sitebuild.secure import secure_pages
from sitebuild.theme import run_mkdocs, search_index
from sitebuild.wheels import build_wheels


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
    download_bytes = {
        lab.id: runtime_bytes() + download_size(lock, modules[lab.module.__name__]) for lab in labs.all_labs()
    }

    env = templates()
    env.globals["lockfile"] = lockfile.name
    formulas, formulas_css = render_formulas(labs.all_labs())
    env.filters["tex"] = tex_filter(formulas)
    copy_assets()
    bundle_runtime()
    prepared = prepare_answers(labs.all_labs())
    nav = write_pages(env, download_bytes, answer_names(prepared), link_manifests(prepared))
    write_katex(formulas_css)
    run_mkdocs(nav, boot_script())
    search_index()
    copy_runtime(SITE, wheels, lockfile)
    shipped, shipped_bytes = write_answers(prepared)
    print(
        f"build.py: {shipped} file di risposte ai «Prova» lunghi e di checkpoint per i link, {shipped_bytes / 1e6:.1f} MB"
    )
    secure_pages()
    build, count, size = write_service_worker()
    print(
        f"build.py: CSP in ogni pagina e in _headers; sw.js (build {build}) tiene offline {count} file, "
        f"{size / 1e6:.1f} MB"
    )
    print(f"build.py: {len(labs.all_labs())} laboratori → {SITE} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
