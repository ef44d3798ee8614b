"""Load and interaction times of the built site in headless Chromium.

    python scripts/bench.py [--runs 5] [--lab ombrello] [--change lab:name=value ...]

Prints medians (ms) of:
- cold loads of a lab page (new browser context each time, empty cache):
  first paint with the prerendered lab, and data-ready (Python interactive);
- bare Pyodide start in a worker, from the same server in the same run
  (the baseline: what the lab adds on top of it is the ratio);
- for each --change, one control change → view updated, measured in the page.
"""

import argparse
import os
import shutil
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
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

CHANGE = """async ([name, value]) => {
  const root = document.querySelector("[data-lab]");
  const input = root.querySelector(`[data-param="${name}"]`);
  const t0 = performance.now();
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  await new Promise((resolve) => {
    const done = () => root.dataset.busy === undefined;
    if (done()) return resolve();
    new MutationObserver((_, observer) => { if (done()) { observer.disconnect(); resolve(); } })
      .observe(root, { attributes: true, attributeFilter: ["data-busy"] });
  });
  return performance.now() - t0;
}"""


def launch(p):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        return p.chromium.launch(executable_path=chromium, args=FLAGS)
    return p.chromium.launch()


def median(values):
    return f"{statistics.median(values):8.0f} ms  (min {min(values):.0f}, max {max(values):.0f})"


def main():
    parser = argparse.ArgumentParser(description="Tempi di caricamento e di interazione.")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lab", default="capitolo-1/ombrello/", help="percorso della pagina per i caricamenti a freddo")
    parser.add_argument("--change", action="append", default=[], metavar="PERCORSO:nome=valore")
    args = parser.parse_args()
    server = make_server(Path(os.environ.get("LABS_SITE_DIR", ROOT / "site")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"

    with sync_playwright() as p:
        browser = launch(p)
        paint, ready, bare = [], [], []
        for _ in range(args.runs):
            context = browser.new_context()
            page = context.new_page()
            page.goto(base + args.lab)
            page.wait_for_selector("[data-lab][data-ready=true]", timeout=120_000)
            ready.append(page.evaluate("performance.now()"))
            paint.append(page.evaluate(
                "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN"))
            context.close()

            context = browser.new_context()
            page = context.new_page()
            page.goto(base + "404.html")
            bare.append(page.evaluate(BARE_PYODIDE, base))
            context.close()
        print(f"pagina: {args.lab}, {args.runs} caricamenti a freddo")
        print(f"  lab prerenderizzato visibile (first contentful paint): {median(paint)}")
        print(f"  lab interattivo (data-ready, dalla navigazione):       {median(ready)}")
        print(f"  Pyodide da solo in un worker (stesso server):          {median(bare)}")
        print(f"  rapporto data-ready / Pyodide da solo:                 {statistics.median(ready) / statistics.median(bare):8.2f}")

        for spec in args.change:
            path, _, assignment = spec.partition(":")
            name, _, value = assignment.partition("=")
            page = browser.new_page()
            page.goto(base + path)
            page.wait_for_selector("[data-lab][data-ready=true]", timeout=120_000)
            times = []
            for i in range(2 * args.runs):
                # alternate with the default so every run really recomputes
                default = page.locator(f'[data-param="{name}"]').get_attribute("data-default")
                t = page.evaluate(CHANGE, [name, value if i % 2 == 0 else default])
                if i % 2 == 0:
                    times.append(t)
            print(f"cambio di un comando → vista aggiornata, {path} {name}={value}: {median(times)}")
            page.close()
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
