"""Time one training step of core.transformer (forward + backward + Adam) in CPython.

    python scripts/bench_transformer.py [--steps 50] [--vocab 30] [--batch 8] [--wall]

For the lab's model (vocabulary of about 30 words, d = 16, 2 heads,
context 8, batch 8) with 1 and 2 blocks and each variant of activation,
positions and head, prints the parameter count and the median (and the
fastest) time of one step over --steps steps, after two warm-up steps.
The budget is 15 ms. The first line times an empty Python loop of a million
turns, so that numbers from machines of different speed can be compared.

Times are this process's CPU time (time.process_time), as in
scripts/bench_compute.py: on a machine shared with other work the wall clock
also counts the time other processes had the core; --wall measures it anyway.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from core import transformer as tr  # noqa: E402

VARIANTS = [
    {},
    {"activation": "gelu"},
    {"positions": "rope"},
    {"tied": False},
]


CLOCK = time.process_time


def empty_loop_ms():
    start = CLOCK()
    for _ in range(1_000_000):
        pass
    return 1000 * (CLOCK() - start)


def step_times_ms(config, opt, batch, steps):
    ids = [(7 * i + i // 5) % config.vocab_size for i in range(400)]  # any token stream will do for timing
    state = tr.init_state(config)
    times = []
    for step in range(steps + 2):
        data = tr.batch_for_step(ids, config, batch, seed=0, step=step)
        start = CLOCK()
        state, _ = tr.train_step(state, data, config, opt)
        times.append(CLOCK() - start)
    return [1000 * t for t in times[2:]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--vocab", type=int, default=30)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if args.wall else time.process_time
    opt = tr.OptimizerConfig()
    print(f"Python {sys.version.split()[0]}, empty loop of 10⁶ turns: {min(empty_loop_ms() for _ in range(3)):.1f} ms")
    print(f"vocab {args.vocab}, batch {args.batch}, {args.steps} steps, {'wall' if args.wall else 'CPU'} time")
    print(f"{'blocks':>6}  {'variant':<16} {'params':>7}  {'median ms':>9}  {'best ms':>7}")
    for layers in (1, 2):
        for variant in VARIANTS:
            config = tr.TransformerConfig(vocab_size=args.vocab, n_layers=layers, **variant)
            label = ", ".join(f"{k}={v}" for k, v in variant.items()) or "default"
            count = tr.param_count(config)["total"]
            times = step_times_ms(config, opt, args.batch, args.steps)
            print(f"{layers:>6}  {label:<16} {count:>7}  {statistics.median(times):>9.2f}  {min(times):>7.2f}")


if __name__ == "__main__":
    main()
