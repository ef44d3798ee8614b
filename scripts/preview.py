"""Screenshot one lab's view, without building the site: for authors.

    python scripts/preview.py <lab-id> [name=value ...] [-o out.png] [--dark]

Renders the lab with CPython, wraps the view in a page with the site's CSS
(site/ must have been built once, for mkdocs-material's stylesheet) and
takes a screenshot in headless Chromium.
"""

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("LABS_SITE_DIR", ROOT / "site")).resolve()
sys.path.insert(0, str(ROOT))

import labs  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description="Anteprima di un laboratorio (PNG).")
    parser.add_argument("lab")
    parser.add_argument("params", nargs="*", metavar="nome=valore")
    parser.add_argument("-o", "--out", default=None)
    parser.add_argument("--dark", action="store_true", help="tema scuro")
    parser.add_argument("--width", type=int, default=1100)
    args = parser.parse_args()
    raw = dict(p.split("=", 1) for p in args.params)
    result = labs.render(args.lab, raw, strict=True)
    body = result["html"] if result["ok"] else f'<div class="lab-error">{result["error"]}</div>'
    material = sorted((SITE / "assets" / "stylesheets").glob("main.*.min.css"))
    palette = sorted((SITE / "assets" / "stylesheets").glob("palette.*.min.css"))
    links = "".join(f'<link rel="stylesheet" href="{p.as_uri()}">' for p in material + palette)
    links += f'<link rel="stylesheet" href="{(ROOT / "templates/assets/labs/labs.css").as_uri()}">'
    scheme = "slate" if args.dark else "default"
    page = (f'<!doctype html><html lang="it"><head><meta charset="utf-8">{links}</head>'
            f'<body data-md-color-scheme="{scheme}" data-md-color-primary="indigo" data-md-color-accent="deep-orange">'
            f'<div class="md-typeset" style="padding:1rem;max-width:{args.width}px">'
            f'<div class="lab-view">{body}</div></div></body></html>')
    out = Path(args.out or f"/tmp/preview-{args.lab}{'-dark' if args.dark else ''}.png")
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "preview.html"
        html.write_text(page, encoding="utf-8")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            chromium = shutil.which("chromium")
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]) if chromium \
                else p.chromium.launch()
            page_ = browser.new_page(viewport={"width": args.width + 40, "height": 800})
            page_.goto(html.as_uri())
            page_.screenshot(path=str(out), full_page=True)
            browser.close()
    print(out)


if __name__ == "__main__":
    main()
