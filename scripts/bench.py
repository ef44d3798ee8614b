"""Load, interaction and stepping times of the built site in headless Chromium.

    python scripts/bench.py [--runs 3] [--only load,controls,steps,bpe] [--labs id,id] [--json out.json]

Timings vary between runs and machines, so the load times are reported as a
ratio to a baseline measured in the same run (bare Pyodide in a worker,
same server); run it twice to see the noise. Sections:

- load: per lab, a cold load (new browser context) to its first
  contentful paint, and our bytes (gzip) that the page needs before it is
  ready, beside Pyodide's own; for a sample of labs (--load-labs) --runs
  cold loads to data-ready, and their ratio to a bare page that only starts
  Pyodide (same server, same CSP, loads alternated; --bytes: file by file).
- controls: per lab, control → view updated, median and p95 over ≥ 30
  changes spread over every control (ends and random values), then at the
  expensive corner (every control at its costliest value, found in
  CPython by bench_compute.py, then each control moved a notch and back),
  and main thread long tasks (> 50 ms) while they are made. One page goes
  from lab to lab by the site's links, as a reader does (the worker stays
  warm). The lightest lab of the run is the baseline: each lab's median is
  also given as a multiple of its median.
- steps: per stepped lab, «Avanti» median/p95 at the first and at the last
  steps as fast as a hand clicks (HAND_PAUSE_MS before each click: the
  pace the budget is judged at), one click as soon as the last is drawn
  (printed, not judged: a program's pace) and at a reader's pace (a longer
  pause, in which the worker draws the next step ahead),
  «Indietro» from the last step, a jump back to step 1 and to random
  steps, Play at the fastest speed to the end (on a lab without a Play
  budget, to step PLAY_LIMIT at most and the rest extrapolated), and the
  first change after «ready» against the changes after it on the same
  page (FIRST_LOADS cold loads);
  on 9A also Play over a 100 kB corpus pasted into the page.
- bpe: core.bpe.train on 1 MB → 2,000 merges and on 100 kB → 1,000 in
  CPython, the second against bench_bpe.py's recount-every-merge reference
  (same merges, and the ratio); and 100 kB → 1,000 in Chromium, in a worker
  that starts the site's Pyodide with only the core.bpe wheel.

At the end one table, a line per lab, says which budgets each misses.

A change is timed from the input to the view updated and laid out (the
layout the browser would do before the next paint is done at once and
counted, for every lab alike). Each change also says where its time went
(root.labTiming, from scripts/measure.js, which the bench injects): in Python, waiting for the worker (a view still
being drawn ahead, messages), on the page (morph, controls) and in the layout.

Budgets (issues 7 and 11) are printed beside each number and in the last
table; nothing asserts.
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
# the measurement the site does not ship (root.labTiming, labsMeasure.times): injected before the page's scripts
MEASURE = ROOT / "scripts" / "measure.js"
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))
from bench_compute import corner, raw  # noqa: E402
from bench_plan import changes, p95  # noqa: E402
from serve import make_server  # noqa: E402

import labs  # noqa: E402

FLAGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
]

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
# step (~35 ms in Chromium) that the worker cannot have drawn ahead in the few ms since the last click.
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
PLAY_BUDGET = ("bigrammi", "bpe")  # the labs whose Play has a budget (issue 7): always played to the end
PLAY_LIMIT = 200  # steps: how far the others play (3.2's thousand real training steps would take ~50 s)

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


def bench_load(browser, base, lab, runs, out, show_bytes=False):
    paint, ready, bare, phases, bare_start = [], [], [], [], []
    for run in range(runs):
        # alternate which goes first, so a slow moment of the machine does not always fall on the same one
        for which in ("lab", "bare") if run % 2 == 0 else ("bare", "lab"):
            context = browser.new_context()
            context.add_init_script(READY_TIME)
            context.add_init_script(path=str(MEASURE))
            page = context.new_page()
            page.goto(f"{base}{lab.path}" if which == "lab" else f"{base}__bench/bare.html")
            page.wait_for_selector("[data-ready=true]", timeout=120_000)
            (ready if which == "lab" else bare).append(page.evaluate("window.__ready"))
            if which == "lab":
                paint.append(
                    page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN")
                )
                phases.append(page.evaluate("window.labsMeasure.times"))
            else:
                bare_start.append(page.evaluate("window.__start"))
            context.close()
    ratio = statistics.median(ready) / statistics.median(bare)
    files = our_files(lab)
    out["load"] = {
        "fcp": stats(paint),
        "ready": stats(ready),
        "bare_pyodide": stats(bare),
        "ratio": round(ratio, 2),
        "our_gzip_bytes": sum(files.values()),
        "files": files,
    }
    print(
        f"  carico a freddo: FCP {statistics.median(paint):.0f} ms · pronto {statistics.median(ready):.0f} ms · "
        f"Pyodide da solo {statistics.median(bare):.0f} ms · rapporto {ratio:.2f} (budget ≤ 1,05) · "
        f"nostri byte gzip {sum(files.values()) / 1000:.0f} kB (budget ≤ 300; Pyodide {pyodide_bytes() / 1e6:.1f} MB)"
    )
    # where the lab page's time goes: worker started, runtime downloaded, Python and the lab's wheels in, ready
    marks = {
        name: statistics.median(p[name] for p in phases)
        for name in ("start", "python", "labs", "ready")
        if all(name in p for p in phases)
    }
    out["load"]["phases"] = marks | {"bare_start": statistics.median(bare_start)}
    print(
        "  fasi (ms dalla navigazione, mediane): "
        + " · ".join(f"{k} {v:.0f}" for k, v in marks.items())
        + f" · Pyodide da solo: worker a {statistics.median(bare_start):.0f}, pronto a {statistics.median(bare):.0f}"
    )
    if show_bytes:
        for name, size in sorted(files.items(), key=lambda item: -item[1]):
            print(f"    {size / 1000:7.1f} kB  {name}")


@functools.cache
def pyodide_bytes():
    """Pyodide's own files that every lab page fetches before it is ready (gzip), apart from ours."""
    runtime = SITE / "pyodide"
    return sum(
        gzip_size(runtime / name)
        for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
    )


def bench_fcp(browser, base, lab, out):
    """One cold load (new browser context) to its first contentful paint, and our bytes; the labs of
    --load-labs get more (bench_load)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}{lab.path}")
    paint = page.evaluate(FCP)
    context.close()
    files = our_files(lab)
    out["load"] = {"fcp": stats([paint]), "our_gzip_bytes": sum(files.values()), "files": files}
    print(
        f"  carico a freddo: FCP {paint:.0f} ms · nostri byte gzip {sum(files.values()) / 1000:.0f} kB "
        f"(budget ≤ 300; Pyodide {pyodide_bytes() / 1e6:.1f} MB)"
    )


# ms: the page's first seconds are over (see bench_steps; after 3 s, the first steps of 3.1, 9A and 9G read
# 26–36 ms against 16–23 after 5 s)
SETTLE_MS = 5000


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


def within(s):
    """True if a control → view statistics are within issue 11's budget."""
    return s["median"] <= 16 and s["p95"] <= 33


def corner_of(lab):
    """The lab's expensive corner (bench_compute.corner: the costliest value of each control, in CPython), as
    the changes from the defaults."""
    start = {name: raw(value) for name, value in lab.defaults().items()}
    labs.render_json(lab.id, json.dumps(start))
    return {k: v for k, v in corner(lab, start, 1).items() if start.get(k) != v}


def notches(lab, at, limit=12):
    """From the settings `at` (the defaults where it says nothing), each control moved a notch (a slider's
    step toward its middle, the next option, the other state) and back: at most `limit` changes."""
    plan = []
    for c in lab.params_list:
        now = at.get(c.name, raw(lab.defaults()[c.name]))
        if c.kind == "slider":
            value = float(now)
            moved = str(c.parse(value - c.step if value > (c.min + c.max) / 2 else value + c.step))
        elif c.kind == "choice":
            values = [v for v, _ in c.options]
            moved = values[(values.index(now) + 1) % len(values)]
        elif c.kind == "toggle":
            moved = "0" if now == "1" else "1"
        else:
            continue
        plan += [{c.name: moved}, {c.name: now}]
    return plan[:limit]


def bench_controls(reader, lab, out):
    """Every control moved (its ends, then random values) once the page has settled (see bench_steps),
    then the expensive corner reached and each control moved a notch there and back."""
    page = reader.open(lab)
    since = page.evaluate(LONG_TASKS)
    acts = [act(page, change) for change in changes(lab, random.Random(lab.id))]
    if not acts:
        return
    corner = corner_of(lab)
    act(page, corner)  # every control at once: no reader's single change, so not counted
    at_corner = [act(page, change) for change in notches(lab, corner)]
    long_tasks = page.evaluate(LONG_TASKS_SINCE, since)
    out["controls"] = stats([t for t, _ in acts]) | {"long_tasks": long_tasks, "parts": parts(acts)}
    out["corner"] = stats([t for t, _ in at_corner]) | {"params": corner, "parts": parts(at_corner)}
    s, c = out["controls"], out["corner"]
    flag = lambda stats: "" if within(stats) else "  ← fuori budget (16/33 ms)"  # noqa: E731
    print(
        f"  comando → vista: mediana {s['median']:.0f} ms, p95 {s['p95']:.0f} ms su {s['n']} cambi; "
        f"long task {long_tasks}{flag(s)}\n    {say_parts(s['parts'])}"
    )
    where = [f"{k}={v}" for k, v in corner.items()]
    where = ", ".join(where[:5]) + (f" e altri {len(where) - 5}" if len(where) > 5 else "") or "i valori iniziali"
    print(
        f"  all'angolo costoso ({where}): "
        f"mediana {c['median']:.0f} ms, p95 {c['p95']:.0f} ms su {c['n']} cambi{flag(c)}\n    {say_parts(c['parts'])}"
    )


FIRST_LOADS = 5  # cold loads whose first change after «ready» is timed: one alone moved between 1.3 × and 4 ×
LATER_CHANGES = 8  # the changes after it on the same page, at a reader's pace: what the first is set against


def first_change(browser, base, lab):
    """ms: «Avanti» (step 0 → 1) as soon as a freshly loaded page says «ready», and the LATER_CHANGES
    «Avanti» after it on the same page, each after READER_PAUSE_MS: ((ms, where it went), [ms])."""
    page = open_ready(browser, base, lab)
    first = act(page, {}, "+1")
    later = [act(page, {}, "+1", READER_PAUSE_MS)[0] for _ in range(min(LATER_CHANGES, lab.steps.max - 1))]
    page.close()
    return first, later


def bench_steps(browser, base, lab, out):
    """«Avanti» at the first and at the last steps, jumps, Play to the end, and the first change after «ready».

    The first steps are measured twice: right after «ready», while the
    browser is still busy with the page's first seconds (the theme's search
    index, the wasm compiled again by the optimising tier, the labs' wheels),
    and again once the page has settled, as the last steps are; the budget
    is about the step, so it reads the settled numbers, and both are printed.
    The first change after «ready» is the issue's «≤ 2 × the median of later
    changes»: on FIRST_LOADS cold loads, «Avanti» at once, then LATER_CHANGES
    more on the same page at a reader's pace; the median of the firsts is set
    against the median of all the later ones. Printed beside it, not judged:
    the same change (step 0 to 1) made again on a page that has made some
    sixty changes (a page warmed that long is not what the budget asks)."""
    steps = lab.steps
    page = open_ready(browser, base, lab)
    fresh = [page.evaluate(ACT, [{}, "+1"]) for _ in range(min(30, steps.max - 1))]
    page.evaluate(ACT, [{steps.name: str(max(0, steps.max - 31))}, None])
    late = [page.evaluate(ACT, [{}, "+1"]) for _ in range(min(30, steps.max))]
    backwards = [page.evaluate(ACT, [{}, "-1"]) for _ in range(min(20, steps.max))]
    back = page.evaluate(ACT, [{steps.name: "1"}, None])
    page.wait_for_timeout(SETTLE_MS)
    early_acts = [act(page, {}, "+1") for _ in range(min(30, steps.max - 1))]
    early = [t for t, _ in early_acts]
    again = []
    for _ in range(3):
        page.evaluate(ACT, [{steps.name: "0"}, None])
        again.append(page.evaluate(ACT, [{}, "+1"]))
    page.evaluate(ACT, [{steps.name: "1"}, None])
    hand_acts = [act(page, {}, "+1", HAND_PAUSE_MS) for _ in range(min(20, steps.max - 1))]
    page.evaluate(ACT, [{steps.name: str(max(0, steps.max - 21))}, None])
    hand_late_acts = [act(page, {}, "+1", HAND_PAUSE_MS) for _ in range(min(20, steps.max))]
    page.evaluate(ACT, [{steps.name: "1"}, None])
    paced_acts = [act(page, {}, "+1", READER_PAUSE_MS) for _ in range(min(12, steps.max - 1))]
    paced = [t for t, _ in paced_acts]
    page.evaluate(ACT, [{steps.name: str(max(0, steps.max - 13))}, None])
    paced_late_acts = [act(page, {}, "+1", READER_PAUSE_MS) for _ in range(min(12, steps.max))]
    paced_late = [t for t, _ in paced_late_acts]
    rng = random.Random(lab.id)
    jumps = [page.evaluate(ACT, [{steps.name: str(rng.randint(0, steps.max))}, None]) for _ in range(10)]
    page.evaluate(ACT, [{}, "reset"])
    until = steps.max if lab.id in PLAY_BUDGET else min(steps.max, PLAY_LIMIT)
    play = page.evaluate(PLAY, until) / 1000
    pasted = play_pasted(page, lab) if lab.id == "bpe" else None
    page.close()
    loads = [first_change(browser, base, lab) for _ in range(FIRST_LOADS)]
    first_acts = [first for first, _ in loads]
    firsts = [t for t, _ in first_acts]
    first = statistics.median(firsts)
    later = statistics.median([t for _, times in loads for t in times])
    settled = statistics.median(again)
    out["steps"] = {
        "first_change": round(first, 1),
        "first_changes": [round(t, 1) for t in firsts],
        "first_change_later": round(later, 1),
        "first_change_parts": parts(first_acts),
        "first_change_settled": round(settled, 1),
        "avanti_right_after_ready": stats(fresh),
        "avanti_first": stats(early) | {"parts": parts(early_acts)},
        "avanti_hand": stats([t for t, _ in hand_acts]) | {"parts": parts(hand_acts)},
        "avanti_hand_last": stats([t for t, _ in hand_late_acts]) | {"parts": parts(hand_late_acts)},
        "avanti_reader_pace": stats(paced) | {"parts": parts(paced_acts)},
        "avanti_reader_pace_last": stats(paced_late) | {"parts": parts(paced_late_acts)},
        "avanti_last": stats(late),
        "indietro_from_end": stats(backwards),
        "back_to_1": round(back, 1),
        "jumps": stats(jumps),
        "play_s": round(play, 2),
        "play_until": until,
        "play_to_end_s": round(play * steps.max / until, 2),
        "max": steps.max,
    }
    if pasted is not None:
        out["steps"]["play_pasted_s"] = round(pasted, 2)
    hand, hand_late = out["steps"]["avanti_hand"], out["steps"]["avanti_hand_last"]
    print(
        f"  Avanti alla velocità di una mano (una pausa di {HAND_PAUSE_MS} ms prima di ogni clic): all'inizio "
        f"mediana {hand['median']:.0f} ms, p95 {hand['p95']:.0f} ms · alla fine mediana {hand_late['median']:.0f} ms, "
        f"p95 {hand_late['p95']:.0f} ms (budget 16/33)\n    all'inizio {say_parts(hand['parts'])}; "
        f"alla fine {say_parts(hand_late['parts'])}"
    )
    print(
        f"  Avanti di fila (un clic appena disegnata la vista, non giudicato): all'inizio mediana "
        f"{statistics.median(early):.0f} ms, p95 {p95(early):.0f} ms · alla fine: mediana "
        f"{statistics.median(late):.0f} ms, p95 {p95(late):.0f} ms · all'inizio subito dopo «pronto»: mediana "
        f"{statistics.median(fresh):.0f} ms, p95 {p95(fresh):.0f} ms"
    )
    print(f"    all'inizio, dove va il tempo: {say_parts(out['steps']['avanti_first']['parts'])}")
    print(
        f"  Avanti al ritmo di un lettore (una pausa di {READER_PAUSE_MS} ms prima di ogni clic): "
        f"all'inizio mediana {statistics.median(paced):.0f} ms, p95 {p95(paced):.0f} ms · "
        f"{say_parts(out['steps']['avanti_reader_pace']['parts'])}; alla fine mediana "
        f"{statistics.median(paced_late):.0f} ms, p95 {p95(paced_late):.0f} ms · "
        f"{say_parts(out['steps']['avanti_reader_pace_last']['parts'])}"
    )
    print(
        f"  Indietro dalla fine, 20 volte: mediana {statistics.median(backwards):.0f} ms, "
        f"max {max(backwards):.0f} ms (budget 100) · salto indietro al passo 1: {back:.0f} ms · salti a caso: max {max(jumps):.0f} ms (budget 100) · "
        + (
            f"Play al massimo fino al passo {steps.max}: {play:.1f} s"
            if until == steps.max
            else f"Play al massimo fino al passo {until}: {play:.1f} s, fino al {steps.max} (stimato): "
            f"{play * steps.max / until:.1f} s"
        )
        + " (budget 10 s per 3.1 e 9A) · "
        f"primo cambio dopo «pronto» (passo 0 → 1, mediana di {FIRST_LOADS} caricamenti: "
        f"{', '.join(f'{t:.0f}' for t in firsts)}): {first:.0f} ms = {first / later:.1f} × la mediana dei "
        f"{LATER_CHANGES} Avanti dopo, sulla stessa pagina, {later:.0f} ms (budget 2 ×; il primo: "
        f"{say_parts(out['steps']['first_change_parts'])}); "
        f"{first / settled:.1f} × lo stesso cambio su una pagina che ne ha fatti una sessantina, {settled:.0f} ms"
    )
    if pasted is not None:
        print(
            f"  Play al massimo sulle {steps.max} fusioni di un corpus di {lab.module.MAX_CORPUS / 1000:.0f} kB appena incollato: "
            f"{pasted:.1f} s (budget 10 s)"
        )


@functools.cache
def italian_text(size):
    """size characters of bench_bpe.py's Italian-like text (the same for every run)."""
    from bench_bpe import italian_like

    return italian_like(size)


def play_pasted(page, lab):
    """9A: Play at the fastest speed over its merges on a corpus of lab.MAX_CORPUS characters just pasted
    into the page (a new machine: no merge learned yet), in s."""
    page.evaluate(ACT, [{}, "reset"])
    page.evaluate(ACT, [{"corpus": italian_text(lab.module.MAX_CORPUS)}, None])
    return page.evaluate(PLAY, lab.steps.max) / 1000


# A bench page whose worker starts the site's Pyodide with only the wheel of core.bpe, and trains there.
BPE_PAGE = b"""<!doctype html><meta charset="utf-8"><title>BPE</title>
<script type="module" src="bpe.js"></script>"""
BPE_SCRIPT = b"""const worker = new Worker(new URL("bpe-worker.js", import.meta.url), { type: "module" });
window.train = (message) => new Promise((resolve) => {
  worker.onmessage = ({ data }) => resolve(data);
  worker.postMessage(message);
});
document.documentElement.dataset.ready = "true";"""
BPE_WORKER = b"""import { loadPyodide } from "../pyodide/pyodide.mjs";
let pyodide = null;
onmessage = async ({ data }) => {
  pyodide ??= await loadPyodide({ indexURL: new URL("../pyodide/", import.meta.url).href,
                                  lockFileURL: new URL(`../pyodide/${data.lockfile}`, import.meta.url).href });
  await pyodide.loadPackage(data.package);
  pyodide.globals.set("TEXT", data.text);
  pyodide.globals.set("MERGES", data.merges);
  postMessage(JSON.parse(pyodide.runPython(`
import json, time
from core import bpe
start = time.perf_counter()
merges = bpe.train(TEXT, MERGES)
json.dumps({"seconds": time.perf_counter() - start, "merges": [list(m) for m in merges]})`)));
};"""
BARE.update(
    {
        "bpe.html": (BPE_PAGE, "text/html"),
        "bpe.js": (BPE_SCRIPT, "text/javascript"),
        "bpe-worker.js": (BPE_WORKER, "text/javascript"),
    }
)
# issue 11: 1 MB → 2,000 merges in CPython ≤ 2 s, 100 kB → 1,000 in the browser ≤ 3 s
BPE_BUDGETS = {"cpython_1mb_s": ("1 MB in CPython", 2.0), "chromium_100kb_s": ("100 kB in Chromium", 3.0)}
NAIVE_MERGES = 300  # the reference recounts the whole text at each merge: ~20 ms a merge on 100 kB here


def bench_bpe(browser, base):
    """core.bpe.train in CPython (1 MB → 2,000 merges; 100 kB → 1,000, whose first NAIVE_MERGES are checked
    against the recount-every-merge reference) and in Chromium (100 kB → 1,000, the site's Pyodide in a
    worker, checked against CPython's)."""
    from bench_bpe import naive_train, timed

    from core import bpe

    big, small = italian_text(1_000_000), italian_text(100_000)
    _, big_s, big_cpu = timed(bpe.train, big, 2000)
    fast, small_s, _ = timed(bpe.train, small, 1000)
    first, first_s, _ = timed(bpe.train, small, NAIVE_MERGES)
    slow, naive_s, _ = timed(naive_train, small, NAIVE_MERGES)
    lab_page = (SITE / labs.get("bpe").path / "index.html").read_text(encoding="utf-8")
    page = browser.new_page()
    page.goto(f"{base}__bench/bpe.html")
    page.wait_for_selector("[data-ready=true]")
    chromium = page.evaluate(
        "(message) => window.train(message)",
        {
            "lockfile": re.search(r'data-lockfile="([^"]+)"', lab_page).group(1),
            "package": "laboratori-llm-core-bpe",
            "text": small,
            "merges": 1000,
        },
    )
    page.close()
    out = {
        "cpython_1mb_s": round(big_s, 2),
        "cpython_1mb_cpu_s": round(big_cpu, 2),
        "cpython_100kb_s": round(small_s, 3),
        "naive_merges": NAIVE_MERGES,
        "cpython_100kb_naive_merges_s": round(first_s, 3),
        "naive_100kb_s": round(naive_s, 2),
        "ratio": round(naive_s / first_s),
        "same_merges": first == slow == fast[:NAIVE_MERGES] and len(fast) == 1000,
        "chromium_100kb_s": round(chromium["seconds"], 2),
        "chromium_same_merges": chromium["merges"] == [list(m) for m in fast],
    }
    yes = {True: "sì", False: "NO"}
    print(
        f"BPE, core.bpe.train: 1 MB → 2.000 fusioni in CPython {big_s:.2f} s (CPU {big_cpu:.2f} s; budget 2 s) · "
        f"100 kB → 1.000: {small_s:.2f} s; le prime {NAIVE_MERGES}: {first_s:.2f} s contro {naive_s:.1f} s del "
        f"riconteggio a ogni fusione ({out['ratio']}×, stesse fusioni: {yes[out['same_merges']]}) · "
        f"in Chromium 100 kB → 1.000: {chromium['seconds']:.2f} s "
        f"(budget 3 s; stesse fusioni di CPython: {yes[out['chromium_same_merges']]})"
    )
    return out


def worst_jump(steps):
    """ms: the slowest of «Indietro» from the end, the jump back to step 1 and the random jumps (p95 of each)."""
    return max(steps["indietro_from_end"]["p95"], steps["back_to_1"], steps["jumps"]["p95"])


def misses(lab, r):
    """The budgets (issues 7 and 11) that a lab's results miss, by a short name each."""
    out = []
    load, steps = r.get("load", {}), r.get("steps")
    if load.get("ratio", 0) > 1.05:
        out.append("pronto")
    if load.get("our_gzip_bytes", 0) > 300_000:
        out.append("byte")
    out += [name for name, key in (("comandi", "controls"), ("angolo", "corner")) if key in r and not within(r[key])]
    if steps:
        if not (within(steps["avanti_hand"]) and within(steps["avanti_hand_last"])):
            out.append("Avanti")
        if worst_jump(steps) > 100:
            out.append("salti")
        plays = [steps["play_to_end_s"]] if lab.id in PLAY_BUDGET else []
        if any(play > 10 for play in plays + [steps.get("play_pasted_s", 0)]):
            out.append("Play")
        if steps["first_change"] > 2 * steps["first_change_later"]:
            out.append("primo")
    return out


def summary(chosen, results, bpe_train):
    """The whole run in one table: a line per lab with the numbers its budgets read, and which it misses."""
    medians = {lab.id: results[lab.id]["controls"]["median"] for lab in chosen if "controls" in results[lab.id]}
    lightest = min(medians, key=medians.get) if medians else None
    pair = lambda s: f"{s['median']:.0f}/{s['p95']:.0f}" if s else "–"  # noqa: E731
    header = (
        "lab",
        "FCP",
        "pronto",
        "kB",
        "comandi",
        "× base",
        "angolo",
        "long",
        "Avanti 1°",
        "Avanti ult.",
        "di fila",
        "salti",
        "Play s",
        "primo",
        "fuori budget",
    )
    rows = []
    for lab in chosen:
        r = results[lab.id]
        load, steps, controls = r.get("load", {}), r.get("steps"), r.get("controls")
        play = steps and (
            f"{steps['play_to_end_s']:.1f}"
            + ("*" if steps["play_until"] < steps["max"] else "")
            + (f" · {steps['play_pasted_s']:.1f}" if "play_pasted_s" in steps else "")
        )
        rows.append(
            (
                f"{lab.ref} {lab.id}",
                f"{load['fcp']['median']:.0f}" if "fcp" in load else "–",
                f"{load['ratio']:.2f}×" if "ratio" in load else "–",
                f"{load['our_gzip_bytes'] / 1000:.0f}" if "our_gzip_bytes" in load else "–",
                pair(controls),
                f"{medians[lab.id] / medians[lightest]:.1f}" if controls else "–",
                pair(r.get("corner")),
                str(controls["long_tasks"]) if controls else "–",
                pair(steps and steps["avanti_hand"]),
                pair(steps and steps["avanti_hand_last"]),
                f"{steps['avanti_first']['median']:.0f}·{steps['avanti_last']['median']:.0f}" if steps else "–",
                f"{worst_jump(steps):.0f}" if steps else "–",
                play or "–",
                f"{steps['first_change'] / steps['first_change_later']:.1f}×" if steps else "–",
                ", ".join(misses(lab, r)) or "—",
            )
        )
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print(
        "\nRiepilogo (ms; med/p95; budget: comandi, angolo e Avanti 16/33, salti 100, Play 10 s per 3.1 e 9A, "
        "primo cambio 2 × la mediana dei cambi dopo, pronto 1,05 × Pyodide da solo, 300 kB)"
    )
    for row in [header, *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    missing = [row for row in rows if row[-1] != "—"]
    if lightest:
        print(
            f"× base: la mediana dei comandi divisa per quella del laboratorio più leggero di questa corsa, "
            f"{labs.get(lightest).ref} {lightest} ({medians[lightest]:.0f} ms). "
            f"Avanti alla velocità di una mano (una pausa di {HAND_PAUSE_MS} ms tra un clic e l'altro); «di fila»: "
            f"le mediane al primo e agli ultimi passi con un clic appena disegnata la vista, non giudicate. "
            f"Play*: fino al passo {PLAY_LIMIT}, il resto stimato; dopo «·», 9A su un corpus di 100 kB incollato."
        )
    print(f"{len(missing)} laboratori su {len(rows)} fuori da almeno un budget.")
    if bpe_train:
        budget = [name for key, (name, limit) in BPE_BUDGETS.items() if bpe_train[key] > limit]
        wrong = [
            name
            for key, name in (("same_merges", "riconteggio"), ("chromium_same_merges", "Chromium"))
            if not bpe_train[key]
        ]
        print(
            "BPE: "
            + ("entro i budget" if not budget else "fuori budget: " + ", ".join(budget))
            + ("" if not wrong else "; FUSIONI DIVERSE da core.bpe.train in CPython: " + ", ".join(wrong))
        )
    return {"lightest": lightest, "rows": [dict(zip(header, row)) for row in rows]}


def main():
    parser = argparse.ArgumentParser(description="Tempi di caricamento, dei comandi e dei passi, in Chromium.")
    parser.add_argument("--runs", type=int, default=3, help="caricamenti a freddo per laboratorio")
    parser.add_argument("--only", default="load,controls,steps,bpe", help="sezioni: load, controls, steps, bpe")
    parser.add_argument("--labs", default="", help="id dei laboratori, separati da virgole (tutti se vuoto)")
    parser.add_argument(
        "--load-labs",
        default="ombrello,bigrammi,transformer-miniatura",
        help="laboratori per i caricamenti a freddo (sono i più lenti da misurare)",
    )
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
            elif "load" in sections:
                bench_fcp(browser, base, lab, out)
            if "controls" in sections:
                bench_controls(reader, lab, out)
            if "steps" in sections and lab.stepped:
                bench_steps(browser, base, lab, out)
        reader.close()
        bpe_train = bench_bpe(browser, base) if "bpe" in sections else None
        browser.close()
    server.shutdown()
    table = summary(chosen, results, bpe_train)
    if args.json:
        pyodide = {"pyodide_gzip_bytes": pyodide_bytes()} if "load" in sections else {}  # 10 MB gzipped: only if used
        everything = {"labs": results, "bpe_train": bpe_train, **pyodide} | table
        Path(args.json).write_text(json.dumps(everything, indent=2, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
