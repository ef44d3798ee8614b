"""Stage 7: post-processing, what must see the final HTML: the Content-Security-Policy with the hash of
every inline script the theme and the boot script write, «Vai al laboratorio» in the theme's skip
component (which no block of the theme reaches, and which instant navigation swaps page by page), and
each lab's code listing moved to a page of its own beside the lab's."""

import base64
import hashlib
import re

from . import SITE, fail

CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{hashes}; style-src 'self'; "
    "img-src 'self' data:; worker-src 'self'; connect-src 'self'"
)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", re.S)
CHARSET = '<meta charset="utf-8">'
SKIP = '<div data-md-component="skip">'
LAB_SKIP = '<a href="#laboratorio" class="md-skip">Vai al laboratorio</a>'
# «Il codice Python» (templates/lab.md.j2): its functions, highlighted, are the larger part of a lab page's
# bytes, and a reader sees them only on a click; the runtime fetches them then (templates/runtime/page/listing.js).
# Pygments writes the listing's newlines as &#10;: the first line break after it is the template's.
LISTING = re.compile(r'(<div class="lab-code-listing" data-lab-code-listing)>(.*?)</div>\n</details>', re.S)
LISTING_PAGE = "codice.html"
STYLESHEET = re.compile(r'<link rel="stylesheet" href="[^"]+">')
TITLE = re.compile(r"<title>(.*?)</title>", re.S)
# cross-origin isolated: the page and Python's worker may share memory (a SharedArrayBuffer), through
# which a reader who moves on stops a retraining made for them (templates/runtime/worker/scheduler.js).
# Everything the site loads is its own: no embedded resource needs anything more.
ISOLATION = "  Cross-Origin-Opener-Policy: same-origin\n  Cross-Origin-Embedder-Policy: require-corp\n"


def skip_to_lab(html, where):
    """A lab page's skip links begin with «Vai al laboratorio»."""
    if 'id="laboratorio"' not in html:
        return html
    if SKIP not in html:
        fail(f"{where}: il tema ha cambiato il markup dei link per saltare: aggiorna SKIP in sitebuild/secure.py")
    return html.replace(SKIP, SKIP + LAB_SKIP, 1)


def split_listing(html, where):
    """(the lab page without its code listing, the page of the listing) for a page that has one, else (html, None).
    The lab page keeps a link to the listing's page, which is what a reader without JavaScript follows; the
    listing's page has the lab page's stylesheets and a link back."""
    found = LISTING.search(html)
    if not found:
        if 'id="laboratorio"' in html:
            fail(f"{where}: non trovo l'elenco del codice: aggiorna LISTING in sitebuild/secure.py")
        return html, None
    link = f'<p class="lab-code-wait"><a href="{LISTING_PAGE}">Il codice, in una pagina a parte</a></p>'
    page = (
        html[: found.start()] + f'{found[1]} data-src="{LISTING_PAGE}">{link}</div>\n</details>' + html[found.end() :]
    )
    title = TITLE.search(html)[1]
    name = title.rsplit(" - ", 1)[0]
    listing = "\n".join(
        [
            "<!doctype html>",
            '<html lang="it">',
            f'<head>{CHARSET}<meta name="viewport" content="width=device-width,initial-scale=1">',
            f"<title>Il codice Python · {title}</title>",
            *STYLESHEET.findall(html.split("</head>", 1)[0]),
            "</head>",
            '<body><article class="md-content__inner md-typeset">',
            f'<h1>Il codice Python · {name}</h1><p><a href="./">Torna al laboratorio</a></p>',
            f"{found[1]}>{found[2]}</div>",
            "</article></body>",
            "</html>",
            "",
        ]
    )
    return page, listing


def script_hashes(pages):
    """The sha256 sources of every inline script (the same set on every page, so
    that instant navigation, which keeps the first page's policy, runs them all)."""
    hashes = set()
    for html in pages.values():
        for attributes, body in INLINE_SCRIPT.findall(html):
            if "application/json" not in attributes:
                hashes.add("'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'")
    return sorted(hashes)


def secure_pages(site=SITE):
    """Every page with the CSP as a <meta>, and _headers for hosts that read one (with the
    cross-origin isolation, which has no <meta>: without it the site works as before)."""
    pages = {}
    for path in site.rglob("*.html"):
        if path.name == LISTING_PAGE:  # a listing's page is made anew from its lab's
            continue
        pages[path], listing = split_listing(
            skip_to_lab(path.read_text(encoding="utf-8"), path.relative_to(site)), path
        )
        if listing:
            pages[path.parent / LISTING_PAGE] = listing
    policy = CSP.format(hashes="".join(f" {h}" for h in script_hashes(pages)))
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    for path, html in pages.items():
        if CHARSET not in html:
            fail(f"{path.relative_to(site)}: manca <meta charset>, non so dove mettere la CSP")
        path.write_text(html.replace(CHARSET, f"{CHARSET}\n    {meta}", 1), encoding="utf-8")
    (site / "_headers").write_text(f"/*\n  Content-Security-Policy: {policy}\n{ISOLATION}", encoding="utf-8")
    return policy
