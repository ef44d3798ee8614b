"""4.1 Il costo del pre-training: 6·N·D, Chinchilla, GPU time, 16 bytes per parameter, LoRA."""

import math
from html import unescape

import pytest

import labs

LAB = labs.get("costo-pretraining")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_is_a_7b_on_2000_billion_tokens():
    s = state()
    assert (s["N"], s["D"]) == (7e9, 2e12)
    assert s["flops"] == pytest.approx(8.4e22) and round(s["flops"], -22) == 8e22  # «≈ 8 × 10²²»
    # at 40 % of an A100 it is close to the ~184,000 GPU hours of the seed
    assert s["gpu_hours"] == pytest.approx(184_000, rel=0.02)
    assert s["memory"]["total"] == 16 * 7e9 == 112e9 > 110e9  # «oltre 110 GB»
    assert s["gpus_for_state"] == 2  # 112 GB do not fit in one 80 GB GPU
    html = unescape(str(LAB.view(s)))
    for text in ("8,4 × 10²²", "112 GB", "14 GB", "187.000", "6 × 7 miliardi × 2.000 miliardi"):
        assert text in html, text


def test_chinchilla_toggle_uses_20_tokens_per_parameter():
    s = state(n=70, chinchilla=1)
    assert s["D"] == 1.4e12 and s["per_param"] == 20
    assert s["best_N"] == pytest.approx(70e9) and s["best_D"] == pytest.approx(1.4e12)
    assert "esattamente la ricetta di Chinchilla" in str(LAB.view(s))


def test_the_optimum_spends_the_same_compute():
    for n, d in ((0.125, 20), (175, 300), (405, 15000)):
        s = state(n=n, d=d)
        assert 6 * s["best_N"] * s["best_D"] == pytest.approx(s["flops"], rel=1e-12)
        assert s["best_D"] == pytest.approx(20 * s["best_N"], rel=1e-12)


def test_more_gpus_shorten_the_calendar_not_the_bill():
    a, b = state(schede=256), state(schede=1024)
    assert a["gpu_hours"] == b["gpu_hours"] and a["wall_hours"] == pytest.approx(4 * b["wall_hours"])
    assert state(utilizzo=30)["gpu_hours"] == pytest.approx(2 * state(utilizzo=60)["gpu_hours"])


def test_lora_on_llama2_7b():
    lo = state()["lora"]  # r = 8 on W_q and W_v of 32 blocks
    assert lo["trained"] == 32 * 2 * 2 * 4096 * 8 == 4_194_304
    assert lo["square"] == 65_536 and lo["full_square"] == 4096**2
    assert lo["memory"] == 2 * 6_738_415_616 + 16 * 4_194_304
    assert lo["full_memory"] == 16 * 6_738_415_616
    every = state(r=16, matrici="tutte")["lora"]
    assert every["trained"] == 32 * 16 * (4 * 2 * 4096 + 3 * (4096 + 11008))


def test_known_models_are_clickable_and_in_the_choices():
    html = str(LAB.view(state()))
    n_values = {v for v, _ in next(c for c in LAB.params_list if c.name == "n").options}
    d_values = {v for v, _ in next(c for c in LAB.params_list if c.name == "d").options}
    for name, n, d in LAB.module.KNOWN:
        assert f"{n:g}" in n_values and f"{d:g}" in d_values
        assert f'data-set="n={n:g};d={d:g};chinchilla=0"' in html
    assert math.isclose(state(n=405, d=15000)["flops"], 6 * 405e9 * 15e12)
