"""Screenshot one lab's view, without building the site: for authors.

    python scripts/preview.py <lab-id> [name=value ...] [-o out.png] [--dark] [--width N]

Renders the lab with CPython, wraps the view in a page with the site's CSS
(the site must have been built once, for mkdocs-material's stylesheet) and
the lab's own stylesheet, scoped as the build scopes it, and takes a
screenshot in headless Chromium. Options and name=value go in any order;
every mistake is one Italian line and exit status 2, a lab that crashes too
(the line names the file and line where it stopped).
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("LABS_SITE_DIR", ROOT / "site")).resolve()
sys.path.insert(0, str(ROOT))

import labs  # noqa: E402
from labs.cli import Parser, assignments, crash_line, fail  # noqa: E402
from labs.styles import scope, stylesheet  # noqa: E402


def page_html(lab, body, scheme, width):
    stylesheets = SITE / "assets" / "stylesheets"
    material = sorted(stylesheets.glob("main.*.min.css")) + sorted(stylesheets.glob("palette.*.min.css"))
    if not material:
        fail(f"mancano i fogli di stile del sito in {SITE}: costruiscilo prima con «python build.py»")
    links = "".join(f'<link rel="stylesheet" href="{p.as_uri()}">' for p in material)
    links += f'<link rel="stylesheet" href="{(ROOT / "templates/assets/labs/labs.css").as_uri()}">'
    own = stylesheet(lab)
    styles = f"<style>{scope(own.read_text(encoding='utf-8'), lab.id, own)}</style>" if own else ""
    return (
        f'<!doctype html><html lang="it"><head><meta charset="utf-8">{links}{styles}</head>'
        f'<body dir="ltr" data-md-color-scheme="{scheme}" data-md-color-primary="indigo" data-md-color-accent="deep-orange">'
        f'<div class="md-typeset" style="padding:1rem;max-width:{width}px">'
        f'<div data-lab="{lab.id}"><div class="lab-view">{body}</div></div></div></body></html>'
    )


def failure(lab, result):
    """The line for a render that failed: where the lab stopped (file and line) when it raised,
    else the render's own message (a state that is not finite, a view that is not Html)."""
    try:
        lab.view(lab.compute(result["params"]))
    except (labs.LabError, labs.ParamError):
        return result["error"]
    except Exception as error:  # the lab's bug: its place, not a traceback
        return crash_line(lab, error)
    return result["error"]


def screenshot(html_text, out, width):
    from chromium import launch
    from playwright.sync_api import Error, sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "preview.html"
        html.write_text(html_text, encoding="utf-8")
        try:
            with sync_playwright() as p:
                browser = launch(p)
                page = browser.new_page(viewport={"width": width + 40, "height": 800})
                page.goto(html.as_uri())
                page.screenshot(path=str(out), full_page=True)
                browser.close()
        except Error as error:
            fail(f"Chromium non è partito: {str(error).splitlines()[0]}")


def main():
    parser = Parser(prog="scripts/preview.py", description="Anteprima di un laboratorio (PNG).")
    parser.add_argument("lab", metavar="laboratorio")
    parser.add_argument("params", nargs="*", metavar="nome=valore")
    parser.add_argument("-o", "--out", default=None, help="il file PNG (di solito /tmp/preview-<id>.png)")
    parser.add_argument("--dark", action="store_true", help="tema scuro")
    parser.add_argument("--width", type=int, default=1100, help="larghezza della vista in pixel")
    args = parser.parse(sys.argv[1:])
    try:
        lab = labs.get(args.lab)
        result = labs.render(args.lab, assignments(args.params), strict=True)
    except (LookupError, labs.ParamError, labs.ContractError) as error:
        fail(str(error))
    if not result["ok"]:
        fail(failure(lab, result))
    body = result["html"]
    out = Path(args.out or f"/tmp/preview-{args.lab}{'-dark' if args.dark else ''}.png")
    screenshot(page_html(lab, body, "slate" if args.dark else "default", args.width), out, args.width)
    print(out)


if __name__ == "__main__":
    main()
