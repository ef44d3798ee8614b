"""Time BPE training (core.bpe.train) against the textbook loop, in CPython.

    python scripts/bench_bpe.py [--seed 0]

On generated Italian-like text (italian_like: deterministic from the seed)
it trains 2,000 merges on 1 MB and 1,000 merges on 100 kB with two
trainers: core.bpe.train, which updates its counts after every merge, and
naive_train, which recounts every pair from scratch. It asserts that both
learn the same merges and prints both times and their ratio. The budget is
2 s for 1 MB → 2,000 merges with core.bpe.train. Times are wall-clock; the
CPU time of the process is printed beside them, since on a busy machine it
is the one that stays put.

The tests import italian_like and naive_train from here: the reference the
benchmark trusts is the one the tests check.
"""

import argparse
import itertools
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from core import bpe  # noqa: E402
from labs.ch9.bpe import CORPUS  # noqa: E402

RUNS = [(1_000_000, 2000), (100_000, 1000)]  # (characters of text, merges)
SYLLABLE = re.compile(r"[^aeiouàèéìòù]*[aeiouàèéìòù]+")


def italian_like(size, seed=0, lexicon=50_000):
    """size characters of sentences made of the 9A lab's words and of
    `lexicon` invented words glued from their syllables («gattazione»),
    drawn with Zipf frequencies as in a real text, with commas, capitals,
    full stops, question marks and line breaks. The same seed, the same text."""
    rng = random.Random(seed)
    words = sorted({w.lower() for w in re.findall(r"[^\W\d_]+", CORPUS)})
    syllables = sorted({s for w in words for s in SYLLABLE.findall(w)})
    invented = ["".join(rng.choice(syllables) for _ in range(rng.choice((1, 2, 2, 3, 3, 4)))) for _ in range(lexicon)]
    vocabulary = words + invented
    zipf = list(itertools.accumulate(1 / rank for rank in range(1, len(vocabulary) + 1)))
    out, length = [], 0
    while length < size:
        sentence = rng.choices(vocabulary, cum_weights=zipf, k=rng.randint(4, 16))
        sentence = [w + "," if rng.random() < 0.08 else w for w in sentence[:-1]] + sentence[-1:]
        text = " ".join(sentence)
        text = text[0].upper() + text[1:] + rng.choice(".....?!") + rng.choice("  \n")
        out.append(text)
        length += len(text)
    return "".join(out)[:size]


def naive_train(text, num_merges):
    """The textbook loop, sharing nothing with core.bpe but the
    pre-tokenisation: at every step count every adjacent pair of every
    distinct chunk (weighted by how often the chunk occurs), take the highest
    count and among equals the smallest pair, glue it everywhere."""
    freq = bpe.chunk_frequencies(text)
    seqs, weights = [list(chunk) for chunk in freq], list(freq.values())
    merges = []
    for new_id in range(bpe.BASE_VOCAB, bpe.BASE_VOCAB + num_merges):
        counts = Counter()
        for ids, w in zip(seqs, weights):
            for pair in zip(ids, ids[1:]):
                counts[pair] += w
        if not counts:
            break
        best = min(counts, key=lambda pair: (-counts[pair], pair))
        merges.append(bpe.Merge(best[0], best[1], new_id, counts[best]))
        seqs = [glue(ids, best, new_id) if best[0] in ids else ids for ids in seqs]
    return merges


def glue(ids, pair, new_id):
    """ids with each non-overlapping occurrence of pair, left to right, replaced by new_id."""
    out = []
    for i in ids:
        if out and out[-1] == pair[0] and i == pair[1]:  # out[-1] is never a merged token: new_id is not pair[0]
            out[-1] = new_id
        else:
            out.append(i)
    return out


def timed(train, text, merges):
    """train(text, merges), its wall-clock seconds and its CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = train(text, merges)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, seed {args.seed}")
    print(f"{'bytes':>9} {'distinct chunks':>16} {'merges':>7}   {'train (cpu)':<16} {'naive (cpu)':<18} ratio")
    for size, merges in RUNS:
        text = italian_like(size, args.seed)
        fast, fast_s, fast_cpu = timed(bpe.train, text, merges)
        slow, slow_s, slow_cpu = timed(naive_train, text, merges)
        assert fast == slow, f"merges differ on {size} characters"
        assert len(fast) == merges, f"only {len(fast)} merges on {size} characters"
        print(
            f"{len(text.encode()):>9} {len(bpe.chunk_frequencies(text)):>16} {merges:>7}   "
            f"{fast_s:5.2f}s ({fast_cpu:5.2f}s)  {slow_s:6.1f}s ({slow_cpu:6.1f}s)  {slow_s / fast_s:4.0f}×"
        )


if __name__ == "__main__":
    main()
