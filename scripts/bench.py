"""Load, interaction and stepping times of the built site in headless Chromium.

    python scripts/bench.py [--runs 3] [--only load,controls,steps] [--labs id,id] [--json out.json]

Timings vary between runs and machines, so the load times are reported as a
ratio to a baseline measured in the same run (bare Pyodide in a worker,
same server); run it twice to see the noise. Sections:

- load: per lab, cold loads (new browser context each): first contentful
  paint of the prerendered lab, data-ready, and its ratio to a bare page
  that only starts Pyodide (same server, same CSP, loads alternated); our
  bytes (gzip) that the page needs before it is ready (--bytes: file by file).
- controls: per lab, control → view updated, median and p95 over ≥ 30
  changes spread over every control (ends and random values), and main
  thread long tasks (> 50 ms) while they are made. One page goes from lab
  to lab by the site's links, as a reader does (the worker stays warm).
- steps: per stepped lab, «Avanti» median/p95 at the first and at the last
  steps (one click as soon as the last is drawn) and at a reader's pace (a
  pause before each click, in which the worker draws the next step ahead),
  «Indietro» from the last step, a jump back to step 1 and to random
  steps, Play at the fastest speed to the end, and the first change after
  «ready».

A change is timed from the input to the view updated and laid out (the
layout the browser would do before the next paint is done at once and
counted, for every lab alike). Each change also says where its time went
(runtime.js's labTiming): in Python, waiting for the worker (a view still
being drawn ahead, messages), on the page (morph, controls) and in the layout.

Budgets (issues 7 and 11) are printed beside each number; nothing asserts.
"""

import argparse
import functools
import gzip
import json
import os
import random
import re
import shutil
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("LABS_SITE_DIR", ROOT / "site"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))
import labs  # noqa: E402
from bench_plan import changes, p95  # noqa: E402
from serve import make_server  # noqa: E402

FLAGS = ["--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync",
         "--no-sandbox", "--disable-gpu", "--disable-quic"]

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
BARE = {"bare.html": (BARE_PAGE, "text/html"), "bare.js": (BARE_SCRIPT, "text/javascript"),
        "bare-worker.js": (BARE_WORKER, "text/javascript"),
        "pyodide-lock.json": ((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_bytes(), "application/json")}


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
ACT = """async ([values, button]) => {""" + IDLE + """  await idle();
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

# Where the last update's time went (runtime.js): in Python, waiting for the worker, on the page.
TIMING = """() => document.querySelector("[data-lab]").labTiming"""
READER_PAUSE_MS = 300  # between two «Avanti» at a reader's pace: the worker draws the next step meanwhile


def act(page, values, button=None, pause=0):
    """One change (ACT) after pause ms: its time and where it went (TIMING)."""
    if pause:
        page.wait_for_timeout(pause)
    return page.evaluate(ACT, [values, button]), page.evaluate(TIMING)


def parts(acts):
    """Median ms in Python, waiting for the worker, on the page and in the layout, and how many were drawn ahead."""
    timings = [t for _, t in acts if t]
    median = lambda key: round(statistics.median(t.get(key, 0) for t in timings), 1)  # noqa: E731
    return {"python": median("python"), "wait": median("wait"), "page": median("page"), "layout": median("layout"),
            "ahead": sum(t["ahead"] for t in timings)}


def say_parts(p):
    return (f"Python {p['python']} · attesa {p['wait']} · pagina {p['page']} · layout {p['layout']} ms "
            f"(mediane; {p['ahead']} disegnati in anticipo)")

PLAY = """async (max) => {
  const root = document.querySelector("[data-lab]");
  root.querySelector("[data-play-speed]").value = "max";
  const input = root.querySelector(".lab-scrubber");
  const t0 = performance.now();
  root.querySelector('[data-step="play"]').click();
  await new Promise((resolve) => {
    const check = () => (Number(input.value) >= max && root.dataset.busy === undefined) ? resolve()
      : requestAnimationFrame(check);
    check();
  });
  return performance.now() - t0;
}"""

# When the page (lab or bare) first says data-ready="true", in the page's own clock.
READY_TIME = """new MutationObserver((_, observer) => {
  if (document.querySelector("[data-ready=true]")) { window.__ready = performance.now(); observer.disconnect(); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });"""

LONG_TASKS = """() => { window.__long ??= [];
  window.__longObserver ??= new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push(e.startTime); });
  window.__longObserver.observe({ type: "longtask" });
  return performance.now(); }"""
LONG_TASKS_SINCE = """(since) => window.__long.filter((start) => start >= since).length"""


def launch(p):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    return p.chromium.launch(executable_path=chromium, args=FLAGS) if chromium else p.chromium.launch()


def stats(values):
    return {"median": round(statistics.median(values), 1), "p95": round(p95(values), 1), "n": len(values)}


def open_ready(browser, base, lab, query=""):
    page = browser.new_page()
    page.goto(f"{base}{lab.path}{query}")
    page.wait_for_selector("[data-lab][data-ready=true]", timeout=120_000)
    return page


def gzip_size(path):
    return len(gzip.compress(path.read_bytes(), 9))


STATIC_IMPORT = re.compile(r'^\s*import\s[^;]*?from\s*"(\.{1,2}/[^"]+)"|^\s*import\s*"(\.{1,2}/[^"]+)"', re.M)


def our_files(lab):
    """What a lab page fetches before it is ready that is ours (Pyodide's own files
    apart): the page, its stylesheets and scripts with their static imports, the
    worker, the lockfile the page names and the wheels of the package it loads
    (with their dependencies). The editor, imported only on «Modifica», is not among them."""
    page = SITE / lab.path / "index.html"
    text = page.read_text(encoding="utf-8")
    files = {page}
    todo = [(page.parent / ref.split("?")[0]).resolve()
            for ref in re.findall(r'(?:href|src)="([^"#]+\.(?:css|js|mjs))', text) if "://" not in ref]
    todo.append(SITE / "assets" / "labs" / "worker.js")
    while todo:
        path = todo.pop()
        if path in files or not path.is_file():
            continue
        files.add(path)
        if path.suffix in (".js", ".mjs") and "pyodide" not in path.parts:
            todo += [(path.parent / (a or b)).resolve() for a, b in STATIC_IMPORT.findall(path.read_text(encoding="utf-8"))]
    runtime = SITE / "pyodide"
    lockfile = runtime / re.search(r'data-lockfile="([^"]+)"', text).group(1)
    files.add(lockfile)
    lock = json.loads(lockfile.read_text(encoding="utf-8"))
    packages = lock["packages"]
    module = re.search(r'data-module="([^"]+)"', text).group(1)
    # the lab's own wheel (on its chapter's and the base's), as the worker asks for it
    wanted = [lock.get("tool", {}).get("laboratori-llm", {}).get("modules", {}).get(module)
              or re.search(r'data-package="([^"]+)"', text).group(1)]
    seen = set()
    while wanted:
        name = wanted.pop()
        if name not in seen:
            seen.add(name)
            files.add(runtime / packages[name]["file_name"])
            wanted += packages[name]["depends"]
    return {path.relative_to(SITE).as_posix(): gzip_size(path) for path in files}


def bench_load(browser, base, lab, runs, out, show_bytes=False):
    paint, ready, bare, phases, bare_start = [], [], [], [], []
    for run in range(runs):
        # alternate which goes first, so a slow moment of the machine does not always fall on the same one
        for which in ("lab", "bare") if run % 2 == 0 else ("bare", "lab"):
            context = browser.new_context()
            context.add_init_script(READY_TIME)
            page = context.new_page()
            page.goto(f"{base}{lab.path}" if which == "lab" else f"{base}__bench/bare.html")
            page.wait_for_selector("[data-ready=true]", timeout=120_000)
            (ready if which == "lab" else bare).append(page.evaluate("window.__ready"))
            if which == "lab":
                paint.append(page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN"))
                phases.append(page.evaluate("window.labsRuntime.times || {}"))
            else:
                bare_start.append(page.evaluate("window.__start"))
            context.close()
    ratio = statistics.median(ready) / statistics.median(bare)
    files = our_files(lab)
    out["load"] = {"fcp": stats(paint), "ready": stats(ready), "bare_pyodide": stats(bare), "ratio": round(ratio, 2),
                   "our_gzip_bytes": sum(files.values()), "files": files}
    print(f"  carico a freddo: FCP {statistics.median(paint):.0f} ms · pronto {statistics.median(ready):.0f} ms · "
          f"Pyodide da solo {statistics.median(bare):.0f} ms · rapporto {ratio:.2f} (budget ≤ 1,05) · "
          f"nostri byte gzip {sum(files.values()) / 1000:.0f} kB (budget ≤ 300)")
    # where the lab page's time goes: worker started, runtime downloaded, Python and the lab's wheels in, ready
    marks = {name: statistics.median(p[name] for p in phases) for name in ("start", "python", "labs", "ready")
             if all(name in p for p in phases)}
    out["load"]["phases"] = marks | {"bare_start": statistics.median(bare_start)}
    print("  fasi (ms dalla navigazione, mediane): " + " · ".join(f"{k} {v:.0f}" for k, v in marks.items()) +
          f" · Pyodide da solo: worker a {statistics.median(bare_start):.0f}, pronto a {statistics.median(bare):.0f}")
    if show_bytes:
        for name, size in sorted(files.items(), key=lambda item: -item[1]):
            print(f"    {size / 1000:7.1f} kB  {name}")


SETTLE_MS = 5000  # ms: the page's first seconds are over (see bench_steps)


# A link followed as a reader follows it: the theme's instant navigation keeps the page and its worker.
FOLLOW = """(url) => { const a = document.createElement("a"); a.href = url; document.body.append(a); a.click(); a.remove(); }"""
NAVIGATED_SETTLE_MS = 1000  # after a link inside the site: the worker is warm, the page's first seconds long over


class Reader:
    """One page that goes from lab to lab by the site's links, as a reader does: the first lab is
    opened cold and left to settle, the next ones reuse its Python (only their own wheels load)."""

    def __init__(self, browser, base):
        self.browser, self.base, self.page = browser, base, None

    def open(self, lab):
        if self.page is None:
            self.page = open_ready(self.browser, self.base, lab)
            self.page.wait_for_timeout(SETTLE_MS)
        else:
            self.page.evaluate(FOLLOW, f"{self.base}{lab.path}")
            self.page.wait_for_selector(f"[data-lab='{lab.id}'][data-ready=true]", timeout=120_000)
            self.page.wait_for_timeout(NAVIGATED_SETTLE_MS)
        return self.page

    def close(self):
        if self.page is not None:
            self.page.close()


def bench_controls(reader, lab, out):
    """Every control moved (its ends, then random values) once the page has settled (see bench_steps)."""
    page = reader.open(lab)
    since = page.evaluate(LONG_TASKS)
    acts = [act(page, change) for change in changes(lab, random.Random(lab.id))]
    long_tasks = page.evaluate(LONG_TASKS_SINCE, since)
    if not acts:
        return
    out["controls"] = stats([t for t, _ in acts]) | {"long_tasks": long_tasks, "parts": parts(acts)}
    s = out["controls"]
    flag = "" if s["median"] <= 16 and s["p95"] <= 33 else "  ← fuori budget (16/33 ms)"
    print(f"  comando → vista: mediana {s['median']:.0f} ms, p95 {s['p95']:.0f} ms su {s['n']} cambi; "
          f"long task {long_tasks}{flag}\n    {say_parts(s['parts'])}")


def bench_steps(browser, base, lab, out):
    """«Avanti» at the first and at the last steps, jumps, Play to the end, and the first change after «ready».

    The first steps are measured twice: right after «ready», while the
    browser is still busy with the page's first seconds (the theme's search
    index, the wasm compiled again by the optimising tier, the labs' wheels),
    and again once the page has settled, as the last steps are; the budget
    is about the step, so it reads the settled numbers, and both are printed."""
    steps = lab.steps
    page = browser.new_page()
    page.goto(f"{base}{lab.path}")
    page.wait_for_selector("[data-lab][data-ready=true]", timeout=120_000)
    first = page.evaluate(ACT, [{}, "+1"])
    fresh = [page.evaluate(ACT, [{}, "+1"]) for _ in range(min(30, steps.max - 1))]
    page.evaluate(ACT, [{steps.name: str(max(0, steps.max - 31))}, None])
    late = [page.evaluate(ACT, [{}, "+1"]) for _ in range(min(30, steps.max))]
    backwards = [page.evaluate(ACT, [{}, "-1"]) for _ in range(min(20, steps.max))]
    back = page.evaluate(ACT, [{steps.name: "1"}, None])
    page.wait_for_timeout(SETTLE_MS)
    early_acts = [act(page, {}, "+1") for _ in range(min(30, steps.max - 1))]
    early = [t for t, _ in early_acts]
    page.evaluate(ACT, [{steps.name: "1"}, None])
    paced_acts = [act(page, {}, "+1", READER_PAUSE_MS) for _ in range(min(20, steps.max - 1))]
    paced = [t for t, _ in paced_acts]
    rng = random.Random(lab.id)
    jumps = [page.evaluate(ACT, [{steps.name: str(rng.randint(0, steps.max))}, None]) for _ in range(10)]
    page.evaluate(ACT, [{}, "reset"])
    play = page.evaluate(PLAY, steps.max)
    page.close()
    later = statistics.median(early)
    out["steps"] = {"first_change": round(first, 1), "avanti_right_after_ready": stats(fresh),
                    "avanti_first": stats(early) | {"parts": parts(early_acts)},
                    "avanti_reader_pace": stats(paced) | {"parts": parts(paced_acts)},
                    "avanti_last": stats(late), "indietro_from_end": stats(backwards), "back_to_1": round(back, 1),
                    "jumps": stats(jumps), "play_to_end_s": round(play / 1000, 2), "max": steps.max}
    print(f"  Avanti all'inizio: mediana {statistics.median(early):.0f} ms, p95 {p95(early):.0f} ms · "
          f"alla fine: mediana {statistics.median(late):.0f} ms, p95 {p95(late):.0f} ms (budget 16/33) · "
          f"all'inizio subito dopo «pronto»: mediana {statistics.median(fresh):.0f} ms, p95 {p95(fresh):.0f} ms")
    print(f"    all'inizio, dove va il tempo: {say_parts(out['steps']['avanti_first']['parts'])}")
    print(f"  Avanti al ritmo di un lettore (una pausa di {READER_PAUSE_MS} ms prima di ogni clic): "
          f"mediana {statistics.median(paced):.0f} ms, p95 {p95(paced):.0f} ms · "
          f"{say_parts(out['steps']['avanti_reader_pace']['parts'])}")
    print(f"  Indietro dalla fine, 20 volte: mediana {statistics.median(backwards):.0f} ms, "
          f"max {max(backwards):.0f} ms (budget 100) · salto indietro al passo 1: {back:.0f} ms · salti a caso: max {max(jumps):.0f} ms (budget 100) · "
          f"Play al massimo fino al passo {steps.max}: {play / 1000:.1f} s (budget 10 s) · "
          f"primo cambio dopo «pronto»: {first:.0f} ms = {first / later:.1f} × i successivi (budget 2 ×)")


def main():
    parser = argparse.ArgumentParser(description="Tempi di caricamento, dei comandi e dei passi, in Chromium.")
    parser.add_argument("--runs", type=int, default=3, help="caricamenti a freddo per laboratorio")
    parser.add_argument("--only", default="load,controls,steps", help="sezioni: load, controls, steps")
    parser.add_argument("--labs", default="", help="id dei laboratori, separati da virgole (tutti se vuoto)")
    parser.add_argument("--load-labs", default="ombrello,bigrammi,transformer-miniatura",
                        help="laboratori per i caricamenti a freddo (sono i più lenti da misurare)")
    parser.add_argument("--bytes", action="store_true", help="elenca i nostri file di ogni pagina con i loro byte gzip")
    parser.add_argument("--json", default="", help="scrivi anche i risultati in questo file")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    chosen = [lab for lab in labs.all_labs() if not args.labs or lab.id in args.labs.split(",")]
    server = bench_server()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    results = {}
    with sync_playwright() as p:
        browser = launch(p)
        reader = Reader(browser, base)
        for lab in chosen:
            print(f"{lab.ref} {lab.id}")
            out = results.setdefault(lab.id, {})
            if "load" in sections and lab.id in args.load_labs.split(","):
                bench_load(browser, base, lab, args.runs, out, args.bytes)
            if "controls" in sections:
                bench_controls(reader, lab, out)
            if "steps" in sections and lab.stepped:
                bench_steps(browser, base, lab, out)
        reader.close()
        browser.close()
    server.shutdown()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
