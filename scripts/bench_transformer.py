"""Time one training step of core.transformer (forward + backward + Adam), in CPython and in Chromium.

    python scripts/bench_transformer.py [--steps 50] [--vocab 30] [--batch 4] [--wall] [--lab] [--browser]

CPython: for a model of the lab's shape (vocabulary --vocab, d = 16,
2 heads, context 8, batch --batch) with 1 and 2 blocks and each variant of
activation, positions and head, prints the parameter count and the median
(and the fastest) time of one step over --steps steps, after two warm-up
steps; then the same for the 3.2 lab's own default model, on its own text
and batches. The first line times an empty Python loop of a million turns,
so that numbers from machines of different speed can be compared.
The budget: ≤ 15 ms in CPython. Below the step, the same step cut down
to its math.sumprod calls (the same rows, recorded once, timed alone): every
product is one sumprod per cell and tests/test_core_transformer_bits.py
pins their bits, so no change that keeps the numbers goes below that line.

--lab prints what the lab shows at its default settings: the parameter
count, the losses of the transformer and of the bigram at steps 0, 100, 300
and 1,000, and the greedy text of both at steps 0 and 1,000.

--browser needs a built site (LABS_SITE_DIR, default site/; build one with
`LABS_BUILD_DIR=… LABS_SITE_DIR=… python build.py`). It serves it on
127.0.0.1, starts Chromium (the system's /usr/bin/chromium) and times, in a
Web Worker running the site's Pyodide and the site's wheel, the lab's
default training step (median of --steps steps, wall clock: the worker has
the core to itself) and the lab's compute for «Avanti» (Python only); then,
on the lab's page, «Avanti» pressed --steps times from step 0, from the click
to the view redrawn (what the reader waits for). Budgets: the step ≤ 40 ms
in Pyodide. Run it twice to see the noise.

CPython times are this process's CPU time (time.process_time), as in
scripts/bench_compute.py: on a machine shared with other work the wall clock
also counts the time other processes had the core; --wall measures it anyway.
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from core import optimizers as optim  # noqa: E402
from core import transformer as tr  # noqa: E402
from core import transformer_training as training  # noqa: E402

VARIANTS = [
    {},
    {"activation": "gelu"},
    {"positions": "rope"},
    {"tied": False},
]
LAB_ID = "transformer-allenato"
CLOCK = time.process_time


def empty_loop_ms():
    start = CLOCK()
    for _ in range(1_000_000):
        pass
    return 1000 * (CLOCK() - start)


def step_times_ms(config, opt, batch, steps, ids=None, seed=0):
    """Milliseconds of each of `steps` training steps (after two warm-up steps) on ids, batch by batch."""
    ids = ids or [(7 * i + i // 5) % config.vocab_size for i in range(400)]  # any token stream will do for timing
    state = training.init_state(config)
    times = []
    for step in range(steps + 2):
        data = training.batch_for_step(ids, config, batch, seed=seed, step=step)
        start = CLOCK()
        state, _ = training.train_step(state, data, config, opt)
        times.append(CLOCK() - start)
    return [1000 * t for t in times[2:]]


def lab_model():
    """The 3.2 lab's default model, optimiser, batch size and training IDs, as its start() builds them."""
    import labs
    from labs.ch3 import transformer_allenato as lab

    m = lab.start(labs.get(LAB_ID).defaults())
    return m.config, m.opt, lab.BATCH, m.train, m.seed


def lab_step_times_ms(steps):
    """The lab's own training step at its default settings: its model, its text, its batches."""
    config, opt, batch, ids, seed = lab_model()
    return step_times_ms(config, opt, batch, steps, ids, seed)


def lab_sumprod_floor_ms(steps):
    """The lab's training step cut down to its math.sumprod calls: the same calls on the same rows, timed alone.

    Every product of the step is one math.sumprod per cell (core.transformer_layers) and the equality
    fixture pins their bits, so no change that keeps the numbers can take a step below this.
    Returns (ms of the calls alone, median over `steps` repetitions; calls; numbers multiplied)."""
    import math

    from core import optimizers, transformer_layers

    config, opt, batch, ids, seed = lab_model()
    state = training.init_state(config)
    data = training.batch_for_step(ids, config, batch, seed=seed, step=0)
    firsts, seconds = [], []

    def recorded(a, b):
        a, b = list(a), list(b)
        firsts.append(a)
        seconds.append(b)
        return math.sumprod(a, b)

    modules = (transformer_layers, optimizers)
    try:
        for module in modules:
            module.sumprod = recorded
        training.train_step(state, data, config, opt)
    finally:
        for module in modules:
            module.sumprod = math.sumprod
    times = []
    for _ in range(steps):
        start = CLOCK()
        list(map(math.sumprod, firsts, seconds))
        times.append(1000 * (CLOCK() - start))
    return times, len(firsts), sum(map(len, firsts))


def lab_avanti_ms(steps):
    """The lab's compute for «Avanti» (labs.render, as the worker calls it) from step 1 to steps, warm machine."""
    import labs

    labs.render(LAB_ID, {})
    times = []
    for at in range(1, steps + 1):
        start = CLOCK()
        result = labs.render(LAB_ID, {"passo": str(at)})
        times.append(1000 * (CLOCK() - start))
        assert result["ok"], result.get("error")
    return times


def load():
    """The machine's load average over the last minute, and its cores: wall-clock times in the browser count it."""
    return f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def summary(times):
    ordered = sorted(times)
    return {
        "median": statistics.median(times),
        "p95": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "best": ordered[0],
        "n": len(times),
    }


def show(label, s, budget=None):
    flag = "" if budget is None else f"   (budget ≤ {budget} ms{'' if s['median'] <= budget else ' ← fuori'})"
    print(
        f"  {label:<46} median {s['median']:7.2f} ms · p95 {s['p95']:7.2f} · best {s['best']:7.2f} · n {s['n']}{flag}"
    )


def cpython_table(args):
    opt = optim.OptimizerConfig()
    print(
        f"CPython {sys.version.split()[0]}, empty loop of 10⁶ turns: {min(empty_loop_ms() for _ in range(3)):.1f} ms"
        f" · {'wall' if args.wall else 'CPU'} time · {args.steps} steps · load average {load()}"
    )
    print(f"vocab {args.vocab}, batch {args.batch}")
    print(f"{'blocks':>6}  {'variant':<16} {'params':>7}  {'median ms':>9}  {'best ms':>7}")
    for layers in (1, 2):
        for variant in VARIANTS:
            config = tr.TransformerConfig(vocab_size=args.vocab, n_layers=layers, **variant)
            label = ", ".join(f"{k}={v}" for k, v in variant.items()) or "default"
            count = tr.param_count(config)["total"]
            times = step_times_ms(config, opt, args.batch, args.steps)
            print(f"{layers:>6}  {label:<16} {count:>7}  {statistics.median(times):>9.2f}  {min(times):>7.2f}")
    config, _, batch, _, _ = lab_model()
    print(
        f"3.2 lab, default: vocab {config.vocab_size}, d {config.d_model}, {config.n_heads} heads, "
        f"{config.n_layers} block, context {config.context}, batch {batch}, "
        f"{tr.param_count(config)['total']} params"
    )
    show("training step, CPython", summary(lab_step_times_ms(args.steps)), 15)
    floor, calls, numbers = lab_sumprod_floor_ms(args.steps)
    show(f"  its {calls:,} sumprods ({numbers:,} terms) alone", summary(floor))
    show("«Avanti» compute + view (labs.render), CPython", summary(lab_avanti_ms(args.steps)))


def lab_figures():
    """Losses at steps 0, 100, 300, 1,000 and greedy text at steps 0 and 1,000, at the lab's defaults."""
    import labs

    lab = labs.get(LAB_ID)
    params = lab.defaults()
    print(f"3.2 at its defaults (prompt «{params['prompt']}»):")
    for at in (0, 100, 300, 1000):
        s = lab.compute(params | {"passo": at})
        step, train, held, bigram_train, bigram_held = s["evals"][-1]
        assert step == at
        print(
            f"  step {at:>4}: transformer train {train:.3f} held-out {held:.3f} · bigram train {bigram_train:.3f} "
            f"held-out {bigram_held:.3f} · bigram's best {s['bigram_best']:.3f} · batch loss {s['loss']:.3f}"
        )
        if at in (0, 1000):
            g = s["samples"]
            print(f"             greedy, transformer: {g['prompt']} {g['transformer'][0]}")
            print(f"             greedy, bigram:      {g['prompt']} {g['bigram'][0]}")
    print(f"  parameters: {s['counts']['total']} (bigram {s['bigram_params']})")


# ---------------------------------------------------------------- in Chromium

WORKER = """
import { loadPyodide } from "%(base)spyodide/pyodide.mjs";
const py = await loadPyodide({ indexURL: "%(base)spyodide/", lockFileURL: "%(base)spyodide/%(lockfile)s" });
await py.loadPackage(%(packages)s, { messageCallback: () => {} });
onmessage = ({ data }) => {
  try { postMessage({ ok: true, out: py.runPython(data) }); } catch (error) { postMessage({ ok: false, out: String(error) }); }
};
postMessage({ ready: true });
"""

# A module worker made from a blob: the site's CSP allows workers from 'self' only, so this page bypasses it
IN_WORKER = """async ([source, code]) => {
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" });
  const next = () => new Promise((resolve, reject) => { worker.onmessage = ({ data }) => resolve(data); worker.onerror = reject; });
  await next();
  const results = [];
  for (const piece of code) { worker.postMessage(piece); results.push(await next()); }
  worker.terminate();
  return results;
}"""

IN_PYODIDE = """
import json, sys, time
sys.modules.pop("bench_transformer", None)
with open("/tmp/bench_transformer.py", "w") as f:
    f.write(%(source)r)
sys.path.insert(0, "/tmp")
import bench_transformer as b
b.CLOCK = time.perf_counter
json.dumps({"version": sys.version.split()[0], "step": b.lab_step_times_ms(%(steps)d),
            "floor": b.lab_sumprod_floor_ms(%(steps)d), "avanti": b.lab_avanti_ms(%(steps)d)})
"""


def browser_numbers(args):
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_page import ACT
    from chromium import launch
    from serve import make_server, serve_in_background

    import labs

    site = Path(os.environ.get("LABS_SITE_DIR", ROOT / "site")).resolve()
    lab = labs.get(LAB_ID)
    page_html = (site / lab.path / "index.html").read_text(encoding="utf-8")
    lockfile = page_html.split('data-lockfile="')[1].split('"')[0]
    package = page_html.split('data-package="')[1].split('"')[0]
    listed = json.loads((site / "pyodide" / lockfile).read_text(encoding="utf-8"))["packages"]
    packages = [name for name in listed if name == package or name.startswith(package + "-")]  # the labs' wheels
    server = make_server(site)
    base = serve_in_background(server)
    try:
        with sync_playwright() as p:
            browser = launch(p)
            print(f"Chromium {browser.version}, site {site}, load average {load()}")
            context = browser.new_context(bypass_csp=True)
            page = context.new_page()
            page.goto(base + "404.html")
            source = WORKER % {"base": base, "lockfile": lockfile, "packages": json.dumps(packages)}
            code = IN_PYODIDE % {"source": Path(__file__).read_text(encoding="utf-8"), "steps": args.steps}
            [answer] = page.evaluate(IN_WORKER, [source, [code]])
            context.close()
            if not answer["ok"]:
                raise SystemExit(f"Pyodide: {answer['out']}")
            out = json.loads(answer["out"])
            print(f"Pyodide (Python {out['version']}) in a Web Worker, wall clock:")
            show("training step, Pyodide", summary(out["step"]), 40)
            floor, calls, numbers = out["floor"]
            show(f"  its {calls:,} sumprods ({numbers:,} terms) alone", summary(floor))
            show("«Avanti» compute + view (labs.render), Pyodide", summary(out["avanti"]))

            page = browser.new_page()
            page.goto(f"{base}{lab.path}")
            page.wait_for_selector("[data-lab][data-ready=true]", timeout=300_000)
            clicks = [page.evaluate(ACT, [{}, "+1"]) for _ in range(args.steps)]
            show(f"«Avanti» on the page, steps 1…{args.steps}", summary(clicks))
            page.close()
            browser.close()
    finally:
        server.shutdown()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--vocab", type=int, default=30)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    parser.add_argument("--lab", action="store_true", help="the lab's losses and greedy text at its defaults")
    parser.add_argument("--browser", action="store_true", help="also in Pyodide inside Chromium (needs a built site)")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if args.wall else time.process_time
    cpython_table(args)
    if args.lab:
        lab_figures()
    if args.browser:
        browser_numbers(args)


if __name__ == "__main__":
    main()
