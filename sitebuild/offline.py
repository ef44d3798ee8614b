"""Stage 8: sw.js, the service worker that keeps the site offline after one visit (templates/assets/labs/sw.js)."""

import base64
import hashlib
import json
import re

from . import ROOT, SITE, fail

# not kept offline: besides what no page asks for, a stepped lab's checkpoints for links (labs.answers:
# passi-<hash>/, megabytes a reader may never ask for; offline, a link replays its steps instead)
OFFLINE_SKIPPED = re.compile(
    r"(\.map|\.gz|^_headers|^sw\.js|^assets/javascripts/lunr/"
    r"(?!min/lunr\.(?:stemmer\.support|it|multi)\.min\.js).*|/passi-[0-9a-f]{12}/.*)$"
)


def offline_files(site):
    """[[url, integrity, bytes]] of every file the service worker keeps, in path order."""
    files = []
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        relative = path.relative_to(site).as_posix()
        if OFFLINE_SKIPPED.search(relative):
            continue
        url = relative.removesuffix("index.html") or "./"
        digest = base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()
        # serve.py writes the serving address into sitemap.xml: its bytes are the host's, not ours
        files.append([url, "" if relative == "sitemap.xml" else f"sha256-{digest}", path.stat().st_size])
    return files


def write_service_worker(site=SITE):
    """sw.js at the site's root (its scope is then the whole site), with this build's files and
    their sha256: it caches them all at once under a name made from their hashes."""
    (site / "assets" / "labs" / "sw.js").unlink(missing_ok=True)
    files = offline_files(site)
    build = hashlib.sha256(json.dumps(files).encode()).hexdigest()[:16]
    template = (ROOT / "templates" / "assets" / "labs" / "sw.js").read_text(encoding="utf-8")
    for line, value in (
        ('const BUILD = "dev";', f'const BUILD = "{build}";'),
        ("const FILES = [];", f"const FILES = {json.dumps([f[:2] for f in files])};"),
    ):
        if line not in template:
            fail(f"templates/assets/labs/sw.js: manca la riga «{line}»")
        template = template.replace(line, value)
    (site / "sw.js").write_text(template, encoding="utf-8")
    return build, len(files), sum(f[2] for f in files)
