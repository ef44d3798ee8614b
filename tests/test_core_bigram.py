import math
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import bigram
from core.descent import sgd_update


def batch_schedule(pairs, batch_size, rng):
    """Endless (epoch, batch number, batch), both counted from 1: each epoch
    shuffles the pairs with rng and cuts them into batches, as the lab does."""
    epoch = 0
    while True:
        epoch += 1
        for k, batch in enumerate(bigram.cut_batches(bigram.shuffle_pairs(pairs, rng), batch_size)):
            yield epoch, k + 1, batch


def numpy_forward(W, batch):
    logits = np.asarray(W)[[c for c, _ in batch]]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def numpy_loss_and_gradient(W, batch):
    """The same model written with arrays: mean −log p, and mean of the
    one-hot-scattered (p − y) rows."""
    W = np.asarray(W, dtype=float)
    cur = np.array([c for c, _ in batch])
    nxt = np.array([n for _, n in batch])
    p = numpy_forward(W, batch)
    loss = -np.log(p[np.arange(len(batch)), nxt]).mean()
    y = np.eye(len(W))[nxt]
    rows = np.eye(len(W))[cur]  # B × V: which row each example writes to
    G = rows.T @ (p - y) / len(batch)
    return loss, G


def random_case(seed, n=6, size=5):
    rng = np.random.default_rng(seed)
    W = rng.normal(scale=2, size=(n, n)).tolist()
    batch = [(int(rng.integers(n)), int(rng.integers(n))) for _ in range(size)]
    return W, batch


def test_tokenize_whole_words_and_punctuation():
    assert bigram.tokenize("Il gatto dorme. L'acqua, poi!") == [
        "il",
        "gatto",
        "dorme",
        ".",
        "l'",
        "acqua",
        ",",
        "poi",
        "!",
    ]
    assert bigram.tokenize("  \n ") == []


@given(st.text())
def test_tokenize_keeps_every_non_space_character(text):
    tokens = bigram.tokenize(text)
    assert "".join(tokens) == "".join(text.lower().split())
    assert all(t and not any(ch.isspace() for ch in t) for t in tokens)


def test_vocab_ids_and_pairs():
    tokens = ["il", "gatto", "dorme", ".", "il", "cane", "dorme", "."]
    vocab = bigram.build_vocab(tokens)
    assert vocab == ["il", "gatto", "dorme", ".", "cane"]
    ids = bigram.encode(tokens, vocab)
    assert ids == [0, 1, 2, 3, 0, 4, 2, 3]
    assert bigram.make_pairs(ids) == [(0, 1), (1, 2), (2, 3), (3, 0), (0, 4), (4, 2), (2, 3)]


@pytest.mark.parametrize("size", [1, 3, 7, 10, 40])
def test_each_epoch_serves_every_pair_once_in_batches(size):
    pairs = [(i % 5, (i * 3) % 5) for i in range(23)]
    schedule = batch_schedule(pairs, size, random.Random(4))
    per_epoch = math.ceil(len(pairs) / size)
    orders = []
    for epoch in (1, 2, 3):
        seen = []
        for k in range(1, per_epoch + 1):
            e, b, batch = next(schedule)
            assert (e, b) == (epoch, k)
            assert len(batch) == (size if k < per_epoch else len(pairs) - size * (per_epoch - 1))
            seen += batch
        assert Counter(seen) == Counter(pairs)
        orders.append(seen)
    if size < len(pairs):
        assert orders[0] != orders[1]  # reshuffled


def test_init_weights_are_seeded_and_bounded():
    a = bigram.init_weights(15, random.Random(3), 0.5)
    assert a == bigram.init_weights(15, random.Random(3), 0.5)
    assert len(a) == 15 and all(len(r) == 15 for r in a)
    assert all(-0.5 <= w <= 0.5 for r in a for w in r)


@pytest.mark.parametrize("seed", range(20))
def test_forward_loss_gradient_match_numpy(seed):
    W, batch = random_case(seed)
    np.testing.assert_allclose(bigram.next_token_probs(W, batch), numpy_forward(W, batch), atol=1e-12)
    loss, G = numpy_loss_and_gradient(W, batch)
    assert bigram.batch_loss(W, batch) == pytest.approx(loss, abs=1e-12)
    np.testing.assert_allclose(bigram.gradient(W, batch), G, atol=1e-12)
    p = numpy_forward(W, batch)
    right = p[np.arange(len(batch)), [n for _, n in batch]]
    np.testing.assert_allclose(bigram.example_losses(W, batch), -np.log(right), atol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_gradient_matches_finite_differences(seed):
    W, batch = random_case(seed, n=5, size=4)
    G, eps = bigram.gradient(W, batch), 1e-6
    for i in range(5):
        for j in range(5):
            up = [row[:] for row in W]
            down = [row[:] for row in W]
            up[i][j] += eps
            down[i][j] -= eps
            numeric = (bigram.batch_loss(up, batch) - bigram.batch_loss(down, batch)) / (2 * eps)
            assert G[i][j] == pytest.approx(numeric, abs=1e-8)


@pytest.mark.parametrize("seed", range(10))
def test_rows_absent_from_the_batch_are_exactly_zero(seed):
    W, batch = random_case(seed, n=8, size=3)
    G = bigram.gradient(W, batch)
    present = {c for c, _ in batch}
    for i, row in enumerate(G):
        if i in present:
            assert math.fsum(row) == pytest.approx(0, abs=1e-12)  # p − y sums to 0 in each example
            assert any(g != 0 for g in row)
        else:
            assert all(g == 0.0 for g in row)


def test_sgd_update_is_w_minus_eta_g():
    W, batch = random_case(7)
    G = bigram.gradient(W, batch)
    np.testing.assert_allclose(sgd_update(W, G, 0.3), np.asarray(W) - 0.3 * np.asarray(G), atol=1e-12)


def test_a_small_step_lowers_the_batch_loss():
    W, batch = random_case(8)
    after = sgd_update(W, bigram.gradient(W, batch), 0.05)
    assert bigram.batch_loss(after, batch) < bigram.batch_loss(W, batch)


def test_dataset_loss_is_the_batch_loss_of_all_pairs():
    W, pairs = random_case(9, n=6, size=30)
    assert bigram.dataset_loss(W, pairs) == pytest.approx(bigram.batch_loss(W, pairs), abs=1e-12)


def test_best_loss_is_reached_by_the_counted_frequencies():
    pairs = [(0, 1), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1)]
    # W = log of the frequencies (a very negative number where a pair never occurs)
    W = [[math.log(f) if f else -50.0 for f in bigram.next_frequencies(pairs, i, 3)] for i in range(3)]
    assert bigram.dataset_loss(W, pairs) == pytest.approx(bigram.best_loss(pairs), abs=1e-12)
    assert bigram.best_loss(pairs) == pytest.approx(-(2 * math.log(2 / 3) + math.log(1 / 3) + 2 * math.log(1 / 2)) / 6)
    assert bigram.best_loss([(0, 1), (1, 0), (0, 1)]) == 0


def test_training_approaches_the_best_loss():
    pairs = bigram.make_pairs([0, 1, 2, 0, 1, 3, 0, 2, 1, 0])
    rng = random.Random(0)
    W = bigram.init_weights(4, rng)
    schedule = batch_schedule(pairs, 3, rng)
    start = bigram.dataset_loss(W, pairs)
    for _ in range(600):
        _, _, batch = next(schedule)
        W = sgd_update(W, bigram.gradient(W, batch), 1.0)
    assert bigram.dataset_loss(W, pairs) < start
    assert bigram.dataset_loss(W, pairs) == pytest.approx(bigram.best_loss(pairs), abs=0.05)


def test_top_k_and_next_frequencies():
    assert bigram.top_k([0.1, 0.5, 0.1, 0.3], 3) == [1, 3, 0]
    assert bigram.next_frequencies([(0, 1), (0, 1), (0, 2), (1, 0)], 0, 3) == [0, 2 / 3, 1 / 3]
    assert bigram.next_frequencies([(0, 1)], 2, 3) == [0.0, 0.0, 0.0]
