"""Screenshots of every lab page, at a phone and a desktop size, into a folder.

    python scripts/shots.py [--out shots] [--lab ID ...] [--dark] [--state massimi|minimi]

Each page is shot whole (full page) in its prerendered default state, or,
with --state, after Python has set the controls as scripts/layout_check.py's
states() says (every control at its top or bottom, a stepped lab's last step). --dark adds the dark scheme. The
folder gets an index.html that shows them all side by side. The site must
be built (LABS_SITE_DIR, default site/).
"""

import argparse
import html
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from chromium import launch  # noqa: E402
from layout_check import SETTLED_JS, SIZES, navigate, raw_value, states  # noqa: E402

import labs  # noqa: E402

READY_TIMEOUT = 120_000
# A full-page shot draws a sticky element where it sticks in the first screen, over what is there (the phone's
# drawer of controls over the view's first heading), and leaves its own place empty (a gap above «La tua frase»):
# neither is on the page a reader scrolls. In the shot it stands in its own place (set through the CSSOM: the
# site's CSP refuses a <style> of ours, and Playwright's screenshot style with it).
# Likewise a big matrix the page skips off screen (content-visibility: auto) would come out blank: drawn for the shot.
IN_PLACE = """on => {
  const put = (selector, name, value) => document.querySelectorAll(selector).forEach((el) => on
    ? el.style.setProperty(name, value, 'important') : el.style.removeProperty(name));
  put('.lab-bar', 'position', 'static');
  put('.lab > .lab-controls', 'position', 'static');
  put('.lab-mx.is-big > .lab-mx-scroll', 'content-visibility', 'visible');
}"""


def shoot(page, base, lab_list, size, schemes, state, out):
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    written = []
    for k, lab in enumerate(lab_list):
        url = f"{base}{lab.path}"
        if k == 0:
            page.goto(url)
        else:
            navigate(page, url)
        page.wait_for_selector(f'[data-lab="{lab.id}"]', state="attached", timeout=READY_TIMEOUT)
        if state != "iniziale":
            values = dict(states(lab)).get(state)
            if values is None:
                continue  # «minimi» for a stepped lab, «ultimo passo» for another
            page.wait_for_function(SETTLED_JS, arg=lab.id, timeout=READY_TIMEOUT)
            page.evaluate(
                """([id, pairs]) => document.querySelector(`[data-lab="${id}"]`).labController.setControls(pairs)""",
                [lab.id, [[name, raw_value(v)] for name, v in values.items()]],
            )
            page.wait_for_function(SETTLED_JS, arg=lab.id, timeout=READY_TIMEOUT)
        for scheme in schemes:
            page.evaluate(
                "s => document.body.setAttribute('data-md-color-scheme', s)",
                "slate" if scheme == "scuro" else "default",
            )
            name = f"{lab.ref.replace('.', '_')}-{lab.id}-{size}-{scheme}.png"
            page.evaluate(IN_PLACE, True)
            page.screenshot(path=str(out / name), full_page=True)
            page.evaluate(IN_PLACE, False)
            written.append((lab, size, scheme, name))
            print(f"\r{name}".ljust(70), end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return written


def index(out, written):
    """index.html: one row per lab, its shots side by side."""
    rows = {}
    for lab, size, scheme, name in written:
        rows.setdefault(lab.id, (lab, []))[1].append((size, scheme, name))
    body = []
    for lab, shots in rows.values():
        cells = "".join(
            f'<figure><a href="{n}"><img src="{n}" loading="lazy" class="{s}"></a>'
            f"<figcaption>{s} · {c}</figcaption></figure>"
            for s, c, n in shots
        )
        body.append(f"<section><h2>{html.escape(lab.ref)} · {html.escape(lab.title)}</h2>{cells}</section>")
    (out / "index.html").write_text(
        '<!doctype html><meta charset="utf-8"><title>Laboratori: schermate</title>'
        "<style>body{font-family:sans-serif;margin:1rem}section{display:flex;flex-wrap:wrap;gap:1rem;"
        "align-items:flex-start;border-top:1px solid #ccc}h2{flex:1 1 100%;font-size:1rem}"
        "img{border:1px solid #ccc;max-height:60rem}img.phone{width:195px}img.desktop{width:640px}"
        "figure{margin:0}figcaption{font-size:.8rem;color:#555}</style>" + "".join(body),
        encoding="utf-8",
    )


def main():
    parser = argparse.ArgumentParser(description="Schermate di ogni laboratorio, telefono e desktop.")
    parser.add_argument("--out", default=str(ROOT / "shots"), help="cartella (default: shots/)")
    parser.add_argument("--lab", action="append", help="solo questo laboratorio (anche più volte)")
    parser.add_argument("--size", choices=sorted(SIZES), action="append", help="solo questa misura")
    parser.add_argument("--dark", action="store_true", help="anche il tema scuro")
    parser.add_argument(
        "--state",
        choices=("iniziale", "massimi", "minimi", "ultimo passo"),
        default="iniziale",
        help="«minimi» vale per i laboratori senza passi, «ultimo passo» per quelli a passi",
    )
    args = parser.parse_args()
    site = Path(os.environ.get("LABS_SITE_DIR", ROOT / "site")).resolve()
    if not (site / "index.html").exists():
        sys.exit(f"{site} non contiene un sito: costruiscilo prima (make build)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lab_list = [lab for lab in labs.all_labs() if not args.lab or lab.id in args.lab]
    schemes = ["chiaro", "scuro"] if args.dark else ["chiaro"]
    from playwright.sync_api import sync_playwright
    from serve import make_server, serve_in_background

    server = make_server(site)
    base = serve_in_background(server)
    written = []
    with sync_playwright() as p:
        browser = launch(p)
        for size in args.size or ("phone", "desktop"):
            page = browser.new_page()
            written += shoot(page, base, lab_list, size, schemes, args.state, out)
            page.close()
        browser.close()
    server.shutdown()
    index(out, written)
    print(f"{len(written)} schermate in {out} (apri {out / 'index.html'})")


if __name__ == "__main__":
    main()
