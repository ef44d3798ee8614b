import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import attention as at

small = st.floats(-5, 5, allow_nan=False)


def np_attention(Q, K, V, causal=True):
    """The reference: softmax(Q Kᵀ/√d + mask) V in numpy."""
    S = Q @ K.T / np.sqrt(K.shape[1])
    if causal:
        S = np.where(np.tril(np.ones_like(S)) == 1, S, -np.inf)
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    return A, A @ V


def np_rope(v, m, base=10000.0):
    v = np.asarray(v, float)
    theta = base ** (-2 * np.arange(len(v) // 2) / len(v))
    c, s = np.cos(m * theta), np.sin(m * theta)
    x, y = v[0::2], v[1::2]
    out = np.empty_like(v)
    out[0::2], out[1::2] = c * x - s * y, s * x + c * y
    return out


@pytest.mark.parametrize("n, d", [(1, 1), (3, 2), (4, 2), (6, 8)])
@pytest.mark.parametrize("causal", [True, False])
def test_attention_matches_numpy(n, d, causal):
    rng = np.random.default_rng(n * 10 + d)
    Q, K, V = rng.normal(size=(n, d)), rng.normal(size=(n, d)), rng.normal(size=(n, 3))
    A_ref, O_ref = np_attention(Q, K, V, causal)
    np.testing.assert_allclose(at.dot_scores(Q.tolist(), K.tolist()), Q @ K.T, atol=1e-12)
    np.testing.assert_allclose(at.scaled_scores(Q.tolist(), K.tolist()), Q @ K.T / np.sqrt(d), atol=1e-12)
    np.testing.assert_allclose(at.attention_weights(Q.tolist(), K.tolist(), causal), A_ref, atol=1e-12)
    A, O = at.attention(Q.tolist(), K.tolist(), V.tolist(), causal)
    np.testing.assert_allclose(A, A_ref, atol=1e-12)
    np.testing.assert_allclose(O, O_ref, atol=1e-12)


def test_causal_mask_and_masked_weights_are_exactly_zero():
    assert at.causal_mask(3) == [[0, -math.inf, -math.inf], [0, 0, -math.inf], [0, 0, 0]]
    A = at.attention_weights([[1.0, 2.0]] * 4, [[3.0, -1.0]] * 4)
    for i, row in enumerate(A):
        assert all(row[j] == 0.0 for j in range(i + 1, 4))
        assert sum(row) == pytest.approx(1, abs=1e-15)
    assert A[0] == [1.0, 0.0, 0.0, 0.0]


def test_a_fully_masked_row_is_an_error_not_nan():
    with pytest.raises(ValueError):
        at.softmax_rows([[0.0, -math.inf], [-math.inf, -math.inf]])


@given(
    st.lists(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=2), min_size=1, max_size=6),
    st.booleans(),
)
def test_rows_sum_to_one_and_never_overflow(rows, causal):
    A = at.attention_weights(rows, rows, causal)
    for row in A:
        assert all(math.isfinite(a) and a >= 0 for a in row)
        assert math.fsum(row) == pytest.approx(1, abs=1e-12)


def numpy_padded_attention(X, mask, causal=True):
    """Self-attention of X with padding: a key with mask 0 is −∞ for every query."""
    X = np.asarray(X)
    n, d = X.shape
    scores = X @ X.T / np.sqrt(d)
    allowed = np.asarray(mask, bool)[None, :] & (np.tril(np.ones((n, n), bool)) if causal else np.ones((n, n), bool))
    scores = np.where(allowed, scores, -np.inf)
    A = np.zeros((n, n))
    for i in range(n):
        if allowed[i].any():
            e = np.exp(scores[i] - scores[i][allowed[i]].max())
            A[i] = e / e.sum()
    return A


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mask", [None, [1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 0, 1]])
@pytest.mark.parametrize("causal", [True, False])
def test_keys_left_out_get_exactly_zero_and_a_query_with_nothing_to_see_gets_zeros(seed, mask, causal):
    X = np.random.default_rng(seed).normal(size=(6, 2)).tolist()
    A = at.attention_weights(X, X, causal, keep=mask)
    np.testing.assert_allclose(A, numpy_padded_attention(X, mask or [1] * 6, causal), atol=1e-12)
    for i, row in enumerate(A):
        assert sum(row) == pytest.approx(1.0) or not any(row)
        if causal:
            assert all(w == 0 for w in row[i + 1 :])  # nothing after the token
        if mask:
            assert all(w == 0 for w, m in zip(row, mask) if not m)  # padding gets exactly 0


def test_padding_that_sees_only_padding_has_no_weights():
    A = at.attention_weights([[1.0, 0.0]] * 3, [[1.0, 0.0]] * 3, keep=[0, 1, 1])
    assert A[0] == [0.0, 0.0, 0.0] and A[1] == [0.0, 1.0, 0.0] and A[2] == [0.0, 0.5, 0.5]


def test_head_and_multi_head_match_numpy():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(3, 4))
    heads = [tuple(rng.normal(size=(4, 2)) for _ in range(3)) for _ in range(2)]
    W_o = rng.normal(size=(4, 4))
    outs = []
    for W_q, W_k, W_v in heads:
        h = at.head(X.tolist(), W_q.tolist(), W_k.tolist(), W_v.tolist())
        A_ref, O_ref = np_attention(X @ W_q, X @ W_k, X @ W_v)
        np.testing.assert_allclose(h["Q"], X @ W_q, atol=1e-12)
        np.testing.assert_allclose(h["scores"], (X @ W_q) @ (X @ W_k).T, atol=1e-12)
        np.testing.assert_allclose(h["A"], A_ref, atol=1e-12)
        np.testing.assert_allclose(h["O"], O_ref, atol=1e-12)
        outs.append(O_ref)
    as_lists = [tuple(w.tolist() for w in ws) for ws in heads]
    np.testing.assert_allclose(at.multi_head(X.tolist(), as_lists)["out"], np.hstack(outs), atol=1e-12)
    both = at.multi_head(X.tolist(), as_lists, W_o=W_o.tolist())
    np.testing.assert_allclose(both["concat"], np.hstack(outs), atol=1e-12)
    np.testing.assert_allclose(both["out"], np.hstack(outs) @ W_o, atol=1e-12)
    assert [h["A"] for h in both["heads"]] == [at.head(X.tolist(), *ws)["A"] for ws in as_lists]


@pytest.mark.parametrize(
    "n, causal, expected", [(4, True, 10), (4, False, 16), (1, True, 1), (4000, False, 16_000_000)]
)
def test_comparisons(n, causal, expected):
    assert at.comparisons(n, causal) == expected


def test_rope_matches_numpy():
    rng = np.random.default_rng(3)
    for d in (2, 4, 8, 64):
        v = rng.normal(size=d)
        for m in (0, 1, 7, 1000):
            np.testing.assert_allclose(at.rope(v.tolist(), m), np_rope(v, m), atol=1e-12)
    np.testing.assert_allclose(at.rope_frequencies(8), 10000.0 ** (-np.arange(4) / 4), atol=1e-15)
    assert at.rope([1.0, 2.0, 3.0, 4.0], 0) == [1.0, 2.0, 3.0, 4.0]


def test_rope_keeps_lengths():
    v = [3.0, 4.0, -1.0, 2.0]
    assert np.linalg.norm(at.rope(v, 17)) == pytest.approx(np.linalg.norm(v), abs=1e-12)


@settings(max_examples=300)
@given(
    st.lists(small, min_size=4, max_size=4),
    st.lists(small, min_size=4, max_size=4),
    st.integers(0, 500),
    st.integers(0, 500),
    st.integers(-500, 500),
)
def test_rope_score_depends_only_on_the_distance(q, k, m, n, shift):
    """⟨rope(q, m), rope(k, n)⟩ = ⟨rope(q, m + s), rope(k, n + s)⟩ = ⟨q, rope(k, n − m)⟩."""
    here = at.rope_score(q, k, m, n)
    assert at.rope_score(q, k, m + shift, n + shift) == pytest.approx(here, abs=1e-12)
    assert here == pytest.approx(float(np.dot(q, np_rope(k, n - m))), abs=1e-12)
