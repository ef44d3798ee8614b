"""2.5 Frasi di lunghezze diverse: shapes, attention without weights, the
gradient as a sum of rows, padding with its mask; one stage at a time, the
two sentences side by side."""

from html import unescape as html_unescape

import numpy as np
import pytest

import labs
from core.sequence_layer import squared_loss
from labs.kit.html import unwrapped_scripts


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


LAB = labs.get("lunghezze-diverse")
MOD = LAB.module


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def sentence(n, **changes):
    """The short (n = 3) or the long (n = 6) sentence on its own."""
    return state(**changes)["sentences"][0 if n == 3 else 1]


@pytest.mark.parametrize("n", [3, 6])
def test_the_same_w_for_three_and_six_tokens(n):
    s = sentence(n) | {"W": state()["W"]}
    assert s["n"] == n
    assert (len(s["X"]), len(s["X"][0])) == (n, 2)
    assert s["W"] == MOD.W and (len(s["W"]), len(s["W"][0])) == (2, 2)
    assert (len(s["Y"]), len(s["Y"][0])) == (n, 2)  # (n × 2)(2 × 2) = n × 2
    np.testing.assert_allclose(s["Y"], np.asarray(s["X"]) @ np.asarray(MOD.W), atol=1e-12)


@pytest.mark.parametrize("n", [3, 6])
def test_the_attention_table_is_n_by_n_and_computed_from_x(n):
    s = sentence(n)
    A = np.asarray(s["A"])
    assert A.shape == (n, n)
    np.testing.assert_allclose(A.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(np.triu(A, 1) == 0)  # causal: nobody looks ahead
    X = np.asarray(s["X"])
    scores = X @ X.T / np.sqrt(2)
    for i in range(n):
        e = np.exp(scores[i, : i + 1] - scores[i, : i + 1].max())
        np.testing.assert_allclose(A[i, : i + 1], e / e.sum(), atol=1e-12)
    assert "Pesi da imparare nella tabella" in unwrapped_scripts(LAB.view(state(fase="attention")))


def test_default_numbers():
    s = sentence(3)
    assert s["tokens"] == ["il", "gatto", "dorme"] and s["targets"] == ["gatto", "dorme", "."]
    assert s["Y"] == [[0.5, -1.0], [1.0, 0.5], [1.5, -0.5]]
    assert s["E"] == [[0.5, -2.0], [0.0, -0.5], [1.5, 0.5]]
    assert s["G"] == [[2.0, -1.5], [1.5, 0.0]]
    assert s["loss"] == pytest.approx(3.5)
    assert s["A"][1] == pytest.approx([1 / (1 + np.exp(1 / np.sqrt(2))), 1 / (1 + np.exp(-1 / np.sqrt(2))), 0])


@pytest.mark.parametrize("n", [3, 6])
def test_the_gradient_is_2x2_and_sums_every_rows_suggestion(n):
    s = sentence(n)
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
    alone = sentence(3)["G"]
    np.testing.assert_allclose(short["G"], alone, atol=1e-12)
    np.testing.assert_allclose(s["batch_G"], np.add(alone, sentence(6)["G"]), atol=1e-12)
    assert s["batch_G"] == s["batch_G_right"]


def test_without_the_mask_the_padding_votes():
    s = state(maschera=0)
    short = s["batch"][0]
    assert any(v != 0 for part in short["parts"][3:] for row in part for v in row)
    assert not np.allclose(s["batch_G"], s["batch_G_right"])
    assert "votano" in unwrapped_scripts(LAB.view(state(maschera=0, fase="batch")))


def test_clicking_a_row_follows_it_in_both_sentences():
    s = state(riga=2)
    assert s["row"] == 1
    html = unwrapped_scripts(LAB.view(s))
    assert 'data-set="riga=1"' in html
    assert html.count("is-row") >= 2 * 2 * 2  # the row of X and of X·W, in both sentences (2 cells each)
    long_only = unescape(unwrapped_scripts(LAB.view(state(riga=5, fase="gradiente"))))
    assert "La riga 5 qui non c'è: la frase ha 3 righe." in long_only  # the short one says so
    assert "x «sul»" in long_only  # the long one shows the suggestion of its fifth row


def test_one_stage_at_a_time_with_the_one_before_kept_small():
    views = {key: unwrapped_scripts(LAB.view(state(fase=key))) for key, _ in MOD.STAGES}
    for key, _ in MOD.STAGES:
        assert f'data-set="fase={key}"' in views["forme"]  # the stage buttons
        assert f'data-stage="{key}"' in views[key]
    assert "Fase prima:" not in views["forme"] and all(
        "Fase prima:" in views[k] for k in ("attention", "gradiente", "batch")
    )
    assert 'data-part="X3"' in views["forme"] and 'data-part="X6"' in views["forme"]  # side by side
    assert 'data-part="attention3"' in views["attention"] and 'data-part="attention6"' in views["attention"]
    assert 'data-part="G3"' in views["gradiente"] and 'data-part="G6"' in views["gradiente"]
    assert 'data-part="batch-G"' in views["batch"] and 'data-part="batch-G"' not in views["forme"]


def test_the_mask_says_when_it_does_nothing():
    assert LAB.follow(state(fase="forme"))["maschera"].disabled
    assert "maschera" not in LAB.follow(state(fase="batch"))


def test_the_phase_has_one_selector_the_view_buttons():
    """2.5 had two: «Che cosa guardare» and the phase buttons; the control stays hidden, carrying the URL's phase."""
    for key, _ in MOD.STAGES:
        assert LAB.follow(state(fase=key))["fase"].hidden


def test_every_symbol_of_the_gradient_is_named():
    """2.5 showed «L = 3,50» without saying what L is, and E (the errors; 9C's E is the embedding table) unnamed."""
    html = unescape(unwrapped_scripts(LAB.view(state(fase="gradiente"))))
    assert "loss L = ½ Σ e² = " in html and "E, gli errori" in html
    assert (
        "La loss L è la metà della somma dei quadrati" in " ".join(LAB.prose.split())
        and "matrice E degli errori" in LAB.prose
    )
