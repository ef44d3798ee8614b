"""What every section of scripts/bench.py shares: the site's server (with the bare Pyodide page the load is
set against), Chromium, a lab page opened until «ready», the scripts injected to time a change, and the files
of ours a page loads."""

import functools
import gzip
import json
import os
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("LABS_SITE_DIR", ROOT / "site")).resolve()
# the measurement the site does not ship (root.labTiming, labsMeasure.times): injected before the page's scripts
MEASURE = ROOT / "scripts" / "measure.js"
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))
from bench_plan import p95  # noqa: E402
from serve import make_server  # noqa: E402

# The baseline: a bare page whose worker only starts the site's own copy of
# Pyodide, with Pyodide's own lockfile (what a page that just loads Pyodide
# does). Served by the bench's server beside the site, under the same CSP
# (a blob: worker would break it), and timed the same way as a lab page.
BARE_PAGE = b"""<!doctype html><meta charset="utf-8"><title>Pyodide</title>
<script type="module" src="bare.js"></script>"""
BARE_SCRIPT = b"""window.__start = performance.now();
const worker = new Worker(new URL("bare-worker.js", import.meta.url), { type: "module" });
worker.onmessage = () => { document.documentElement.dataset.ready = "true"; };"""
BARE_WORKER = b"""import { loadPyodide } from "../pyodide/pyodide.mjs";
await loadPyodide({ indexURL: new URL("../pyodide/", import.meta.url).href,
                    lockFileURL: new URL("pyodide-lock.json", import.meta.url).href });
postMessage("ok");"""
BARE = {
    "bare.html": (BARE_PAGE, "text/html"),
    "bare.js": (BARE_SCRIPT, "text/javascript"),
    "bare-worker.js": (BARE_WORKER, "text/javascript"),
    "pyodide-lock.json": ((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_bytes(), "application/json"),
}


def bench_server():
    """The site's server, plus the bare Pyodide page under /__bench/."""
    server = make_server(SITE)
    site_handler = server.RequestHandlerClass

    class Handler(site_handler.func):
        def do_GET(self):
            name = self.path.split("?")[0].removeprefix("/__bench/")
            if name not in BARE or not self.path.startswith("/__bench/"):
                return super().do_GET()
            body, kind = BARE[name]
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server.RequestHandlerClass = functools.partial(Handler, *site_handler.args, **site_handler.keywords)
    return server


# The page's lab, and a promise that resolves when it has drawn what it was asked (shared with bench_code.py).
IDLE = """
  const root = document.querySelector("[data-lab]");
  const idle = () => new Promise((resolve) => {
    const done = () => root.dataset.busy === undefined;
    if (done()) return resolve();
    new MutationObserver((_, observer) => { if (done()) { observer.disconnect(); resolve(); } })
      .observe(root, { attributes: true, attributeFilter: ["data-busy"] });
  });
"""

# Set controls (or press a timeline button) and wait until the view is drawn.
ACT = (
    """async ([values, button]) => {"""
    + IDLE
    + """  await idle();
  const t0 = performance.now();
  if (button) root.querySelector(`[data-step="${button}"]`).click();
  for (const [name, value] of Object.entries(values)) {
    const input = root.querySelector(`[data-param="${name}"]`);
    if (input.type === "checkbox") input.checked = value === "1"; else input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  await idle();
  const drawn = performance.now();
  document.documentElement.offsetHeight; // the layout the next frame would do, done and counted here
  const end = performance.now();
  if (root.labTiming) root.labTiming.layout = end - drawn;
  return end - t0;
}"""
)

# Where the last update's time went (scripts/measure.js): in Python, waiting for the worker, on the page.
TIMING = """() => document.querySelector("[data-lab]").labTiming"""
READER_PAUSE_MS = 300  # between two «Avanti» at a reader's pace: the worker draws the next step meanwhile
# Between two «Avanti» as fast as a hand goes: 20 clicks a second, with the drawing, more than anyone clicks
# (about ten a second at most) and about what a held key repeats. The budget is judged at this pace: one
# click the instant the last view is drawn is a program's pace, and on 3.2 it waits for a real training
# step that the worker cannot have drawn ahead in the moment since the last click.
HAND_PAUSE_MS = 50


def act(page, values, button=None, pause=0):
    """One change (ACT) after pause ms: its time and where it went (TIMING)."""
    if pause:
        page.wait_for_timeout(pause)
    return page.evaluate(ACT, [values, button]), page.evaluate(TIMING)


def parts(acts):
    """Median ms in Python, waiting for the worker, on the page and in the layout, and how many were drawn ahead."""
    timings = [t for _, t in acts if t]
    median = lambda key: round(statistics.median(t.get(key, 0) for t in timings), 1)  # noqa: E731
    return {
        "python": median("python"),
        "wait": median("wait"),
        "page": median("page"),
        "layout": median("layout"),
        "ahead": sum(t["ahead"] for t in timings),
    }


def say_parts(p):
    return (
        f"Python {p['python']} · attesa {p['wait']} · pagina {p['page']} · layout {p['layout']} ms "
        f"(mediane; {p['ahead']} disegnati in anticipo)"
    )


# Play at the fastest speed from where the lab is, until the step `until` is drawn (then paused, if it goes on).
PLAY = """async (until) => {
  const root = document.querySelector("[data-lab]");
  root.querySelector("[data-play-speed]").value = "max";
  const input = root.querySelector(".lab-scrubber");
  const play = root.querySelector('[data-step="play"]');
  const t0 = performance.now();
  play.click();
  await new Promise((resolve) => {
    const check = () => (Number(input.value) >= until && root.dataset.busy === undefined) ? resolve()
      : requestAnimationFrame(check);
    check();
  });
  const took = performance.now() - t0;
  if (play.getAttribute("aria-pressed") === "true") play.click();
  return took;
}"""
PLAY_BUDGET = ("bigrammi", "bpe")  # the labs whose Play has a budget: always played to the end
PLAY_LIMIT = 200  # steps: how far the others play (3.2's thousand steps are real trainings)

# The page's first contentful paint, once it has happened.
FCP = """() => new Promise((resolve) => {
  new PerformanceObserver((list, observer) => {
    const paint = list.getEntriesByName("first-contentful-paint")[0];
    if (paint) { observer.disconnect(); resolve(paint.startTime); }
  }).observe({ type: "paint", buffered: true });
})"""

# When the page (lab or bare) first says data-ready="true", in the page's own clock.
READY_TIME = """new MutationObserver((_, observer) => {
  if (document.querySelector("[data-ready=true]")) { window.__ready = performance.now(); observer.disconnect(); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });"""

# Until the page says «pronto», without polling: Playwright's wait_for_selector queries the whole page at every
# animation frame, work on the main thread during the start that a large lab page pays and the bare one does not
WAIT_READY = """(timeout) => new Promise((resolve, reject) => {
  const ready = () => document.querySelector("[data-ready=true]");
  if (ready()) return resolve();
  const observer = new MutationObserver(() => { if (ready()) { observer.disconnect(); resolve(); } });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
  setTimeout(() => { observer.disconnect(); reject(new Error("no «pronto» in time")); }, timeout);
})"""


def wait_ready(page, timeout_ms=120_000):
    """Returns once the page (a lab's or the bare one) says «pronto»."""
    page.evaluate(WAIT_READY, timeout_ms)


LONG_TASKS = """() => { window.__long ??= [];
  window.__longObserver ??= new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push(e.startTime); });
  window.__longObserver.observe({ type: "longtask" });
  return performance.now(); }"""
LONG_TASKS_SINCE = """(since) => window.__long.filter((start) => start >= since).length"""


def stats(values):
    return {"median": round(statistics.median(values), 1), "p95": round(p95(values), 1), "n": len(values)}


def open_ready(browser, base, lab, query=""):
    page = browser.new_page()
    page.add_init_script(path=str(MEASURE))
    page.goto(f"{base}{lab.path}{query}")
    page.wait_for_selector("[data-lab][data-ready=true]", timeout=120_000)
    return page


def gzip_size(path):
    return len(gzip.compress(path.read_bytes(), 9))


# a static import anywhere a statement starts: a bundle puts an external module's import where its
# importer's code begins, not at the top (imports are hoisted)
STATIC_IMPORT = re.compile(r'(?:^|[;}])\s*import\s*(?:[^;"()]*?from\s*)?"(\.{1,2}/[^"]+)"', re.M)


def our_files(lab):
    """What a lab page fetches before it is ready that is ours (Pyodide's own files
    apart): the page, its stylesheets and scripts with their static imports, the
    worker, the lockfile the page names and the wheels of the package it loads
    (with their dependencies). The editor, imported only on «Modifica», is not among them."""
    page = SITE / lab.path / "index.html"
    text = page.read_text(encoding="utf-8")
    files = {page}
    todo = [
        (page.parent / ref.split("?")[0]).resolve()
        for ref in re.findall(r'(?:href|src)="([^"#]+\.(?:css|js|mjs))', text)
        if "://" not in ref
    ]
    todo.append(SITE / "assets" / "labs" / "worker.js")
    while todo:
        path = todo.pop()
        if path in files or not path.is_file():
            continue
        files.add(path)
        if path.suffix in (".js", ".mjs") and "pyodide" not in path.parts:
            todo += [(path.parent / ref).resolve() for ref in STATIC_IMPORT.findall(path.read_text(encoding="utf-8"))]
    runtime = SITE / "pyodide"
    lockfile = runtime / re.search(r'data-lockfile="([^"]+)"', text).group(1)
    files.add(lockfile)
    lock = json.loads(lockfile.read_text(encoding="utf-8"))
    packages = lock["packages"]
    module = re.search(r'data-module="([^"]+)"', text).group(1)
    # the lab's own wheel (on its chapter's and the base's), as the worker asks for it
    wanted = [
        lock.get("tool", {}).get("laboratori-llm", {}).get("modules", {}).get(module)
        or re.search(r'data-package="([^"]+)"', text).group(1)
    ]
    seen = set()
    while wanted:
        name = wanted.pop()
        if name not in seen:
            seen.add(name)
            files.add(runtime / packages[name]["file_name"])
            wanted += packages[name]["depends"]
    return {path.relative_to(SITE).as_posix(): gzip_size(path) for path in files}
