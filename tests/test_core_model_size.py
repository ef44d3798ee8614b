"""core.model_size against the published sizes and an independent count
of every matrix (numpy shapes)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import model_size as ms


def count_by_shapes(m):
    """The same count done the slow way: list every tensor's shape, as a
    checkpoint would, and add up their sizes."""
    kv = m.d * (m.kv_heads or m.heads) // m.heads
    shapes = [(m.vocab, m.d)] + ([(m.context, m.d)] if m.context else [])
    norm = [(m.d,)] * (2 if m.norm == "layernorm" else 1)
    for _ in range(m.layers):
        shapes += [(m.d, m.d), (m.d, kv), (m.d, kv), (m.d, m.d)] + norm * 2
        shapes += [(m.d, m.d_ff)] * (2 if m.mlp == "swiglu" else 1) + [(m.d_ff, m.d)]
        if m.bias:
            shapes += [(m.d,), (kv,), (kv,), (m.d,)] + [(m.d_ff,)] * (2 if m.mlp == "swiglu" else 1) + [(m.d,)]
    shapes += norm + ([] if m.tied else [(m.vocab, m.d)])
    return sum(int(np.prod(s)) for s in shapes)


def test_llama2_7b_seed_figures():
    c = ms.parameter_counts(ms.LLAMA2_7B)
    assert c["embedding"] == 131_072_000 == c["head"]
    assert c["total"] == 6_738_415_616
    assert c["attention"] == 32 * 4 * 4096**2 and c["mlp"] == 32 * 3 * 4096 * 11_008
    assert c["norms"] == (2 * 32 + 1) * 4096 and c["positions"] == 0
    assert ms.weight_bytes(c["total"], "bf16") / 1e9 == pytest.approx(13.48, abs=0.01)  # «circa 14 GB»
    assert ms.mlp_share(ms.LLAMA2_7B) == pytest.approx(2 / 3, abs=0.005)


@pytest.mark.parametrize(
    "model, total",
    [
        (ms.LLAMA2_13B, 13_015_864_320),
        (ms.LLAMA3_8B, 8_030_261_248),
        (ms.GPT2_SMALL, 124_439_808),  # the «124M» of the Hugging Face checkpoint
    ],
)
def test_published_totals(model, total):
    assert ms.parameter_counts(model)["total"] == total


sizes = st.builds(
    ms.Decoder,
    vocab=st.integers(2, 300_000),
    d=st.sampled_from([64, 128, 768, 4096]),
    layers=st.integers(1, 100),
    d_ff=st.integers(1, 50_000),
    heads=st.sampled_from([1, 2, 4, 8]),
    kv_heads=st.sampled_from([None, 1, 2]),
    tied=st.booleans(),
    mlp=st.sampled_from(["swiglu", "gelu"]),
    norm=st.sampled_from(["rmsnorm", "layernorm"]),
    bias=st.booleans(),
    context=st.sampled_from([0, 1024]),
)


@given(sizes)
def test_parts_add_up_and_match_the_shapes(m):
    if m.kv_heads is not None and m.kv_heads > m.heads:
        m = ms.Decoder(**{**m.__dict__, "kv_heads": m.heads})
    c = ms.parameter_counts(m)
    parts = [c[k] for k in ("embedding", "positions", "attention", "mlp", "norms", "head")]
    assert sum(parts) == c["total"] == count_by_shapes(m)
    assert c["per_block"] * m.layers + c["embedding"] + c["positions"] + c["head"] + ms.norm_params(m) == c["total"]


def test_classic_block_is_two_thirds_mlp():
    classic = ms.Decoder(vocab=1000, d=512, layers=1, d_ff=4 * 512, mlp="gelu")
    assert ms.mlp_share(classic) == pytest.approx(2 / 3, abs=1e-15)  # 8d² against 4d²
    swiglu = ms.Decoder(vocab=1000, d=3 * 512, layers=1, d_ff=8 * 512)  # d_ff = 8/3·d exactly
    assert ms.mlp_share(swiglu) == pytest.approx(2 / 3, abs=1e-15)


def test_bytes_and_training_memory():
    assert ms.BYTES == {"fp32": 4, "bf16": 2, "int8": 1, "int4": 0.5}
    parts = ms.training_bytes(7e9)
    assert sum(ms.TRAINING_BYTES.values()) == 16
    assert parts["total"] == 112e9 > 110e9  # «oltre 110 GB»
    assert ms.gpus_needed(parts["total"], 80e9) == 2 and ms.gpus_needed(80e9, 80e9) == 1
    assert ms.weight_bytes(1000, "int4") == 500


def test_training_arithmetic():
    flops = ms.training_flops(7e9, 2e12)
    assert flops == pytest.approx(8.4e22) and round(flops, -22) == 8e22  # «≈ 8 × 10²²»
    assert ms.chinchilla_tokens(70e9) == 1.4e12  # Chinchilla itself: 70 B parameters, 1.4 T tokens
    n, d = ms.chinchilla_optimum(ms.training_flops(70e9, 1.4e12))
    assert n == pytest.approx(70e9, rel=1e-12) and d == pytest.approx(1.4e12, rel=1e-12)
    # about 40 % of an A100's 312 TFLOPS gives the ~184,000 GPU hours reported for Llama 2 7B
    assert ms.gpu_hours(flops, 312e12, 0.4) == pytest.approx(184_000, rel=0.02)


def test_lora_counts():
    assert ms.lora_params(1000, 1000, 10) == 20_000  # 9B.11: d = 1.000, r = 10
    assert ms.lora_params(4096, 11_008, 8) == 8 * (4096 + 11_008)
