"""«Verifica» from the click to the answer, in Chromium: every exercise of the site, solved and failed.

    python scripts/exercise_times.py [--labs id,id] [--runs 2]

For each lab with exercises, --runs times: the page opened in a new browser context (a cold worker),
left until Python is ready, then for each exercise its reference typed in and «Verifica» pressed, then
each declared wrong answer. A time runs from the click to the answer on the page (the block's data-took,
page/exercises.js). Prints a line per exercise and, at the end, the median and the slowest of every
check against the budget (1 s). Then the lab drawn with the reader's function: from «Verifica» passed to
the mark above the view. Nothing asserts.
"""

import argparse
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_page import SITE  # noqa: E402
from chromium import launch  # noqa: E402
from serve import make_server, serve_in_background  # noqa: E402

import labs  # noqa: E402
from labs.code_exercises import exercises_of  # noqa: E402

BUDGET_MS = 1000
READY_MS = 180_000

VERIFY = """async ([name, code]) => {
  const block = document.querySelector(`[data-exercise="${name}"]`);
  if (!block.exercise.editor) await block.exercise.open();
  block.exercise.editor.text = code;
  const start = performance.now();
  await block.exercise.check();
  const mine = document.querySelector("[data-lab-mine]");
  const said = block.querySelector("[data-exercise-result]").textContent;
  let drawn = null;
  if (said.startsWith("Giusto")) {
    while (mine.hidden && performance.now() - start < 30000) await new Promise((r) => setTimeout(r, 5));
    drawn = performance.now() - start;
  }
  return { took: Number(block.dataset.took), said, drawn };
}"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--labs", help="ids separati da virgole (di solito: tutti i laboratori con esercizi)")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    chosen = [lab for lab in labs.all_labs() if exercises_of(lab)]
    if args.labs:
        chosen = [lab for lab in chosen if lab.id in args.labs.split(",")]
    url = serve_in_background(make_server(SITE))
    times, drawn = [], []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        for run in range(1, args.runs + 1):
            print(f"giro {run}")
            for lab in chosen:
                context = browser.new_context()
                page = context.new_page()
                page.goto(f"{url}{lab.path}")
                page.wait_for_selector("[data-lab][data-ready=true]", timeout=READY_MS)
                for exercise in exercises_of(lab):
                    tries = [("soluzione", exercise.solution())] + [
                        (f"sbagliata {k}", wrong.code) for k, wrong in enumerate(exercise.wrong, 1)
                    ]
                    line = []
                    for label, code in tries:
                        answer = page.evaluate(VERIFY, [exercise.name, code])
                        times.append(answer["took"])
                        line.append(f"{label} {answer['took']:.0f} ms")
                        if answer["drawn"] is not None:
                            drawn.append(answer["drawn"])
                            line.append(f"vista con la funzione del lettore {answer['drawn']:.0f} ms")
                    print(f"  {lab.ref:6} {lab.id:24} {exercise.name:24} " + " · ".join(line))
                context.close()
        browser.close()
    print(
        f"\n«Verifica», {len(times)} verifiche: mediana {statistics.median(times):.0f} ms, "
        f"la più lenta {max(times):.0f} ms (budget {BUDGET_MS} ms: "
        f"{'rispettato' if max(times) <= BUDGET_MS else 'SUPERATO'})"
    )
    if drawn:
        print(
            f"dalla «Verifica» giusta alla vista calcolata con la funzione del lettore: mediana "
            f"{statistics.median(drawn):.0f} ms, la più lenta {max(drawn):.0f} ms"
        )


if __name__ == "__main__":
    main()
