"""Serve site/ on 127.0.0.1 with the right types for Pyodide's files.

    python scripts/serve.py [--port 8000] [--dir site] [--base /sub/] [--no-headers]
    python scripts/serve.py --dev [--port 8000]        (make dev)

Like a static host: missing pages get the site's 404.html (status 404), and
the headers of site/_headers (written by the build: the Content-Security-Policy)
go with every response, as on hosts that read that file. --base serves the
site under a sub-path (build it with SITE_URL=http://127.0.0.1:8000/sub/). --no-headers
sends none of them, as a host that ignores _headers does (GitHub Pages): the CSP is then
only the <meta> of each page, and the page is not cross-origin isolated.

--dev (make dev; --rebuild is its old name) builds the site, then rebuilds what each saved file
under core/, labs/ or templates/ changes (sitebuild/dev.py), and the open pages reload themselves:
each HTML response gets a script of the server's own (templates/dev/client.js, served under
/__labs_dev__/, never written into site/) that listens to /__labs_dev__/events (Server-Sent
Events) and draws a failed rebuild's Italian line over the page. sw.js is then one that keeps
nothing (templates/dev/sw.js), and nothing is cached by the browser but Pyodide's files.
"""

import argparse
import atexit
import functools
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEV = "__labs_dev__/"  # the dev server's own files and events, under the site's base
DEV_FILES = ROOT / "templates" / "dev"
# what make dev's rebuilds write again under the same name (wheels and lockfiles are named by their content)
REWRITTEN = re.compile(r"(/|\.html|\.json|/lab-styles\.css|/sw\.js|\.xml)$")

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
    no_cache = False  # revalidate every file
    rules = []
    headers = True  # the headers of _headers are sent
    hub = None  # make dev: the rebuilds' news (DevHub), and the dev server's own routes

    def log_message(self, format, *args):  # quiet: tests and make serve print enough
        pass

    def end_headers(self):
        path = self.path.split("?")[0]
        if self.hub and REWRITTEN.search(path):
            # what a rebuild writes again may change twice in a second: kept by nobody, not even to revalidate
            self.send_header("Cache-Control", "no-store")
        elif self.no_cache or self.hub:
            self.send_header("Cache-Control", "no-cache")
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
        path = self.path.split("?")[0].split("#")[0]
        if self.hub and self.dev_GET(path):
            return None
        # mkdocs-material's instant navigation only follows links found in
        # sitemap.xml, matched with their port: rewrite the built site_url
        # to the address this server is really reached at.
        if path != f"{self.base}sitemap.xml":
            return super().do_GET()
        sitemap = Path(self.directory, "sitemap.xml").read_text(encoding="utf-8")
        here = f"http://{self.headers.get('Host', '127.0.0.1')}/"
        body = re.sub(r"<loc>https?://[^/<]+/", f"<loc>{here}", sitemap).encode()
        self.send_body(body, "application/xml")

    def send_body(self, body, content_type, status=200):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    # ── make dev ─────────────────────────────────────────────────────────────────────────────────────
    def dev_GET(self, path):
        """The dev server's own answers (True if it answered): its events, its client, its sw.js, and
        every HTML page with the client's <script> added."""
        if path == f"{self.base}{DEV}events":
            self.send_events()
        elif path == f"{self.base}{DEV}client.js":
            self.send_body((DEV_FILES / "client.js").read_bytes(), "text/javascript")
        elif path == f"{self.base}sw.js":
            self.send_body((DEV_FILES / "sw.js").read_bytes(), "text/javascript")
        else:
            file = Path(self.translate_path(path))
            file = file / "index.html" if file.is_dir() else file
            if file.suffix != ".html" or not file.is_file():
                return False
            html = with_dev_client(file.read_text(encoding="utf-8"), self.base, self.hub.hello()["build"])
            self.send_body(html.encode(), "text/html")
        return True

    def send_events(self):
        """Server-Sent Events: «hello» at once (the last good build, and the failure if the last rebuild
        failed), then «reload» or «failed» after each rebuild; a comment now and then keeps the line open."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        version, kind, data = self.hub.now()
        try:
            self.wfile.write(event("hello", self.hub.hello()))
            self.wfile.flush()
            while True:
                seen = version
                version, kind, data = self.hub.wait(seen, timeout=15)
                self.wfile.write(event(kind, data) if version != seen else b": sono qui\n\n")
                self.wfile.flush()
        except (ConnectionError, OSError):
            pass  # the page went away


def event(kind, data):
    """One Server-Sent Event: its name and its data as one line of JSON."""
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def with_dev_client(html, base, build):
    """An HTML page with the dev client's <script> (a same-origin file: the pages' CSP allows it) in its <head>,
    naming the build the page comes from."""
    tag = f'<script src="{base}{DEV}client.js" data-build="{build}" defer></script>'
    return html.replace("</head>", f"{tag}\n</head>", 1) if "</head>" in html else tag + html


class DevHub:
    """What make dev's rebuilds tell the open pages: a version that grows with each rebuild, and its news."""

    def __init__(self):
        self.changed = threading.Condition()
        self.version, self.kind, self.data = 0, "reload", {}
        self.build = f"{time.time():.0f}-0"  # the last good build
        self.failed = None  # the last rebuild's Italian line, if it failed

    def publish(self, line=None):
        """A rebuild ended: good (line None) or failed with its line."""
        with self.changed:
            self.version += 1
            self.failed = line
            if line is None:
                self.build = f"{self.build.split('-')[0]}-{self.version}"
                self.kind, self.data = "reload", {"build": self.build}
            else:
                self.kind, self.data = "failed", {"line": line}
            self.changed.notify_all()

    def now(self):
        with self.changed:
            return self.version, self.kind, self.data

    def hello(self):
        with self.changed:
            return {"build": self.build, "failed": self.failed}

    def wait(self, version, timeout):
        """(version, kind, data) once the version is not the one given, or as it is after timeout seconds."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version, timeout)
            return self.version, self.kind, self.data


def make_server(directory, port=0, host="127.0.0.1", base="/", no_cache=False, headers=True, hub=None):
    """A threading server for directory (under the sub-path base), with the headers of its _headers
    unless headers is false; port 0 picks a free one. With a DevHub, the server of make dev."""
    base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    handler_class = type(
        "SiteHandler",
        (Handler,),
        {
            "base": base,
            "no_cache": no_cache,
            "rules": read_headers(directory) if headers else [],
            "headers": headers,
            "hub": hub,
        },
    )
    handler = functools.partial(handler_class, directory=str(directory))
    server = QuietServer((host, port), handler)
    server.base = base
    return server


def serve_in_background(server):
    """Starts server on a daemon thread; the URL of the site it serves, its sub-path included."""
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return f"http://{host}:{port}{server.base}"


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True  # a page's open event stream does not keep the server from stopping

    def handle_error(self, request, client_address):
        # a browser that drops a download (a new page, «Riprova», a test) is no error of ours
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class SaveChecks:
    """make check's checks of the labs just saved (scripts/check_lab.py --al-salvataggio), in the background
    after a good rebuild, once the author has not saved for PAUSE seconds (the reloaded page starts Python
    meanwhile, without them on the same cores): each failed check is a line, with the lab's file and line, in
    the terminal and in the open pages' banner. A new save stops them (and what they started) before its
    rebuild."""

    PAUSE = 2.0

    def __init__(self, hub):
        self.hub, self.process, self.timer, self.lock = hub, None, None, threading.Lock()
        # the checks end with the server (they run in a session of their own, which Ctrl+C does not reach):
        # at exit, and a SIGTERM is an exit
        atexit.register(self.stop)
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))

    def start(self, lab_ids):
        self.stop()
        if lab_ids:
            with self.lock:
                self.timer = threading.Timer(self.PAUSE, self.run, args=(list(lab_ids),))
                self.timer.daemon = True
                self.timer.start()

    def run(self, lab_ids):
        command = [sys.executable, str(ROOT / "scripts" / "check_lab.py"), "--al-salvataggio", *lab_ids]
        with self.lock:
            if self.timer is None or self.timer is not threading.current_thread():  # a save came meanwhile
                return
            self.process = subprocess.Popen(
                command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True
            )
            process = self.process
        self.report(process)

    def report(self, process):
        lines = []
        for line in process.stdout:
            with self.lock:
                if process is not self.process:  # stopped by a newer save: its lines are old news
                    return
                lines.append(line.rstrip("\n"))
                print(lines[-1], flush=True)
                self.hub.publish("\n".join(lines))

    def stop(self):
        with self.lock:
            process, self.process = self.process, None
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
        if process is not None and process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)  # check_lab.py and the pytest or Chromium it runs
            process.wait()


def watch(build, hub, server, interval=0.05, checks=None):
    """Poll the sources; rebuild what changed (sitebuild/dev.py), tell the pages, print one line; then make
    check's checks of the saved labs in the background (checks: a SaveChecks)."""
    from sitebuild.dev import Failed, changed_files, sources

    seen = dict(build.files) or sources()  # as the first build read them: what changed during it is rebuilt next
    while True:
        time.sleep(interval)
        if changed_files(seen, sources()):
            time.sleep(interval)  # an editor that saves in two steps (a new file, then a rename) has finished
            now = sources()
            changed = [p for p in changed_files(seen, now) if not p.startswith("templates/dev/")]
            seen = now
            if not changed:
                continue
            if checks is not None:
                checks.stop()
            print(f"salvato {', '.join(changed)}: ricostruisco…", flush=True)
            try:
                print(build.rebuild(changed), flush=True)
            except Failed as error:
                print(error, flush=True)
                hub.publish(str(error))
                continue
            except Exception as error:  # a bug of the dev build itself: the page says so, the terminal shows where
                traceback.print_exc()
                hub.publish(f"errore inatteso di make dev: {type(error).__name__}: {error}")
                continue
            refresh_headers(server)  # a full rebuild may have changed the CSP
            hub.publish()
            build.finish()  # the search index and sw.js, while the pages reload
            if checks is not None:
                checks.start(build.saved)


def refresh_headers(server):
    """The headers of _headers read again, if the server sends them."""
    handler = server.RequestHandlerClass.func
    if handler.headers:
        handler.rules = read_headers(server.RequestHandlerClass.keywords["directory"])


def start_dev():
    """make dev's first build: (the DevBuild, None), or (the DevBuild, the failure's lines) if it failed
    where an older site is there to serve meanwhile."""
    sys.path.insert(0, str(ROOT))
    from sitebuild import SITE
    from sitebuild.dev import DevBuild, Failed

    build = DevBuild()
    print("make dev: costruisco il sito…", flush=True)
    try:
        print(build.full(), flush=True)
        return build, None
    except Failed as error:
        print(error, flush=True)
        if not (SITE / "index.html").exists():
            sys.exit(1)
        return build, str(error)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", default=str(ROOT / "site"))
    parser.add_argument("--base", default="/", help="il sotto-percorso del sito, per esempio /sub/")
    parser.add_argument(
        "--dev",
        "--rebuild",
        action="store_true",
        help="make dev: ricostruisce quello che cambia a ogni salvataggio e ricarica le pagine aperte",
    )
    parser.add_argument("--no-headers", action="store_true", help="senza gli header di _headers (come GitHub Pages)")
    args = parser.parse_args()
    hub = DevHub() if args.dev else None
    directory = args.dir
    if args.dev:
        sys.path.insert(0, str(ROOT))
        from sitebuild import SITE

        directory = str(SITE)
    elif not Path(args.dir, "index.html").exists():
        sys.exit(f"{args.dir} non contiene il sito: esegui prima 'make build'")
    try:
        server = make_server(directory, args.port, base=args.base, headers=not args.no_headers, hub=hub)
    except OSError as error:  # the port is taken (another server, another make serve): one line, not a traceback
        sys.exit(
            f"errore: la porta {args.port} non è libera ({error.strerror}): prova un'altra porta, "
            f"per esempio «make {'dev' if args.dev else 'serve'} PORT={args.port + 1}» "
            f"o «python scripts/serve.py --port {args.port + 1}»"
        )
    if args.dev:
        build, failed = start_dev()
        if failed:
            hub.publish(failed)
        refresh_headers(server)
        threading.Thread(
            target=watch, args=(build, hub, server), kwargs={"checks": SaveChecks(hub)}, daemon=True
        ).start()
    print(
        f"Laboratori LLM su http://127.0.0.1:{server.server_port}{server.RequestHandlerClass.func.base} "
        "(Ctrl+C per fermare)",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
