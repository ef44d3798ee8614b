"""9D Un'intera testa di attention: «il gatto dorme», d = 4, the seed's row of «dorme»."""

import re
from html import unescape

import numpy as np
import pytest

import labs
from labs.kit.html import unwrapped_scripts

LAB = labs.get("testa-attention")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def shown(s, stage):
    """The view of state s at one stage (the lab shows one at a time)."""
    return unwrapped_scripts(LAB.view(s | {"stage": stage}))


def every_stage(s):
    return "".join(shown(s, key) for key, _ in LAB.module.STAGES)


def reference(s, causal=True):
    """The whole head in numpy, from the state's own X and W's."""
    X, Wq, Wk, Wv = (np.array(s[k], float) for k in ("X", "W_q", "W_k", "W_v"))
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    S = Q @ K.T / np.sqrt(2)
    if causal:
        S = np.where(np.tril(np.ones((3, 3))) == 1, S, -np.inf)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    return Q, K, V, A, A @ V


def test_default_reproduces_the_seed_row_of_dorme():
    s = state()
    assert s["tokens"] == ["il", "gatto", "dorme"] and s["row"] == 2 and s["causal"]
    assert [round(a, 2) for a in s["A"][2]] == [0.06, 0.78, 0.15]
    assert s["scores"][2] == pytest.approx([0, 3.6, 1.3], abs=1e-12)  # the design: gatto +3.6, dorme +2.3 over il
    html = shown(s, "uscite")
    assert "O₃ = a₃₁V₁ + a₃₂V₂ + a₃₃V₃ = 0,06 × " in html
    assert "0,78 × [1\u00a0;\u00a00]" in html and "0,15 × [0\u00a0;\u00a01]" in html


def test_shapes_are_the_guides():
    s = state()
    shapes = {k: np.array(s[k]).shape for k in ("X", "W_q", "W_k", "W_v", "Q", "K", "V", "scores", "A", "O")}
    assert shapes == {
        "X": (3, 4),
        "W_q": (4, 2),
        "W_k": (4, 2),
        "W_v": (4, 2),
        "Q": (3, 2),
        "K": (3, 2),
        "V": (3, 2),
        "scores": (3, 3),
        "A": (3, 3),
        "O": (3, 2),
    }
    html = every_stage(s)
    for line in (
        "[3\u00a0×\u00a04] · [4\u00a0×\u00a02] = [3\u00a0×\u00a02]",
        "[3\u00a0×\u00a02] · [2\u00a0×\u00a03] = [3\u00a0×\u00a03]",
        "[3\u00a0×\u00a03] · [3\u00a0×\u00a02] = [3\u00a0×\u00a02]",
    ):
        assert line in html


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("domanda", [0, 0.5, 2, 4])
def test_every_matrix_against_numpy(causal, domanda):
    s = state(maschera=int(causal), domanda=domanda)
    Q, K, V, A, O = reference(s, causal)
    np.testing.assert_allclose(s["Q"], Q, atol=1e-12)
    np.testing.assert_allclose(s["K"], K, atol=1e-12)
    np.testing.assert_allclose(s["V"], V, atol=1e-12)
    np.testing.assert_allclose(s["scores"], Q @ K.T, atol=1e-12)
    np.testing.assert_allclose(s["A"], A, atol=1e-12)
    np.testing.assert_allclose(s["O"], O, atol=1e-12)
    np.testing.assert_allclose(s["sums"], 1, atol=1e-12)
    # O₃ = a₃₁V₁ + a₃₂V₂ + a₃₃V₃
    np.testing.assert_allclose(s["O"][2], sum(a * V[j] for j, a in enumerate(s["A"][2])), atol=1e-12)


def test_the_mask_hides_the_future_without_infinities():
    s = state()
    assert s["A"][0] == [1.0, 0.0, 0.0] and s["A"][1][2] == 0.0
    assert s["masked"][0][1] is None and s["masked"][0][2] is None and s["masked"][1][2] is None
    assert "−∞" in shown(s, "maschera")
    open_ = state(maschera=0)
    assert all(x is not None for row in open_["masked"] for x in row)
    assert open_["A"][0][1] > 0.5  # without the mask the article looks ahead at its noun
    assert open_["A"][2] == s["A"][2]  # the last token saw everything anyway


def test_a_question_of_zero_looks_everywhere_alike():
    assert state(domanda=0)["A"][2] == pytest.approx([1 / 3] * 3, abs=1e-12)


def test_two_heads_are_concatenated():
    s = state(due_teste=1)
    two = s["second"]
    X = np.array(s["X"], float)
    from labs.ch9.testa_attention import HEAD2

    Wq, Wk, Wv = (np.array(w, float) for w in HEAD2)
    Q, K = X @ Wq, X @ Wk
    S = np.where(np.tril(np.ones((3, 3))) == 1, Q @ K.T / np.sqrt(2), -np.inf)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(two["A"], A, atol=1e-12)
    np.testing.assert_allclose(two["concat"], np.hstack([s["O"], A @ (X @ Wv)]), atol=1e-12)
    assert np.array(two["concat"]).shape == (3, 4)
    assert state()["second"] is None


def test_cost_and_comparisons_say_whether_the_mask_is_on():
    assert state()["comparisons"] == 6 and state(maschera=0)["comparisons"] == 9
    masked, full = state(), state(maschera=0)
    assert masked["big"] == 4000 * 4001 // 2 == 8_002_000 and full["big"] == 16_000_000
    html = shown(masked, "punteggi")
    assert "Con n = 4.000 token, con maschera" in html and "1 + 2 + … + 4.000 = 8.002.000" in html
    assert "16" not in re.search(r"Con n = 4.000 token.*?</div>", html).group(0)
    html = shown(full, "punteggi")
    assert "Con n = 4.000 token, senza maschera" in html and "4.000 × 4.000 = 16.000.000" in html


def test_the_prose_experiments():
    """«Segui la riga di «dorme»: … gatto 0,78, il 0,06, dorme 0,15»; «a 0 … i pesi diventano uguali»;
    «Togli la maschera: … anche «il» e «gatto» possono guardare avanti»; the second head looks for the verb
    («con la maschera il verbo lo vede solo «dorme»»); two heads give back 4 numbers per token."""
    s = state()
    assert [round(a, 2) for a in s["A"][2]] == [0.06, 0.78, 0.15]
    assert state(domanda=0)["A"][2] == pytest.approx([1 / 3] * 3, abs=1e-12)
    open_ = state(maschera=0)
    assert open_["A"][0][1] + open_["A"][0][2] > 0 and open_["A"][1][2] > 0
    two = state(due_teste=1)["second"]
    assert two["A"][2][2] == max(two["A"][2]) and two["A"][0][2] == two["A"][1][2] == 0
    unmasked = state(due_teste=1, maschera=0)["second"]
    assert all(row[2] == max(row) for row in unmasked["A"])  # without the mask everyone finds the verb
    assert len(two["concat"][0]) == 4


def test_rows_are_clickable():
    html = unwrapped_scripts(LAB.view(state()))
    assert {"riga=1", "riga=2", "riga=3"} <= set(re.findall(r'data-set="([^"]+)"', html))
    assert state(riga=1)["row"] == 0


def test_one_stage_at_a_time_with_the_one_before_kept_small():
    s = state(due_teste=1)
    views = {key: shown(s, key) for key, _ in LAB.module.STAGES}
    parts = {key: set(re.findall(r'data-part="([^"]+)"', html)) for key, html in views.items()}
    assert {"X", "W_q", "W_k", "W_v"} <= parts["pesi"] and {"Q", "K", "V"} <= parts["qkv"]
    assert "scores" in parts["punteggi"] and "masked" in parts["maschera"] and {"A", "pesi"} <= parts["softmax"]
    assert {"O", "A2", "concat"} <= parts["uscite"]
    for key, html in views.items():  # each stage shows its own matrices, not the others'
        assert f'data-stage="{key}"' in html and 'data-set="fase=uscite"' in html
        assert len(re.findall(r"<figure", html)) <= 8
    assert "Dalla fase prima:" not in views["pesi"]
    assert all("Dalla fase prima:" in views[key] for key, _ in LAB.module.STAGES[1:])
    assert "A²" not in shown(state(), "uscite")  # the second head only when asked


def test_the_mask_and_the_second_head_are_hidden_where_they_do_nothing_and_the_view_says_when_they_come():
    """No checkbox that looks broken: before its stage a control is hidden (never disabled) and a line of the
    view names the stage that brings it."""
    for key, _ in LAB.module.STAGES:
        follow = LAB.follow(state(fase=key))
        assert not any(f.disabled for f in follow.values()), key
        html = unescape(unwrapped_scripts(LAB.view(state(fase=key))))
        for name, start, what in LAB.module.LATER:
            at = [k for k, _ in LAB.module.STAGES].index(key)
            assert (name in follow and follow[name].hidden) == (at < start), (key, name)
            assert (f"nella fase {start + 1} potrai {what}" in html.lower()) == (at < start), (key, name)
    assert LAB.follow(state(fase="uscite")) == {}
