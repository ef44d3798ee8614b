"""core.kv_cache against a step-by-step simulation and exact arithmetic."""

from hypothesis import given
from hypothesis import strategies as st

from core.kv_cache import kv_cache_bytes, kv_vectors


def simulate(prompt, new, cache):
    """Count key/value pairs step by step, as a generation loop would."""
    done, computed = 0, 0
    for t in range(1, new + 1):
        length = prompt + t
        if cache:
            computed += length - done  # only what is not in the cache yet
            done = length
        else:
            computed += length  # everything again
    return computed


@given(st.integers(0, 300), st.integers(0, 300), st.booleans())
def test_kv_vectors_match_a_generation_loop(prompt, new, cache):
    expected = simulate(prompt, new, cache) if new else (0 if not cache else prompt)
    assert kv_vectors(prompt, new, cache) == expected


def test_llama2_7b_half_a_mebibyte_per_token():
    assert kv_cache_bytes(32, 32, 128, 1, 2) == 2 * 32 * 4096 * 2 == 524_288 == 512 * 1024
    assert kv_cache_bytes(32, 32, 128, 4096, 2) == 2 * 1024**3


def test_grouped_query_attention_shrinks_by_the_group():
    assert kv_cache_bytes(32, 8, 128, 1, 2) == 131_072 == 128 * 1024  # Llama 3 8B
    assert kv_cache_bytes(32, 32, 128, 1, 2) == 4 * kv_cache_bytes(32, 8, 128, 1, 2)
