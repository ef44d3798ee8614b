"""2.5 Frasi di lunghezze diverse: shapes, attention without weights, the
gradient as a sum of rows, padding with its mask."""

import numpy as np
import pytest

import labs
from core.sequence_layer import squared_loss

LAB = labs.get("lunghezze-diverse")
MOD = LAB.module


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


@pytest.mark.parametrize("n", [3, 6])
def test_the_same_w_for_three_and_six_tokens(n):
    s = state(frase=n)
    assert s["n"] == n
    assert (len(s["X"]), len(s["X"][0])) == (n, 2)
    assert s["W"] == MOD.W and (len(s["W"]), len(s["W"][0])) == (2, 2)
    assert (len(s["Y"]), len(s["Y"][0])) == (n, 2)  # (n × 2)(2 × 2) = n × 2
    np.testing.assert_allclose(s["Y"], np.asarray(s["X"]) @ np.asarray(MOD.W), atol=1e-12)


@pytest.mark.parametrize("n", [3, 6])
def test_the_attention_table_is_n_by_n_and_computed_from_x(n):
    s = state(frase=n)
    A = np.asarray(s["A"])
    assert A.shape == (n, n)
    np.testing.assert_allclose(A.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(np.triu(A, 1) == 0)  # causal: nobody looks ahead
    X = np.asarray(s["X"])
    scores = X @ X.T / np.sqrt(2)
    for i in range(n):
        e = np.exp(scores[i, :i + 1] - scores[i, :i + 1].max())
        np.testing.assert_allclose(A[i, :i + 1], e / e.sum(), atol=1e-12)
    assert "Pesi da imparare nella tabella" in str(LAB.view(s))


def test_default_numbers():
    s = state()
    assert s["tokens"] == ["il", "gatto", "dorme"] and s["targets"] == ["gatto", "dorme", "."]
    assert s["Y"] == [[0.5, -1.0], [1.0, 0.5], [1.5, -0.5]]
    assert s["E"] == [[0.5, -2.0], [0.0, -0.5], [1.5, 0.5]]
    assert s["G"] == [[2.0, -1.5], [1.5, 0.0]]
    assert s["loss"] == pytest.approx(3.5)
    assert s["A"][1] == pytest.approx([1 / (1 + np.exp(1 / np.sqrt(2))), 1 / (1 + np.exp(-1 / np.sqrt(2))), 0])


@pytest.mark.parametrize("n", [3, 6])
def test_the_gradient_is_2x2_and_sums_every_rows_suggestion(n):
    s = state(frase=n)
    G = np.asarray(s["G"])
    assert G.shape == (2, 2)  # (2 × n)(n × 2)
    assert len(s["parts"]) == n
    np.testing.assert_allclose(np.sum(s["parts"], axis=0), G, atol=1e-12)
    np.testing.assert_allclose(G, np.asarray(s["X"]).T @ np.asarray(s["E"]), atol=1e-12)
    eps = 1e-6
    for a in range(2):
        for b in range(2):
            up = [r[:] for r in MOD.W]
            down = [r[:] for r in MOD.W]
            up[a][b] += eps
            down[a][b] -= eps
            numeric = (squared_loss(s["X"], up, s["T"]) - squared_loss(s["X"], down, s["T"])) / (2 * eps)
            assert G[a, b] == pytest.approx(numeric, rel=1e-7, abs=1e-9)


def test_padding_and_its_mask():
    s = state()
    short, long_ = s["batch"]
    assert len(short["X"]) == len(long_["X"]) == 6
    assert short["tokens"][3:] == ["PAD"] * 3
    assert short["mask"] == [1, 1, 1, 0, 0, 0] and long_["mask"] == [1] * 6
    assert all(part == [[0.0, 0.0], [0.0, 0.0]] for part in short["parts"][3:])  # padded rows do not vote
    # the batch gradient is the sum of the two sentences' gradients, as if there were no padding
    alone = state(frase=3)["G"]
    np.testing.assert_allclose(short["G"], alone, atol=1e-12)
    np.testing.assert_allclose(s["batch_G"], np.add(alone, state(frase=6)["G"]), atol=1e-12)
    assert s["batch_G"] == s["batch_G_right"]


def test_without_the_mask_the_padding_votes():
    s = state(maschera=0)
    short = s["batch"][0]
    assert any(v != 0 for part in short["parts"][3:] for row in part for v in row)
    assert not np.allclose(s["batch_G"], s["batch_G_right"])
    assert "votano" in str(LAB.view(s))


def test_clicking_a_row_follows_it():
    s = state(frase=6, riga=5)
    assert s["row"] == 4
    assert state(frase=3, riga=6)["row"] == 2  # clamped to the short sentence
    assert 'data-set="riga=1"' in str(LAB.view(s))
