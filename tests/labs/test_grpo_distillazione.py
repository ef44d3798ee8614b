"""4.4 GRPO e distillazione: advantages with mean 0, std 0 → 0, reverse KL per token."""

import math

import numpy as np
import pytest

import labs

LAB = labs.get("grpo-distillazione")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_group_advantages_have_mean_0():
    s = state()
    r = np.array([1, 0, 0, 1, 0, 0], dtype=float)
    assert s["rewards"] == list(r)
    np.testing.assert_allclose(s["advantages"], (r - r.mean()) / r.std(), atol=1e-12)
    assert abs(sum(s["advantages"])) < 1e-12 and np.mean(s["advantages"]) == pytest.approx(0, abs=1e-12)
    assert s["advantages"][0] == pytest.approx(math.sqrt(2), abs=1e-12)


def test_equal_rewards_give_zero_advantages_and_say_so():
    s = state(r1=1, r2=1, r3=1, r4=1, r5=1, r6=1)
    assert s["std"] == 0 and s["advantages"] == [0.0] * 6
    assert "non sposta i pesi" in str(LAB.view(s))


@pytest.mark.parametrize("name, rewards", LAB.module.GROUPS)
def test_preset_groups(name, rewards):
    s = state(gruppo=len(rewards), **{f"r{k}": v for k, v in enumerate(rewards, 1)})
    assert s["rewards"] == pytest.approx(rewards)
    assert abs(sum(s["advantages"])) < 1e-9
    if name.startswith("Facile"):
        assert s["advantages"][-1] == pytest.approx(-math.sqrt(5), abs=1e-12)  # the one wrong answer stands out
    if name.startswith("Difficile"):
        assert max(s["advantages"]) == pytest.approx(math.sqrt(5), abs=1e-12)


def test_reverse_kl_is_largest_on_the_wrong_step_and_vanishes_with_training():
    s = state()
    kls = [x["kl"] for x in s["steps"]]
    assert max(range(5), key=kls.__getitem__) == 2 and s["steps"][2]["token"] == "41"
    assert kls[4] < 0.25  # «381» is right after «340 + 41 =»: hardly blamed
    for x in s["steps"]:
        P, Q = np.array(x["student"]), np.array(x["teacher"])
        assert x["kl"] == pytest.approx(float(np.sum(P * np.log(P / Q))), abs=1e-12)
        assert sum(x["terms"]) == pytest.approx(x["kl"], abs=1e-12)
    totals = [state(allenamento=t)["total_kl"] for t in (0, 0.25, 0.5, 0.75, 1)]
    assert all(a > b for a, b in zip(totals, totals[1:])) and totals[-1] == pytest.approx(0, abs=1e-12)


def test_kl_bars_are_buttons_for_the_token():
    html = str(LAB.view(state()))
    assert all(f'data-set="token={k}"' in html for k in range(1, 6))


# ---------------------------------------------------------------- controls that count, and the prose's experiments

M = LAB.module


def test_rewards_beyond_the_group_say_they_are_not_used():
    rules = M.follow(state())
    assert set(rules) == {"r7", "r8"} and all("Il gruppo ha 6 risposte" in r.disabled for r in rules.values())
    assert M.follow(state(gruppo=8)) == {}
    assert set(M.follow(state(gruppo=2))) == {f"r{k}" for k in range(3, 9)}
    assert state(r7=1)["advantages"] == state()["advantages"]  # it really is ignored


def test_a_group_where_all_are_right_teaches_nothing():
    name, rewards = next(g for g in M.GROUPS if g[0] == "Tutte giuste")
    s = state(gruppo=len(rewards), **{f"r{k}": v for k, v in enumerate(rewards, 1)})
    assert s["std"] == 0 and s["advantages"] == [0.0] * 6
    assert "non sposta i pesi" in str(LAB.view(s))


@pytest.mark.parametrize("seed", range(40))
def test_advantages_always_sum_to_zero_and_follow_the_mean(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 9))
    rewards = {f"r{k}": round(float(rng.integers(0, 11)) / 10, 1) for k in range(1, 9)}
    s = state(gruppo=n, **rewards)
    assert abs(sum(s["advantages"])) < 1e-9
    for r, a in zip(s["rewards"], s["advantages"]):
        assert (a > 1e-12) == (r > s["mean"] + 1e-12) and (a < -1e-12) == (r < s["mean"] - 1e-12)
    same = "non sposta i pesi" in str(LAB.view(s))
    assert same == (s["std"] < 1e-12)


def test_the_kl_explodes_on_41_and_almost_spares_381():
    """«Clicca i token: la KL esplode proprio su «41», mentre «381» … viene quasi assolto»."""
    s = state()
    kl = {x["token"]: x["kl"] for x in s["steps"]}
    assert max(kl, key=kl.get) == "41" and kl["41"] > 1
    assert kl["381"] < 0.2 * kl["41"]
    html = str(LAB.view(s))
    assert 'data-set="token=5"' in html and state(token=5)["token"] == 5


def test_training_brings_the_kl_down_to_zero():
    """«Muovi «Allenamento» … e guarda la KL scendere verso 0»."""
    totals = [state(allenamento=t)["total_kl"] for t in (0, 0.25, 0.5, 0.75, 1)]
    assert all(a > b for a, b in zip(totals, totals[1:])) and totals[-1] == pytest.approx(0, abs=1e-12)
