import random

import numpy as np
import pytest

from core import embedding_training as et


def case(seed, n=6, d=3, length=30):
    rng = random.Random(seed)
    ids = [rng.randrange(n - 1) for _ in range(length)]  # token n − 1 never appears: its row stays still
    return ids, et.init_embeddings(n, d, rng), et.init_embeddings(n, d, rng)


def numpy_loss(E_in, E_out, ids):
    S = np.asarray(E_in) @ np.asarray(E_out).T
    logp = S - S.max(axis=1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(axis=1, keepdims=True))
    return -np.mean([logp[a, b] for a, b in zip(ids, ids[1:])])


def test_pair_counts():
    assert et.pair_counts([0, 1, 0, 1, 2], 3) == [[0, 2, 0], [1, 0, 1], [0, 0, 0]]


@pytest.mark.parametrize("seed", range(5))
def test_loss_matches_numpy(seed):
    ids, E_in, E_out = case(seed)
    loss, _, _ = et.loss_and_gradients(E_in, E_out, et.pair_counts(ids, len(E_in)))
    assert loss == pytest.approx(numpy_loss(E_in, E_out, ids), abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_gradients_match_finite_differences(seed):
    ids, E_in, E_out = case(seed)
    C = et.pair_counts(ids, len(E_in))
    _, G_in, G_out = et.loss_and_gradients(E_in, E_out, C)
    eps = 1e-6
    for E, G in ((E_in, G_in), (E_out, G_out)):
        for i in range(len(E)):
            for k in range(len(E[0])):
                old = E[i][k]
                E[i][k] = old + eps
                up = et.loss_and_gradients(E_in, E_out, C)[0]
                E[i][k] = old - eps
                down = et.loss_and_gradients(E_in, E_out, C)[0]
                E[i][k] = old
                assert G[i][k] == pytest.approx((up - down) / (2 * eps), rel=1e-5, abs=1e-9)
    assert G_in[-1] == [0.0] * len(E_in[0])  # a token that is never the current one gets no correction


def test_training_is_deterministic_and_the_loss_goes_down():
    ids, _, _ = case(1)
    tables, losses = et.train_embeddings(ids, 6, 3, 40, 1.0, seed=4)
    assert (tables, losses) == et.train_embeddings(ids, 6, 3, 40, 1.0, seed=4)
    assert len(tables) == len(losses) == 41
    assert all(b <= a + 1e-12 for a, b in zip(losses, losses[1:]))
    assert losses[-1] < losses[0]
    # each table is the state after that many steps: a shorter run is a prefix
    short_tables, short_losses = et.train_embeddings(ids, 6, 3, 10, 1.0, seed=4)
    assert short_tables == tables[:11] and short_losses[:10] == losses[:10]


def test_similarity_is_the_cosine():
    E = [[1.0, 0.0], [1.0, 1.0], [-2.0, 0.0]]
    assert et.similarity(E, 0, 1) == pytest.approx(1 / np.sqrt(2))
    assert et.similarity(E, 0, 2) == pytest.approx(-1.0)
