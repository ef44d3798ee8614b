"""9D.1 Query e key già pronte: scores, mask, softmax row by row, 4 tokens → 10 comparisons."""

import re

import numpy as np
import pytest

import labs
from labs.ch9.attention_qk import CASES

LAB = labs.get("attention-qk")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def reference(Q, K, causal, divide):
    S = np.array(Q, float) @ np.array(K, float).T / (np.sqrt(2) if divide else 1)
    if causal:
        S = np.where(np.tril(np.ones(S.shape)) == 1, S, -np.inf)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    return A / A.sum(axis=1, keepdims=True)


def test_default_four_tokens_ten_comparisons():
    s = state()
    assert s["tokens"] == ["il", "gatto", "nero", "dorme"] and s["causal"]
    assert s["comparisons"] == 10 and s["per_row"] == [1, 2, 3, 4]
    assert state(maschera=0)["comparisons"] == 16
    assert s["costs"][-1] == [4000, 8_002_000, 16_000_000]
    html = str(LAB.view(s))
    assert "1 + 2 + 3 + 4 = 10" in html and "4 × 4 = 16" in html
    assert max(range(4), key=lambda j: s["A"][3][j]) == 1  # «dorme» finds «gatto»


@pytest.mark.parametrize("caso", list(CASES))
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("divide", [True, False])
@pytest.mark.parametrize("lunghezza", [0, 1, 3])
def test_against_numpy_and_rows_sum_to_one(caso, causal, divide, lunghezza):
    s = state(caso=caso, maschera=int(causal), scala=int(divide), lunghezza=lunghezza)
    np.testing.assert_allclose(s["raw"], np.array(s["Q"]) @ np.array(s["K"]).T, atol=1e-12)
    np.testing.assert_allclose(s["A"], reference(s["Q"], s["K"], causal, divide), atol=1e-12)
    np.testing.assert_allclose(s["sums"], 1, atol=1e-12)
    for i, row in enumerate(s["A"]):
        assert all(row[j] == 0.0 for j in range(i + 1, 4)) or not causal


def test_zero_length_queries_weigh_every_visible_token_alike():
    s = state(lunghezza=0)
    for i, row in enumerate(s["A"]):
        assert row[: i + 1] == pytest.approx([1 / (i + 1)] * (i + 1), abs=1e-12)


def test_the_mask_is_written_not_infinite():
    s = state()
    assert s["masked"][0][1:] == [None, None, None]
    assert "−∞" in str(LAB.view(s))


def test_longer_queries_sharpen_the_weights():
    assert max(state(lunghezza=3)["A"][3]) > max(state()["A"][3]) > max(state(lunghezza=0.25)["A"][3])


def test_rows_are_clickable():
    html = str(LAB.view(state()))
    assert {"riga=1", "riga=2", "riga=3", "riga=4"} <= set(re.findall(r'data-set="([^"]+)"', html))
    assert state(riga=2)["row"] == 1
