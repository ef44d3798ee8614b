"""scripts/bench_limits.py's «soak» section: a long reading session in one tab. The page goes through the labs
by instant navigation, as a reader's click does, twice (two rounds); each stepped lab is played to its end.
After each visit it reads the tab's JavaScript memory (performance.measureUserAgentSpecificMemory: the page
and its worker, the worker's WebAssembly heap included; the site is cross-origin isolated), and after each
round the resident memory of all of Chromium's processes (/proc), twice: as it is, and after a full garbage
collection of the page. Round 1 fills the caches; round 2 (and any later one) shows what a visit keeps once
they are full: it should keep nothing.

Why both: a stepped lab played to its end morphs its view once a step (3.2: a thousand views of ~27,000
nodes), and the nodes and strings it drops wait in the renderer for the next full collection, 11–16 MB of
them after 3.2's Play. Read as it is, the resident memory at a round's end moves with when that collection
last ran; read after one, it is what the tab keeps. The worker's WebAssembly memory (Python's heap) is no
part of a round's growth: it reaches its size in round 1, with 3.2's checkpoints (labs.kit.stepping's
PACKED_BYTES), and neither grows nor touches new pages after it."""

import os
from pathlib import Path

from bench_page import PLAY

import labs

# Chromium measures at its next garbage collection (up to ~20 s later) unless told to measure at once.
FLAGS = ["--enable-blink-features=ForceEagerMeasureMemory"]

# Instant navigation, as a click on a link of the page does it (tests/browser/lab_pages.py's go).
GO = "u => { const a = document.createElement('a'); a.href = u; document.body.append(a); a.click(); a.remove(); }"

# The tab's live JavaScript bytes, in all and by where they live (Window, DedicatedWorkerGlobalScope, shared).
MEMORY = """async () => {
  const measured = await performance.measureUserAgentSpecificMemory();
  const parts = {};
  for (const { bytes, attribution } of measured.breakdown) {
    const scopes = attribution.length ? attribution.map((a) => a.scope) : ["shared"];
    for (const scope of scopes) parts[scope] = (parts[scope] || 0) + bytes / scopes.length;
  }
  return { bytes: measured.bytes, parts };
}"""

MB = 1e6
FLAT_MB = 5  # a round that keeps less than this, resident after a collection, is flat: two runs differ by ~2 MB


def descendants(pid):
    """The ids of the processes below pid (its children, theirs, …), from /proc."""
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # ended meanwhile
        ppid = int(text.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kilobytes(text, field):
    """The value of a «Field:   123 kB» line of a /proc file, in bytes."""
    return next(int(line.split()[1]) * 1024 for line in text.splitlines() if line.startswith(f"{field}:"))


def chromium_memory():
    """Bytes resident in all of this process's Chromium processes (browser, renderers incl. the worker's, GPU…):
    RSS summed, and its anonymous part (the processes' own memory: heaps, Python's WebAssembly memory; the rest
    is files mapped, the browser's code, which the system pages in and out as other programs need memory)."""
    rss = anon = 0
    for pid in descendants(os.getpid()):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue  # ended meanwhile
        if "chrom" in status.split("\n", 1)[0].lower():  # not Playwright's node driver
            rss += kilobytes(status, "VmRSS")
            anon += kilobytes(status, "RssAnon")
    return {"rss": rss, "anon": anon}


def visit(page, base, lab, play_limit):
    """Instant navigation to the lab, until it is «pronto»; a stepped lab played at full speed to its end."""
    page.evaluate(GO, f"{base}{lab.path}")
    # a locator, not wait_for_selector: the element handle that returns would keep each page's DOM alive
    page.locator(f"[data-lab='{lab.id}'][data-ready=true]").wait_for(timeout=600_000)
    if lab.steps:
        page.evaluate(PLAY, min(lab.steps.max, play_limit or lab.steps.max))


def collected_memory(page, cdp):
    """chromium_memory() after a full garbage collection of the page (JavaScript and DOM: one heap in Chromium)
    and a moment for the renderer to give the pages it freed back."""
    cdp.send("HeapProfiler.collectGarbage")
    page.wait_for_timeout(2000)
    return chromium_memory()


def soak(browser, base, visits, play_limit=0, rounds=2):
    """rounds rounds of visits/2 labs: JS memory after each visit, RSS after each round (as it is, and
    collected: after a garbage collection)."""
    chosen = labs.all_labs()[: max(1, visits // 2)]
    context = browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    page.goto(base)
    measured = []
    for _ in range(rounds):
        memory = []
        for lab in chosen:
            visit(page, base, lab, play_limit)
            memory.append(page.evaluate(MEMORY))
        as_is = chromium_memory()
        measured.append({"memory": memory, **as_is, "collected": collected_memory(page, cdp)})
    context.close()
    return measured


def per_visit(before, memory):
    """MB a visit over a round: the growth from before it to its last visit, over its visits."""
    return (memory[-1]["bytes"] - before) / len(memory) / MB


def say_soak(rounds):
    """Italian lines: JS memory per visit in each round (page and worker), RSS per round and its growth."""
    lines = []
    before = rounds[0]["memory"][0]["bytes"]
    for n, r in enumerate(rounds, 1):
        last = r["memory"][-1]
        parts = " · ".join(f"{scope} {b / MB:.1f}" for scope, b in sorted(last["parts"].items()))
        lines.append(
            f"  giro {n}: memoria JS {before / MB:.1f} → {last['bytes'] / MB:.1f} MB "
            f"({per_visit(before, r['memory']):+.3f} MB a visita; a fine giro: {parts}) · "
            f"Chromium: RSS {r['rss'] / MB:.0f} MB (anonima {r['anon'] / MB:.0f}), "
            f"dopo una garbage collection {r['collected']['rss'] / MB:.0f} MB (anonima {r['collected']['anon'] / MB:.0f})"
        )
        before = last["bytes"]
    for n, (earlier, later) in enumerate(zip(rounds, rounds[1:]), 2):
        rss, anon = ((later[kind] - earlier[kind]) / MB for kind in ("rss", "anon"))
        kept = (later["collected"]["rss"] - earlier["collected"]["rss"]) / MB
        lines.append(
            f"  dal giro {n - 1} al giro {n}: RSS {rss:+.0f} MB (anonima {anon:+.0f}); dopo una garbage collection "
            f"{kept:+.0f} MB (budget: non cresce, entro ±{FLAT_MB} MB)"
        )
    return lines
