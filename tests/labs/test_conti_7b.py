"""9F I conti di un 7B: Llama 2 7B by default, the other presets, the two-thirds MLP."""

import random
import re
from html import unescape as html_unescape

import pytest

import labs
from core import model_size as ms
from labs.kit import percent
from labs.kit.html import unwrapped_scripts


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


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
    html = unescape(unwrapped_scripts(LAB.view(s)))  # 13,5 GB exactly, 14 GB with the name's round 7 billion
    for text in (
        "6,74 miliardi",
        "131 milioni",
        "6.738.415.616",
        "131.072.000",
        "13,5 GB",
        "7 miliardi × 2 byte = 14 GB",
        "32.000 × 4.096",
        "32 × 3 × 4.096 × 11.008",
    ):
        assert text in html, text


@pytest.mark.parametrize(
    "name, model",
    [
        ("Llama 2 7B", ms.LLAMA2_7B),
        ("Llama 2 13B", ms.LLAMA2_13B),
        ("Llama 3 8B", ms.LLAMA3_8B),
        ("GPT-2 small", ms.GPT2_SMALL),
    ],
)
def test_presets_give_the_published_totals(name, model):
    values = dict(LAB.module.PRESETS)[name]
    s = state(**{k: int(v) if isinstance(v, bool) else v for k, v in values.items()})
    assert s["counts"] == ms.parameter_counts(model)


def test_gpt2_preset_ties_the_head_and_shows_it():
    s = state(**dict(LAB.module.PRESETS)["GPT-2 small"])
    assert s["counts"]["total"] == 124_439_808 and s["counts"]["head"] == 0 and s["counts"]["positions"] == 786_432
    html = unescape(unwrapped_scripts(LAB.view(s)))
    assert "124 milioni" in html and "la stessa dell'embedding" in html


def test_presets_are_buttons_that_set_every_control():
    html = unescape(unwrapped_scripts(LAB.view(state())))
    names = {c.name for c in LAB.params_list}
    for _, values in LAB.module.PRESETS:
        assert set(values) == names
    assert 'data-set="d=768;blocchi=12;vocab=50257;d_ff=3072;famiglia=gpt2;kv=tutte;condivisa=1"' in html


def test_shares_add_to_one_and_small_models_are_mostly_vocabulary():
    s = state(d=512, blocchi=8, d_ff=1536)
    assert sum(s["shares"].values()) == pytest.approx(1, abs=1e-12)
    assert s["shares"]["embedding"] + s["shares"]["head"] > 0.5
    assert "La tabella dei token" in unwrapped_scripts(LAB.view(s))
    assert "La tabella dei token" not in unwrapped_scripts(LAB.view(state()))


# ---------------------------------------------------------------- «Dentro un blocco» agrees with the table


PRESETS = dict(LAB.module.PRESETS)


def preset(name):
    return state(**{k: int(v) if isinstance(v, bool) else v for k, v in PRESETS[name].items()})


def number(text):
    return int(text.replace(".", ""))


def inside(html):
    """The three lines of «Dentro un blocco»: attention, MLP, share, as shown."""
    lines = [unescape(x) for x in re.findall(r'lab-formula">(.*?)</p>', html)]
    attention = next(x for x in lines if x.startswith("attention "))
    mlp = next(x for x in lines if x.startswith("MLP "))
    quota = next(x for x in lines if x.startswith("quota dell'MLP"))
    return attention, mlp, quota


def test_llama3_gqa_block_uses_the_tables_attention():
    s = preset("Llama 3 8B")
    attention, mlp, quota = inside(unescape(unwrapped_scripts(LAB.view(s))))
    assert attention == "attention 2 × d² + 2 × d × d_kv = 2 × 4.096² + 2 × 4.096 × 1.024 = 41.943.040"
    assert "67.108.864" not in unwrapped_scripts(LAB.view(s))
    assert mlp.endswith("= 176.160.768")
    assert quota.endswith("= 81 %")
    assert s["counts"]["attention"] == 32 * 41_943_040


@pytest.mark.parametrize("seed", range(40))
def test_the_block_numbers_give_the_share_that_is_shown(seed):
    rng = random.Random(seed)
    raw = {
        c.name: c.parse(rng.uniform(c.min, c.max))
        if hasattr(c, "min")
        else rng.choice([v for v, _ in c.options])
        if hasattr(c, "options")
        else rng.choice([0, 1])
        for c in LAB.params_list
    }
    s = state(**{k: int(v) if isinstance(v, bool) else v for k, v in raw.items()})
    html = unescape(unwrapped_scripts(LAB.view(s)))
    attention, mlp, quota = inside(html)
    a, m = number(attention.rsplit("= ", 1)[1]), number(mlp.rsplit("= ", 1)[1])
    assert a * s["blocchi"] == s["counts"]["attention"] and m * s["blocchi"] == s["counts"]["mlp"]
    shown = re.search(r"MLP nel blocco</span><strong[^>]*>([^<]*)<", html).group(1)
    assert quota.endswith(f"= {shown}") and shown == unescape(percent(m / (a + m)))


# ---------------------------------------------------------------- what the prose says to try


def test_most_parameters_are_in_the_mlps():  # «quasi due terzi dei parametri stanno negli MLP»
    assert 0.6 < state()["shares"]["mlp"] < 2 / 3


def test_the_presets_say_what_the_prose_says():
    llama3 = preset("Llama 3 8B")
    assert int(llama3["vocab"]) / 32_000 == pytest.approx(4, abs=0.01)  # «quattro volte più grande»
    assert llama3["counts"]["embedding"] + llama3["counts"]["head"] > 1e9  # «superano il miliardo»
    assert llama3["mlp_share"] == pytest.approx(4 / 5, abs=0.02)  # «quattro quinti del blocco»
    gpt2 = preset("GPT-2 small")
    assert gpt2["counts"]["head"] == 0 and gpt2["counts"]["positions"] > 0
    small = preset("Piccolo")
    c = small["counts"]
    assert c["embedding"] + c["head"] > c["attention"] + c["mlp"] + c["norms"]


def test_moving_d_grows_attention_with_d_squared_and_the_vocabulary_with_d():
    a, b = state(d=2048), state(d=4096)
    assert b["counts"]["attention"] == 4 * a["counts"]["attention"]
    assert b["counts"]["embedding"] == 2 * a["counts"]["embedding"]
    assert state(d=4096, d_ff=8192)["counts"]["mlp"] == 4 * state(d=2048, d_ff=4096)["counts"]["mlp"]


def test_gqa_says_when_there_is_nothing_to_share():
    assert LAB.module.follow(state(d=1024, kv="8"))["kv"].disabled
    assert LAB.module.follow(state(d=768))["kv"].disabled
    assert "kv" not in LAB.module.follow(state())
    assert state(d=1024, kv="8")["counts"] == state(d=1024, kv="tutte")["counts"]  # it really does nothing
    assert state(d=1152, kv="8")["counts"] != state(d=1152, kv="tutte")["counts"]


def test_one_billion_agrees():
    s = state(d=2048, blocchi=16, d_ff=5632)  # about 1 billion parameters
    assert round(s["counts"]["total"] / 1e9) == 1
    assert "1 miliardo × 2 byte = 2 GB" in unescape(unwrapped_scripts(LAB.view(s)))
