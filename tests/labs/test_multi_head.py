"""A.4 Più teste: three hand-set heads on «il trofeo non entra nella valigia .»."""

import re

import numpy as np
import pytest

import labs
from core.attention import multi_head

LAB = labs.get("multi-head")
MOD = LAB.module


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def softmax_head(X, Wq, Wk, causal):
    S = (X @ Wq) @ (X @ Wk).T / np.sqrt(Wq.shape[1])
    if causal:
        S = np.where(np.tril(np.ones_like(S)) == 1, S, -np.inf)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    return A / A.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("k", [0, 0.5, 1, 2])
def test_every_head_against_numpy(causal, k):
    s = state(maschera=int(causal), decisione=k)
    X = np.array(s["X"])
    outs = []
    for h in s["heads"]:
        Wq, Wk, Wv = (np.array(h[w]) for w in ("W_q", "W_k", "W_v"))
        A = softmax_head(X, Wq, Wk, causal)
        np.testing.assert_allclose(h["A"], A, atol=1e-12)
        np.testing.assert_allclose(np.array(h["A"]).sum(axis=1), 1, atol=1e-12)
        if causal:
            assert np.all(np.triu(np.array(h["A"]), 1) == 0)
        outs.append(A @ (X @ Wv))
    concat = np.hstack(outs)
    assert concat.shape == (7, 6)
    np.testing.assert_allclose(s["concat"], concat, atol=1e-12)
    np.testing.assert_allclose(s["out"], concat @ np.array(s["W_o"]), atol=1e-12)
    heads = [(h["W_q"], h["W_k"], h["W_v"]) for h in s["heads"]]
    assert multi_head(s["X"], heads, causal, s["W_o"])["out"] == s["out"]  # the lab shows what core computes


@pytest.mark.parametrize("causal", [True, False])
def test_the_heads_do_what_the_prose_says(causal):
    s = state(maschera=int(causal))
    previous, nouns, itself = (np.array(h["A"]) for h in s["heads"])
    noun_cols = [1, 5]  # «trofeo», «valigia»
    for i in range(1, 7):
        assert previous[i].argmax() == i - 1
        assert itself[i].argmax() == i
        if i >= 1:
            assert nouns[i].argmax() in noun_cols and nouns[i].max() > 0.4
    if causal:
        assert previous[0, 0] == itself[0, 0] == nouns[0, 0] == 1  # «il» only sees itself
        assert nouns[3].argmax() == 1 and nouns[6, 1] == pytest.approx(nouns[6, 5])  # «valigia» joins later
    else:
        assert nouns[1, 5] == pytest.approx(nouns[1, 1])  # «trofeo» sees «valigia» without the mask


def test_default_row_of_entra():
    s = state()
    assert s["tokens"][s["row"]] == "entra" and s["causal"]
    assert [h["top"][3] for h in s["heads"]] == [2, 1, 3]  # «non», «trofeo», «entra»
    assert [round(h["A"][3][t], 2) for h, t in zip(s["heads"], (2, 1, 3))] == [0.65, 0.85, 0.78]
    assert s["comparisons"] == 3 * 28
    html = str(LAB.view(s))
    assert "[7\u00a0×\u00a06]" in html and "W_o" in html and "∞" not in html


def test_zero_decision_gives_equal_weights():
    s = state(decisione=0, maschera=0)
    for h in s["heads"]:
        np.testing.assert_allclose(h["A"], np.full((7, 7), 1 / 7), atol=1e-12)


def test_kept_matrices_equal_freshly_drawn_ones():
    module = MOD
    s = LAB.compute(LAB.parse({"riga": "3"}))
    module.x_matrix.cache_clear()
    module.w_o_matrix.cache_clear()
    first = str(LAB.view(s))
    assert str(LAB.view(s)) == first and module.x_matrix.cache_info().hits == 1
    frozen_x, tokens = module.frozen(s["X"]), tuple(s["tokens"])
    assert module.x_matrix(frozen_x, tokens, 2) == module.x_matrix.__wrapped__(frozen_x, tokens, 2)
    assert module.w_o_matrix(module.frozen(s["W_o"])) == module.w_o_matrix.__wrapped__(module.frozen(s["W_o"]))
    edited = dict(s, X=[[0.5] * 6 for _ in s["X"]])  # a reader's edited compute: its own X is drawn
    assert "0,5" in str(module.x_matrix(module.frozen(edited["X"]), tokens, 2)) and str(LAB.view(edited)) != first


@pytest.mark.parametrize("causal", [1, 0])
def test_each_row_of_the_weights_is_one_button_and_masked_cells_are_empty(causal):
    """A row of a head's weights is chosen by its token's name (one button per row, a click anywhere in it
    counts); a cell hidden by the mask is empty, a visible one shows its weight."""
    html = str(LAB.view(state(maschera=causal)))
    for k in (1, 2, 3):
        table = re.search(rf'data-part="A{k}".*?</table>', html, re.S).group(0)
        rows = re.findall(r'<tr data-set="riga=(\d)" class="is-pick">(.*?)</tr>', table, re.S)
        assert [int(i) for i, _ in rows] == list(range(1, 8))
        for i, row in rows:
            assert row.count("<button") == 1 and f"Segui la riga di «{MOD.TOKENS[int(i) - 1]}»" in row
            cells = re.findall(r'<td class="lab-mx-cell[^"]*" data-i="\d" data-j="(\d)"([^>]*)>([^<]*)</td>', row)
            assert len(cells) == 7 and all(
                "data-set" not in rest and 'tabindex="0"' not in rest for _, rest, _ in cells
            )
            assert [text != "" for _, _, text in cells] == [not causal or int(j) < int(i) for j, _, _ in cells]


def test_the_product_with_w_o_is_drawn_only_when_opened():
    """«3. Le uscite in fila, poi W_o» is a fold: closed by default (a line, no tables), drawn when opened,
    with the numbers of the state; the heads above are the same either way."""
    closed_state, open_state = state(), LAB.compute(LAB.parse({"sezioni": "uscite"}))
    closed, opened_ = str(LAB.view(closed_state)), str(LAB.view(open_state))
    fold = re.search(
        r'<details class="lab-section" data-part="uscite" data-fold="uscite">(.*?)</details>', closed, re.S
    )
    assert fold and "lab-fold-wait" in fold.group(1)
    assert not re.search(r'data-part="(concat|W_o|out)"', closed)
    assert re.search(r'<details open class="lab-section" data-part="uscite"', opened_)
    for part in ("concat", "W_o", "out"):
        assert f'data-part="{part}"' in opened_
    shown = re.search(r'data-part="out".*?</table>', opened_, re.S).group(0)
    assert MOD.num(open_state["out"][3][0]).rstrip("0").rstrip(",") in shown
    heads = lambda html: re.search(r"(<h3>2\..*?)<details", html, re.S).group(1)  # noqa: E731
    assert heads(closed) == heads(opened_)


def test_heads_kept_per_mask_and_decision_are_the_heads_computed_afresh():
    """Choosing another token reuses the heads (heads_at): along a walk over the controls every state
    equals the one computed from an empty cache."""
    import random

    rng = random.Random(4)
    raw, seen = {}, []
    for _ in range(40):
        name, value = rng.choice(
            [
                ("riga", rng.randint(1, 7)),
                ("maschera", rng.randint(0, 1)),
                ("decisione", rng.choice([0, 0.25, 1, 2])),
                ("sezioni", rng.choice(["", "uscite"])),
            ]
        )
        raw[name] = str(value)
        params = LAB.parse(raw)
        seen.append((params, LAB.compute(params)))
    assert MOD.heads_at.cache_info().hits > 0
    for params, kept in seen:
        MOD.heads_at.cache_clear()
        assert kept == LAB.compute(params)
