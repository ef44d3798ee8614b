"""Where a cold load's time goes until «pronto», from a Chromium trace: each thread's CPU time from the page's
navigation to «pronto», the lab page beside the bare page that only starts Pyodide, and the page's longest tasks.

    python scripts/bench_trace.py [--labs ombrello,transformer-allenato] [--runs 1]

bench_limits.py --only ready runs it after Chromium's loads. Tracing slows the page down (every task is
recorded): read the threads against each other and against the bare page, not the milliseconds against an
untraced load. A thread's CPU is its tasks' thread time (the trace's tdur), so another process holding a core
does not count; what the lab adds to the bare page is what competes with Pyodide's start on the machine's cores.
"""

import argparse
import collections
import json
import statistics

from bench_load import WORKER_MARKS
from bench_page import READY_TIME, bench_server, wait_ready
from chromium import launch
from playwright.sync_api import sync_playwright
from serve import serve_in_background

import labs

CATEGORIES = [
    "__metadata",
    "toplevel",
    "devtools.timeline",
    "blink.user_timing",
    "v8",
    "v8.wasm",
    "loading",
    "disabled-by-default-devtools.timeline",
]  # the last: RunTask, each task of every thread, as DevTools
# what a task did, in the words of its first child that says it (for the page's longest tasks)
SAYS = (
    "EvaluateScript",
    "FunctionCall",
    "EventDispatch",
    "ParseHTML",
    "HandlePostMessage",
    "ProxyMain::BeginMainFrame",
)
WRAPPERS = {"RunTask", "ThreadControllerImpl::RunTask", "Receive mojo message", "SimpleWatcher::OnHandleReady"}
BARE_READY = """new MutationObserver((_, observer) => {
  if (document.documentElement.dataset.ready) { performance.mark("bare:ready"); observer.disconnect(); }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });"""


def thread_names(events):
    """{(pid, tid): a name a reader understands}; a page's workers named by the script they run."""
    process = {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "process_name"}
    names = {}
    for e in events:
        if e.get("ph") == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = f"{process.get(e['pid'], 'Renderer')}: {e['args']['name']}"
    for e in events:
        thread = (e.get("pid"), e.get("tid"))
        url = str(e.get("args", {}).get("data", {}).get("url", ""))
        if "DedicatedWorker" in names.get(thread, "") and ("pyodide" in url or "search" in url):
            names[thread] = "Renderer: worker di Python" if "pyodide" in url else "Renderer: worker della ricerca"
    return names


def top_level(events):
    """The complete events (ph X) that no other one of their thread contains: each thread's tasks."""
    ends, tops = {}, []
    for e in sorted((e for e in events if e.get("ph") == "X" and e.get("dur")), key=lambda e: (e["ts"], -e["dur"])):
        thread = (e["pid"], e["tid"])
        if e["ts"] >= ends.get(thread, 0):
            tops.append(e)
            ends[thread] = e["ts"] + e["dur"]
    return tops


def cpu_by_thread(tasks, names, start, end):
    """{thread: CPU ms of its tasks between start and end (µs of the trace's clock)}, a task cut at the ends."""
    cpu = collections.Counter()
    for e in tasks:
        overlap = min(e["ts"] + e["dur"], end) - max(e["ts"], start)
        name = names.get((e["pid"], e["tid"]), str(e["tid"]))
        if overlap > 0 and "tdur" in e and not name.startswith("WebUI"):  # Chromium's own pages (its UI) apart
            cpu[name] += e["tdur"] * overlap / e["dur"] / 1000
    return cpu


def longest_tasks(events, tasks, names, start, end, thread="Renderer: CrRendererMain", count=5):
    """The thread's longest tasks before end: (ms from navigation, ms, what it did)."""
    inside = [e for e in events if e.get("ph") == "X" and names.get((e["pid"], e["tid"])) == thread]
    tops = [e for e in tasks if names.get((e["pid"], e["tid"])) == thread and start <= e["ts"] <= end]
    found = []
    for task in sorted(tops, key=lambda e: -e.get("dur", 0))[:count]:
        inner = [e for e in inside if task["ts"] <= e["ts"] <= task["ts"] + task["dur"] and e is not task]
        says = [e for e in inner if e["name"] in SAYS] or [e for e in inner if e["name"] not in WRAPPERS]
        what = says[0] if says else task
        data = what.get("args", {}).get("data", {})
        where = str(data.get("url") or data.get("type") or "").rsplit("/", 1)[-1]
        found.append(((task["ts"] - start) / 1000, task["dur"] / 1000, f"{what['name']} {where}".strip()))
    return sorted(found)


def trace_load(browser, url, bare=False):
    """A cold load of url traced until «pronto»: {ready ms, cpu {thread: ms}, marks {stage: ms}, tasks}."""
    context = browser.new_context()
    context.add_init_script(READY_TIME)
    if bare:
        context.add_init_script(BARE_READY)
    page = context.new_page()
    browser.start_tracing(page=page, categories=CATEGORIES)
    page.goto(url)
    wait_ready(page)
    ready = page.evaluate("() => window.__ready")
    marks = page.evaluate(WORKER_MARKS)
    events = json.loads(browser.stop_tracing())["traceEvents"]
    context.close()
    names = thread_names(events)
    start = min(e["ts"] for e in events if e.get("name") == "navigationStart")
    end = start + ready * 1000
    tasks = top_level(events)
    return {
        "ready": ready,
        "cpu": cpu_by_thread(tasks, names, start, end),
        "marks": marks,
        "tasks": longest_tasks(events, tasks, names, start, end),
    }


def say_trace(lab, traces, bare_traces):
    """Lines: each thread's CPU on the lab page and on the bare one (medians over the runs), the page's longest tasks."""
    threads = {name for t in traces + bare_traces for name in t["cpu"]}

    def median(runs, name):
        return statistics.median(t["cpu"].get(name, 0) for t in runs)

    rows = sorted(threads, key=lambda name: -median(traces, name))
    lines = [
        f"{lab.ref} {lab.id}, traccia di Chromium fino a «pronto» (rallentata dalla traccia): pronto "
        f"{statistics.median(t['ready'] for t in traces):.0f} ms, Pyodide da solo "
        f"{statistics.median(t['ready'] for t in bare_traces):.0f} ms; CPU per thread (laboratorio · Pyodide da solo):"
    ]
    for name in rows:
        lab_ms, bare_ms = median(traces, name), median(bare_traces, name)
        if max(lab_ms, bare_ms) >= 20:
            lines.append(f"    {name:42.42} {lab_ms:6.0f} ms · {bare_ms:6.0f} ms")
    total, bare_total = sum(median(traces, n) for n in threads), sum(median(bare_traces, n) for n in threads)
    lines.append(f"    {'in tutto':42} {total:6.0f} ms · {bare_total:6.0f} ms")
    lines.append("  fasi del worker (ms): " + " · ".join(f"{k} {v:.0f}" for k, v in traces[-1]["marks"].items()))
    lines.append("  i compiti più lunghi della pagina (da quando, quanto, cosa):")
    lines += [f"    {at:6.0f} ms  {took:5.0f} ms  {what}" for at, took, what in traces[-1]["tasks"]]
    return lines


def bench_trace(browser, base, lab, runs):
    """Trace `runs` cold loads of the lab page and of the bare page, alternated, and print where the time goes."""
    traces, bare = [], []
    for run in range(runs):
        for which in ("lab", "bare") if run % 2 == 0 else ("bare", "lab"):
            if which == "lab":
                traces.append(trace_load(browser, f"{base}{lab.path}"))
            else:
                bare.append(trace_load(browser, f"{base}__bench/bare.html", bare=True))
    print("\n".join(say_trace(lab, traces, bare)))
    return {"lab": traces, "bare": bare}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labs", default="ombrello,transformer-allenato", help="the labs whose load is traced")
    parser.add_argument("--runs", type=int, default=1, help="traced loads of each page")
    args = parser.parse_args()
    server = bench_server()
    base = serve_in_background(server)
    try:
        with sync_playwright() as p:
            browser = launch(p)
            for lab_id in args.labs.split(","):
                bench_trace(browser, base, labs.get(lab_id), args.runs)
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
