"""9F I conti di un 7B: Llama 2 7B by default, the other presets, the two-thirds MLP."""

from html import unescape

import pytest

import labs
from core import model_size as ms

LAB = labs.get("conti-7b")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_is_llama2_7b_with_the_seed_figures():
    s = state()
    c = s["counts"]
    assert (s["d"], s["blocchi"], s["vocab"], s["d_ff"]) == (4096, 32, "32000", 11008)
    assert c["embedding"] == 131_072_000  # «131 milioni di numeri»
    assert c["total"] == 6_738_415_616  # «circa 6,7 miliardi»
    assert s["memory"]["bf16"] == 2 * c["total"] == pytest.approx(13.5e9, rel=0.002)  # «14 GB in bf16»:
    assert s["memory"]["int4"] == c["total"] / 2
    assert s["mlp_share"] == pytest.approx(2 / 3, abs=0.005)
    html = str(LAB.view(s))  # 13,5 GB exactly, 14 GB with the name's round 7 billion
    for text in ("6,74 miliardi", "131 milioni", "6.738.415.616", "131.072.000", "13,5 GB",
                 "7 miliardi × 2 byte = 14 GB", "32.000 × 4.096", "32 × 3 × 4.096 × 11.008"):
        assert text in html, text


@pytest.mark.parametrize("name, model", [("Llama 2 7B", ms.LLAMA2_7B), ("Llama 2 13B", ms.LLAMA2_13B),
                                         ("Llama 3 8B", ms.LLAMA3_8B), ("GPT-2 small", ms.GPT2_SMALL)])
def test_presets_give_the_published_totals(name, model):
    values = dict(LAB.module.PRESETS)[name]
    s = state(**{k: int(v) if isinstance(v, bool) else v for k, v in values.items()})
    assert s["counts"] == ms.parameter_counts(model)


def test_gpt2_preset_ties_the_head_and_shows_it():
    s = state(**dict(LAB.module.PRESETS)["GPT-2 small"])
    assert s["counts"]["total"] == 124_439_808 and s["counts"]["head"] == 0 and s["counts"]["positions"] == 786_432
    html = unescape(str(LAB.view(s)))
    assert "124 milioni" in html and "la stessa dell'embedding" in html


def test_presets_are_buttons_that_set_every_control():
    html = str(LAB.view(state()))
    names = {c.name for c in LAB.params_list}
    for _, values in LAB.module.PRESETS:
        assert set(values) == names
    assert 'data-set="d=768;blocchi=12;vocab=50257;d_ff=3072;famiglia=gpt2;kv=tutte;condivisa=1"' in html


def test_shares_add_to_one_and_small_models_are_mostly_vocabulary():
    s = state(d=512, blocchi=8, d_ff=1536)
    assert sum(s["shares"].values()) == pytest.approx(1, abs=1e-12)
    assert s["shares"]["embedding"] + s["shares"]["head"] > 0.5
    assert "La tabella dei token" in str(LAB.view(s))
    assert "La tabella dei token" not in str(LAB.view(state()))
