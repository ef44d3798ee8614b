"""4.2 Warm-up e coseno: Llama 2's schedule by default."""

import math
import re

import pytest

import labs

LAB = labs.get("schedule-lr")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_llama2_defaults_and_seed_figures():
    s = state()
    assert s["peak"] == pytest.approx(3e-4, abs=1e-18) and (s["warmup"], s["total"], s["floor"]) == (2000, 500_000, 0.1)
    assert s["at_warmup_end"] == pytest.approx(3e-4, abs=1e-18)  # the peak, reached after 2,000 steps
    assert s["final"] == pytest.approx(3e-5, abs=1e-18)  # 10 % of the peak
    assert s["total_tokens"] == 2e12  # 500,000 steps of 4 million tokens
    html = re.sub(r"<[^>]+>", "", str(LAB.view(s)))  # the words: an exponent has a font of its own (a tspan)
    assert "3,000 × 10⁻⁴" in html and "0,300 × 10⁻⁴" in html and "2.000 miliardi" in html
    assert "3,00 × 10⁻⁴" not in html  # one quantity, one way of writing it: three decimals everywhere


def test_curve_rises_then_falls_and_contains_the_warmup_end():
    s = state()
    values = [v for _, v in s["curve"]]
    top = values.index(max(values))
    assert s["curve"][top][0] == 2000
    assert all(a <= b for a, b in zip(values[:top], values[1 : top + 1]))
    assert all(a >= b for a, b in zip(values[top:], values[top + 1 :]))
    assert s["curve"][0] == (0, 0.0) and s["curve"][-1][0] == 500_000


def test_the_chosen_step_reads_the_formula():
    s = state(passo=251000)  # half way down the cosine: the mean of the peak and the floor
    assert s["lr"] == pytest.approx((3e-4 + 3e-5) / 2, abs=1e-18) and s["phase"] == "coseno"
    t = 120_000
    expected = 3e-5 + (3e-4 - 3e-5) * 0.5 * (1 + math.cos(math.pi * (t - 2000) / 498_000))
    assert state(passo=t)["lr"] == pytest.approx(expected, abs=1e-18)
    assert state(passo=1000)["lr"] == pytest.approx(1.5e-4) and state(passo=1000)["phase"] == "warm-up"


def test_handle_drags_the_step():
    html = str(LAB.view(state()))
    assert 'data-drag="passo -"' in html and "data-plane=" in html


def test_edges_are_explained():
    assert "Senza warm-up" in str(LAB.view(state(warmup=0)))
    assert state(warmup=0)["lr"] <= 3e-4 and state(warmup=0, passo=0)["lr"] == pytest.approx(3e-4)
    s = state(passo=900000)
    assert s["step"] == 500_000 and "solo 500.000 passi" in str(LAB.view(s))
    s = state(warmup=20000, totale=10000)
    assert s["warmup"] == 10000 and "occupa tutto il training" in str(LAB.view(s))


def test_the_step_and_the_warmup_stop_at_the_end_of_training():
    r = labs.render("schedule-lr", {"totale": "10000", "passo": "500000", "warmup": "20000"})
    assert r["params"]["passo"] == 10000 and r["params"]["warmup"] == 10000
    assert r["controls"]["passo"]["max"] == 10000


def test_the_prose_experiments():
    """«togliere il warm-up: la curva parte subito dal picco»; «minimo a 0: la discesa arriva fino in fondo»;
    «accorcia il training e la stessa curva si comprime»."""
    assert state(warmup=0)["curve"][0][1] == pytest.approx(3e-4)
    assert state()["curve"][0][1] == 0
    assert state(minimo=0)["final"] == pytest.approx(0, abs=1e-15) and state()["final"] == pytest.approx(3e-5)
    long, short = state(), state(totale=250000, warmup=1000)
    for k in (0.25, 0.5, 0.75):  # the same shape at the same fraction of the training
        assert short["curve"][round(k * len(short["curve"]))][1] == pytest.approx(
            long["curve"][round(k * len(long["curve"]))][1], rel=0.02
        )


def test_states_remembered_are_the_states_computed_afresh():
    """The lab keeps the curves of the last schedules: moving the step reuses them, and a walk over the
    controls, one at a time as a reader moves them, gives at every setting the state computed from empty caches."""
    import random

    from labs.ch4 import schedule_lr as lab

    def fresh(params):
        lab.curves.cache_clear()
        return LAB.compute(params)

    rng = random.Random(5)
    raw, remembered = {}, []
    for _ in range(40):
        control = rng.choice([c for c in LAB.params_list if c.kind == "slider"])
        raw[control.name] = str(control.parse(rng.uniform(control.min, control.max)))
        params = LAB.parse(raw)
        remembered.append((params, LAB.compute(params)))
    assert lab.curves.cache_info().hits > 0
    for params, state_ in remembered:
        assert state_ == fresh(params)


def test_the_handle_caption_is_not_written_on_a_line():
    """«η = 2,750 × 10⁻⁴» sat across the dashed «η costante al picco» (kit: a caption avoids curves and markers)."""
    html = str(LAB.view(state()))
    caption = re.search(r'<text x="[^"]*" y="([^"]*)" class="lab-chart-caption"[^>]*>(η = .*?)</text>', html)
    flat = float(re.search(r'<path d="M0\.00,([\d.]+) L[\d.]+,\1" class="lab-chart-line muted is-dashed"', html)[1])
    y = float(caption[1])
    assert not (y - 0.6 * 13 - 2 < flat < y + 0.6 * 13 + 2), (caption[2], y, flat)
