"""Where a lab page's «pronto» goes beyond bare Pyodide's, by subtraction (issue 48, item 4): cold loads, in turn, of
the lab's built page and of variants that leave a part of it out. WebKit has no trace to read; this works in all three.

    python scripts/bench_subtract.py [--lab ombrello] [--engines chromium,firefox,webkit] [--runs 3]

    bare         Pyodide alone (scripts/bench_page.py's bare page)
    worker       our worker.js started on a bare page with the lab's init message: Pyodide, our wheels, the lab's
                 Python, and no page around them
    head         the lab page's <head> (the boot script that starts the worker, the stylesheets), an empty body
    no-runtime   the whole page without runtime.js
    page         the page as built

The variants are served beside the page (its folder: its relative links hold) by the bench's server, with the
site's headers; where runtime.js is missing a small script marks the page «pronto» when the worker the <head>
started says it is. It needs a built site (LABS_SITE_DIR, default site/). Times are wall clock: read the spread
between runs, and the ms each part adds, not one ratio.
"""

import argparse
import functools
import re
import statistics

from bench_load import ENGINES, chromium_load, engine_load, engine_missing
from bench_page import BARE, SITE, bench_server
from chromium import launch
from playwright.sync_api import sync_playwright
from serve import serve_in_background

import labs

VARIANTS = ("bare", "worker", "head", "no-runtime", "page")
RUNTIME = re.compile(r'<script src="[^"]*assets/labs/runtime\.js" type="module"></script>')
PRONTO = b"""setInterval(() => {
  if (self.labsEarly?.events.some((event) => event.data?.type === "ready")) document.documentElement.dataset.ready = "true";
}, 20);"""


def variant_pages(lab):
    """{file name beside the lab's page: its HTML} for head and no-runtime, and the bare worker page's files."""
    page = (SITE / lab.path / "index.html").read_text(encoding="utf-8")
    runtime = RUNTIME.search(page)
    boot = dict(re.findall(r'data-(module|package|lockfile)="([^"]+)"', page.split("</head>", 1)[0]))
    if not runtime or len(boot) != 3:
        raise SystemExit(
            f"bench_subtract: la pagina di {lab.id} non ha più runtime.js o lo script di avvio come li cerco"
        )
    pronto = '<script src="__pronto.js"></script>'
    BARE["worker.html"] = (
        b'<!doctype html><meta charset="utf-8"><title>worker</title><script type="module" src="worker-page.js"></script>',
        "text/html",
    )
    BARE["worker-page.js"] = (
        (
            'const worker = new Worker(new URL("../assets/labs/worker.js", location.href), { type: "module" });\n'
            'worker.onmessage = ({ data }) => { if (data.type === "ready") document.documentElement.dataset.ready = "true"; };\n'
            f'worker.postMessage({{ type: "init", indexURL: new URL("../pyodide/", location.href).href, package: "{boot["package"]}", '
            f'lockfile: "{boot["lockfile"]}", module: "{boot["module"]}", stallSeconds: 15, revalidate: false }});'
        ).encode(),
        "text/javascript",
    )
    return {
        "__head.html": page.split("<body", 1)[0] + f"<body>{pronto}</body></html>",
        "__no-runtime.html": page.replace(runtime[0], pronto),
        "__pronto.js": PRONTO,
    }


def subtract_server(lab):
    """The bench's server, with the lab's variants beside its page."""
    files = variant_pages(lab)
    server = bench_server()
    base_handler = server.RequestHandlerClass

    class Handler(base_handler.func):
        def do_GET(self):
            name = self.path.split("?")[0].removeprefix(f"/{lab.path}")
            if name not in files or not self.path.startswith(f"/{lab.path}"):
                return super().do_GET()
            body = files[name]
            kind = "text/javascript" if name.endswith(".js") else "text/html; charset=utf-8"
            return self.send_body(body if isinstance(body, bytes) else body.encode(), kind)

    server.RequestHandlerClass = functools.partial(Handler, *base_handler.args, **base_handler.keywords)
    return server


def url(base, lab, variant):
    return {
        "bare": f"{base}__bench/bare.html",
        "worker": f"{base}__bench/worker.html",
        "head": f"{base}{lab.path}__head.html",
        "no-runtime": f"{base}{lab.path}__no-runtime.html",
        "page": f"{base}{lab.path}",
    }[variant]


def subtract(load, base, lab, runs):
    """{variant: [ms to «pronto»]}, the variants in turn, each run starting one further along."""
    times = {v: [] for v in VARIANTS}
    for run in range(runs):
        for variant in VARIANTS[run % len(VARIANTS) :] + VARIANTS[: run % len(VARIANTS)]:
            times[variant].append(load(url(base, lab, variant))["ready"])
    return times


def say(engine, lab, times):
    bare = statistics.median(times["bare"])
    print(f"{lab.ref} {lab.id}, {engine}: «pronto» in ms (mediana; a ogni giro) e quanto aggiunge rispetto a bare")
    for variant, values in times.items():
        median = statistics.median(values)
        print(f"  {variant:<11} {median:6.0f}  ({median - bare:+5.0f})  " + ", ".join(f"{v:.0f}" for v in values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lab", default="ombrello", help="the lab's id")
    parser.add_argument("--engines", default=",".join(ENGINES), help="of " + ", ".join(ENGINES))
    parser.add_argument("--runs", type=int, default=3, help="loads of each variant")
    args = parser.parse_args()
    lab = labs.get(args.lab)
    base = serve_in_background(subtract_server(lab))
    for engine in args.engines.split(","):
        missing = engine_missing(engine)
        if missing:
            print(f"{engine}: {missing}")
        elif engine == "chromium":
            with sync_playwright() as playwright:
                browser = launch(playwright)
                say(engine, lab, subtract(functools.partial(chromium_load, browser), base, lab, args.runs))
                browser.close()
        else:
            say(engine, lab, subtract(functools.partial(engine_load, engine), base, lab, args.runs))


if __name__ == "__main__":
    main()
