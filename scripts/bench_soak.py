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
PACKED_BYTES), and neither grows nor touches new pages after it.

The control, in the same run and a Chromium of its own: the same navigations through the same lab pages with
Python's worker never started (SILENT_PYTHON) and nothing played. Same pages rather than pages without a lab:
the site has three of those, and what the browser keeps grows with the distinct pages visited (their URLs,
sizes, styles, fonts); the same documents, theme and service worker leave Python and the labs' drawing as the
one difference. Each round's RSS after a collection is split by process (the browser, the tab's renderer, the
service worker's, GPU…) and set beside the control's, with the page's counters (Blink's documents, nodes and
listeners, the performance timeline, the main thread's heap, the history): what grows in both is the browser's
and the driver's, not the labs'. Playwright drives the page through DevTools, whose network agent keeps every
response it saw (with the page the theme fetches as a blob at each navigation, ~0.1 MB): part of what both
keep, which a reader's browser does not (scripts/soak_pipe.py runs the control without it)."""

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


# Processes no page asked for: the tracing service holds the benchmark's own memory dumps (start_dumps), and
# Chromium starts its on-device model service once, ~3 minutes after launch, with about:blank alone on screen
# (~100 MB: it fell in round 2 or 3 of the soak, never in the shorter control).
NOT_THE_PAGES = ("Tracing", "OnDeviceModel")


def chromium_pids(browser_cdp):
    """The ids of one Chromium's processes: its browser process and all below it (zygotes, renderers, GPU…), but
    NOT_THE_PAGES."""
    infos = browser_cdp.send("SystemInfo.getProcessInfo")["processInfo"]
    root = next(info["id"] for info in infos if info["type"] == "browser")
    others = {info["id"] for info in infos if any(name in info["type"] for name in NOT_THE_PAGES)}
    return [pid for pid in [root, *descendants(root)] if pid not in others]


def chromium_memory(pids):
    """Bytes resident in these Chromium processes (browser, renderers incl. the worker's, GPU…): RSS summed, and
    its anonymous part (the processes' own memory: heaps, Python's WebAssembly memory; the rest is files mapped,
    the browser's code, which the system pages in and out as other programs need memory)."""
    rss = anon = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue  # ended meanwhile
        rss += kilobytes(status, "VmRSS")
        anon += kilobytes(status, "RssAnon")
    return {"rss": rss, "anon": anon}


def threads(pid):
    """The names of a process's threads (Chromium names them: «DedicatedWorker thread», «ServiceWorker thread»)."""
    names = []
    for comm in Path(f"/proc/{pid}").glob("task/*/comm"):
        try:
            names.append(comm.read_text().strip())
        except OSError:
            continue  # ended meanwhile
    return names


def process_kind(info):
    """Which of Chromium's processes this is, from CDP's SystemInfo.getProcessInfo: the browser, the tab's
    renderer (it runs the page's dedicated workers: Python's, the search's), the service worker's renderer
    (sw.js, when Chromium gives it a process of its own), another renderer (the spare one Chromium keeps
    ready), or the type CDP says (gpu, network, storage…)."""
    if info["type"] != "renderer":
        return info["type"].removesuffix("Service").split(".")[-1].lower()  # storage.mojom.StorageService: storage
    names = threads(info["id"])
    if any(name.startswith("DedicatedWorker") for name in names):
        return "scheda"
    if any(name.startswith("ServiceWorker") for name in names):
        return "service worker"
    return "altro renderer"


def memory_by_process(browser_cdp):
    """RSS of each kind of one Chromium's processes (process_kind()), in bytes; the zygotes, which CDP does not
    list, are «zygote», so the parts add up to chromium_memory()'s RSS."""
    kinds = {info["id"]: process_kind(info) for info in browser_cdp.send("SystemInfo.getProcessInfo")["processInfo"]}
    parts = {}
    for pid in chromium_pids(browser_cdp):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue  # ended meanwhile
        name = kinds.get(pid, "zygote")
        parts[name] = parts.get(name, 0) + kilobytes(status, "VmRSS")
    return parts


# What the page keeps, counted after a collection: Blink's own counters (documents, nodes, JavaScript event
# listeners: CDP's Memory.getDOMCounters), the entries on the page's performance timeline (marks, measures,
# resource timings: each stays until cleared), and the main thread's JavaScript heap (Runtime.getHeapUsage).
ENTRIES = """() => {
  const types = {};
  for (const { entryType } of performance.getEntries()) types[entryType] = (types[entryType] || 0) + 1;
  return types;
}"""


def page_counters(page, cdp):
    """Blink's counters, the timeline's entries and the main thread's JS heap, and the tab's history entries."""
    counters = cdp.send("Memory.getDOMCounters")
    heap = cdp.send("Runtime.getHeapUsage")
    entries = page.evaluate(ENTRIES)
    return {
        **counters,
        "entries": sum(entries.values()),
        "entry_types": entries,
        "heap": heap["usedSize"],
        "history": len(cdp.send("Page.getNavigationHistory")["entries"]),
    }


def visit(page, base, lab, play_limit):
    """Instant navigation to the lab, until it is «pronto»; a stepped lab played at full speed to its end."""
    page.evaluate(GO, f"{base}{lab.path}")
    # a locator, not wait_for_selector: the element handle that returns would keep each page's DOM alive
    page.locator(f"[data-lab='{lab.id}'][data-ready=true]").wait_for(timeout=600_000)
    if lab.steps:
        page.evaluate(PLAY, min(lab.steps.max, play_limit or lab.steps.max))


# The control: the lab mounted (runtime.js's mountLabs gave it its controller), then the browser's idle
# moment, when the page left is taken apart (templates/runtime/page/leaving.js), as during a Play.
MOUNTED = "id => document.querySelector(`[data-lab='${id}']`)?.labController !== undefined"
IDLE = "() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 }))"


def visit_without_python(page, base, lab, play_limit):
    """Instant navigation to the lab, until its controller is mounted and the browser has been idle once."""
    page.evaluate(GO, f"{base}{lab.path}")
    page.wait_for_function(MOUNTED, arg=lab.id, timeout=60_000)
    page.evaluate(IDLE)


# The control's Python: runtime.js makes its worker (assets/labs/worker.js) as always and gets one that never
# starts nor answers, so every lab stays «Python si sta caricando» on its prerendered view. Same pages, same URLs,
# same theme and service worker; other workers (the theme's search) are real. An init script, not a route: once
# the service worker controls the page it answers worker.js from its cache, where no route sees the request.
SILENT_PYTHON = """(() => {
  const Real = Worker;
  self.Worker = function (url, options) {
    if (!String(url).endsWith("/assets/labs/worker.js")) return new Real(url, options);
    return Object.assign(new EventTarget(), { onmessage: null, onerror: null, postMessage() {}, terminate() {} });
  };
})();"""


def collected_memory(page, cdp, browser_cdp):
    """chromium_memory() after a full garbage collection of the page (JavaScript and DOM: one heap in Chromium)
    and a moment for the renderer to give the pages it freed back, with the RSS by process and the page's
    counters."""
    cdp.send("HeapProfiler.collectGarbage")
    page.wait_for_timeout(2000)
    return {
        **chromium_memory(chromium_pids(browser_cdp)),
        "processes": memory_by_process(browser_cdp),
        "counters": page_counters(page, cdp),
    }


# Chromium's own account of its processes' memory (memory-infra dumps, through DevTools' Tracing), one a round
# after the collection, each process collected first (deterministic): what the RSS is made of. The tab's Blink
# heap (Oilpan: DOM nodes, listeners, CSS objects) says its live objects apart from the pages it holds, free
# or not; the browser process's malloc and blob storage hold what DevTools keeps of each response.
MEMORY_INFRA = {
    "includedCategories": ["disabled-by-default-memory-infra"],
    "excludedCategories": ["*"],
    "memoryDumpConfig": {"triggers": []},
}
ALLOCATORS = {  # (kind of process, allocator dump, its attribute): name said
    ("scheda", "blink_gc/main/heap", "allocated_objects_size"): "Oilpan vivi",
    ("scheda", "blink_gc/main/heap", "size"): "Oilpan",
    ("scheda", "v8/main", "size"): "V8",
    ("scheda", "partition_alloc", "size"): "PartitionAlloc",
    ("scheda", "malloc", "size"): "malloc",
    ("browser", "malloc", "size"): "malloc",
    ("browser", "site_storage/blob_storage", "size"): "blob",
}


def start_dumps(browser_cdp):
    """Tracing on with memory-infra only; the list its events will fill."""
    events = []
    browser_cdp.on("Tracing.dataCollected", lambda event: events.extend(event["value"]))
    browser_cdp.send("Tracing.start", {"traceConfig": MEMORY_INFRA, "transferMode": "ReportEvents"})
    return events


def end_dumps(browser_cdp, page, events):
    """Tracing off, once every event has come."""
    done = []
    browser_cdp.on("Tracing.tracingComplete", lambda _: done.append(True))
    browser_cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(100)
    return events


def allocators(events, kinds):
    """ALLOCATORS' values in bytes, {kind: {name: bytes}}, from one dump's events (a process's dump comes in
    parts) and the kinds of its processes {pid: kind}."""
    found = {}
    for event in events:
        for name, dump in event.get("args", {}).get("dumps", {}).get("allocators", {}).items():
            kind = kinds.get(event["pid"])
            for (wanted, allocator, attribute), said in ALLOCATORS.items():
                value = dump.get("attrs", {}).get(attribute)
                if kind == wanted and name == allocator and value:
                    found.setdefault(kind, {})[said] = int(value["value"], 16)
    return found


def soak(browser, base, visits, play_limit=0, rounds=2, python=True):
    """rounds rounds of visits/2 labs: JS memory after each visit, RSS after each round (as it is, and
    collected: after a garbage collection). python=False: the control, the same navigations with Python's
    worker never started (SILENT_PYTHON) and nothing played."""
    chosen = labs.all_labs()[: max(1, visits // 2)]
    go = visit if python else visit_without_python
    context = browser.new_context()
    if not python:
        context.add_init_script(SILENT_PYTHON)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    browser_cdp = browser.new_browser_cdp_session()
    events = start_dumps(browser_cdp)
    page.goto(base)
    measured, dumps = [], []
    for _ in range(rounds):
        memory = []
        for lab in chosen:
            go(page, base, lab, play_limit)
            memory.append(page.evaluate(MEMORY))
        as_is = chromium_memory(chromium_pids(browser_cdp))
        measured.append({"memory": memory, **as_is, "collected": collected_memory(page, cdp, browser_cdp)})
        kinds = {
            info["id"]: process_kind(info) for info in browser_cdp.send("SystemInfo.getProcessInfo")["processInfo"]
        }
        browser_cdp.send("Tracing.requestMemoryDump", {"deterministic": True, "levelOfDetail": "detailed"})
        dumps.append(kinds)
    end_dumps(browser_cdp, page, events)
    # the events name their dump by an id of the trace's own (not the guid the request returns), in order
    ids = sorted({e["id"] for e in events if e.get("ph") == "v"}, key=lambda i: int(i, 16))[-rounds:]
    for r, dump, kinds in zip(measured, ids, dumps):
        r["allocators"] = allocators([e for e in events if e.get("ph") == "v" and e["id"] == dump], kinds)
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


PROCESSES = ["browser", "scheda", "service worker", "altro renderer", "gpu", "network", "storage", "zygote"]
COUNTERS = [
    ("documents", "documenti", 1),
    ("nodes", "nodi", 1),
    ("jsEventListeners", "listener JS", 1),
    ("entries", "voci della timeline", 1),
    ("heap", "heap JS della pagina (MB)", MB),
    ("history", "voci di cronologia", 1),
]


def process_order(name):
    """PROCESSES' order, any other kind after them."""
    return PROCESSES.index(name) if name in PROCESSES else len(PROCESSES)


def growth(earlier, later, visits):
    """What a round kept after a collection, from the round before: {part: (MB, MB a visit)} for the total and
    each kind of process."""
    before, after = earlier["collected"], later["collected"]
    parts = {"totale": after["rss"] - before["rss"]}
    for name in sorted(set(before["processes"]) | set(after["processes"]), key=process_order):
        parts[name] = after["processes"].get(name, 0) - before["processes"].get(name, 0)
    return {name: (b / MB, b / MB / visits) for name, b in parts.items()}


def say_against_control(control, rounds):
    """Italian lines, the control and the session side by side: the RSS each round kept after a collection, in
    all and by process (MB, and MB a visit), their difference (what Python and the labs' drawing add), and the
    page's counters at each round's end."""
    visits = len(rounds[0]["memory"])
    lines = [
        "  RSS tenuta dopo una garbage collection, MB (a visita): controllo senza Python | con Python | differenza"
    ]
    for n in range(1, len(rounds)):
        base = growth(control[n - 1], control[n], visits)
        ours = growth(rounds[n - 1], rounds[n], visits)
        lines.append(f"  dal giro {n} al giro {n + 1}:")
        for name in sorted(set(base) | set(ours), key=lambda name: -1 if name == "totale" else process_order(name)):
            (b, bv), (o, ov) = base.get(name, (0, 0)), ours.get(name, (0, 0))
            if name != "totale" and max(abs(b), abs(o)) < 0.5:
                continue  # a process that kept nothing in either
            lines.append(
                f"    {name:<15} {b:+6.1f} ({bv:+.3f}) | {o:+6.1f} ({ov:+.3f}) | {o - b:+6.1f} ({ov - bv:+.3f})"
            )
    lines.append("  a fine giro, dopo una garbage collection: controllo | con Python")
    for key, name, unit in COUNTERS:
        each = [
            " → ".join(f"{r['collected']['counters'][key] / unit:.{1 if unit > 1 else 0}f}" for r in run)
            for run in (control, rounds)
        ]
        lines.append(f"    {name:<26} {each[0]} | {each[1]}")
    lines.append("  memoria di Chromium per allocatore a fine giro (memory-infra), MB: controllo | con Python")
    for (kind, _, _), name in ALLOCATORS.items():
        each = [
            " → ".join(f"{r['allocators'].get(kind, {}).get(name, 0) / MB:.1f}" for r in run)
            for run in (control, rounds)
        ]
        lines.append(f"    {kind} {name:<20} {each[0]} | {each[1]}")
    for label, run in (("controllo", control), ("con Python", rounds)):
        types = run[-1]["collected"]["counters"]["entry_types"]
        lines.append(
            f"    timeline a fine sessione, {label}: " + ", ".join(f"{t} {n}" for t, n in sorted(types.items()))
        )
    return lines
