"""scripts/bench.py's «load» section: a lab's cold loads to its first paint and to «ready», against a bare page
that only starts Pyodide, and the bytes of ours it needs."""

import functools
import statistics
import sys

from bench_page import FCP, MEASURE, READY_TIME, ROOT, SITE, gzip_size, our_files, stats, wait_ready

# The worker's marks (templates/runtime/worker/main.js: the end of each stage of its start), which «ready» puts
# on the page's timeline (page/python.js), in ms from the page's navigation.
WORKER_MARKS = """() => Object.fromEntries(performance.getEntriesByType("mark")
  .filter((m) => m.name.startsWith("labs:worker:")).map((m) => [m.name.slice(12), m.startTime]))"""
STAGES = ("lockfile", "pyodide", "wheels", "import", "lab", "page", "next")
# When the page said «pronto» (a lab's [data-ready=true], or the bare page's), ms from its navigation, and whether
# it had already when this was asked: window.__ready if an init script watched from the start (Chromium, Firefox),
# else an observer from now (WebKit's driver has no init script: asked once the document has loaded, seconds
# before Pyodide is ready)
READY_AT = """() => window.__ready !== undefined ? [window.__ready, false]
  : document.querySelector("[data-ready=true]") ? [performance.now(), true]
  : new Promise((resolve) => new MutationObserver((_, observer) => {
      if (!document.querySelector("[data-ready=true]")) return;
      observer.disconnect();
      resolve([performance.now(), false]);
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] }))"""
ENGINES = ("chromium", "firefox", "webkit")


def worker_marks(page):
    """The stages of the lab worker's start, ms from the page's navigation ({} if it has none)."""
    return page.evaluate(WORKER_MARKS)


def load_times(page):
    """What a cold load of a lab page or of the bare one says once it is «pronto» (ms from its navigation)."""
    ready, late = page.evaluate(READY_AT)
    return {
        "ready": ready,
        "late": late,  # already «pronto» when first asked: ready is later than the truth
        "start": page.evaluate("() => window.__start ?? null"),  # the bare page's worker started
        "phases": page.evaluate("() => window.labsMeasure?.times ?? {}"),  # scripts/measure.js, where injected
        "stages": worker_marks(page),
    }


def chromium_load(browser, url):
    """A cold load in a new browser context of Playwright's Chromium, with its first contentful paint."""
    context = browser.new_context()
    context.add_init_script(READY_TIME)
    context.add_init_script(path=str(MEASURE))
    page = context.new_page()
    page.goto(url)
    wait_ready(page)
    times = load_times(page)
    times["fcp"] = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN")
    context.close()
    return times


def engine_missing(engine):
    """Why this machine cannot drive the engine, or None."""
    if engine == "chromium":
        return None
    sys.path.insert(0, str(ROOT / "tests" / "engines"))
    import drivers

    return drivers.missing(engine)


def engine_load(engine, url):
    """A cold load in a new Firefox ESR or WebKitGTK (a fresh profile each: nothing cached), through
    tests/engines/drivers.py."""
    sys.path.insert(0, str(ROOT / "tests" / "engines"))
    import drivers

    browser = drivers.launch(engine)
    try:
        if engine == "firefox":
            browser.send("script.addPreloadScript", {"functionDeclaration": f"() => {{ {READY_TIME} }}"})
        page = browser.new_page()
        page.goto(url)
        return load_times(page)
    finally:
        browser.close()


def bench_load(browser, base, lab, runs, out, show_bytes=False, engine="chromium"):
    """Cold loads of the lab's page and of the bare Pyodide page, alternated, `runs` of each: in Chromium with
    `browser` (Playwright's), in Firefox or WebKit with a browser of their own for each load."""
    loads = {"lab": [], "bare": []}
    for run in range(runs):
        # alternate which goes first, so a slow moment of the machine does not always fall on the same one
        for which in ("lab", "bare") if run % 2 == 0 else ("bare", "lab"):
            url = f"{base}{lab.path}" if which == "lab" else f"{base}__bench/bare.html"
            loads[which].append(chromium_load(browser, url) if engine == "chromium" else engine_load(engine, url))
    ready = [t["ready"] for t in loads["lab"]]
    bare = [t["ready"] for t in loads["bare"]]
    ratio = statistics.median(ready) / statistics.median(bare)
    files = our_files(lab)
    out["load"] = {
        "engine": engine,
        "ready": stats(ready),
        "bare_pyodide": stats(bare),
        "ratio": round(ratio, 2),
        "ratios": [round(r / b, 2) for r, b in zip(ready, bare)],
        "late": sum(t["late"] for t in loads["lab"] + loads["bare"]),
        "our_gzip_bytes": sum(files.values()),
        "files": files,
    }
    paint = [t["fcp"] for t in loads["lab"] if "fcp" in t]
    if paint:
        out["load"]["fcp"] = stats(paint)
    each = ", ".join(f"{r:.2f}" for r in out["load"]["ratios"])
    print(
        f"  {engine}, carico a freddo: "
        + (f"FCP {statistics.median(paint):.0f} ms · " if paint else "")
        + f"pronto {statistics.median(ready):.0f} ms · Pyodide da solo {statistics.median(bare):.0f} ms · "
        f"rapporto {ratio:.2f} (a ogni giro: {each}; budget ≤ 1,05) · "
        f"nostri byte gzip {sum(files.values()) / 1000:.0f} kB (budget ≤ 300; Pyodide {pyodide_bytes() / 1e6:.1f} MB)"
        + (f" · {out['load']['late']} «pronto» letti in ritardo" if out["load"]["late"] else "")
    )
    # where the lab page's time goes: worker started, runtime downloaded, Python and the lab's wheels in, ready
    phases = [t["phases"] for t in loads["lab"]]
    marks = {
        name: statistics.median(p[name] for p in phases)
        for name in ("start", "python", "labs", "ready")
        if all(name in p for p in phases)
    }
    bare_start = statistics.median(t["start"] for t in loads["bare"])
    out["load"]["phases"] = marks | {"bare_start": bare_start}
    print(
        "  fasi (ms dalla navigazione, mediane): "
        + " · ".join(f"{k} {v:.0f}" for k, v in marks.items())
        + f" · Pyodide da solo: worker a {bare_start:.0f}, pronto a {statistics.median(bare):.0f}"
    )
    stages = [t["stages"] for t in loads["lab"]]
    ends = {name: statistics.median(s[name] for s in stages) for name in STAGES if all(name in s for s in stages)}
    out["load"]["worker"] = ends
    if ends:
        print(
            "  nel worker, fine di ogni fase (ms dalla navigazione, mediane): "
            + " · ".join(f"{k} {v:.0f}" for k, v in ends.items())
        )
        for s in stages:  # each run's, for the trace of where the time goes
            print("    un giro: " + " · ".join(f"{k} {s[k]:.0f}" for k in STAGES if k in s))
    if show_bytes:
        for name, size in sorted(files.items(), key=lambda item: -item[1]):
            print(f"    {size / 1000:7.1f} kB  {name}")


@functools.cache
def pyodide_bytes():
    """Pyodide's own files that every lab page fetches before it is ready (gzip), apart from ours."""
    runtime = SITE / "pyodide"
    return sum(
        gzip_size(runtime / name)
        for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
    )


def bench_fcp(browser, base, lab, out):
    """One cold load (new browser context) to its first contentful paint, and our bytes; the labs of
    --load-labs get more (bench_load)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}{lab.path}")
    paint = page.evaluate(FCP)
    context.close()
    files = our_files(lab)
    out["load"] = {"fcp": stats([paint]), "our_gzip_bytes": sum(files.values()), "files": files}
    print(
        f"  carico a freddo: FCP {paint:.0f} ms · nostri byte gzip {sum(files.values()) / 1000:.0f} kB "
        f"(budget ≤ 300; Pyodide {pyodide_bytes() / 1e6:.1f} MB)"
    )


# ms: the page's first seconds are over (see bench_steps: the first steps right after «pronto» are slower)
