"""Serve site/ on 127.0.0.1 with the right types for Pyodide's files.

    python scripts/serve.py [--port 8000] [--dir site] [--base /sub/] [--rebuild] [--no-headers]

Like a static host: missing pages get the site's 404.html (status 404), and
the headers of site/_headers (written by the build: the Content-Security-Policy)
go with every response, as on hosts that read that file. --base serves the
site under a sub-path (build it with SITE_URL=http://127.0.0.1:8000/sub/). --no-headers
sends none of them, as a host that ignores _headers does (GitHub Pages): the CSP is then
only the <meta> of each page, and the page is not cross-origin isolated.
"""

import argparse
import functools
import http.server
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["core", "labs", "templates", "mkdocs.yml", "build.py", "sitebuild"]

TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
}


def read_headers(directory):
    """[(path pattern, [(name, value)])] from a Netlify-style _headers file: a path at
    the start of a line, its headers indented below it; «*» matches anything."""
    path = Path(directory, "_headers")
    rules = []
    if not path.exists():
        return rules
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((re.compile(re.escape(line.strip()).replace(r"\*", ".*") + "$"), []))
        elif rules and ":" in line:
            name, value = line.split(":", 1)
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    base = "/"  # the sub-path the site is served under
    no_cache = False  # make serve --rebuild: revalidate every file, as a rebuild may change any
    rules = []

    def log_message(self, format, *args):  # quiet: tests and make serve print enough
        pass

    def end_headers(self):
        if self.no_cache:
            self.send_header("Cache-Control", "no-cache")
        path = self.path.split("?")[0]
        site_path = "/" + path[len(self.base) :] if path.startswith(self.base) else path
        for pattern, headers in self.rules:
            if pattern.match(site_path):
                for name, value in headers:
                    self.send_header(name, value)
        super().end_headers()

    def translate_path(self, path):
        path = path.split("?")[0].split("#")[0]
        if not path.startswith(self.base):
            return str(Path(self.directory, "\0outside"))  # a path no file has: 404
        return super().translate_path("/" + path[len(self.base) :])

    def send_error(self, code, message=None, explain=None):
        """A missing file gets the site's own 404.html (in Italian, with the site's look)."""
        page = Path(self.directory, "404.html")
        if code != 404 or not page.exists():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        # mkdocs-material's instant navigation only follows links found in
        # sitemap.xml, matched with their port: rewrite the built site_url
        # to the address this server is really reached at.
        if self.path.split("?")[0] != f"{self.base}sitemap.xml":
            return super().do_GET()
        sitemap = Path(self.directory, "sitemap.xml").read_text(encoding="utf-8")
        here = f"http://{self.headers.get('Host', '127.0.0.1')}/"
        body = re.sub(r"<loc>https?://[^/<]+/", f"<loc>{here}", sitemap).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def make_server(directory, port=0, host="127.0.0.1", base="/", no_cache=False, headers=True):
    """A threading server for directory (under the sub-path base), with the headers of its _headers
    unless headers is false; port 0 picks a free one."""
    handler_class = type(
        "SiteHandler",
        (Handler,),
        {
            "base": "/" + base.strip("/") + "/" if base.strip("/") else "/",
            "no_cache": no_cache,
            "rules": read_headers(directory) if headers else [],
        },
    )
    handler = functools.partial(handler_class, directory=str(directory))
    return QuietServer((host, port), handler)


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # a browser that drops a download (a new page, «Riprova», a test) is no error of ours
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def newest_source_change():
    return max(
        (
            p.stat().st_mtime
            for name in SOURCES
            for p in [ROOT / name, *(ROOT / name).rglob("*")]
            if p.is_file() and "__pycache__" not in p.parts
        ),
        default=0.0,
    )


def rebuild_on_change(interval=1.0):
    """Poll the sources; run build.py again when one of them changes."""
    seen = newest_source_change()
    while True:
        time.sleep(interval)
        now = newest_source_change()
        if now != seen:
            seen = now
            print("modifica rilevata: ricostruisco…", flush=True)
            subprocess.run([sys.executable, str(ROOT / "build.py")])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", default=str(ROOT / "site"))
    parser.add_argument("--base", default="/", help="il sotto-percorso del sito, per esempio /sub/")
    parser.add_argument("--rebuild", action="store_true", help="ricostruisce il sito quando cambiano i sorgenti")
    parser.add_argument("--no-headers", action="store_true", help="senza gli header di _headers (come GitHub Pages)")
    args = parser.parse_args()
    if not Path(args.dir, "index.html").exists():
        sys.exit(f"{args.dir} non contiene il sito: esegui prima 'make build'")
    # while rebuilding, every file is revalidated: the browser must not keep a page of the previous build
    try:
        server = make_server(args.dir, args.port, base=args.base, no_cache=args.rebuild, headers=not args.no_headers)
    except OSError as error:  # the port is taken (another server, another make serve): one line, not a traceback
        sys.exit(
            f"errore: la porta {args.port} non è libera ({error.strerror}): prova un'altra porta, "
            f"per esempio «make serve PORT={args.port + 1}» o «python scripts/serve.py --port {args.port + 1}»"
        )
    print(
        f"Laboratori LLM su http://127.0.0.1:{server.server_port}{server.RequestHandlerClass.func.base} "
        "(Ctrl+C per fermare)",
        flush=True,
    )
    if args.rebuild:
        threading.Thread(target=rebuild_on_change, daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
