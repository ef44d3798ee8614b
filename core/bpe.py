"""Byte-level Byte Pair Encoding (BPE), small enough to follow step by step.

The base alphabet is the 256 possible bytes: a text becomes its UTF-8 bytes,
so any string can be represented and a single accented letter or emoji may
start as two or four byte tokens. Training repeats one move: count every
pair of adjacent tokens in the corpus, fuse the most frequent pair into a
new token (id 256, 257, …) and record the rule. Encoding a new text applies
the recorded rules in the order they were learned.

Before any counting, pre-tokenisation splits the text into chunks (words
with their leading space, numbers, punctuation, whitespace), and pairs are
only counted and merged inside a chunk: a token never spans two chunks.
Identical chunks are counted once with their frequency as weight. A merge
rewrites only the chunks that contain its pair and changes only the counts
of the pairs around the merged positions, so a step costs what it touches,
not the size of the corpus: a megabyte of text learns 2,000 merges in about
a second (scripts/bench_bpe.py), and the browser can follow the steps.
"""

import re
from collections import Counter
from heapq import heapify, heappop, heappush, nsmallest
from typing import NamedTuple

BASE_VOCAB = 256

# The pre-tokenisation rule, written for the standard library `re` (Pyodide
# has no `regex` module, hence no \p{L}). Every character is a letter
# ([^\W\d_], plus the combining marks listed below so that an accent typed
# as a separate code point stays with its letter), a digit (\d), whitespace
# (\s) or anything else (punctuation, symbols, emoji, the underscore). The
# alternatives cover all four classes, so any Unicode string splits into
# chunks that join back into it. One ordinary space before a word, a number
# or a run of punctuation belongs to it («·gatto»); in a run of spaces the
# last one goes with what follows and the rest is a chunk of its own.
_MARKS = (
    "\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u064b-\u065f\u0900-\u0903\u093a-\u094f"
    "\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f"
)
SPLIT_PATTERN = re.compile(
    rf" ?(?:[^\W\d_]|[{_MARKS}])+"  # a word: «gatto», «·gatto», «·città»
    r"| ?\d+"  # a number, in any script's decimal digits
    r"| ?(?:[^\s\w]|_)+"  # punctuation and symbols: «.», «?!», «·🐈»
    r"|\s+(?!\S)"  # whitespace that keeps its last space for the next chunk…
    r"|\s+"  # …or all of it, when no space precedes what follows
)


class Merge(NamedTuple):
    """Una regola imparata: i token left e right diventano il token id.

    A learned rule: tokens left + right become token id; count is how
    many times the pair occurred when it was chosen.
    """

    left: int
    right: int
    id: int
    count: int

    @property
    def pair(self):
        return (self.left, self.right)


def pretokenize(text):
    """I pezzi del testo secondo SPLIT_PATTERN: riattaccati danno di nuovo il testo."""
    return SPLIT_PATTERN.findall(text)


def chunk_frequencies(text):
    """Quante volte compare ogni pezzo del testo (in byte UTF-8), in ordine di apparizione.

    {chunk as UTF-8 bytes: how many times it occurs}, in order of first
    appearance in the text.
    """
    return dict(Counter(chunk.encode("utf-8") for chunk in pretokenize(text)))


def count_pairs(seqs, weights=None):
    """Il conteggio di ogni coppia (a, b) di token vicini, pesato con la frequenza di ogni sequenza."""
    counts = {}
    for k, ids in enumerate(seqs):
        w = 1 if weights is None else weights[k]
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + w
    return counts


def most_frequent_pair(counts):
    """The pair with the highest count; among equals, the smallest pair
    (a, b), so the choice never depends on the order of the dict."""
    return max(counts, key=lambda pair: (counts[pair], -pair[0], -pair[1]))


def ranked_pairs(counts, n):
    """Le n coppie più frequenti con il loro conteggio, nell'ordine in cui la fusione le sceglierebbe.

    The n most frequent pairs as (pair, count), in the order
    most_frequent_pair would pick them.
    """
    return nsmallest(n, counts.items(), key=lambda item: (-item[1], item[0]))


def merge_pair(ids, pair, new_id):
    """Sostituisce con new_id ogni occorrenza della coppia negli ID, da sinistra a destra e senza sovrapposizioni.

    ids with every occurrence of pair, scanned left to right without
    overlaps, replaced by new_id: merge_pair([97, 97, 97], (97, 97), 256) is [256, 97].
    """
    a, b = pair
    out, i, n = [], 0, len(ids)
    while i < n:
        if i + 1 < n and ids[i] == a and ids[i + 1] == b:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def merge_pair_with_delta(ids, pair, new_id):
    """La fusione di merge_pair, più le coppie vicine che distrugge e quelle che crea.

    merge_pair(ids, pair, new_id), plus the adjacent pairs it destroys and
    the ones it creates: (new_ids, lost, gained).

    A pair that touches no merged position is the same before and after, so
    pairs(new_ids) = pairs(ids) − lost + gained: training updates its counts
    with a few pairs per merge instead of recounting the corpus."""
    a, b = pair
    out, merged_at, new_at, i, n = [], [], [], 0, len(ids)
    while True:
        try:
            j = ids.index(a, i)  # jump to the next candidate (C speed on long chunks)
        except ValueError:
            break
        if j + 1 < n and ids[j + 1] == b:
            out.extend(ids[i:j])
            merged_at.append(j)
            new_at.append(len(out))
            out.append(new_id)
            i = j + 2
        else:
            out.extend(ids[i : j + 1])
            i = j + 1
    out.extend(ids[i:])
    old_positions = {p for j in merged_at for p in (j - 1, j, j + 1) if 0 <= p < n - 1}
    new_positions = {q for k in new_at for q in (k - 1, k) if 0 <= q < len(out) - 1}
    lost = [(ids[p], ids[p + 1]) for p in old_positions]
    gained = [(out[q], out[q + 1]) for q in new_positions]
    return out, lost, gained


class Trainer:
    """Il training di BPE una fusione alla volta, sui pezzi distinti di un testo.

    chunks[s] is a distinct chunk's bytes and weights[s] how many times it
    occurs in the text; seqs[s] is its tokens so far. counts holds the pair
    counts of seqs as they are now, weighted, and merges the rules learned so
    far. Each step() learns one rule and updates all of them in place; in
    between, a view reads what it shows (ranked_pairs(counts, n) are the
    pairs the next step compares). A Trainer is plain data: copy.deepcopy or
    pickle keeps a checkpoint that goes on alone.

    Nothing is recounted: an index says which chunks may contain each pair,
    so a merge rewrites only those chunks, and merge_pair_with_delta says
    which counts it changes. The best pair comes from a heap of (−count,
    pair) whose outdated entries are skipped when they reach the top; its
    order is most_frequent_pair's, so the merges are those of recounting
    the corpus at every step."""

    def __init__(self, text):
        freq = chunk_frequencies(text)
        self.chunks, self.weights = list(freq), list(freq.values())
        self.seqs = [list(chunk) for chunk in self.chunks]
        self.counts = count_pairs(self.seqs, self.weights)
        self.merges = []
        self._where = {}  # pair → chunks that may contain it (a superset: chunks that lost it are skipped)
        for s, ids in enumerate(self.seqs):
            for pair in zip(ids, ids[1:]):
                self._where.setdefault(pair, set()).add(s)
        self._heap = [(-c, pair) for pair, c in self.counts.items()]
        heapify(self._heap)

    def next_pair(self):
        """The pair the next step merges, most_frequent_pair(self.counts),
        or None when no chunk has two tokens left."""
        heap, counts = self._heap, self.counts
        while heap and counts.get(heap[0][1]) != -heap[0][0]:
            heappop(heap)  # an entry written before its pair's count changed
        return heap[0][1] if heap else None

    def step(self):
        """Merge the most frequent pair into a new token in every chunk and
        return the Merge learned, or None when nothing is left to merge."""
        pair = self.next_pair()
        if pair is None:
            return None
        merge = Merge(pair[0], pair[1], BASE_VOCAB + len(self.merges), self.counts[pair])
        counts, where, changed = self.counts, self._where, set()
        for s in where.pop(pair):
            w = self.weights[s]
            self.seqs[s], lost, gained = merge_pair_with_delta(self.seqs[s], pair, merge.id)
            for p in lost:
                counts[p] -= w
            for p in gained:
                counts[p] = counts.get(p, 0) + w
                where.setdefault(p, set()).add(s)
            changed.update(lost, gained)
        for p in changed:
            if counts[p] == 0:
                del counts[p]
            else:
                heappush(self._heap, (-counts[p], p))
        self.merges.append(merge)
        return merge


def train(text, num_merges):
    """The list of Merge rules learned from text, in learned order: at most
    num_merges, fewer when no chunk has two tokens left."""
    trainer = Trainer(text)
    for _ in range(num_merges):
        if trainer.step() is None:
            break
    return trainer.merges


def build_vocab(merges):
    """Il vocabolario {id: byte}: i 256 byte singoli, poi una voce per ogni fusione.

    {id: bytes}: the 256 single bytes, then one entry per merge
    (the bytes of its left token followed by those of its right token).
    """
    vocab = {i: bytes([i]) for i in range(BASE_VOCAB)}
    for m in merges:
        vocab[m.id] = vocab[m.left] + vocab[m.right]
    return vocab


def encode_chunk(data, merges):
    """I byte di un pezzo di testo, con tutte le fusioni applicate nell'ordine in cui sono state imparate."""
    ids = list(data)
    for m in merges:
        if len(ids) < 2:
            break
        if m.left in ids:
            ids = merge_pair(ids, m.pair, m.id)
    return ids


def encode_chunks(text, merges):
    """Gli ID dei token di un testo, una lista per ogni pezzo della pre-tokenizzazione."""
    cache = {}
    out = []
    for chunk in pretokenize(text):
        if chunk not in cache:
            cache[chunk] = encode_chunk(chunk.encode("utf-8"), merges)
        out.append(cache[chunk])
    return out


def encode(text, merges):
    """Token ids of text: its chunks encoded one by one, concatenated."""
    return [i for ids in encode_chunks(text, merges) for i in ids]


def decode(ids, vocab):
    """The text whose UTF-8 bytes are the tokens' bytes joined; a byte
    sequence that is not valid UTF-8 shows U+FFFD where it breaks."""
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


_VISIBLE = {" ": "·", "\n": "↵", "\t": "⇥"}


def token_text(data):
    """Come si scrive un token sullo schermo: testo dove i byte sono UTF-8 valido, ⟨C3⟩ per gli altri.

    How to show a token: its bytes as text where they are valid UTF-8,
    each other byte as ⟨C3⟩. Space, newline and tab become ·, ↵, ⇥ and
    other control characters are shown as bytes, so nothing is invisible.
    """
    out = []
    for ch in data.decode("utf-8", errors="surrogateescape"):
        if "\udc80" <= ch <= "\udcff":  # an undecodable byte, smuggled out as a surrogate
            out.append(f"⟨{ord(ch) - 0xDC00:02X}⟩")
        elif ch in _VISIBLE:
            out.append(_VISIBLE[ch])
        elif ch.isprintable():
            out.append(ch)
        else:
            out.extend(f"⟨{b:02X}⟩" for b in ch.encode("utf-8"))
    return "".join(out)


def is_text(data):
    """True when the bytes are valid UTF-8 on their own (a whole character or more)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
