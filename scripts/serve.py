"""Serve site/ on 127.0.0.1 with the right types for Pyodide's files.

    python scripts/serve.py [--port 8000] [--dir site]
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
SOURCES = ["core", "labs", "templates", "mkdocs.yml", "build.py"]

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format, *args):  # quiet: tests and make serve print enough
        pass

    def end_headers(self):
        # revalidate every time: after a rebuild the browser must not mix an
        # old pyodide-lock.json with a new wheel (their sha256 would differ)
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def do_GET(self):
        # mkdocs-material's instant navigation only follows links found in
        # sitemap.xml, matched with their port: rewrite the built site_url
        # to the address this server is really reached at.
        if self.path.split("?")[0] != "/sitemap.xml":
            return super().do_GET()
        sitemap = Path(self.directory, "sitemap.xml").read_text(encoding="utf-8")
        here = f"http://{self.headers.get('Host', '127.0.0.1')}/"
        body = re.sub(r"<loc>https?://[^/<]+/", f"<loc>{here}", sitemap).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def make_server(directory, port=0, host="127.0.0.1"):
    """A threading server for directory; port 0 picks a free one."""
    handler = functools.partial(Handler, directory=str(directory))
    return http.server.ThreadingHTTPServer((host, port), handler)


def newest_source_change():
    return max((p.stat().st_mtime for name in SOURCES for p in [ROOT / name, *(ROOT / name).rglob("*")]
                if p.is_file() and "__pycache__" not in p.parts), default=0.0)


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
    parser.add_argument("--rebuild", action="store_true", help="ricostruisce il sito quando cambiano i sorgenti")
    args = parser.parse_args()
    if not Path(args.dir, "index.html").exists():
        sys.exit(f"{args.dir} non contiene il sito: esegui prima 'make build'")
    server = make_server(args.dir, args.port)
    print(f"Laboratori LLM su http://127.0.0.1:{server.server_port}/ (Ctrl+C per fermare)", flush=True)
    if args.rebuild:
        threading.Thread(target=rebuild_on_change, daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
