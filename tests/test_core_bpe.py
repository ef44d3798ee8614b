"""core.bpe: round trips on any Unicode, chunk boundaries, a hand-checked
corpus, and the fast trainer against a plain recount-everything trainer."""

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import bpe

ROOT = Path(__file__).resolve().parent.parent
ITALIAN = ("Il gatto della vicina dorme sulla poltrona della nonna.\n"
           "I gatti della stazione aspettano la colazione; la città è in costruzione.\n"
           "Perché il gattino è sul tetto? Perché la nazione ascolta la canzone della tradizione.")

# Any string that UTF-8 can encode: every category, controls, emoji, combining marks, "".
any_text = st.text(st.characters(codec="utf-8"), max_size=80)
small_text = st.text(st.sampled_from("aab ba.\nè🐈"), max_size=40)


def naive_train(text, num_merges):
    """The textbook loop, recounting everything at every step."""
    freq = bpe.chunk_frequencies(text)
    seqs, weights = [list(c) for c in freq], list(freq.values())
    merges = []
    for k in range(num_merges):
        counts = bpe.count_pairs(seqs, weights)
        if not counts:
            break
        pair = bpe.most_frequent_pair(counts)
        merges.append(bpe.Merge(*pair, bpe.BASE_VOCAB + k, counts[pair]))
        seqs = [bpe.merge_pair(s, pair, bpe.BASE_VOCAB + k) for s in seqs]
    return merges


def encode_by_rank(text, merges):
    """Encoding the other usual way: in each chunk, merge the present pair
    with the earliest rule until none applies (as minbpe does)."""
    rank = {m.pair: m for m in merges}
    out = []
    for chunk in bpe.pretokenize(text):
        ids = list(chunk.encode("utf-8"))
        while len(ids) > 1:
            present = [p for p in zip(ids, ids[1:]) if p in rank]
            if not present:
                break
            m = min((rank[p] for p in present), key=lambda m: m.id)
            ids = bpe.merge_pair(ids, m.pair, m.id)
        out += ids
    return out


# pre-tokenisation

def test_pretokenize_examples():
    assert bpe.pretokenize("Il gatto  della città, 2024 anni!\n\nCiao 🐈🐈") == [
        "Il", " gatto", " ", " della", " città", ",", " 2024", " anni", "!", "\n", "\n", "Ciao", " 🐈🐈"]
    assert bpe.pretokenize("l'acqua x_y") == ["l", "'", "acqua", " x", "_", "y"]
    assert bpe.pretokenize("caffe\u0301 ok") == ["caffe\u0301", " ok"]  # a combining accent stays with its word
    assert bpe.pretokenize("") == []


@given(any_text)
def test_pretokenize_covers_any_text(text):
    chunks = bpe.pretokenize(text)
    assert "".join(chunks) == text
    assert all(chunks)


# encode / decode

@settings(max_examples=300)
@given(any_text)
def test_encode_decode_is_the_identity_on_any_text(text):
    for merges in (MERGES_ITALIAN, bpe.train(text, 30)):
        ids = bpe.encode(text, merges)
        assert bpe.decode(ids, bpe.build_vocab(merges)) == text


def test_round_trip_on_hard_cases():
    vocab = bpe.build_vocab(MERGES_ITALIAN)
    for text in ("", " ", "\x00\x01\x7f", "è", "e\u0301", "🐈‍⬛ 👩🏽‍💻", "\r\n\t \u00a0\u2028", "中文字符", "a" * 500):
        assert bpe.decode(bpe.encode(text, MERGES_ITALIAN), vocab) == text


@given(any_text)
def test_zero_merges_gives_the_raw_bytes(text):
    assert bpe.encode(text, []) == list(text.encode("utf-8"))


@given(any_text)
def test_encode_applies_rules_in_learned_order(text):
    assert bpe.encode(text, MERGES_ITALIAN) == encode_by_rank(text, MERGES_ITALIAN)


def test_encoding_the_corpus_gives_the_trained_chunks():
    steps = list(bpe.training_steps(ITALIAN, 40))
    freq = bpe.chunk_frequencies(ITALIAN)
    trained = dict(zip(freq, steps[-1].seqs))
    merges = [s.merge for s in steps]
    for chunk, ids in zip(bpe.pretokenize(ITALIAN), bpe.encode_chunks(ITALIAN, merges)):
        assert tuple(ids) == trained[chunk.encode()]


def test_unseen_word_falls_apart_into_known_pieces():
    vocab = bpe.build_vocab(MERGES_ITALIAN)
    pieces = [bpe.token_text(vocab[i]) for i in bpe.encode(" gattone", MERGES_ITALIAN)]
    assert len(pieces) > 1 and "".join(pieces) == "·gattone"
    assert pieces[0].startswith("·gatt")


# training

def test_hand_checked_tiny_corpus():
    # aaabdaaabac, one chunk: aa occurs 4 times (overlapping pairs count);
    # then aa·a and a·b tie at 2 and the smaller pair (97, 98) wins; then
    # Z·Y with Z = aa, Y = ab: the classic Z, Y, X of the textbook example.
    merges = bpe.train("aaabdaaabac", 4)
    assert [(m.pair, m.id, m.count) for m in merges] == [
        ((97, 97), 256, 4), ((97, 98), 257, 2), ((256, 257), 258, 2), ((97, 99), 259, 1)]
    vocab = bpe.build_vocab(merges)
    assert [vocab[m.id] for m in merges] == [b"aa", b"ab", b"aaab", b"ac"]
    assert bpe.encode("aaabdaaabac", merges[:3]) == [258, 100, 258, 97, 99]
    assert bpe.encode("aaabdaaabac", merges) == [258, 100, 258, 259]


def test_counts_are_weighted_by_chunk_frequency():
    freq = bpe.chunk_frequencies("ab ab ab cd")
    assert freq == {b"ab": 1, b" ab": 2, b" cd": 1}
    counts = bpe.count_pairs([list(c) for c in freq], list(freq.values()))
    assert counts[(97, 98)] == 3 and counts[(32, 97)] == 2 and counts[(32, 99)] == 1
    assert bpe.train("ab ab ab cd", 1)[0] == bpe.Merge(97, 98, 256, 3)


def test_merge_pair_examples():
    assert bpe.merge_pair([97, 97, 97], (97, 97), 256) == [256, 97]
    assert bpe.merge_pair([97, 97, 97, 97], (97, 97), 256) == [256, 256]
    assert bpe.merge_pair([1, 2, 3, 1, 2], (1, 2), 9) == [9, 3, 9]
    assert bpe.merge_pair([], (1, 2), 9) == []


@given(st.lists(st.integers(0, 3), max_size=30), st.integers(0, 3), st.integers(0, 3))
def test_merge_with_delta_is_merge_and_exact_pair_counts(ids, a, b):
    new, lost, gained = bpe.merge_pair_with_delta(ids, (a, b), 99)
    assert new == bpe.merge_pair(ids, (a, b), 99)
    before = Counter(zip(ids, ids[1:]))
    after = before - Counter(lost) + Counter(gained)
    assert +after == Counter(zip(new, new[1:]))
    assert Counter(lost) <= before


def test_merges_never_cross_chunk_boundaries():
    # «x.» occurs five times, but x and . are always separate chunks
    assert bpe.train("x.x.x.x.x.", 10) == []
    assert bpe.train("a a a a", 10) == [bpe.Merge(32, 97, 256, 3)]  # never «a·»


@given(small_text | any_text)
def test_every_token_lies_inside_one_chunk(text):
    chunks = set(bpe.chunk_frequencies(text))
    vocab = bpe.build_vocab(bpe.train(text, 40))
    for i in range(bpe.BASE_VOCAB, len(vocab)):
        assert any(vocab[i] in chunk for chunk in chunks)


@settings(max_examples=200)
@given(small_text | any_text, st.integers(0, 40))
def test_fast_training_equals_the_textbook_loop(text, n):
    assert bpe.train(text, n) == naive_train(text, n)


def test_fast_training_equals_the_textbook_loop_on_italian():
    assert bpe.train(ITALIAN * 3, 150) == naive_train(ITALIAN * 3, 150)


def test_each_step_reports_the_counts_that_chose_it():
    freq = bpe.chunk_frequencies(ITALIAN)
    seqs, weights = [list(c) for c in freq], list(freq.values())
    for step in bpe.training_steps(ITALIAN, 25):
        assert step.counts == bpe.count_pairs(seqs, weights)
        assert step.merge.count == max(step.counts.values()) == step.counts[step.merge.pair]
        assert bpe.ranked_pairs(step.counts, 5)[0] == (step.merge.pair, step.merge.count)
        seqs = [bpe.merge_pair(s, step.merge.pair, step.merge.id) for s in seqs]
        assert [tuple(s) for s in seqs] == list(step.seqs)


def test_vocabulary_grows_by_one_token_per_merge():
    merges = bpe.train(ITALIAN, 60)
    assert len(merges) == 60
    assert [m.id for m in merges] == list(range(256, 316))
    for k in range(61):
        vocab = bpe.build_vocab(merges[:k])
        assert len(vocab) == 256 + k
        assert len(set(vocab.values())) == 256 + k  # every new token is a new byte string


def test_training_stops_when_no_pair_is_left():
    merges = bpe.train("x" * 16, 100)  # 16 → 8 → 4 → 2 → 1 token; counts see overlapping pairs
    assert [m.count for m in merges] == [15, 7, 3, 1]
    assert bpe.train("", 5) == [] and bpe.train("a b c", 5) == [bpe.Merge(32, 98, 256, 1), bpe.Merge(32, 99, 257, 1)]


def test_training_is_deterministic_across_processes():
    code = ("from core import bpe; from tests.test_core_bpe import ITALIAN; "
            "print([tuple(m) for m in bpe.train(ITALIAN + ' 🐈 àèìòù', 80)])")
    outputs = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("0", "1", "12345")}
    assert len(outputs) == 1
    assert bpe.train(ITALIAN, 80) == bpe.train(ITALIAN, 80)


def test_ranked_pairs_order():
    counts = {(5, 1): 3, (2, 9): 7, (1, 1): 3, (0, 4): 1}
    assert bpe.ranked_pairs(counts, 3) == [((2, 9), 7), ((1, 1), 3), ((5, 1), 3)]
    assert bpe.most_frequent_pair(counts) == (2, 9)
    assert bpe.most_frequent_pair({(5, 1): 3, (1, 1): 3}) == (1, 1)


# display

@pytest.mark.parametrize("data, shown", [
    (b" gatto", "·gatto"), ("è".encode(), "è"), (b"\xc3", "⟨C3⟩"), (b"a\xc3", "a⟨C3⟩"),
    ("🐈".encode()[:2], "⟨F0⟩⟨9F⟩"), ("🐈".encode(), "🐈"), (b"\n", "↵"), (b"\t", "⇥"), (b"  ", "··"),
    (b"\x00", "⟨00⟩"), ("\u00a0".encode(), "⟨C2⟩⟨A0⟩"), (b"", ""),
])
def test_token_text(data, shown):
    assert bpe.token_text(data) == shown


def test_is_text():
    assert bpe.is_text("città".encode()) and bpe.is_text(b"")
    assert not bpe.is_text("città".encode()[:-1])


MERGES_ITALIAN = bpe.train(ITALIAN, 80)
