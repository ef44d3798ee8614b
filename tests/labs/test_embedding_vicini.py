"""2.6 Embedding che si avvicinano: a real training run where tokens used in
similar contexts get similar vectors."""

import numpy as np
import pytest

import labs
from core.bigram import build_vocab, encode, tokenize
from core.embedding_training import train
from core.pca import principal_directions

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
    tables, _ = train(encode(tokens, vocab), len(vocab), MOD.DIM, MOD.STEPS, MOD.ETA, 0)
    for step in (0, 25, MOD.STEPS):
        X = np.asarray(tables[step])
        X = X - X.mean(axis=0)
        values, vectors = np.linalg.eigh(X.T @ X / len(X))
        directions, _ = principal_directions(tables[step])
        for k in range(2):
            assert abs(abs(np.dot(directions[k], vectors[:, -1 - k])) - 1) < 1e-6
        pts = np.asarray(state(passo=step)["points"])
        for k in range(2):  # each coordinate is the projection on a principal direction, up to its sign
            assert min(np.abs(pts[:, k] - X @ vectors[:, -1 - k]).max(),
                       np.abs(pts[:, k] + X @ vectors[:, -1 - k]).max()) < 1e-6


def test_view_names_every_token():
    html = str(LAB.view(state(passo=MOD.STEPS)))
    for token in ("gatto", "cane", "divano", "letto", "mangia", "beve"):
        assert f">{token}<" in html
