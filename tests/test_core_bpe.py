"""core.bpe: round trips on any Unicode, chunk boundaries, a hand-checked
corpus, and the incremental trainer against the recount-everything trainer
of scripts/bench_bpe.py."""

import copy
import os
import pickle
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from bench_bpe import italian_like, naive_train  # scripts/, on the path from conftest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import bpe

ROOT = Path(__file__).resolve().parent.parent
ITALIAN = (
    "Il gatto della vicina dorme sulla poltrona della nonna.\n"
    "I gatti della stazione aspettano la colazione; la città è in costruzione.\n"
    "Perché il gattino è sul tetto? Perché la nazione ascolta la canzone della tradizione."
)

# Any string that UTF-8 can encode: every category, controls, emoji, combining marks, "".
any_text = st.text(st.characters(codec="utf-8"), max_size=80)
small_text = st.text(st.sampled_from("aab ba.\nè🐈"), max_size=40)
# Few letters in short words, so that most steps choose between equal counts.
tied_text = st.lists(st.text(st.sampled_from("abè🐈"), min_size=1, max_size=4), max_size=15).map(" ".join)


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
        "Il",
        " gatto",
        " ",
        " della",
        " città",
        ",",
        " 2024",
        " anni",
        "!",
        "\n",
        "\n",
        "Ciao",
        " 🐈🐈",
    ]
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
    trainer = bpe.Trainer(ITALIAN)
    for _ in range(40):
        trainer.step()
    trained = dict(zip(trainer.chunks, trainer.seqs))
    for chunk, ids in zip(bpe.pretokenize(ITALIAN), bpe.encode_chunks(ITALIAN, trainer.merges)):
        assert ids == trained[chunk.encode()]


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
        ((97, 97), 256, 4),
        ((97, 98), 257, 2),
        ((256, 257), 258, 2),
        ((97, 99), 259, 1),
    ]
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


@settings(max_examples=300)
@given(small_text | tied_text | any_text, st.integers(0, 40))
def test_incremental_training_equals_the_textbook_loop(text, n):
    assert bpe.train(text, n) == naive_train(text, n)


def test_incremental_training_equals_the_textbook_loop_on_italian():
    assert bpe.train(ITALIAN * 3, 150) == naive_train(ITALIAN * 3, 150)
    text = italian_like(20_000, seed=7)
    assert bpe.train(text, 300) == naive_train(text, 300)


def test_ties_go_to_the_smallest_pair():
    # «ab ba» is the chunks «ab» and «·ba»: ab, ·b and ba occur once each and
    # the smallest, ·b = (32, 98), wins; then ab = (97, 98) ties with
    # ·b+a = (256, 97) and wins
    assert [m.pair for m in bpe.train("ab ba", 3)] == [(32, 98), (97, 98), (256, 97)]
    assert naive_train("ab ba", 3) == bpe.train("ab ba", 3)


@settings(max_examples=100)
@given(small_text | tied_text | any_text)
def test_trainer_state_is_a_recount_at_every_step(text):
    """What a view reads between two steps (counts, next_pair, seqs) is
    what recounting the corpus from scratch would give."""
    trainer = bpe.Trainer(text)
    seqs = [list(c) for c in trainer.chunks]
    while True:
        counts = bpe.count_pairs(seqs, trainer.weights)
        assert trainer.counts == counts and trainer.seqs == seqs
        if not counts:
            break
        pair, new_id = bpe.most_frequent_pair(counts), bpe.BASE_VOCAB + len(trainer.merges)
        assert trainer.next_pair() == pair
        assert trainer.step() == bpe.Merge(*pair, new_id, counts[pair]) == trainer.merges[-1]
        seqs = [bpe.merge_pair(s, pair, new_id) for s in seqs]
    assert trainer.next_pair() is None and trainer.step() is None  # nothing left: a further step changes nothing
    assert trainer.seqs == seqs and trainer.counts == {}


def test_each_step_reports_the_counts_that_chose_it():
    trainer = bpe.Trainer(ITALIAN)
    for _ in range(25):
        top = bpe.ranked_pairs(trainer.counts, 5)
        merge = trainer.step()
        assert top[0] == (merge.pair, merge.count)
        assert merge.count == max(c for _, c in top)


def test_a_copied_trainer_goes_on_alone():
    """A step machine keeps checkpoints with copy.deepcopy (and measures them
    with pickle): a copy must continue exactly as the original would."""
    trainer = bpe.Trainer(ITALIAN)
    for _ in range(10):
        trainer.step()
    for twin in (copy.deepcopy(trainer), pickle.loads(pickle.dumps(trainer))):
        for _ in range(30):
            twin.step()
        assert twin.merges == bpe.train(ITALIAN, 40)
    assert trainer.merges == bpe.train(ITALIAN, 10)
    for _ in range(30):
        trainer.step()
    assert trainer.merges == bpe.train(ITALIAN, 40)


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
    code = f"from core import bpe; print([tuple(m) for m in bpe.train({ITALIAN + ' 🐈 àèìòù'!r}, 80)])"
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("0", "1", "12345")
    }
    assert len(outputs) == 1
    assert bpe.train(ITALIAN, 80) == bpe.train(ITALIAN, 80)


def test_ranked_pairs_order():
    counts = {(5, 1): 3, (2, 9): 7, (1, 1): 3, (0, 4): 1}
    assert bpe.ranked_pairs(counts, 3) == [((2, 9), 7), ((1, 1), 3), ((5, 1), 3)]
    assert bpe.most_frequent_pair(counts) == (2, 9)
    assert bpe.most_frequent_pair({(5, 1): 3, (1, 1): 3}) == (1, 1)


# display


@pytest.mark.parametrize(
    "data, shown",
    [
        (b" gatto", "·gatto"),
        ("è".encode(), "è"),
        (b"\xc3", "⟨C3⟩"),
        (b"a\xc3", "a⟨C3⟩"),
        ("🐈".encode()[:2], "⟨F0⟩⟨9F⟩"),
        ("🐈".encode(), "🐈"),
        (b"\n", "↵"),
        (b"\t", "⇥"),
        (b"  ", "··"),
        (b"\x00", "⟨00⟩"),
        ("\u00a0".encode(), "⟨C2⟩⟨A0⟩"),
        (b"", ""),
    ],
)
def test_token_text(data, shown):
    assert bpe.token_text(data) == shown


def test_is_text():
    assert bpe.is_text("città".encode()) and bpe.is_text(b"")
    assert not bpe.is_text("città".encode()[:-1])


MERGES_ITALIAN = bpe.train(ITALIAN, 80)
