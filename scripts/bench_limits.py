"""Issue 48's numbers in one command, in Chromium (ready also in Firefox and WebKit), each measured --runs
times (2 by default), the baseline in the same run: how far the site is from its limits.

    python scripts/bench_limits.py [--runs 2] [--only step,play,links,ready,soak] [--visits 80] [--rounds 2]
        [--ready-labs id,id] [--engines chromium,firefox,webkit] [--json out.json]

It needs a built site (LABS_SITE_DIR, default site/: `make build`); `make bench` runs it after scripts/bench.py.

- step: 3.2's training step in CPython (this process's CPU time, median of 30 steps), and the same step cut
  down to its math.sumprod calls (scripts/bench_transformer.py): the floor of any change that keeps its
  numbers to the last bit.
- play: 3.2 on a cold page (a new browser context), Play at the fastest speed from step 0 as soon as the page
  is «pronto», until step 1,000 is drawn: seconds (budget ≤ 10 s).
- links: a shared link to a step, on a cold page: from «pronto» to the linked step drawn (the view no longer
  marked stale), in ms (budget ≤ 1 s): 3.2 at passo=300 and passo=1000, 3.1, 9A and A.6 at their last step.
- ready: a lab page's «pronto» against a bare page that only starts Pyodide, cold loads alternated
  (scripts/bench_load.py): the ratio of the medians (budget ≤ 1.05), in Chromium, Firefox ESR and WebKitGTK
  (--engines; the other two through tests/engines/drivers.py, a fresh browser for each load), with the end of
  each stage of the worker's start; in Chromium then a trace of one load of each (scripts/bench_trace.py: each
  thread's CPU until «pronto», the page's longest tasks); scripts/bench_subtract.py says, in any engine, what each part
  of the page adds (the page without runtime.js, its <head> alone, our worker on a bare page).
  scripts/bench_start.mjs measures, under Node, two levers against their bytes: .pyc compiled by this Pyodide
  instead of .py, and a Pyodide memory snapshot.
- soak: --visits lab visits in one tab by instant navigation, in two rounds through the labs, each stepped lab
  played to its end (scripts/bench_soak.py): the tab's JavaScript memory a visit in each round (budget in round
  2 ≤ 0.05 MB) and Chromium's resident memory after each (budget: round 2 no higher than round 1). Its control,
  in the same run: the same navigations with Python never started, so what the browser keeps for a navigation
  is told from what Python and the labs' drawing keep; each in a Chromium of its own.

Times are wall clock in a browser on a machine that may be doing other work: run it twice and read the
spread. Nothing asserts.
"""

import argparse
import json
import statistics
from pathlib import Path

from bench_load import ENGINES, bench_load, engine_missing
from bench_page import PLAY, READY_TIME, bench_server, wait_ready
from bench_soak import FLAGS, say_against_control, say_soak, soak
from bench_trace import bench_trace
from bench_transformer import lab_step_times_ms, lab_sumprod_floor_ms
from chromium import launch
from playwright.sync_api import sync_playwright
from serve import serve_in_background

import labs

PLAY_LAB, PLAY_TO = "transformer-allenato", 1000
LINKS = [
    ("transformer-allenato", 300),
    ("transformer-allenato", 1000),
    ("bigrammi", None),
    ("bpe", None),
    ("giro-del-token", None),
]  # None: the lab's last step
LINK_BUDGET_MS, PLAY_BUDGET_S, READY_BUDGET, SOAK_BUDGET_MB = 1000, 10, 1.05, 0.05
TIMEOUT_MS = 600_000  # a link far into 3.2 replays its training: minutes on a slow machine

# When the lab's view, marked stale while it shows the prerendered step instead of the link's, is first drawn
# again (templates/runtime/page/controller.js: «is-stale» from the link's values until the first draw).
DRAWN_TIME = """new MutationObserver(() => {
  const view = document.querySelector("[data-lab] [data-lab-view]");
  if (!view) return;
  if (view.classList.contains("is-stale")) window.__stale = true;
  else if (window.__stale && window.__drawn === undefined) window.__drawn = performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["class"] });"""
# ms from «pronto» to the first draw, once it has happened (a function: the site's CSP forbids eval)
DRAWN = """() => new Promise((resolve) => {
  const check = () => window.__drawn === undefined ? setTimeout(check, 20) : resolve(window.__drawn - window.__ready);
  check();
})"""
COUNTER = """() => document.querySelector("[data-lab] [data-step-counter]")?.textContent ?? "" """


def cold_page(browser, url, *scripts):
    """A new browser context (nothing cached) with the init scripts, at url, once the lab says «pronto»."""
    context = browser.new_context()
    for script in (READY_TIME, *scripts):
        context.add_init_script(script)
    page = context.new_page()
    page.goto(url)
    wait_ready(page, TIMEOUT_MS)
    return context, page


def link_ms(browser, base, lab, step):
    """From «pronto» to the linked step drawn, ms, and the step counter then shown."""
    context, page = cold_page(browser, f"{base}{lab.path}?{lab.steps.name}={step}", DRAWN_TIME)
    took = page.evaluate(DRAWN)
    counter = page.evaluate(COUNTER)
    context.close()
    return took, counter


def play_s(browser, base, lab, until):
    """Play at the fastest speed from step 0, on a cold page as soon as it is «pronto», until `until` is drawn: s."""
    context, page = cold_page(browser, f"{base}{lab.path}")
    took = page.evaluate(PLAY, until) / 1000
    context.close()
    return took


def soak_in_new_browser(playwright, base, visits, play_limit, rounds, python):
    """The soak (or its control, python=False) in a Chromium of its own: its browser process and renderers hold
    nothing of another measurement's."""
    browser = launch(playwright, FLAGS)
    try:
        return soak(browser, base, visits, play_limit, rounds, python)
    finally:
        browser.close()


def spread(values, unit, digits=0):
    """«median (run 1, run 2, …)»."""
    each = ", ".join(f"{v:.{digits}f}" for v in values)
    return f"{statistics.median(values):.{digits}f} {unit} ({each})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="times each number is measured")
    parser.add_argument("--only", default="step,play,links,ready,soak", help="sections: step, play, links, ready, soak")
    parser.add_argument(
        "--ready-labs", default="ombrello,transformer-allenato", help="labs whose «pronto» is set against Pyodide's"
    )
    parser.add_argument("--engines", default=",".join(ENGINES), help="ready: the browsers, of " + ", ".join(ENGINES))
    parser.add_argument(
        "--visits", type=int, default=80, help="soak: lab visits over two rounds (a round visits visits/2 labs)"
    )
    parser.add_argument("--rounds", type=int, default=2, help="soak: rounds through the labs (2 at least)")
    parser.add_argument("--play-limit", type=int, default=0, help="soak: play a stepped lab to this step at most")
    parser.add_argument("--json", default="", help="also write the results to this file")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    results = {}
    if "step" in sections:
        step = lab_step_times_ms(30)
        floor, calls, numbers = lab_sumprod_floor_ms(30)
        results["step_cpython_ms"] = {"step": statistics.median(step), "sumprod_alone": statistics.median(floor)}
        print(
            f"3.2, un passo di training in CPython: {statistics.median(step):.2f} ms · le sue {calls:,} sumprod "
            f"({numbers:,} prodotti) da sole: {statistics.median(floor):.2f} ms (il minimo a numeri uguali)"
        )
    server = bench_server()
    base = serve_in_background(server)
    try:
        with sync_playwright() as p:
            browser = launch(p, FLAGS)
            print(f"Chromium {browser.version}, {args.runs} misure per numero")
            if "play" in sections:
                lab = labs.get(PLAY_LAB)
                plays = [play_s(browser, base, lab, PLAY_TO) for _ in range(args.runs)]
                results["play_s"] = plays
                print(
                    f"{lab.ref} Play al massimo da 0 a {PLAY_TO} su una pagina fredda: {spread(plays, 's', 1)} "
                    f"(budget ≤ {PLAY_BUDGET_S} s)"
                )
            if "links" in sections:
                results["links_ms"] = {}
                for lab_id, step in LINKS:
                    lab = labs.get(lab_id)
                    step = lab.steps.max if step is None else step
                    measured = [link_ms(browser, base, lab, step) for _ in range(args.runs)]
                    times = [t for t, _ in measured]
                    results["links_ms"][f"{lab_id}?{lab.steps.name}={step}"] = times
                    print(
                        f"{lab.ref} link a {lab.steps.name}={step}: da «pronto» al passo disegnato "
                        f"{spread(times, 'ms')} (budget ≤ {LINK_BUDGET_MS}) · «{measured[-1][1]}»"
                    )
            if "ready" in sections:
                results["ready"] = {}
                for engine in args.engines.split(","):
                    if why := engine_missing(engine):
                        print(f"{engine}: non misurato ({why})")
                        continue
                    for lab_id in args.ready_labs.split(","):
                        lab = labs.get(lab_id)
                        print(f"{lab.ref} {lab.id}, pronto contro Pyodide da solo (budget ≤ {READY_BUDGET}):")
                        out = {}
                        bench_load(browser, base, lab, args.runs, out, engine=engine)
                        results["ready"][f"{engine}:{lab_id}"] = out["load"]
                        if engine == "chromium":  # where the time goes, from a trace of one load of each
                            bench_trace(browser, base, lab, 1)
            browser.close()
            if "soak" in sections:
                results["soak"] = []
                for _ in range(args.runs):
                    control, rounds = (
                        soak_in_new_browser(p, base, args.visits, args.play_limit, max(2, args.rounds), python)
                        for python in (False, True)
                    )
                    results["soak"].append({"control": control, "python": rounds})
                    print(
                        f"Sessione lunga, {args.visits} visite in una scheda (budget giro 2 ≤ {SOAK_BUDGET_MB} MB a visita):"
                    )
                    print("\n".join(say_soak(rounds)))
                    print(f"Controllo: le stesse {args.visits} navigazioni, Python mai partito, nulla riprodotto:")
                    print("\n".join(say_soak(control)))
                    print("\n".join(say_against_control(control, rounds)))
    finally:
        server.shutdown()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
