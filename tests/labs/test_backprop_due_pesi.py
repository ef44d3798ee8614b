"""2.3 Backprop su due pesi: every gradient against finite differences."""

import json
import random
import re
from pathlib import Path

import pytest
from reader_walk import walk

import labs
from labs.kit.timelines import counter, phase_of

LAB = labs.get("backprop-due-pesi")
M = LAB.module
PHASES = LAB.module.PHASES
BEFORE = Path(__file__).parent / "data" / "backprop_due_pesi_before.json"


def loss(x, w1, w2, y):
    return (w2 * max(0.0, w1 * x) - y) ** 2


def numeric(f, args, i, eps=1e-6):
    up, down = list(args), list(args)
    up[i] += eps
    down[i] -= eps
    return (f(*up) - f(*down)) / (2 * eps)


def state(step, **changes):
    raw = {k: str(v) for k, v in changes.items()} | {"passo": str(step)}
    return LAB.compute(LAB.parse(raw))


def test_default_numbers():
    s = state(PHASES)
    assert (s["z"], s["h"], s["y_hat"], s["loss"]) == pytest.approx((1.2, 1.2, 0.6, 1.96))
    assert s["grad"]["w2"] == pytest.approx(-3.36)
    assert s["grad"]["w1"] == pytest.approx(-2.1)
    assert (s["new_w1"], s["new_w2"]) == pytest.approx((1.01, 0.836))
    assert s["loss_after"] < s["loss"]


@pytest.mark.parametrize("seed", range(25))
def test_gradients_match_finite_differences(seed):
    rng = random.Random(seed)
    x, w1, w2, y = (round(rng.uniform(-2, 2), 1) for _ in range(4))
    if abs(w1 * x) < 0.05:  # the ReLU's elbow has no derivative
        w1 += 0.5
    r = LAB.module.forward_backward(x, w1, w2, y)
    args = (x, w1, w2, y)
    assert r["grad"]["w1"] == pytest.approx(numeric(loss, args, 1), rel=1e-6, abs=1e-8)
    assert r["grad"]["w2"] == pytest.approx(numeric(loss, args, 2), rel=1e-6, abs=1e-8)
    # the chain rule, one product at a time, gives the same numbers
    local = r["local"]
    assert r["grad"]["w2"] == pytest.approx(local["dL_dyhat"] * local["dyhat_dw2"])
    assert r["grad"]["w1"] == pytest.approx(local["dL_dyhat"] * local["dyhat_dh"] * local["dh_dz"] * local["dz_dw1"])


def test_steps_reveal_one_thing_at_a_time():
    assert [state(k)["phase"] for k in range(PHASES + 2)] == [*range(PHASES + 1), 1]
    assert state(PHASES + 1)["round"] == 2


def test_update_uses_the_learning_rate_and_rounds_chain():
    s1, s2 = state(PHASES, eta=0.05), state(2 * PHASES, eta=0.05)
    assert s1["new_w1"] == pytest.approx(s1["w1"] - 0.05 * s1["grad"]["w1"])
    assert (s2["w1"], s2["w2"]) == pytest.approx((s1["new_w1"], s1["new_w2"]))
    assert s2["losses"] == pytest.approx([s1["loss"]])


def test_training_drives_the_loss_down():
    last = state(LAB.module.ROUNDS * PHASES)
    assert last["losses"][0] == pytest.approx(1.96)
    assert last["loss"] < 1e-3


def test_dead_relu_stops_the_gradient():
    s = state(PHASES, w1=-0.5)
    assert s["relu_on"] is False
    assert s["grad"]["w1"] == 0 and s["grad"]["w2"] == 0
    assert "si ferma qui" in str(LAB.view(s))


# ---------------------------------------------------------------- the step machine and the timeline


def as_json(value):
    return json.loads(json.dumps(value, sort_keys=True))


def test_every_step_gives_the_state_it_gave_before_the_step_machine():
    cases = json.loads(BEFORE.read_text())["cases"]
    assert len(cases) >= 40 and any(not c["state"]["relu_on"] for c in cases)
    for case in cases:
        now = as_json(LAB.compute(case["params"]))
        assert {k: now[k] for k in case["state"]} == case["state"], case["params"]
        assert set(now) - set(case["state"]) == {"curve"}


def random_params(rng):
    raw = {
        k: str(round(rng.uniform(lo, hi), 2))
        for k, lo, hi in (("x", -2, 2), ("y", -3, 3), ("w1", -2, 2), ("w2", -2, 2), ("eta", 0.01, 0.5))
    }
    return LAB.parse(raw)


@pytest.mark.parametrize("seed", range(8))
def test_the_cached_steps_equal_the_replay_from_step_0(seed):
    rng = random.Random(seed)
    p = random_params(rng)
    for at in walk(rng, LAB.steps, lambda k: M.compute(p | {"passo": k}), 40):
        p["passo"] = at
        assert json.dumps(M.compute(p), sort_keys=True) == json.dumps(M.compute.replay(p), sort_keys=True), at


def test_the_timeline_phases_are_the_lab_phases():
    steps = LAB.steps
    assert len(steps.phases) == PHASES + 1 and steps.max == M.ROUNDS * PHASES
    for k in range(steps.max + 1):
        s = state(k)
        assert phase_of(steps, k) == s["phase"]
        assert counter(steps, k) == f"Passo {k} di {steps.max} · {M.PHASE_NAMES[s['phase']]}"
    result = labs.render(LAB.id, {"passo": str(2 * PHASES + 5)})
    assert "Passo 31 di 260 · Locale: ∂L/∂ŷ" in result["timeline"]
    assert re.search(r'class="lab-chip is-current"[^>]*>Locale: ∂L/∂ŷ<', result["timeline"])
    assert "Giro 3 di 20 · Derivata locale della loss" in result["html"]
    assert "passo" not in re.sub(r"<[^>]+>", " ", result["html"]).lower()  # the timeline counts the steps


def test_the_curve_shows_each_loss_once_the_page_has_shown_it():
    steps = LAB.steps
    curves = [state(k)["curve"] for k in range(steps.max + 1)]
    assert curves[0] == curves[3] == [] and curves[4] == [pytest.approx(1.96)]  # the first loss, at its forward
    assert len(curves[-1]) == steps.curve.points == M.ROUNDS + 1
    for k, (a, b) in enumerate(zip(curves, curves[1:])):
        assert b[: len(a)] == a and len(b) - len(a) in (0, 1), k  # it only grows
    for r in range(1, M.ROUNDS):
        s = state(r * PHASES)  # an update: the loss after it joins the curve
        assert s["curve"][-1] == s["loss_after"] == state(r * PHASES + 1)["loss"]


def graph_texts(html):
    svg = re.search(r'<svg[^>]*class="lab-svg[^"]*"[^>]*>(.*?)</svg>', html, re.S).group(1)  # not the size strut
    return [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg)]  # a w₁'s ₁ is a tspan


def test_the_graph_draws_the_weights_the_input_and_the_target_as_nodes():
    html = str(LAB.view(state(PHASES)))
    nodes = re.findall(r'data-node="([^"]+)"', html)
    assert {"x", "w₁", "w₂", "y", "z", "h", "ŷ", "L"} <= set(nodes)
    texts = graph_texts(html)
    for name, value in (("w₁", "−2,100"), ("w₂", "−3,360"), ("z", "−1,400"), ("h", "−1,400"), ("ŷ", "−2,800")):
        assert f"∂L/∂{name} = {value}" in texts
    assert "∂L/∂L = 1" in texts and not any(t.startswith("∂L = ") for t in texts)
    assert {"1,5", "2,0", "0,800", "0,500"} <= set(texts)  # x, y, w₁, w₂ inside their boxes


def test_gradients_appear_in_the_graph_only_once_the_backward_reaches_them():
    first = {"ŷ": 5, "w₂": 9, "h": 10, "z": 11, "w₁": 12}
    for ph in range(PHASES + 1):
        texts = graph_texts(str(LAB.view(state(ph))))
        shown = {name for name in first if any(t.startswith(f"∂L/∂{name} = ") for t in texts)}
        assert shown == {name for name, at in first.items() if ph >= at}, ph


NUMBER = re.compile(r"(?<![\w₀-₉])−?\d+(?:\.\d{3})*(?:,(\d+))?")


def test_every_equation_writes_its_numbers_with_one_number_of_decimals():
    rng = random.Random(3)
    cases = [LAB.parse({"passo": "130"})] + [random_params(rng) | {"passo": rng.randint(0, 260)} for _ in range(30)]
    for p in cases:
        for k in range(p["passo"] - p["passo"] % PHASES, min(p["passo"] - p["passo"] % PHASES + PHASES, 260) + 1):
            title, line = M.explain(M.compute(p | {"passo": k}))
            for equation in line.split(";"):
                places = {len(d) for d in NUMBER.findall(equation) if d}
                assert len(places) <= 1, (k, equation)
    _, line = M.explain(state(130))
    assert "w₁ ← 1,2226 − 0,1000 × 0,0000 = 1,2226" in line  # was «1,22 − 0,10 × 0,0000 = 1,2226»


def test_the_loss_history_stays_in_a_details_block():
    html = str(LAB.view(state(3 * PHASES + 2)))
    assert "<details>" in html and "La loss nei giri completati" in html
    assert html.count("<tr><td>Giro ") == 3
