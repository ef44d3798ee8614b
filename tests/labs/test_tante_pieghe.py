"""9B.10 Tante pieghe, una curva: a broken line of ReLU elbows, by hand and by least squares."""

import numpy as np
import pytest

import labs

LAB = labs.get("tante-pieghe")
XS = np.linspace(-1, 1, 201)
TARGETS = {"seno": np.sin(np.pi * XS), "parabola": XS**2, "assoluto": np.abs(XS), "gradino": np.tanh(5 * XS)}


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def relu_sum(f, x):
    return f["c"] + f["s0"] * x + sum(s * np.maximum(x - e, 0) for e, s in zip(f["elbows"], f["slopes"]))


def test_default_hand_curve_is_a_rough_sine():
    s = state()
    hand = s["hand"]
    assert [list(k) for k in hand["knots"]] == [[-1.0, 0.0], [-0.5, -1.0], [0.5, 1.0], [1.0, 0.0]]
    assert (hand["c"], hand["s0"]) == pytest.approx((-2.0, -2.0))
    assert hand["elbows"] == [-0.5, 0.5] and hand["slopes"] == pytest.approx([4.0, -4.0])
    broken = np.interp(XS, *zip(*hand["knots"]))
    np.testing.assert_allclose(relu_sum(hand, XS), broken, atol=1e-12)
    assert hand["mse"] == pytest.approx(float(np.mean((broken - TARGETS["seno"]) ** 2)), abs=1e-12)
    assert hand["mse"] == pytest.approx(0.0227, abs=1e-4)


@pytest.mark.parametrize("seed", range(6))
def test_any_hand_curve_is_its_relu_sum(seed):
    rng = np.random.default_rng(seed)
    raw = {
        "gomiti": int(rng.integers(0, 6)),
        "inizio": rng.uniform(-1.5, 1.5),
        "fine": rng.uniform(-1.5, 1.5),
        "bersaglio": str(rng.choice(list(TARGETS))),
    }
    raw.update({f"e{i}": rng.uniform(-0.95, 0.95) for i in range(1, 6)})
    raw.update({f"h{i}": rng.uniform(-1.5, 1.5) for i in range(1, 6)})
    s = LAB.compute(LAB.parse(raw))
    hand, knots = s["hand"], s["hand"]["knots"]
    assert len(hand["elbows"]) == len(knots) - 2 == raw["gomiti"] - len(s["clashes"])
    np.testing.assert_allclose(relu_sum(hand, XS), np.interp(XS, *zip(*knots)), atol=1e-9)
    assert hand["mse"] == pytest.approx(float(np.mean((relu_sum(hand, XS) - TARGETS[s["target"]]) ** 2)), abs=1e-12)


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("n", [1, 4, 5, 20])
def test_fit_matches_numpy_lstsq(target, n):
    fit = state(bersaglio=target, automatici=n)["fit"]
    A = np.column_stack([np.ones_like(XS), XS, *(np.maximum(XS - e, 0.0) for e in fit["elbows"])])
    beta, *_ = np.linalg.lstsq(A, TARGETS[target], rcond=None)
    assert fit["elbows"] == pytest.approx([-1 + 2 * k / (n + 1) for k in range(1, n + 1)])
    np.testing.assert_allclose([fit["c"], fit["s0"], *fit["slopes"]], beta, atol=1e-10)
    assert fit["mse"] == pytest.approx(float(np.mean((A @ beta - TARGETS[target]) ** 2)), abs=1e-12)


def test_more_elbows_less_error():
    for target in ("seno", "parabola"):
        errors = state(bersaglio=target)["errors"]
        assert len(errors) == 20 and all(b < a for a, b in zip(errors, errors[1:]))
    step = state(bersaglio="gradino")["errors"]
    assert step[-1] < 1e-3 * step[0]
    kink = state(bersaglio="assoluto")["errors"]
    assert all(e < 1e-20 for e in kink[0::2]) and all(e > 1e-6 for e in kink[1::2])  # odd n: an elbow at 0


def test_more_hand_elbows_improve_the_default_sine():
    errors = [state(gomiti=g)["hand"]["mse"] for g in (0, 2, 4)]
    assert errors[0] > errors[1] > errors[2]


def test_elbows_in_the_same_place_count_once():
    s = state(gomiti=3, e3=-0.5)
    assert s["clashes"] == [3] and s["hand"]["elbows"] == [-0.5, 0.5]
    assert "Il gomito 3" in str(LAB.view(s))


def test_view_lists_the_relu_terms_and_offers_handles():
    html = str(LAB.view(state()))
    assert "ReLU(x + 0,50)" in html and "ReLU(x − 0,50)" in html
    assert 'data-drag="e1 h1"' in html and 'data-drag="- inizio"' in html and 'data-plane="-1 1 -1.5 1.5"' in html
    assert 'data-set="automatici=12"' in html


def test_elbows_not_in_use_say_so_and_do_nothing():
    lab = labs.get("tante-pieghe")
    s = lab.compute(lab.parse({"gomiti": "2"}))
    rules = lab.module.follow(s)
    assert set(rules) == {f"{a}{i}" for i in (3, 4, 5) for a in "eh"}
    assert all("In uso ci sono 2 gomiti" in r.disabled for r in rules.values())
    assert lab.module.follow(lab.compute(lab.parse({"gomiti": "5"}))) == {}
    assert "Nessun gomito in uso" in lab.module.follow(lab.compute(lab.parse({"gomiti": "0"})))["e1"].disabled
    moved = lab.compute(lab.parse({"gomiti": "2", "e4": "0.5", "h4": "1"}))
    assert moved["hand"] == s["hand"]  # it really is ignored
