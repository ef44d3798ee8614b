"""3.1 Il modello a bigrammi: the training shown step by step is the real one."""

import json
import math
import random
import re

import numpy as np
import pytest
from reader_walk import walk

import labs
from labs.kit.timelines import jump_target

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
    assert [M.screen_of(k) for k in range(10)] == [
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (6, 0),
        (7, 0),
        (8, 0),
        (4, 1),
        (5, 1),
    ]
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


@pytest.mark.parametrize(
    "corpus, words",
    [
        ("", "vuoto"),
        ("   \n ", "vuoto"),
        ("gatto gatto gatto", "due parole diverse"),
        (" ".join(f"p{i}" for i in range(25)), "25 × 25"),
        ("a b " * 70, "al massimo 120"),
    ],
)
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


# ---------------------------------------------------------------- the step machine


def compute_before(p):
    """The lab's compute before it became a step machine, frozen here: every
    state replayed the whole training from step 0 with the batch generator
    core.bigram had. The step machine must give the same state at every step."""
    from core.bigram import (
        batch_loss,
        best_loss,
        build_vocab,
        cut_batches,
        dataset_loss,
        encode,
        example_losses,
        gradient,
        init_weights,
        make_pairs,
        next_frequencies,
        next_token_probs,
        shuffle_pairs,
        tokenize,
        top_k,
    )
    from core.descent import sgd_update

    def batch_schedule(pairs, batch_size, rng):
        epoch = 0
        while True:
            epoch += 1
            for k, batch in enumerate(cut_batches(shuffle_pairs(pairs, rng), batch_size)):
                yield epoch, k + 1, batch

    from core.losses import softmax_cross_entropy_grad
    from core.softmax import softmax

    screen, done = M.screen_of(p["passo"])
    s = {"step": p["passo"], "screen": screen}
    tokens = tokenize(p["corpus"])
    vocab = build_vocab(tokens)
    problem = M.start(p).problem
    if problem:
        return s | {"problem": problem}
    pairs = make_pairs(encode(tokens, vocab))
    size, eta = min(p["batch"], len(pairs)), p["eta"]
    rng = random.Random(p["seme"])
    W = init_weights(len(vocab), rng)
    schedule = batch_schedule(pairs, size, rng)
    curve, batch_curve = [dataset_loss(W, pairs)], []
    for _ in range(done):
        _, _, batch = next(schedule)
        batch_curve.append(batch_loss(W, batch))
        W = sgd_update(W, gradient(W, batch), eta)
        curve.append(dataset_loss(W, pairs))
    epoch, number, batch = next(schedule)
    s |= {
        "vocab": vocab,
        "eta": eta,
        "size": size,
        "seed": p["seme"],
        "epoch": epoch,
        "number": number,
        "per_epoch": math.ceil(len(pairs) / size),
        "update": done + 1,
        "batch": batch,
        "n_pairs": len(pairs),
        "n_tokens": len(tokens),
        "uniform": math.log(len(vocab)),
    }
    if screen == 1:
        return s | {"text": [line.strip() for line in p["corpus"].splitlines() if line.strip()]}
    if screen == 2:
        lines = [tokenize(line) for line in p["corpus"].splitlines()]
        return s | {"lines": [encode(line, vocab) for line in lines if line]}
    if screen == 3:
        return s | {"pairs": pairs, "epoch_batches": [batch] + [next(schedule)[2] for _ in range(s["per_epoch"] - 1)]}
    probs, G = next_token_probs(W, batch), gradient(W, batch)
    after = sgd_update(W, G, eta)
    s |= {
        "W": W,
        "probs": probs,
        "p_right": [pr[nxt] for pr, (_, nxt) in zip(probs, batch)],
        "losses": example_losses(W, batch),
        "loss": batch_loss(W, batch),
    }
    if screen == 6:
        s |= {"residuals": [softmax_cross_entropy_grad(W[cur], nxt) for cur, nxt in batch]}
    if screen >= 6:
        s |= {
            "G": G,
            "delta": [[-eta * g for g in row] for row in G],
            "after": after,
            "loss_after": batch_loss(after, batch),
            "data_before": curve[-1],
            "data_after": dataset_loss(after, pairs),
        }
    if screen == 8:
        picked = min(p["parola"], len(vocab) - 1)
        P = [softmax(row) for row in after]
        s |= {
            "P": P,
            "curve": curve + [s["data_after"]],
            "batch_curve": batch_curve + [s["loss"]],
            "best": best_loss(pairs),
            "picked": picked,
            "top": top_k(P[picked], 3),
            "freq": next_frequencies(pairs, picked, len(vocab)),
        }
    return s


CORPORA = [
    M.CORPUS,
    "a b a c. b a!",
    "il gatto dorme . il cane dorme . il gatto mangia .",
    " ".join(f"p{i % 20}" for i in range(119)),
    "",
    "gatto gatto gatto",
]


def random_params(rng):
    return LAB.parse(
        {
            "corpus": rng.choice(CORPORA),
            "eta": str(round(rng.uniform(0.1, 10), 1)),
            "batch": str(rng.choice([1, 2, 7, 8, 35, 40, rng.randint(1, 40)])),
            "seme": str(rng.randint(0, 99)),
            "parola": str(rng.randint(0, 19)),
        }
    )


def as_json(value):
    return json.loads(json.dumps(value, sort_keys=True))


@pytest.mark.parametrize("seed", range(8))
def test_every_step_gives_the_state_it_gave_before_the_step_machine(seed):
    rng = random.Random(seed)
    p = random_params(rng)
    last = LAB.steps.max
    for step in sorted({0, 1, 2, 3, 7, 8, last, *(rng.randint(0, last) for _ in range(5))}):
        p["passo"] = step
        before, now = as_json(compute_before(p)), as_json(LAB.compute(p))
        assert {k: now[k] for k in before} == before, f"passo {step}"
        assert set(now) - set(before) <= {"curve", "updates"}  # the timeline's curve; the updates in all (the view's)
        if "problem" not in now:  # the curve: the dataset loss after each update done so far
            summary = as_json(compute_before(p | {"passo": M.summary_step(now["update"])}))
            assert now["curve"] == summary["curve"][: now["update"] + (now["screen"] == 8)]


@pytest.mark.parametrize("seed", range(6))
def test_the_cached_steps_equal_the_replay_from_step_0(seed):
    rng = random.Random(100 + seed)
    p = random_params(rng)
    machine = M.compute
    state_at = lambda at: machine(p | {"passo": at})  # noqa: E731
    for at in walk(rng, LAB.steps, state_at, 30):
        p["passo"] = at
        assert json.dumps(machine(p), sort_keys=True) == json.dumps(machine.replay(p), sort_keys=True), at


@pytest.mark.parametrize("screen", [4, 6, 8])
def test_a_state_handed_out_does_not_change_when_the_machine_moves_on(screen):
    p = LAB.parse({"passo": str(step_of(2, screen)), "seme": str(17 + screen)})  # a new machine each time
    s = M.compute(p)
    kept = json.dumps(s, sort_keys=True)
    for step in range(p["passo"] + 1, step_of(9, 8)):  # «Avanti» many times: the live machine moves
        M.compute(p | {"passo": step})
    assert json.dumps(s, sort_keys=True) == kept


@pytest.mark.parametrize("size", [7, 3, 1, 40])
def test_fine_dell_epoch_lands_on_the_summary_that_closes_the_next_epoch(size):
    steps, jump = LAB.steps, next(j for j in LAB.steps.jumps if j.label == "fine dell'epoch")
    ends = [
        k for k in range(steps.max + 1) if (s := state(k, batch=size))["screen"] == 8 and s["number"] == s["per_epoch"]
    ]
    assert ends and all(state(k, batch=size)["update"] % state(k, batch=size)["per_epoch"] == 0 for k in ends)
    for at in range(0, steps.max + 1, 7 if size > 1 else 1):
        target = jump_target(steps, jump, at, state(at, batch=size))
        following = [k for k in ends if k > at]
        assert target == (following[0] if following else None), at


def test_the_timeline_draws_the_phases_and_the_view_no_counter_of_its_own():
    for step, phase in (
        (0, "Il dataset"),
        (2, "Coppie e batch"),
        (step_of(4, 6), "Backward"),
        (step_of(100, 8), "Riepilogo"),
    ):
        result = labs.render("bigrammi", {"passo": str(step)})
        assert f"Passo {step} di {LAB.steps.max} · {phase}" in result["timeline"]
        assert re.search(rf'class="lab-chip is-current"[^>]*>{phase}<', result["timeline"])
        assert "lab-bigrammi-steps" not in result["html"] and "Prima del training" not in result["html"]
        assert "passo" not in re.sub(r"<[^>]+>", " ", result["html"]).lower()
    # what is not a step counter stays: where the epoch is, and the batch of this round
    html = labs.render("bigrammi", {"passo": str(step_of(7, 5))})["html"]
    assert "Epoch 2 · batch 2 di 5 · aggiornamento 7 di 100" in html and "lab-bigrammi-batch" in html


def test_the_timeline_curve_grows_with_the_updates_and_ends_with_all_of_them():
    lengths = [len(state(k)["curve"]) for k in range(LAB.steps.max + 1)]
    assert lengths[0] == 1 and lengths[-1] == LAB.steps.curve.points == M.UPDATES + 1
    assert all(b - a in (0, 1) for a, b in zip(lengths, lengths[1:]))


def test_parola_follows_the_vocabulary_and_says_when_it_does_nothing():
    for step in range(0, 13):
        rule = LAB.follow(state(step))["parola"]
        assert rule.max == 14
        assert bool(rule.disabled) is (state(step)["screen"] != 8)
    assert "Riepilogo" in LAB.follow(state(3))["parola"].disabled
    assert LAB.follow(state(2, corpus="a b a c. b a!"))["parola"].max == 4
    assert LAB.follow(state(step_of(3, 8), corpus=""))["parola"].disabled
    result = labs.render("bigrammi", {"passo": str(step_of(2, 8)), "parola": "19"})
    assert result["params"]["parola"] == 14 and result["controls"]["parola"]["max"] == 14
    assert result["controls"]["parola"]["disabled"] == ""
    assert f"Dopo «{state(0)['vocab'][14]}»" in result["html"]  # the last token of the vocabulary
    shown = labs.render("bigrammi", {"passo": "5", "parola": "3"})
    assert shown["controls"]["parola"]["disabled"] and shown["params"]["parola"] == 3
