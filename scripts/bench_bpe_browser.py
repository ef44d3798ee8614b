"""scripts/bench.py's «bpe» section: core.bpe.train on 1 MB and on 100 kB in CPython (against bench_bpe.py's
recount-every-merge reference) and on 100 kB in Chromium, in a worker that starts the site's Pyodide with only
the core.bpe wheel; and Play on 9A over a pasted corpus."""

import functools
import re

from bench_page import ACT, BARE, PLAY, SITE

import labs


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
# the budgets: 1 MB → 2,000 merges in CPython ≤ 2 s, 100 kB → 1,000 in the browser ≤ 3 s
BPE_BUDGETS = {"cpython_1mb_s": ("1 MB in CPython", 2.0), "chromium_100kb_s": ("100 kB in Chromium", 3.0)}
NAIVE_MERGES = 300  # the reference recounts the whole text at each merge: only a few of its merges


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
