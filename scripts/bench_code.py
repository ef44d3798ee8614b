"""«Il codice Python» in headless Chromium: «Esegui» → view updated, and the editor's bytes.

    python scripts/bench_code.py [--runs 10] [--labs softmax-temperatura,bigrammi]

For each lab: open it, wait for Python, open the panel and press «Modifica»
(the editor bundle arrives only then: its size is printed, raw and gzip),
then press «Esegui» --runs times. Each run adds a different comment to the
code, so the worker executes the lab's module and the edited text afresh
(an unchanged text would come from its cache: that is timed too, as
«stesso testo»). The time is from the click to the lab's view drawn again
(data-busy gone), in the page's clock; median and p95 are printed.
Nothing asserts: the numbers go in the report.
"""

import argparse
import gzip
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_page import IDLE, SITE, open_ready  # noqa: E402
from bench_plan import p95  # noqa: E402
from chromium import launch  # noqa: E402
from serve import make_server, serve_in_background  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import labs  # noqa: E402

# Click «Esegui» with the editor holding text, wait for the view to be drawn again.
RUN = (
    """async (text) => {"""
    + IDLE
    + """
  const panel = document.querySelector("[data-lab-code]").codePanel;
  await idle();
  panel.editor.text = text;
  const t0 = performance.now();
  document.querySelector('[data-lab-code] [data-code="run"]').click();
  await idle();
  return [performance.now() - t0, panel.status.textContent];
}"""
)


def bench_lab(browser, base, lab, runs):
    page = open_ready(browser, base, lab)
    editor_bytes = []
    page.on("response", lambda r: editor_bytes.append(len(r.body())) if r.url.endswith("/editor.js") else None)
    panel = page.locator("[data-lab-code]")
    panel.locator("summary").click()
    panel.locator('[data-code="edit"]').click()
    page.wait_for_selector("[data-lab-code] .cm-editor")
    original = page.evaluate("() => document.querySelector('[data-lab-code]').codePanel.original")
    fresh, same = [], []
    for i in range(runs):
        took, said = page.evaluate(RUN, f"{original}\n# prova {i}\n")
        assert "tuo codice" in said, said
        fresh.append(took)
    for _ in range(runs):
        took, _ = page.evaluate(RUN, f"{original}\n# prova 0\n")
        same.append(took)
    page.close()
    return fresh, same, editor_bytes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--labs", default="softmax-temperatura,bigrammi")
    args = parser.parse_args()
    server = make_server(SITE)
    base = serve_in_background(server)
    bundle = SITE / "assets" / "labs" / "vendor" / "editor.js"
    raw = bundle.read_bytes()
    print(f"editor.js: {len(raw) / 1024:.0f} KiB, {len(gzip.compress(raw, 9)) / 1024:.0f} KiB gzip")
    try:
        with sync_playwright() as p:
            browser = launch(p)
            for lab_id in args.labs.split(","):
                lab = labs.get(lab_id)
                fresh, same, fetched = bench_lab(browser, base, lab, args.runs)
                print(
                    f"{lab.ref} {lab.id}: «Esegui» → vista aggiornata, testo nuovo: mediana "
                    f"{statistics.median(fresh):.0f} ms, p95 {p95(fresh):.0f} ms (n = {len(fresh)}); "
                    f"stesso testo: mediana {statistics.median(same):.0f} ms, p95 {p95(same):.0f} ms; "
                    f"editor.js scaricato {len(fetched)} volta, {sum(fetched) / 1024:.0f} KiB"
                )
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
