"""Serve site/ on 127.0.0.1 with the right types for Pyodide's files.

    python scripts/serve.py [--port 8000] [--dir site]
"""

import argparse
import functools
import http.server
import re
import sys
from pathlib import Path

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format, *args):  # quiet: tests and make serve print enough
        pass

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", default=str(Path(__file__).resolve().parent.parent / "site"))
    args = parser.parse_args()
    if not Path(args.dir, "index.html").exists():
        sys.exit(f"{args.dir} non contiene il sito: esegui prima 'make build'")
    server = make_server(args.dir, args.port)
    print(f"Laboratori LLM su http://127.0.0.1:{server.server_port}/ (Ctrl+C per fermare)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
