"""2.1 La loss: the guide's figures in the default state, checked with numpy."""

import numpy as np
import pytest

import labs

LAB = labs.get("loss")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_is_the_guide_example():
    s = state()
    assert s["p"] == 0.12
    assert round(s["loss"], 2) == 2.12
    assert round(s["perplexity"], 1) == 8.3
    assert s["perplexity"] == pytest.approx(1 / 0.12, rel=1e-12)


def test_seed_points():
    seeds = {r["p"]: r for r in state()["seeds"]}
    assert seeds[1.0]["loss"] == 0
    assert round(seeds[0.5]["loss"], 2) == 0.69
    assert round(seeds[0.12]["loss"], 2) == 2.12
    assert round(seeds[0.01]["loss"], 1) == 4.6
    for p, r in seeds.items():
        assert r["loss"] == pytest.approx(-np.log(p), abs=1e-12)
        assert r["perplexity"] == pytest.approx(np.exp(-np.log(p)), rel=1e-12)


@pytest.mark.parametrize("p", [0.001, 0.05, 0.3, 0.77, 1.0])
def test_halving_the_probability_adds_log_two(p):
    s = state(p=p)
    assert s["halved"] - s["loss"] == pytest.approx(np.log(2), abs=1e-12)


def test_loss_falls_as_probability_rises_and_stays_finite_at_the_bottom():
    losses = [state(p=p)["loss"] for p in (0.001, 0.01, 0.1, 0.5, 1.0)]
    assert losses == sorted(losses, reverse=True)
    assert state(p=0)["p"] == 0.001 and np.isfinite(state(p=0)["loss"])


def test_view_shows_the_guide_numbers():
    html = str(LAB.view(state())).replace("\u00a0", " ")  # as read: number and unit on one line
    for text in ("2,12", "8,3", "circa 8 candidati", "0,69", "4,6", "12,0 %"):
        assert text in html
    assert 'data-drag="p -"' in html and 'data-set="p=0.01"' in html
