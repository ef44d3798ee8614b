"""The site's build in stages, each a module importable and testable alone; build.py runs them in order.

    contract   the labs meet the contract and prerender (CPython)
    wheels     core/ and labs/ as small pure-Python wheels, their lockfile (wheels.py, lockfile.py)
    pages      the Markdown pages through Jinja, with Pygments for the code panel
    formulas   KaTeX, run once by node: HTML and CSS, no KaTeX JavaScript in the page
    bundle     the browser runtime (templates/assets/labs/src/) bundled by esbuild
    theme      mkdocs with the theme's blocks overridden (templates/overrides/), the search index trimmed
    secure     post-processing: the CSP, which must see the final HTML (the hashes of the inline scripts)
    offline    the service worker with this build's files and their sha256

Nothing is downloaded: Pyodide, esbuild and KaTeX come from node_modules/ (npm ci), the rest from here.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# LABS_BUILD_DIR / LABS_SITE_DIR let two builds run side by side (tests, several authors)
WORK = Path(os.environ.get("LABS_BUILD_DIR", ROOT / "build")).resolve()  # scratch space
DOCS = WORK / "docs"
DIST = WORK / "dist"
SITE = Path(os.environ.get("LABS_SITE_DIR", ROOT / "site")).resolve()
PYODIDE = ROOT / "node_modules" / "pyodide"
PACKAGE = "laboratori-llm"


def fail(message):
    """Stop the build with one line."""
    sys.exit(f"build.py: {message}")


def run(command, **kwargs):
    """Run a tool quietly; on failure show what it said and stop."""
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        fail(f"{' '.join(command[:4])} … non è riuscito:\n{result.stdout}\n{result.stderr}")
    return result
