"""A.3 Dove stanno i parametri: two thirds in the feed-forward, and where attention catches up."""

from html import unescape as html_unescape

import pytest

import labs
from labs.kit.html import unwrapped_scripts


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


LAB = labs.get("quota-ffn")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_classic_block_gives_two_thirds_and_crossover_at_4d():
    s = state()
    assert (s["d"], s["ffn_kind"], s["n"]) == (4096, "classica", 2048)
    assert s["attention_params"] == 4 * 4096**2
    assert s["ffn_params"] == 8 * 4096**2
    assert s["ffn_share"] == pytest.approx(2 / 3, abs=1e-12)
    assert s["crossover_scores"] == 4 * 4096 == 16_384  # 4nd = 16d²
    assert s["crossover_attention"] == 2 * 4096  # 8d² + 4nd = 16d²
    assert s["ffn"] > s["projections"] + s["scores"]  # at n = 2.048 the feed-forward costs more
    html = unescape(unwrapped_scripts(LAB.view(s)))
    for text in ("66,7 %", "33,3 %", "n = 16.384", "4 · 4.096² = 67.108.864", "costa di più la feed-forward"):
        assert text in html, text


@pytest.mark.parametrize("d", [512, 768, 12288])
def test_swiglu_with_eight_thirds_keeps_two_thirds(d):
    s = state(d=d, ffn="swiglu")
    assert s["ffn_params"] == pytest.approx(8 * d * d, rel=1e-12)
    assert s["ffn_share"] == pytest.approx(2 / 3, abs=1e-12)
    assert s["crossover_scores"] == pytest.approx(4 * d, rel=1e-12)


def test_swiglu_without_shrinking_takes_three_quarters():
    assert state(ffn="swiglu4")["ffn_share"] == pytest.approx(3 / 4, abs=1e-12)


def test_original_transformer_crosses_at_2048_and_long_contexts_belong_to_attention():
    s = state(d=512, n=2048)
    assert s["scores"] == s["ffn"] == 16 * 512**2
    long = state(d=512, n=131072)
    assert long["scores"] > 10 * long["ffn"]
    assert "costa di più l'attention" in unescape(unwrapped_scripts(LAB.view(long)))
