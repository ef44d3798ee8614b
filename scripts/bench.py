"""Load, interaction and stepping times of the built site in headless Chromium.

    python scripts/bench.py [--runs 3] [--only load,controls,steps,bpe] [--labs id,id] [--json out.json]

Timings vary between runs and machines, so the load times are reported as a
ratio to a baseline measured in the same run (bare Pyodide in a worker,
same server); run it twice to see the noise. Sections:

- load: per lab, a cold load (new browser context) to its first
  contentful paint, and our bytes (gzip) that the page needs before it is
  ready, beside Pyodide's own; for a sample of labs (--load-labs) --runs
  cold loads to data-ready, and their ratio to a bare page that only starts
  Pyodide (same server, same CSP, loads alternated; --bytes: file by file).
- controls: per lab, control → view updated, median and p95 over ≥ 30
  changes spread over every control (ends and random values), then at the
  expensive corner (every control at its costliest value, found in
  CPython by bench_compute.py, then each control moved a notch and back),
  and main thread long tasks (> 50 ms) while they are made. One page goes
  from lab to lab by the site's links, as a reader does (the worker stays
  warm). The lightest lab of the run is the baseline: each lab's median is
  also given as a multiple of its median.
- steps: per stepped lab, «Avanti» median/p95 at the first and at the last
  steps as fast as a hand clicks (HAND_PAUSE_MS before each click: the
  pace the budget is judged at), one click as soon as the last is drawn
  (printed, not judged: a program's pace) and at a reader's pace (a longer
  pause, in which the worker draws the next step ahead),
  «Indietro» from the last step, a jump back to step 1 and to random
  steps, Play at the fastest speed to the end (on a lab without a Play
  budget, to step PLAY_LIMIT at most and the rest extrapolated), and the
  first change after «ready» against the changes after it on the same
  page (FIRST_LOADS cold loads);
  on 9A also Play over a 100 kB corpus pasted into the page.
- bpe: core.bpe.train on 1 MB → 2,000 merges and on 100 kB → 1,000 in
  CPython, the second against bench_bpe.py's recount-every-merge reference
  (same merges, and the ratio); and 100 kB → 1,000 in Chromium, in a worker
  that starts the site's Pyodide with only the core.bpe wheel.

At the end one table, a line per lab, says which budgets each misses.

A change is timed from the input to the view updated and laid out (the
layout the browser would do before the next paint is done at once and
counted, for every lab alike). Each change also says where its time went
(root.labTiming, from scripts/measure.js, which the bench injects): in Python, waiting for the worker (a view still
being drawn ahead, messages), on the page (morph, controls) and in the layout.

Budgets are printed beside each number and in the last
table; nothing asserts.
"""

import argparse
import json
from pathlib import Path

from bench_bpe_browser import BPE_BUDGETS, bench_bpe
from bench_load import bench_fcp, bench_load, pyodide_bytes
from bench_page import HAND_PAUSE_MS, PLAY_BUDGET, PLAY_LIMIT, bench_server
from bench_steps import Reader, bench_controls, bench_steps, within
from chromium import launch
from playwright.sync_api import sync_playwright
from serve import serve_in_background

import labs


def worst_jump(steps):
    """ms: the slowest of «Indietro» from the end, the jump back to step 1 and the random jumps (p95 of each)."""
    return max(steps["indietro_from_end"]["p95"], steps["back_to_1"], steps["jumps"]["p95"])


def misses(lab, r):
    """The budgets that a lab's results miss, by a short name each."""
    out = []
    load, steps = r.get("load", {}), r.get("steps")
    if load.get("ratio", 0) > 1.05:
        out.append("pronto")
    if load.get("our_gzip_bytes", 0) > 300_000:
        out.append("byte")
    out += [name for name, key in (("comandi", "controls"), ("angolo", "corner")) if key in r and not within(r[key])]
    if steps:
        if not (within(steps["avanti_hand"]) and within(steps["avanti_hand_last"])):
            out.append("Avanti")
        if worst_jump(steps) > 100:
            out.append("salti")
        plays = [steps["play_to_end_s"]] if lab.id in PLAY_BUDGET else []
        if any(play > 10 for play in plays + [steps.get("play_pasted_s", 0)]):
            out.append("Play")
        if steps["first_change"] > 2 * steps["first_change_later"]:
            out.append("primo")
    return out


def summary(chosen, results, bpe_train):
    """The whole run in one table: a line per lab with the numbers its budgets read, and which it misses."""
    medians = {lab.id: results[lab.id]["controls"]["median"] for lab in chosen if "controls" in results[lab.id]}
    lightest = min(medians, key=medians.get) if medians else None
    pair = lambda s: f"{s['median']:.0f}/{s['p95']:.0f}" if s else "–"  # noqa: E731
    header = (
        "lab",
        "FCP",
        "pronto",
        "kB",
        "comandi",
        "× base",
        "angolo",
        "long",
        "Avanti 1°",
        "Avanti ult.",
        "di fila",
        "salti",
        "Play s",
        "primo",
        "fuori budget",
    )
    rows = []
    for lab in chosen:
        r = results[lab.id]
        load, steps, controls = r.get("load", {}), r.get("steps"), r.get("controls")
        play = steps and (
            f"{steps['play_to_end_s']:.1f}"
            + ("*" if steps["play_until"] < steps["max"] else "")
            + (f" · {steps['play_pasted_s']:.1f}" if "play_pasted_s" in steps else "")
        )
        rows.append(
            (
                f"{lab.ref} {lab.id}",
                f"{load['fcp']['median']:.0f}" if "fcp" in load else "–",
                f"{load['ratio']:.2f}×" if "ratio" in load else "–",
                f"{load['our_gzip_bytes'] / 1000:.0f}" if "our_gzip_bytes" in load else "–",
                pair(controls),
                f"{medians[lab.id] / medians[lightest]:.1f}" if controls else "–",
                pair(r.get("corner")),
                str(controls["long_tasks"]) if controls else "–",
                pair(steps and steps["avanti_hand"]),
                pair(steps and steps["avanti_hand_last"]),
                f"{steps['avanti_first']['median']:.0f}·{steps['avanti_last']['median']:.0f}" if steps else "–",
                f"{worst_jump(steps):.0f}" if steps else "–",
                play or "–",
                f"{steps['first_change'] / steps['first_change_later']:.1f}×" if steps else "–",
                ", ".join(misses(lab, r)) or "—",
            )
        )
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print(
        "\nRiepilogo (ms; med/p95; budget: comandi, angolo e Avanti 16/33, salti 100, Play 10 s per 3.1 e 9A, "
        "primo cambio 2 × la mediana dei cambi dopo, pronto 1,05 × Pyodide da solo, 300 kB)"
    )
    for row in [header, *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    missing = [row for row in rows if row[-1] != "—"]
    if lightest:
        print(
            f"× base: la mediana dei comandi divisa per quella del laboratorio più leggero di questa corsa, "
            f"{labs.get(lightest).ref} {lightest} ({medians[lightest]:.0f} ms). "
            f"Avanti alla velocità di una mano (una pausa di {HAND_PAUSE_MS} ms tra un clic e l'altro); «di fila»: "
            f"le mediane al primo e agli ultimi passi con un clic appena disegnata la vista, non giudicate. "
            f"Play*: fino al passo {PLAY_LIMIT}, il resto stimato; dopo «·», 9A su un corpus di 100 kB incollato."
        )
    print(f"{len(missing)} laboratori su {len(rows)} fuori da almeno un budget.")
    if bpe_train:
        budget = [name for key, (name, limit) in BPE_BUDGETS.items() if bpe_train[key] > limit]
        wrong = [
            name
            for key, name in (("same_merges", "riconteggio"), ("chromium_same_merges", "Chromium"))
            if not bpe_train[key]
        ]
        print(
            "BPE: "
            + ("entro i budget" if not budget else "fuori budget: " + ", ".join(budget))
            + ("" if not wrong else "; FUSIONI DIVERSE da core.bpe.train in CPython: " + ", ".join(wrong))
        )
    return {"lightest": lightest, "rows": [dict(zip(header, row)) for row in rows]}


def main():
    parser = argparse.ArgumentParser(description="Tempi di caricamento, dei comandi e dei passi, in Chromium.")
    parser.add_argument("--runs", type=int, default=3, help="caricamenti a freddo per laboratorio")
    parser.add_argument("--only", default="load,controls,steps,bpe", help="sezioni: load, controls, steps, bpe")
    parser.add_argument("--labs", default="", help="id dei laboratori, separati da virgole (tutti se vuoto)")
    parser.add_argument(
        "--load-labs",
        default="ombrello,bigrammi,transformer-miniatura",
        help="laboratori per i caricamenti a freddo (sono i più lenti da misurare)",
    )
    parser.add_argument("--bytes", action="store_true", help="elenca i nostri file di ogni pagina con i loro byte gzip")
    parser.add_argument("--json", default="", help="scrivi anche i risultati in questo file")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    chosen = [lab for lab in labs.all_labs() if not args.labs or lab.id in args.labs.split(",")]
    server = bench_server()
    base = serve_in_background(server)
    results = {}
    with sync_playwright() as p:
        browser = launch(p)
        reader = Reader(browser, base)
        for lab in chosen:
            print(f"{lab.ref} {lab.id}")
            out = results.setdefault(lab.id, {})
            if "load" in sections and lab.id in args.load_labs.split(","):
                bench_load(browser, base, lab, args.runs, out, args.bytes)
            elif "load" in sections:
                bench_fcp(browser, base, lab, out)
            if "controls" in sections:
                bench_controls(reader, lab, out)
            if "steps" in sections and lab.stepped:
                bench_steps(browser, base, lab, out)
        reader.close()
        bpe_train = bench_bpe(browser, base) if "bpe" in sections else None
        browser.close()
    server.shutdown()
    table = summary(chosen, results, bpe_train)
    if args.json:
        pyodide = {"pyodide_gzip_bytes": pyodide_bytes()} if "load" in sections else {}  # 10 MB gzipped: only if used
        everything = {"labs": results, "bpe_train": bpe_train, **pyodide} | table
        Path(args.json).write_text(json.dumps(everything, indent=2, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
