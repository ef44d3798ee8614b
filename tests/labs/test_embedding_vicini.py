"""2.6 Embedding che si avvicinano: a real training run where tokens used in
similar contexts get similar vectors."""

import random
import re

import numpy as np
import pytest

import labs
from core import embedding_training as et
from core.bigram import best_loss, build_vocab, encode, make_pairs, tokenize
from core.descent import sgd_update
from core.embedding_training import train_embeddings
from core.pca import orient, principal_directions, project, total_variance

LAB = labs.get("embedding-vicini")
MOD = LAB.module


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_the_loss_goes_down():
    s = state(passo=MOD.STEPS)
    losses = s["losses"]
    assert len(losses) == MOD.STEPS + 1
    assert all(b <= a + 1e-12 for a, b in zip(losses, losses[1:]))
    assert losses[0] > 2.5 and losses[-1] < 0.6
    assert losses[-1] > s["best"] == pytest.approx(0.578, abs=1e-3)  # never below the best possible


def test_gatto_and_cane_get_closer():
    c = state(passo=MOD.STEPS)["curves"]
    assert c["gatto-cane"][0] == pytest.approx(0.24, abs=0.005)
    assert c["gatto-cane"][-1] == pytest.approx(0.91, abs=0.005)
    assert c["gatto-cane"][-1] > c["gatto-cane"][0]
    assert c["gatto-cane"][-1] > c["gatto-divano"][-1]
    assert c["divano-letto"][-1] > c["divano-letto"][0] and c["mangia-beve"][-1] > c["mangia-beve"][0]


@pytest.mark.parametrize("seed", range(10))
def test_it_happens_from_any_starting_point(seed):
    c = state(seme=seed, passo=MOD.STEPS)["curves"]
    assert c["gatto-cane"][-1] > max(c["gatto-cane"][0], c["gatto-divano"][-1])
    assert c["gatto-cane"][-1] > 0.6


def test_the_steps_are_deterministic_and_one_step_apart():
    assert state(passo=37) == state(passo=37) == MOD.compute.replay(LAB.parse({"passo": "37"}))
    a, b = state(passo=10), state(passo=11)
    assert b["losses"][:11] == a["losses"] and a["points"] != b["points"]


def test_the_plane_is_the_pca_of_that_step():
    tokens = tokenize(MOD.CORPUS)
    vocab = build_vocab(tokens)
    tables, _ = train_embeddings(encode(tokens, vocab), len(vocab), MOD.DIM, MOD.STEPS, MOD.ETA, 0)
    for step in (0, 25, MOD.STEPS):
        X = np.asarray(tables[step])
        X = X - X.mean(axis=0)
        values, vectors = np.linalg.eigh(X.T @ X / len(X))
        directions, _ = principal_directions(tables[step])
        for k in range(2):
            assert abs(abs(np.dot(directions[k], vectors[:, -1 - k])) - 1) < 1e-6
        pts = np.asarray(state(passo=step)["points"])
        for k in range(2):  # each coordinate is the projection on a principal direction, up to its sign
            assert (
                min(np.abs(pts[:, k] - X @ vectors[:, -1 - k]).max(), np.abs(pts[:, k] + X @ vectors[:, -1 - k]).max())
                < 1e-6
            )


def test_view_names_every_token():
    html = str(LAB.view(state(passo=MOD.STEPS)))
    for token in ("gatto", "cane", "divano", "letto", "mangia", "beve"):
        assert f">{token}<" in html


# The lab before it became a step machine, kept as the reference: it trained
# the whole run on every frame and kept every table. The step machine must give
# the same numbers at every step (bit for bit), only without the future.
def old_train(ids, n, d, steps, eta, seed):
    rng = random.Random(seed)
    E_in, E_out = et.init_embeddings(n, d, rng), et.init_embeddings(n, d, rng)
    C = et.pair_counts(ids, n)
    tables, losses = [E_in], []
    for _ in range(steps):
        loss, G_in, G_out = et.loss_and_gradients(E_in, E_out, C)
        losses.append(loss)
        E_in, E_out = sgd_update(E_in, G_in, eta), sgd_update(E_out, G_out, eta)
        tables.append(E_in)
    losses.append(et.loss_and_gradients(E_in, E_out, C)[0])
    return tables, losses


def old_compute(p, tables, losses, vocab, ids):
    at = p["passo"]
    final, _ = principal_directions(tables[-1])
    directions, variances = principal_directions(tables[at])
    directions = orient(directions, final)
    points = project(tables[at], directions)
    ends = [
        project(E, d) for E, d in ((tables[0], orient(principal_directions(tables[0])[0], final)), (tables[-1], final))
    ]
    reach = max(abs(c) for pts in ends + [points] for pt in pts for c in pt)
    index = vocab.index
    curves = {f"{a}-{b}": [et.similarity(E, index(a), index(b)) for E in tables] for a, b, _ in MOD.PAIRS}
    a, b = p["coppia"].split("-")
    return {
        "step": at,
        "vocab": vocab,
        "points": points,
        "reach": reach,
        "losses": losses,
        "best": best_loss(make_pairs(ids)),
        "curves": curves,
        "pair": [a, b],
        "seed": p["seme"],
        "explained": sum(variances) / total_variance(tables[at]),
    }


def test_every_step_has_the_numbers_of_the_old_replay_without_the_future():
    tokens = tokenize(MOD.CORPUS)
    vocab = build_vocab(tokens)
    ids = encode(tokens, vocab)
    rng = random.Random(26)
    for seed in rng.sample(range(10), 4):
        tables, losses = old_train(ids, len(vocab), MOD.DIM, MOD.STEPS, MOD.ETA, seed)
        for at in (0, 1, MOD.STEPS, *rng.sample(range(2, MOD.STEPS), 5)):
            p = LAB.parse({"passo": str(at), "seme": str(seed), "coppia": rng.choice(["gatto-cane", "mangia-beve"])})
            old = old_compute(p, tables, losses, vocab, ids)
            old["losses"] = old["losses"][: at + 1]
            old["curves"] = {k: c[: at + 1] for k, c in old["curves"].items()}
            assert LAB.compute(p) == old, f"seme {seed}, passo {at}"


def test_cached_steps_equal_the_replay_on_random_walks():
    rng = random.Random(6)
    for _ in range(3):
        p = LAB.parse({"seme": str(rng.randint(0, 9)), "coppia": rng.choice(["gatto-cane", "divano-letto"])})
        at = 0
        for _ in range(25):
            move = rng.random()
            at = (
                min(MOD.STEPS, at + 1)
                if move < 0.5
                else max(0, at - 1)
                if move < 0.7
                else min(MOD.STEPS, at + 10)
                if move < 0.85
                else rng.choice([0, 1, MOD.STEPS, rng.randint(0, 60)])
            )
            p["passo"] = at
            assert MOD.compute(p) == MOD.compute.replay(p), f"{p}"


def chart_lines(html):
    """The number of points of each line drawn in the view's charts."""
    return [len(re.findall(r"[ML]-?\d", d)) for d in re.findall(r'<path d="([^"]*)" class="lab-chart-line', html)]


@pytest.mark.parametrize("at", [0, 1, 30, MOD.STEPS])
def test_the_view_shows_only_the_past_and_no_counter_of_its_own(at):
    s = state(passo=at)
    assert len(s["losses"]) == at + 1 and all(len(c) == at + 1 for c in s["curves"].values())
    html = str(LAB.view(s))
    assert chart_lines(html) == [at + 1] * (len(MOD.PAIRS) + 1)  # four cosines and the loss, up to this step
    assert "lab-step-counter" not in html
    text = re.sub(r"<[^>]+>", " ", html)
    assert "step" not in text.lower(), "un'unità sola per i passi: «passo»"
    assert f"al passo {at}" in text


@pytest.mark.parametrize("seed", range(10))
def test_the_kept_frames_are_the_frames_of_the_whole_run(seed):
    """_embedding_cornici.py keeps each seed's frame (20 ms of training): it must be what frame() computes now."""
    from labs.ch2._embedding_cornici import FRAMES

    assert set(FRAMES) == set(range(10))
    assert FRAMES[seed] == MOD.frame(seed), "rigenera con: python -m labs.ch2.embedding_vicini"


def test_a_new_seed_costs_no_training_of_the_whole_run(monkeypatch):
    monkeypatch.setattr(MOD, "train_embeddings", lambda *a: pytest.fail("training di tutta la corsa"))
    assert MOD.compute.replay(LAB.parse({"seme": "7", "passo": "3"}))["step"] == 3
