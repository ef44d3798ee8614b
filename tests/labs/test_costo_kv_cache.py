"""A.5 Il costo dell'attention e la KV cache: the seed figures."""

from html import unescape as html_unescape

import labs


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


LAB = labs.get("costo-kv-cache")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_has_the_seed_figures():
    s = state()
    assert s["n"] == 4000 and s["full"] == 16_000_000  # 16 M dot products per head per layer
    assert s["causal"] == 4000 * 4001 // 2 and s["four"] == 10  # 1 + 2 + 3 + 4
    # Llama 2 7B in bf16: 2 × 32 × 4096 × 2 = 524,288 bytes per token, 2 GiB at 4,096 tokens
    assert (s["layers"], s["kv_heads"], s["d_head"], s["bytes"]) == (32, 32, 128, 2)
    assert s["per_token"] == 2 * 32 * 4096 * 2 == 524_288
    llama2, llama3, big = s["models"]
    assert llama2["at_window"] == 2 * 1024**3 and llama2["window"] == 4096
    assert llama3["per_token"] == 131_072 and llama3["at_window"] == 1024**3  # GQA, 8 kv heads
    assert big["per_token"] == 2 * 80 * 8 * 128 * 2
    html = str(LAB.view(s))
    html = html.replace("\u00a0", " ")  # numbers and units are joined by a non-breaking space
    for text in (
        "16 milioni",
        "1 + 2 + 3 + 4 = 10",
        "524.288 byte per token (512 KiB)",
        "4.096 token: 2 GiB",
        "128 KiB",
    ):
        assert text in html


def test_four_tokens_ten_comparisons_with_the_mask():
    s = state(n=4)
    assert s["causal"] == 10 and s["full"] == 16


def test_generation_without_and_with_the_cache():
    s = state()  # 100 tokens after 4,000
    assert s["without"] == sum(4000 + t for t in range(1, 101)) == 405_050
    assert s["with"] == 4100 and round(s["ratio"], 1) == 98.8
    s = state(n=4, generati=4000)
    assert s["without"] == 4000 * 4 + 4000 * 4001 // 2 and s["with"] == 4004


def test_the_gqa_preset_shrinks_the_cache_by_four():
    full, grouped = state(), state(teste_kv=8)
    assert full["per_token"] == 4 * grouped["per_token"] and grouped["per_token"] == 128 * 1024
    assert state(precisione="fp32")["per_token"] == 2 * full["per_token"]


def test_one_layer_one_head_and_one_token_agree():
    lab = labs.get("costo-kv-cache")
    html = unescape(str(lab.view(lab.compute(lab.parse({"strati": "1", "teste_kv": "1", "generati": "1"})))))
    assert "2 × 1 strato × 1 testa ×" in html
    assert "1 volte" not in html and "lo stesso" in html


def test_long_contexts_cost_quadratically_and_the_ratio_grows_with_t():
    """«Prova le lunghezze fino a 128.000 token»; «Scegli quanti token generare e guarda il rapporto»."""
    lab = labs.get("costo-kv-cache")
    state = lambda **raw: lab.compute(lab.parse({k: str(v) for k, v in raw.items()}))  # noqa: E731
    short, long = state(n=4000), state(n=128000)
    assert long["full"] / short["full"] == (128000 / 4000) ** 2
    ratios = [state(generati=t)["ratio"] for t in (1, 10, 100, 1000, 4000)]
    assert ratios[0] == 1 and all(a < b for a, b in zip(ratios, ratios[1:]))
