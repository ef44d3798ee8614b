"""Load, interaction and stepping times of the built site in headless Chromium.

    python scripts/bench.py [--runs 3] [--only load,controls,steps] [--labs id,id] [--json out.json]

Timings vary between runs and machines, so the load times are reported as a
ratio to a baseline measured in the same run (bare Pyodide in a worker,
same server); run it twice to see the noise. Sections:

- load: per lab, cold loads (new browser context each): first contentful
  paint of the prerendered lab, data-ready, and its ratio to bare Pyodide;
  our bytes (gzip) vs Pyodide's own.
- controls: per lab, control → view updated, median and p95 over ≥ 30
  changes spread over every control (ends and random values), and main
  thread long tasks (> 50 ms) after first paint.
- steps: per stepped lab, «Avanti» median/p95 at the first and at the last
  steps, a jump back to step 1 and to random steps, Play at the fastest speed
  to the end, and the first change after «ready».

Budgets (issues 7 and 11) are printed beside each number; nothing asserts.
"""

import argparse
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

BARE_PYODIDE = """async (base) => {
  const t0 = performance.now();
  const source = `import { loadPyodide } from "${base}pyodide/pyodide.mjs";
    await loadPyodide({ indexURL: "${base}pyodide/" }); postMessage("ok");`;
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" });
  await new Promise((resolve, reject) => { worker.onmessage = resolve; worker.onerror = reject; });
  return performance.now() - t0;
}"""

# Set controls (or press a timeline button) and wait until the view is drawn.
ACT = """async ([values, button]) => {
  const root = document.querySelector("[data-lab]");
  const idle = () => new Promise((resolve) => {
    const done = () => root.dataset.busy === undefined;
    if (done()) return resolve();
    new MutationObserver((_, observer) => { if (done()) { observer.disconnect(); resolve(); } })
      .observe(root, { attributes: true, attributeFilter: ["data-busy"] });
  });
  await idle();
  const t0 = performance.now();
  if (button) root.querySelector(`[data-step="${button}"]`).click();
  for (const [name, value] of Object.entries(values)) {
    const input = root.querySelector(`[data-param="${name}"]`);
    if (input.type === "checkbox") input.checked = value === "1"; else input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  await idle();
  return performance.now() - t0;
}"""

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

LONG_TASKS = """() => { window.__long = []; new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: "longtask", buffered: true }); }"""


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


def our_bytes(lab):
    """gzip bytes of what a lab page loads that is ours (Pyodide's own files apart)."""
    page = SITE / lab.path / "index.html"
    text = page.read_text(encoding="utf-8")
    linked = {(page.parent / ref.split("?")[0]).resolve()
              for ref in re.findall(r'(?:href|src)="([^"#]+\.(?:css|js|mjs))', text) if "://" not in ref}
    linked |= set((SITE / "assets" / "labs").rglob("*.js"))  # the runtime's own imports and its worker
    ours = gzip_size(page) + sum(gzip_size(f) for f in linked if f.is_file())
    runtime = SITE / "pyodide"
    ours += sum(gzip_size(f) for f in runtime.glob("*.whl")) + gzip_size(runtime / "pyodide-lock.json")
    return ours


def bench_load(browser, base, lab, runs, out):
    paint, ready, bare = [], [], []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{base}{lab.path}")
        page.wait_for_selector("[data-lab][data-ready=true]", timeout=120_000)
        ready.append(page.evaluate("performance.now()"))
        paint.append(page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN"))
        context.close()
        context = browser.new_context()
        page = context.new_page()
        page.goto(base + "404.html")
        bare.append(page.evaluate(BARE_PYODIDE, base))
        context.close()
    ratio = statistics.median(ready) / statistics.median(bare)
    out["load"] = {"fcp": stats(paint), "ready": stats(ready), "bare_pyodide": stats(bare), "ratio": round(ratio, 2),
                   "our_gzip_bytes": our_bytes(lab)}
    print(f"  carico a freddo: FCP {statistics.median(paint):.0f} ms · pronto {statistics.median(ready):.0f} ms · "
          f"Pyodide da solo {statistics.median(bare):.0f} ms · rapporto {ratio:.2f} (budget ≤ 1,05) · "
          f"nostri byte gzip {out['load']['our_gzip_bytes'] / 1000:.0f} kB (budget ≤ 300)")


def bench_controls(browser, base, lab, out):
    page = open_ready(browser, base, lab)
    page.evaluate(LONG_TASKS)
    times = [page.evaluate(ACT, [change, None]) for change in changes(lab, random.Random(lab.id))]
    long_tasks = page.evaluate("window.__long.length")
    page.close()
    if not times:
        return
    out["controls"] = stats(times) | {"long_tasks": long_tasks}
    s = out["controls"]
    flag = "" if s["median"] <= 16 and s["p95"] <= 33 else "  ← fuori budget (16/33 ms)"
    print(f"  comando → vista: mediana {s['median']:.0f} ms, p95 {s['p95']:.0f} ms su {s['n']} cambi; "
          f"long task {long_tasks}{flag}")


def bench_steps(browser, base, lab, out):
    steps = lab.steps
    page = browser.new_page()
    page.goto(f"{base}{lab.path}")
    page.wait_for_selector("[data-lab][data-ready=true]", timeout=120_000)
    first = page.evaluate(ACT, [{}, "+1"])
    early = [page.evaluate(ACT, [{}, "+1"]) for _ in range(min(30, steps.max - 1))]
    page.evaluate(ACT, [{steps.name: str(max(0, steps.max - 31))}, None])
    late = [page.evaluate(ACT, [{}, "+1"]) for _ in range(min(30, steps.max))]
    back = page.evaluate(ACT, [{steps.name: "1"}, None])
    rng = random.Random(lab.id)
    jumps = [page.evaluate(ACT, [{steps.name: str(rng.randint(0, steps.max))}, None]) for _ in range(10)]
    page.evaluate(ACT, [{}, "reset"])
    play = page.evaluate(PLAY, steps.max)
    page.close()
    later = statistics.median(early[1:] or early)
    out["steps"] = {"first_change": round(first, 1), "avanti_first": stats(early), "avanti_last": stats(late),
                    "back_to_1": round(back, 1), "jumps": stats(jumps), "play_to_end_s": round(play / 1000, 2),
                    "max": steps.max}
    print(f"  Avanti all'inizio: mediana {statistics.median(early):.0f} ms, p95 {p95(early):.0f} ms · "
          f"alla fine: mediana {statistics.median(late):.0f} ms, p95 {p95(late):.0f} ms (budget 16/33)")
    print(f"  salto indietro al passo 1: {back:.0f} ms · salti a caso: max {max(jumps):.0f} ms (budget 100) · "
          f"Play al massimo fino al passo {steps.max}: {play / 1000:.1f} s (budget 10 s) · "
          f"primo cambio dopo «pronto»: {first:.0f} ms = {first / later:.1f} × i successivi (budget 2 ×)")


def main():
    parser = argparse.ArgumentParser(description="Tempi di caricamento, dei comandi e dei passi, in Chromium.")
    parser.add_argument("--runs", type=int, default=3, help="caricamenti a freddo per laboratorio")
    parser.add_argument("--only", default="load,controls,steps", help="sezioni: load, controls, steps")
    parser.add_argument("--labs", default="", help="id dei laboratori, separati da virgole (tutti se vuoto)")
    parser.add_argument("--load-labs", default="ombrello,bigrammi,transformer-miniatura",
                        help="laboratori per i caricamenti a freddo (sono i più lenti da misurare)")
    parser.add_argument("--json", default="", help="scrivi anche i risultati in questo file")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    chosen = [lab for lab in labs.all_labs() if not args.labs or lab.id in args.labs.split(",")]
    server = make_server(SITE)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    results = {}
    with sync_playwright() as p:
        browser = launch(p)
        for lab in chosen:
            print(f"{lab.ref} {lab.id}")
            out = results.setdefault(lab.id, {})
            if "load" in sections and lab.id in args.load_labs.split(","):
                bench_load(browser, base, lab, args.runs, out)
            if "controls" in sections:
                bench_controls(browser, base, lab, out)
            if "steps" in sections and lab.stepped:
                bench_steps(browser, base, lab, out)
        browser.close()
    server.shutdown()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
