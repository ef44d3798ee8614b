"""«Prova» from click to result, in Chromium: a table with a line per experiment of every lab.

    python scripts/experiment_times.py [--labs id,id] [--runs 3] [--json out.json]

For each lab, --runs times: the page opened in a new browser context (a cold worker, as a reader who
follows a link), left until Python is ready and a second more, then each «Prova» of its prose clicked in
turn, «Ripristina» after each. A click's time runs from the click to the first view drawn at the
experiment's settings (the controller's `drawn`; on a build without it, until the lab is no longer
busy). The table gives the median over the runs, the slowest run, whether the build shipped the answer
(data-ready: a view and a checkpoint beside the page) and the page's own bytes (gzip, what it fetches
before it is ready, bench_page.our_files) next to the bytes of the answers it ships, fetched only on a click.
The budget (2 s) is printed beside each time; nothing asserts.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_page import SITE, gzip_size, our_files  # noqa: E402
from chromium import launch  # noqa: E402
from serve import make_server, serve_in_background  # noqa: E402

import labs  # noqa: E402

BUDGET_MS = 2000
PAGE_BUDGET_KB = 300  # a page's own bytes, gzip, before any experiment is asked
SETTLE_MS = 1000  # after «ready»: the warm-up's view laid out, the page's first second over
CLICK_TIMEOUT_MS = 180_000

# The click, and the time until the view shows the experiment's settings (performance.now() ms).
CLICK = """async ({ index, timeout }) => {
  const root = document.querySelector("[data-lab]");
  const lab = root.labController;
  const button = document.querySelectorAll("[data-experiment]")[index];
  const settings = Object.fromEntries(button.dataset.set.split(";").map((pair) => [pair.slice(0, pair.indexOf("=")),
                                                                                pair.slice(pair.indexOf("=") + 1)]));
  const same = (a, b) => String(a) === String(b) || (a !== "" && b !== "" && Number(a) === Number(b));
  const matches = (params) => Object.entries(settings).every(([k, v]) => k === "sezioni" || !(k in params)
                                                                          || same(params[k], v));
  const start = performance.now();
  button.click();
  return await new Promise((resolve) => {
    const check = () => {
      const now = performance.now();
      if (now - start > timeout) return resolve(null);
      const done = "drawn" in lab
        ? lab.drawn && lab.drawn.at >= start && matches(lab.drawn.params)
        : root.dataset.busy === undefined && !lab.view.classList.contains("is-stale") && matches(lab.params());
      if (done) return resolve((lab.drawn?.at ?? now) - start);
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}"""

UNDO = """() => { const undo = [...document.querySelectorAll("[data-experiment-undo]")]
                   .find((b) => !b.closest("[hidden]")); if (undo) undo.click(); }"""


def idle(page):
    page.wait_for_function(
        "() => document.querySelector('[data-lab]').dataset.busy === undefined", timeout=CLICK_TIMEOUT_MS
    )


def shipped_bytes(lab):
    """gzip bytes of the answers the build ships beside the lab's page (prova-*), fetched only on a click."""
    folder = SITE / lab.path
    return sum(gzip_size(path) for path in folder.glob("prova-*"))


def measure_lab(browser, base, lab, runs):
    """{experiment index: [ms of each run]} and {index: whether the button has a shipped answer}."""
    times, ready = {}, {}
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{base}{lab.path}")
        page.wait_for_selector("[data-lab][data-ready=true]", timeout=120_000)
        page.wait_for_timeout(SETTLE_MS)
        buttons = page.locator("[data-experiment]")
        for index in range(buttons.count()):
            ready[index] = buttons.nth(index).get_attribute("data-answer") is not None
            ms = page.evaluate(CLICK, {"index": index, "timeout": CLICK_TIMEOUT_MS})
            times.setdefault(index, []).append(ms)
            idle(page)
            page.evaluate(UNDO)
            idle(page)
        context.close()
    return times, ready


def lab_rows(lab, experiments, times, ready, own, shipped):
    """A row per experiment: its settings, the median and slowest of its clicks (None: no view in time)."""
    rows = []
    for index, experiment in enumerate(experiments):
        ms = [t for t in times.get(index, []) if t is not None]
        rows.append(
            {
                "lab": f"{lab.ref} {lab.id}",
                "n": index + 1,
                "settings": experiment.data_set,
                "median_ms": round(statistics.median(ms)) if ms else None,
                "max_ms": round(max(ms)) if ms else None,
                "timeouts": len(times.get(index, [])) - len(ms),
                "ready": ready.get(index, False),
                "page_kb": round(own / 1000),
                "shipped_kb": round(shipped / 1000),
            }
        )
    return rows


def slow(row):
    return row["median_ms"] is None or row["median_ms"] > BUDGET_MS


def line(row):
    """One line of the table."""
    median = "     –" if row["median_ms"] is None else f"{row['median_ms']:>6}"
    answers = f", risposte {row['shipped_kb']} kB" if row["shipped_kb"] else ""
    return (
        f"{row['lab']:34} {row['n']:>2}  {median} ms (max {row['max_ms']}){' OLTRE 2 s' if slow(row) else ''}"
        f"  {'pronto' if row['ready'] else '      '}  pagina {row['page_kb']} kB gzip{answers}  {row['settings'][:60]}"
    )


def verdict(rows, runs):
    """The last line: how many experiments are over the budget, how many pages over 300 kB."""
    heavy = {r["lab"] for r in rows if r["page_kb"] > PAGE_BUDGET_KB}
    return (
        f"{len(rows)} esperimenti, mediana di {runs} clic ciascuno; oltre {BUDGET_MS} ms: "
        f"{sum(map(slow, rows))}; pagine oltre {PAGE_BUDGET_KB} kB gzip: {len(heavy)}"
        + (f" ({', '.join(sorted(heavy))})" if heavy else "")
    )


def main():
    parser = argparse.ArgumentParser(description="«Prova»: dal clic al risultato, in Chromium.")
    parser.add_argument("--labs", default="", help="id dei laboratori, separati da virgole (tutti se vuoto)")
    parser.add_argument("--runs", type=int, default=3, help="pagine aperte a freddo per laboratorio")
    parser.add_argument("--json", default="", help="scrivi anche i risultati in questo file")
    args = parser.parse_args()
    chosen = [lab for lab in labs.all_labs() if not args.labs or lab.id in args.labs.split(",")]
    server = make_server(SITE)
    base = serve_in_background(server)
    rows = []
    with sync_playwright() as p:
        browser = launch(p)
        for lab in chosen:
            experiments = getattr(lab.module, "EXPERIMENTS", ())
            if not experiments:
                continue
            own = sum(our_files(lab).values())
            shipped = shipped_bytes(lab)
            times, ready = measure_lab(browser, base, lab, args.runs)
            for row in lab_rows(lab, experiments, times, ready, own, shipped):
                rows.append(row)
                print(line(row), flush=True)
        browser.close()
    server.shutdown()
    print(verdict(rows, args.runs))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
