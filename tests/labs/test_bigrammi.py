"""3.1 Il modello a bigrammi: the training shown step by step is the real one."""

import json
import math

import numpy as np
import pytest

import labs

LAB = labs.get("bigrammi")
M = LAB.module
XSS = "<script>alert(1)</script><img src=x onerror=alert(1)>"


def state(step, **changes):
    raw = {k: str(v) for k, v in changes.items()} | {"passo": str(step)}
    return LAB.compute(LAB.parse(raw))


def step_of(update, screen):
    """The step showing `screen` (4–8) of the update numbered `update` (from 1)."""
    return M.PRELUDE + M.LOOP * (update - 1) + screen - 4


def numpy_softmax(rows):
    z = np.asarray(rows, dtype=float)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_default_corpus_gives_a_15_by_15_table():
    s = state(step_of(1, 4))
    assert len(s["vocab"]) == 15 and "." in s["vocab"]
    assert s["vocab"][:3] == ["il", "gatto", "dorme"]
    assert len(s["W"]) == 15 and all(len(row) == 15 for row in s["W"])
    assert (s["n_tokens"], s["n_pairs"], s["size"], s["per_epoch"]) == (36, 35, 7, 5)


def test_step_maps_to_screen_epoch_and_batch():
    assert [M.screen_of(k) for k in range(10)] == [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0),
                                                   (4, 1), (5, 1)]
    assert M.screen_of(LAB.params_list[-1].max) == (8, M.UPDATES - 1)
    for size, per_epoch in ((7, 5), (8, 5), (1, 35), (40, 1)):
        for update in (1, 2, 5, 6, 11, 36, 100):
            for screen in (4, 8):
                s = state(step_of(update, screen), batch=size)
                assert (s["screen"], s["update"]) == (screen, update)
                assert s["per_epoch"] == per_epoch
                assert (s["epoch"], s["number"]) == ((update - 1) // per_epoch + 1, (update - 1) % per_epoch + 1)
    assert state(0)["screen"] == 1 and state(2)["epoch"] == 1


def test_screen_3_shows_the_batches_of_the_first_epoch():
    s = state(2, batch=8)
    assert sorted(p for b in s["epoch_batches"] for p in b) == sorted(s["pairs"])
    assert [len(b) for b in s["epoch_batches"]] == [8, 8, 8, 8, 3]
    assert s["epoch_batches"][0] == s["batch"] == state(step_of(1, 4), batch=8)["batch"]
    ids = [i for line in state(1)["lines"] for i in line]
    assert s["pairs"] == list(zip(ids, ids[1:]))


@pytest.mark.parametrize("update", [1, 3, 17])
def test_forward_is_the_softmax_of_the_rows_read(update):
    s = state(step_of(update, 4))
    W, batch = np.asarray(s["W"]), s["batch"]
    expected = numpy_softmax(W[[c for c, _ in batch]])
    np.testing.assert_allclose(s["probs"], expected, atol=1e-12)
    np.testing.assert_allclose(s["p_right"], [expected[k, n] for k, (_, n) in enumerate(batch)], atol=1e-12)
    np.testing.assert_allclose(s["losses"], -np.log(s["p_right"]), atol=1e-12)
    assert s["loss"] == pytest.approx(np.mean(s["losses"]), abs=1e-12)


@pytest.mark.parametrize("update, size", [(1, 7), (4, 3), (9, 1), (2, 35)])
def test_gradient_is_the_batch_mean_of_p_minus_y_and_absent_rows_are_zero(update, size):
    s = state(step_of(update, 6), batch=size)
    W, batch, n = np.asarray(s["W"]), s["batch"], len(s["vocab"])
    G = np.zeros((n, n))
    for cur, nxt in batch:
        G[cur] += numpy_softmax(W[cur]) - np.eye(n)[nxt]
    G /= len(batch)
    np.testing.assert_allclose(s["G"], G, atol=1e-12)
    one_hot = np.eye(n)[[x for _, x in batch]]
    np.testing.assert_allclose(s["residuals"], numpy_softmax(W[[c for c, _ in batch]]) - one_hot, atol=1e-12)
    present = {c for c, _ in batch}
    for i in range(n):
        assert all(g == 0.0 for g in s["G"][i]) is (i not in present)


def test_gradient_rows_outside_the_batch_are_drawn_as_exact_zeros():
    html = str(LAB.view(state(step_of(1, 6))))
    figure = html.split('data-part="gradiente"')[1].split("</figure>")[0]
    assert "is-muted" in figure and ">0</td>" in figure


@pytest.mark.parametrize("eta", [0.1, 2.0, 10.0])
def test_update_is_w_minus_eta_times_gradient(eta):
    s = state(step_of(3, 7), eta=eta)
    np.testing.assert_allclose(s["after"], np.asarray(s["W"]) - eta * np.asarray(s["G"]), atol=1e-12)
    np.testing.assert_allclose(s["delta"], -eta * np.asarray(s["G"]), atol=1e-12)
    # the next batch starts from the updated table
    assert state(step_of(4, 4), eta=eta)["W"] == s["after"]


def test_the_batch_loss_drops_after_the_default_update():
    for update in (1, 2, 10):
        s = state(step_of(update, 7))
        assert s["loss_after"] < s["loss"]


def test_dataset_loss_goes_down_epoch_after_epoch():
    s = state(step_of(M.UPDATES, 8))
    per_epoch = s["per_epoch"]
    at_epoch_ends = s["curve"][::per_epoch]
    assert len(s["curve"]) == M.UPDATES + 1
    assert all(a > b for a, b in zip(at_epoch_ends, at_epoch_ends[1:]))
    # seed 1, η = 2, batches of 7: from about log 15 to near the best a bigram table can do
    assert s["curve"][0] == pytest.approx(2.682, abs=1e-3)
    assert s["curve"][-1] == pytest.approx(0.62, abs=0.01)
    assert s["best"] == pytest.approx(0.468, abs=1e-3)
    assert s["best"] < s["curve"][-1] < s["uniform"] == pytest.approx(math.log(15))


def test_summary_predictions_are_the_softmax_of_the_trained_rows():
    s = state(step_of(60, 8), parola=0)
    np.testing.assert_allclose(s["P"], numpy_softmax(s["after"]), atol=1e-12)
    row = s["P"][0]
    assert s["top"] == sorted(range(15), key=lambda j: -row[j])[:3]
    assert s["freq"][1] == s["freq"][6] == pytest.approx(3 / 7)  # «il» → «gatto», «cane»
    assert set(s["top"][:2]) == {1, 6}
    assert state(step_of(2, 8), parola=19)["picked"] == 14  # clamped to the vocabulary


def test_same_params_same_state_and_the_seed_matters():
    step = step_of(23, 7)
    first = json.dumps(state(step), sort_keys=True)
    assert json.dumps(state(step), sort_keys=True) == first
    assert state(step, seme=2)["W"] != state(step)["W"]
    assert state(step_of(1, 4), seme=2)["batch"] != state(step_of(1, 4))["batch"]


def test_a_corpus_with_another_vocabulary():
    s = state(step_of(2, 6), corpus="a b a c. b a!")
    assert s["vocab"] == ["a", "b", "c", ".", "!"]
    assert len(s["G"]) == 5 and all(len(r) == 5 for r in s["G"])
    assert s["n_pairs"] == 7 and s["size"] == 7 and s["per_epoch"] == 1  # batches of 7 ask for more than there is


@pytest.mark.parametrize("corpus, words", [
    ("", "vuoto"),
    ("   \n ", "vuoto"),
    ("gatto gatto gatto", "due parole diverse"),
    (" ".join(f"p{i}" for i in range(25)), "25 × 25"),
    ("a b " * 70, "al massimo 120"),
])
def test_a_bad_corpus_gives_an_italian_message(corpus, words):
    for step in (0, 2, step_of(1, 6), step_of(40, 8)):
        s = state(step, corpus=corpus)
        assert words in s["problem"]
        html = str(LAB.view(s))
        assert "lab-callout" in html and words in html


def test_what_the_reader_types_is_escaped_at_every_screen():
    for step in range(0, 8):
        html = str(LAB.view(state(step, corpus=XSS + " ok .")))
        assert "<script" not in html and "<img" not in html and "&lt;" in html


def test_the_cells_that_rise_are_always_pairs_of_the_batch():
    for update, size in ((1, 7), (30, 7), (12, 3), (5, 35)):
        s = state(step_of(update, 7), batch=size)
        rising = {(i, j) for i, row in enumerate(s["delta"]) for j, d in enumerate(row) if d > 0}
        assert rising and rising <= {tuple(p) for p in s["batch"]}
