"""Stage 7: post-processing, what must see the final HTML: the Content-Security-Policy with the hash of
every inline script the theme and the boot script write, and «Vai al laboratorio» in the theme's skip
component (which no block of the theme reaches, and which instant navigation swaps page by page)."""

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
    pages = {
        path: skip_to_lab(path.read_text(encoding="utf-8"), path.relative_to(site)) for path in site.rglob("*.html")
    }
    policy = CSP.format(hashes="".join(f" {h}" for h in script_hashes(pages)))
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    for path, html in pages.items():
        if CHARSET not in html:
            fail(f"{path.relative_to(site)}: manca <meta charset>, non so dove mettere la CSP")
        path.write_text(html.replace(CHARSET, f"{CHARSET}\n    {meta}", 1), encoding="utf-8")
    (site / "_headers").write_text(f"/*\n  Content-Security-Policy: {policy}\n{ISOLATION}", encoding="utf-8")
    return policy
