"""scripts/bench.py's «load» section: a lab's cold loads to its first paint and to «ready», against a bare page
that only starts Pyodide, and the bytes of ours it needs."""

import functools
import statistics

from bench_page import FCP, MEASURE, READY_TIME, SITE, gzip_size, our_files, stats

# The worker's marks (templates/runtime/worker/main.js: the end of each stage of its start), in ms from the
# page's navigation: the worker's clock starts when the worker does.
WORKER_MARKS = """(origin) => Object.fromEntries(performance.getEntriesByType("mark")
  .filter((m) => m.name.startsWith("labs:")).map((m) => [m.name.slice(5), m.startTime + performance.timeOrigin - origin]))"""
STAGES = ("lockfile", "pyodide", "wheels", "import", "lab", "page", "next")


def worker_marks(page):
    """The stages of the lab worker's start, ms from the page's navigation ({} if it has none)."""
    worker = next((w for w in page.workers if w.url.endswith("/assets/labs/worker.js")), None)
    return worker.evaluate(WORKER_MARKS, page.evaluate("performance.timeOrigin")) if worker else {}


def bench_load(browser, base, lab, runs, out, show_bytes=False):
    paint, ready, bare, phases, bare_start, stages = [], [], [], [], [], []
    for run in range(runs):
        # alternate which goes first, so a slow moment of the machine does not always fall on the same one
        for which in ("lab", "bare") if run % 2 == 0 else ("bare", "lab"):
            context = browser.new_context()
            context.add_init_script(READY_TIME)
            context.add_init_script(path=str(MEASURE))
            page = context.new_page()
            page.goto(f"{base}{lab.path}" if which == "lab" else f"{base}__bench/bare.html")
            page.wait_for_selector("[data-ready=true]", timeout=120_000)
            (ready if which == "lab" else bare).append(page.evaluate("window.__ready"))
            if which == "lab":
                paint.append(
                    page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN")
                )
                phases.append(page.evaluate("window.labsMeasure.times"))
                stages.append(worker_marks(page))
            else:
                bare_start.append(page.evaluate("window.__start"))
            context.close()
    ratio = statistics.median(ready) / statistics.median(bare)
    files = our_files(lab)
    out["load"] = {
        "fcp": stats(paint),
        "ready": stats(ready),
        "bare_pyodide": stats(bare),
        "ratio": round(ratio, 2),
        "our_gzip_bytes": sum(files.values()),
        "files": files,
    }
    print(
        f"  carico a freddo: FCP {statistics.median(paint):.0f} ms · pronto {statistics.median(ready):.0f} ms · "
        f"Pyodide da solo {statistics.median(bare):.0f} ms · rapporto {ratio:.2f} (budget ≤ 1,05) · "
        f"nostri byte gzip {sum(files.values()) / 1000:.0f} kB (budget ≤ 300; Pyodide {pyodide_bytes() / 1e6:.1f} MB)"
    )
    # where the lab page's time goes: worker started, runtime downloaded, Python and the lab's wheels in, ready
    marks = {
        name: statistics.median(p[name] for p in phases)
        for name in ("start", "python", "labs", "ready")
        if all(name in p for p in phases)
    }
    out["load"]["phases"] = marks | {"bare_start": statistics.median(bare_start)}
    print(
        "  fasi (ms dalla navigazione, mediane): "
        + " · ".join(f"{k} {v:.0f}" for k, v in marks.items())
        + f" · Pyodide da solo: worker a {statistics.median(bare_start):.0f}, pronto a {statistics.median(bare):.0f}"
    )
    ends = {name: statistics.median(s[name] for s in stages) for name in STAGES if all(name in s for s in stages)}
    out["load"]["worker"] = ends
    if ends:
        print(
            "  nel worker, fine di ogni fase (ms dalla navigazione, mediane): "
            + " · ".join(f"{k} {v:.0f}" for k, v in ends.items())
        )
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
