"""core.mini_transformer against a numpy reimplementation, to 1e-12."""

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import mini_transformer as mt

V, D, H = 12, 8, 7


def random_model(seed):
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=(V, D)),
        rng.normal(size=(D, D)),
        rng.normal(size=(D, H)),
        rng.normal(size=(H, D)),
        list(rng.integers(0, V, size=rng.integers(1, 10))),
    )


def as_lists(*arrays):
    return [a.tolist() for a in arrays]


def numpy_softmax(z, t=1.0):
    z = np.asarray(z, dtype=float) / t
    e = np.exp(z - z.max())
    return e / e.sum()


def numpy_forward(E, Wq, W1, W2, ids, position):
    """The same five steps, written with numpy's matrix products."""
    X = E[ids]
    x = X[position]
    q = x @ Wq
    visible = X[: position + 1]
    scores = visible @ q
    a = numpy_softmax(scores)
    out = a @ visible
    pre = out @ W1
    gates = np.maximum(pre, 0)
    h = out + gates @ W2
    z = E @ h
    return {
        "q": q,
        "scores": scores,
        "a": a,
        "out": out,
        "pre": pre,
        "gates": gates,
        "h": h,
        "z": z,
        "p": numpy_softmax(z),
    }


@pytest.mark.parametrize("seed", range(30))
def test_forward_matches_numpy(seed):
    E, Wq, W1, W2, ids = random_model(seed)
    for position in range(len(ids)):
        ours = mt.mini_forward(ids, position, *as_lists(E, Wq, W1, W2))
        ref = numpy_forward(E, Wq, W1, W2, ids, position)
        att, block = ours["attention"], ours["mlp"]
        np.testing.assert_allclose(ours["X"], E[ids], atol=1e-12)
        np.testing.assert_allclose(att["query"], ref["q"], atol=1e-12)
        np.testing.assert_allclose(att["scores"], ref["scores"], atol=1e-12)
        np.testing.assert_allclose(att["weights"], ref["a"], atol=1e-12)
        np.testing.assert_allclose(att["output"], ref["out"], atol=1e-12)
        np.testing.assert_allclose(block["pre"], ref["pre"], atol=1e-12)
        np.testing.assert_allclose(block["gates"], ref["gates"], atol=1e-12)
        np.testing.assert_allclose(block["contribution"], ref["gates"] @ W2, atol=1e-12)
        np.testing.assert_allclose(block["output"], ref["h"], atol=1e-12)
        np.testing.assert_allclose(ours["logits"], ref["z"], atol=1e-12)
        np.testing.assert_allclose(ours["probs"], ref["p"], atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.data())
def test_a_token_never_uses_later_tokens(seed, data):
    E, Wq, W1, W2, ids = random_model(seed)
    position = data.draw(st.integers(0, len(ids) - 1))
    later = data.draw(
        st.lists(st.integers(0, V - 1), min_size=len(ids) - position - 1, max_size=len(ids) - position - 1)
    )
    other = ids[: position + 1] + later
    a = mt.mini_forward(ids, position, *as_lists(E, Wq, W1, W2))
    b = mt.mini_forward(other, position, *as_lists(E, Wq, W1, W2))
    assert len(a["attention"]["weights"]) == position + 1
    assert a["attention"] == b["attention"] and a["logits"] == b["logits"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000))
def test_attention_weights_and_probabilities_sum_to_one(seed):
    E, Wq, W1, W2, ids = random_model(seed)
    out = mt.mini_forward(ids, len(ids) - 1, *as_lists(E, Wq, W1, W2))
    assert math.fsum(out["attention"]["weights"]) == pytest.approx(1, abs=1e-12)
    assert math.fsum(out["probs"]) == pytest.approx(1, abs=1e-12)
    assert all(w >= 0 for w in out["attention"]["weights"])


def test_out_of_range_ids_and_positions_are_errors():
    E, Wq, W1, W2, _ = random_model(0)
    with pytest.raises(IndexError):
        mt.embed(E.tolist(), [V])
    with pytest.raises(IndexError):
        mt.mini_forward([1, 2], 2, *as_lists(E, Wq, W1, W2))


@pytest.mark.parametrize("seed", range(10))
def test_greedy_generation_is_repeated_argmax(seed):
    E, Wq, W1, W2, ids = random_model(seed)
    added = mt.mini_generate(ids, 5, *as_lists(E, Wq, W1, W2))
    sentence = list(ids)
    for step in added:
        p = numpy_forward(E, Wq, W1, W2, sentence, len(sentence) - 1)["p"]
        assert step["id"] == int(np.argmax(p)) and step["p"] == pytest.approx(p.max(), abs=1e-12)
        sentence.append(step["id"])
    assert len(added) == 5


@pytest.mark.parametrize("seed", range(10))
def test_sampling_is_seeded_and_uses_the_temperature(seed):
    E, Wq, W1, W2, ids = random_model(seed)
    weights = as_lists(E, Wq, W1, W2)
    first = mt.mini_generate(ids, 6, *weights, temperature=0.7, rng=random.Random(seed))
    again = mt.mini_generate(ids, 6, *weights, temperature=0.7, rng=random.Random(seed))
    assert first == again
    sentence, draws = list(ids), random.Random(seed)
    for step in first:
        z = numpy_forward(E, Wq, W1, W2, sentence, len(sentence) - 1)["z"]
        p_t = numpy_softmax(z, 0.7)
        assert step["u"] == draws.random()
        assert step["id"] == mt.sample(p_t.tolist(), step["u"])
        assert step["p_used"] == pytest.approx(p_t[step["id"]], abs=1e-12)
        sentence.append(step["id"])


def test_generation_stops_after_the_end_token():
    E = np.eye(V, D) * 5  # every token points at itself: greedy repeats the last one
    Wq, W1, W2 = np.zeros((D, D)), np.zeros((D, H)), np.zeros((H, D))
    added = mt.mini_generate([0], 4, *as_lists(E, Wq, W1, W2), end=0)
    assert [s["id"] for s in added] == [0]
    assert len(mt.mini_generate([1], 4, *as_lists(E, Wq, W1, W2), end=0)) == 4


@pytest.mark.parametrize("seed", range(10))
def test_ignored_positions_are_scores_of_minus_infinity(seed):
    E, Wq, W1, W2, ids = random_model(seed)
    if len(ids) < 3:
        ids = ids + [1, 2]
    position = len(ids) - 1
    rng = random.Random(seed)
    ignore = set(rng.sample(range(position), rng.randint(1, position)))
    ours = mt.mini_forward(ids, position, *as_lists(E, Wq, W1, W2), ignore=ignore)["attention"]
    X = E[ids][: position + 1]
    scores = X @ (E[ids][position] @ Wq)
    masked = np.where([j in ignore for j in range(position + 1)], -np.inf, scores)
    a = np.exp(masked - masked.max())
    a /= a.sum()
    np.testing.assert_allclose(ours["weights"], a, atol=1e-12)
    np.testing.assert_allclose(ours["output"], a @ X, atol=1e-12)
    np.testing.assert_allclose(ours["scores"], scores, atol=1e-12)  # the scores are still shown
    assert all(ours["weights"][j] == 0.0 for j in ignore)


def test_ignoring_every_other_position_switches_attention_off():
    E, Wq, W1, W2, ids = random_model(3)
    position = len(ids) - 1
    out = mt.mini_forward(ids, position, *as_lists(E, Wq, W1, W2), ignore=set(range(position)))
    assert out["attention"]["output"] == pytest.approx(E[ids[position]].tolist(), abs=1e-12)
    assert out["attention"]["weights"][position] == 1.0
    # the token itself cannot be ignored
    assert (
        mt.mini_forward(ids, position, *as_lists(E, Wq, W1, W2), ignore={position})["attention"]["weights"]
        == mt.mini_forward(ids, position, *as_lists(E, Wq, W1, W2))["attention"]["weights"]
    )
