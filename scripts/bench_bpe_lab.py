"""Time the 9A lab's steps on a long pasted corpus, in CPython, as the worker runs them.

    python scripts/bench_bpe_lab.py [--size 100000] [--runs 7] [--wall]

The corpus is scripts/bench_bpe.py's italian_like text (--size characters,
the lab's limit by default). Every time is labs.render_json (parse → compute
→ view → timeline → JSON, what the worker does on «Avanti»), split into
compute (advance + present) and view where it helps. Rows:

- nuovo corpus: the first render after the corpus changes (a new machine: the
  trainer counts the whole corpus once);
- Avanti 0→1, Avanti 79→80: a merge the trainer has not learned yet, each
  timed on --runs fresh machines (median, max);
- Avanti già visto: a step forward over merges already learned (after going back);
- salto 80→1, salto 1→80: jumps, once the 80 merges are learned;
- Play 0→80: the 81 renders of Play at the fastest speed, summed (and the
  median of its 80 «Avanti»);
- replay 80: compute.replay, the from-scratch reference (no cache).

With --browser (a site built in LABS_SITE_DIR, default site/), the same
corpus is pasted into the page in headless Chromium (scripts/bench.py's
helpers) and timed there, «Avanti» → view updated: the paste, each of the 80
«Avanti» (every one a merge not learned yet), a jump back to 1, and Play at
the fastest speed from 0 to 80 on a corpus just pasted.

Budget: Play over the 80 merges of a 100 kB corpus ≤ 10 s in the
browser, where Pyodide is 2–4 × slower than CPython; aim ≤ 5 ms per «Avanti»
here. Times are the process's CPU time unless --wall; nothing asserts.
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from bench_bpe import italian_like  # noqa: E402

import labs  # noqa: E402
from labs.ch9 import bpe as lab  # noqa: E402

CLOCK = time.process_time


def render(params):
    """One render_json of params: (ms, the result)."""
    text = json.dumps({k: str(v) for k, v in params.items()})
    t0 = CLOCK()
    out = json.loads(labs.render_json("bpe", text))
    elapsed = (CLOCK() - t0) * 1000
    assert out["ok"], out.get("error")
    return elapsed, out


def split(params):
    """compute and view of params, in ms (the machine already where it is)."""
    parsed = labs.get("bpe").parse({k: str(v) for k, v in params.items()})
    t0 = CLOCK()
    state = lab.compute(parsed)
    t1 = CLOCK()
    str(lab.view(state))
    return (t1 - t0) * 1000, (CLOCK() - t1) * 1000


def main():
    global CLOCK
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=lab.MAX_CORPUS)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--wall", action="store_true", help="tempo reale invece del tempo di CPU")
    parser.add_argument("--browser", action="store_true", help="misura nel sito costruito, in Chromium")
    args = parser.parse_args()
    CLOCK = time.perf_counter if args.wall else time.process_time
    corpus = italian_like(args.size)
    if args.browser:
        return browser(corpus)
    base = {"corpus": corpus, "nuovo": lab.NEW_TEXT}
    render({**base, "passo": 0})  # imports
    rows = {}

    fresh, first, last, first_split, last_split = [], [], [], [], []
    for _ in range(args.runs):
        lab.compute.cache.clear()
        fresh.append(render({**base, "passo": 0})[0])
        first_split.append(split({**base, "passo": 1}))
        lab.compute.cache.clear()
        render({**base, "passo": 0})
        first.append(render({**base, "passo": 1})[0])
        render({**base, "passo": lab.MAX_MERGES - 1})
        last.append(render({**base, "passo": lab.MAX_MERGES})[0])
        lab.compute.cache.clear()
        render({**base, "passo": lab.MAX_MERGES - 1})
        last_split.append(split({**base, "passo": lab.MAX_MERGES}))
    rows["nuovo corpus (passo 0)"] = fresh
    rows["Avanti 0→1"] = first
    rows["Avanti 79→80"] = last

    seen = []
    for k in range(1, lab.MAX_MERGES + 1):
        seen.append(render({**base, "passo": k})[0])
    rows["Avanti già visto (1→80)"] = seen
    back, forward = [], []
    for _ in range(args.runs):
        back.append(render({**base, "passo": 1})[0])  # from 80
        forward.append(render({**base, "passo": lab.MAX_MERGES})[0])
    rows["salto 80→1"], rows["salto 1→80"] = back, forward

    plays = []
    for _ in range(min(3, args.runs)):
        lab.compute.cache.clear()
        frames = [render({**base, "passo": k})[0] for k in range(lab.MAX_MERGES + 1)]
        plays.append(sum(frames))
    rows["Avanti 1→80 (Play)"] = frames[1:]
    replay = []
    for _ in range(min(3, args.runs)):
        t0 = CLOCK()
        lab.compute.replay(labs.get("bpe").parse({**base, "passo": str(lab.MAX_MERGES)}))
        replay.append((CLOCK() - t0) * 1000)
    html_kb = len(render({**base, "passo": lab.MAX_MERGES})[1]["html"]) / 1000

    clock = "tempo reale" if args.wall else "CPU"
    chunks = len(lab.Training(corpus).trainer.chunks)
    print(
        f"Python {sys.version.split()[0]}, corpus {len(corpus):,} caratteri ({len(corpus.encode()):,} byte, "
        f"{chunks:,} blocchi diversi), ms di {clock}, render_json completo"
    )
    print(f"{'':28} {'mediana':>8} {'max':>8}  n")
    for name, times in rows.items():
        print(f"{name:28} {statistics.median(times):8.2f} {max(times):8.2f}  {len(times)}")
    for name, pairs in (("  di cui Avanti 0→1", first_split), ("  di cui Avanti 79→80", last_split)):
        compute_ms, view_ms = zip(*pairs)
        print(f"{name:28} compute {statistics.median(compute_ms):.2f}, view {statistics.median(view_ms):.2f}")
    print(f"{'Play 0→80 (81 render)':28} {statistics.median(plays):8.1f} {max(plays):8.1f}  {len(plays)}")
    print(f"{'replay 80 (senza cache)':28} {statistics.median(replay):8.1f} {max(replay):8.1f}  {len(replay)}")
    print(f"HTML al passo 80: {html_kb:.1f} kB")


def browser(corpus):
    """The same corpus pasted into the built page, timed in Chromium (wall clock of the page)."""
    from bench_page import ACT, PLAY, SITE
    from chromium import launch
    from playwright.sync_api import sync_playwright
    from serve import make_server, serve_in_background

    server = make_server(SITE)
    base = serve_in_background(server)
    page_path = labs.get("bpe").path
    with sync_playwright() as p:
        chromium = launch(p)
        page = chromium.new_page()
        page.goto(f"{base}{page_path}")
        page.wait_for_selector("[data-lab][data-ready=true]", timeout=120_000)
        paste = page.evaluate(ACT, [{"corpus": corpus}, None])
        avanti = [page.evaluate(ACT, [{}, "+1"]) for _ in range(lab.MAX_MERGES)]
        counter = page.inner_text("[data-step-counter]")
        back = page.evaluate(ACT, [{"passo": "1"}, None])
        page.evaluate(ACT, [{}, "reset"])
        fresh = page.evaluate(ACT, [{"corpus": corpus[:-1] + "!"}, None])  # a new machine: nothing learned yet
        play = page.evaluate(PLAY, lab.MAX_MERGES)
        chromium.close()
    server.shutdown()
    print(f"Chromium, corpus {len(corpus):,} caratteri incollato, ms di tempo reale della pagina ({SITE})")
    print(f"incolla il corpus (passo 0): {paste:.0f} ms · di nuovo, altro corpus: {fresh:.0f} ms")
    for name, times in (("Avanti 1–10", avanti[:10]), ("Avanti 71–80", avanti[-10:]), ("Avanti 1–80", avanti)):
        print(f"{name}: mediana {statistics.median(times):.0f} ms, max {max(times):.0f} ms")
    print(
        f"dopo 80 Avanti il contatore dice «{counter}» · salto 80→1: {back:.0f} ms · "
        f"Play al massimo 0→80: {play / 1000:.2f} s (budget 10 s)"
    )


if __name__ == "__main__":
    main()
