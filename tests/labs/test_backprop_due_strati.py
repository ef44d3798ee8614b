"""9G Backprop su due strati: the chain rule at every step, many steps, the
loss going down."""

import html as html_module
import math
import random
import re

import pytest

import labs
from core.autograd import Value
from core.tanh_chain import forward_backward
from labs.kit.html import unwrapped_scripts
from labs.kit.stepping import ENDED

LAB = labs.get("backprop-due-strati")
MOD = LAB.module


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_numbers_and_both_gradients_negative():
    s = state()
    assert (s["x"], s["y"], s["w1"], s["w2"]) == (1.0, 0.8, 0.5, 0.5)
    assert s["h"] == pytest.approx(math.tanh(0.5)) == pytest.approx(0.4621, abs=1e-4)
    assert s["y_hat"] == pytest.approx(0.2311, abs=1e-4)
    assert s["loss"] == pytest.approx(0.3237, abs=1e-4)
    assert s["grad_w2"] == pytest.approx(-0.5258, abs=1e-4)
    assert s["grad_w1"] == pytest.approx(-0.4474, abs=1e-4)
    assert s["grad_w1"] < 0 and s["grad_w2"] < 0  # raising both weights brings ŷ towards y


@pytest.mark.parametrize("step", [0, 1, 7, 50, 200])
def test_gradients_at_every_step_match_autograd_and_the_written_formulas(step):
    s = state(passo=step)
    W1, W2 = Value(s["w1"]), Value(s["w2"])
    L = (W2 * (W1 * s["x"]).tanh() - s["y"]) ** 2
    L.backward()
    assert (s["grad_w1"], s["grad_w2"]) == pytest.approx((W1.grad, W2.grad), abs=1e-12)
    h = s["h"]
    assert s["grad_w2"] == pytest.approx(2 * (s["y_hat"] - s["y"]) * h)
    assert s["grad_w1"] == pytest.approx(2 * (s["y_hat"] - s["y"]) * s["w2"] * (1 - h * h) * s["x"])
    eps = 1e-6
    f = lambda w1, w2: (w2 * math.tanh(w1 * s["x"]) - s["y"]) ** 2  # noqa: E731
    assert s["grad_w1"] == pytest.approx(
        (f(s["w1"] + eps, s["w2"]) - f(s["w1"] - eps, s["w2"])) / (2 * eps), rel=1e-6, abs=1e-9
    )


def test_many_steps_drive_the_loss_down():
    s = state(passo=200)
    losses = s["losses"]
    assert len(losses) == 201
    assert all(b < a for a, b in zip(losses, losses[1:]))
    assert losses[0] == pytest.approx(0.3237, abs=1e-4) and losses[-1] < 1e-6
    assert s["y_hat"] == pytest.approx(0.8, abs=1e-3)


def test_each_step_applies_the_update():
    a, b = state(passo=10, eta=0.1), state(passo=11, eta=0.1)
    assert b["w1"] == pytest.approx(a["w1"] - 0.1 * a["grad_w1"])
    assert b["w2"] == pytest.approx(a["w2"] - 0.1 * a["grad_w2"])
    assert (a["new_w1"], a["new_w2"]) == pytest.approx((b["w1"], b["w2"]))


def test_a_large_learning_rate_is_stopped_and_said():
    s = state(passo=200, eta=2)
    assert s["stopped"] and s["step"] < 200
    assert all(abs(w) <= 100 for w in s["w1s"] + s["w2s"])
    assert "scappano" in unwrapped_scripts(LAB.view(s))


def test_a_saturated_tanh_is_said():
    s = state(w1=3)
    assert s["dh_dz"] < 0.05
    assert "quasi piatta" in unwrapped_scripts(LAB.view(s))


def test_the_backward_reuses_the_forward_values():
    html = unwrapped_scripts(LAB.view(state()))
    assert "1 − h²" in html and "Che cosa il backward prende dal forward" in html


# The lab before it became a step machine, kept as the reference: it ran the
# whole descent on every frame. The step machine must give the same numbers
# at every step, only without the future.
def old_descend(x, y, w1, w2, eta, steps, limit):
    records = []
    for _ in range(steps):
        r = forward_backward(x, w1, w2, y)
        records.append({"w1": w1, "w2": w2, **r})
        new1, new2 = w1 - eta * r["grad_w1"], w2 - eta * r["grad_w2"]
        if not (abs(new1) <= limit and abs(new2) <= limit):
            return records, True
        w1, w2 = new1, new2
    records.append({"w1": w1, "w2": w2, **forward_backward(x, w1, w2, y)})
    return records, False


def old_compute(p):
    records, stopped = old_descend(p["x"], p["y"], p["w1"], p["w2"], p["eta"], MOD.STEPS, MOD.LIMIT)
    k = min(p["passo"], len(records) - 1)
    now = records[k]
    return {
        "step": k,
        "asked": p["passo"],
        "x": p["x"],
        "y": p["y"],
        "eta": p["eta"],
        **now,
        "new_w1": now["w1"] - p["eta"] * now["grad_w1"],
        "new_w2": now["w2"] - p["eta"] * now["grad_w2"],
        "stopped": stopped and k == len(records) - 1,  # then «runs_away»: it stops at this very step
        "losses": [r["loss"] for r in records][: k + 1],
        "w1s": [r["w1"] for r in records][: k + 1],
        "w2s": [r["w2"] for r in records][: k + 1],
        "loss_top": max(r["loss"] for r in records),
        "weight_span": [
            min(r[w] for r in records for w in ("w1", "w2")),
            max(r[w] for r in records for w in ("w1", "w2")),
        ],
    }


def random_params(rng):
    raw = {c.name: c.parse(rng.uniform(c.min, c.max)) for c in LAB.params_list if c.kind == "slider"}
    raw["passo"] = rng.choice([0, 1, MOD.STEPS, rng.randint(0, MOD.STEPS)])
    return LAB.parse(raw)


SPECIAL = [
    {"eta": 2, "passo": 200},
    {"eta": 2, "passo": 3},
    {"eta": 1.5, "passo": 120},
    {"w1": 3, "passo": 17},
    {"x": 0, "passo": 40},
    {"w1": 0, "w2": 0, "passo": 200},
    {"passo": 200},
]


def test_every_step_has_the_numbers_of_the_old_replay_without_the_future():
    rng = random.Random(9)
    cases = [random_params(rng) for _ in range(30)] + [LAB.parse({k: str(v) for k, v in c.items()}) for c in SPECIAL]
    stops = 0
    for p in cases:
        old = old_compute(p)
        stops += old["stopped"]
        new = LAB.compute(p)
        end = new.pop(ENDED, None)  # the kit's «stopped here», for the timeline
        assert new == old, f"{p}"
        assert end == ({"at": old["step"], "word": "fermo"} if old["stopped"] else None), f"{p}"
    assert stops >= 2  # the runaway is among the cases


def test_cached_steps_equal_the_replay_on_random_walks():
    rng = random.Random(7)
    for _ in range(4):
        p = random_params(rng)
        at = 0
        for _ in range(30):
            move = rng.random()
            at = (
                min(MOD.STEPS, at + 1)
                if move < 0.5
                else max(0, at - 1)
                if move < 0.65
                else min(MOD.STEPS, at + rng.choice((10, 100)))
                if move < 0.85
                else rng.randint(0, MOD.STEPS)
            )
            p["passo"] = at
            assert MOD.compute(p) == MOD.compute.replay(p), f"{p}"


def chart_lines(html):
    """The number of points of each line drawn in the view's charts."""
    return [len(re.findall(r"[ML]-?\d", d)) for d in re.findall(r'<path d="([^"]*)" class="lab-chart-line', html)]


@pytest.mark.parametrize("at", [0, 1, 50, MOD.STEPS])
def test_the_charts_show_only_the_past_on_fixed_axes(at):
    s = state(passo=at)
    assert len(s["losses"]) == len(s["w1s"]) == len(s["w2s"]) == at + 1
    html = unwrapped_scripts(LAB.view(s))
    assert chart_lines(html) == [at + 1] * 3  # the loss, w₁ and w₂, up to this step
    first = unwrapped_scripts(LAB.view(state(passo=0)))
    ticks = lambda h: re.findall(r'class="lab-chart-tick"[^>]*>([^<]*)<', h)  # noqa: E731
    assert ticks(html) == ticks(first)  # the axes do not move while the curves grow


def test_one_unit_for_the_steps_and_no_counter_of_its_own():
    assert LAB.steps.label == "Passo"
    for params in ({}, {"passo": 200, "eta": 2}, {"passo": 100}):
        html = unwrapped_scripts(LAB.view(state(**params)))
        assert "lab-step-counter" not in html
        assert "step" not in re.sub(r"<[^>]+>", " ", html).lower()
    assert "passo 6" in unwrapped_scripts(LAB.view(state(passo=200, eta=2)))  # where the runaway stopped


SUPER = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
NUMBER = re.compile(r"\(?(−?[\d.]+,(\d+))(?: × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+))?\)?")


def written(match):
    """The value of a number as the page writes it, and its decimals (None for a power of ten)."""
    mantissa, digits, power = match.groups()
    value = float(mantissa.replace("−", "-").replace(".", "").replace(",", "."))
    return (value * 10.0 ** int(power.translate(SUPER)), None) if power else (value, len(digits))


def equations(html):
    """Every equation of the view's formulas: a list of (value, decimals) of its numbers."""
    texts = [
        html_module.unescape(re.sub(r"<[^>]+>", "", f)) for f in re.findall(r'<p class="lab-formula">(.*?)</p>', html)
    ]
    return [
        [written(m) for m in NUMBER.finditer(re.split(" = | ← ", part, maxsplit=1)[1])]
        for t in texts
        for part in t.split(";")
    ]


@pytest.mark.parametrize(
    "params",
    [
        {"passo": 200},
        {"passo": 0},
        {"passo": 200, "eta": 2},
        {"passo": 200, "eta": 0.5},
        {"x": 0, "passo": 5},
        {"w1": 3, "passo": 60},
    ],
)
def test_each_equation_writes_its_numbers_with_one_number_of_decimals(params):
    """?passo=200 used to read «0,000 × 0,738 = −0,0001»: the written numbers must combine into the written result."""
    s = state(**params)
    found = equations(unwrapped_scripts(LAB.view(s)))
    assert len(found) == 8
    for numbers in found:
        assert len({d for _, d in numbers if d is not None}) <= 1, numbers
    z, _, y_hat, _, back2, back1, new1, new2 = found
    for *factors, result in (z, y_hat, back2, back1):
        values = [v for v, _ in factors]
        digits = max((d for _, d in factors + [result] if d is not None), default=6)
        product = math.prod(values)
        assert abs(product - result[0]) <= 10.0**-digits * (1 + sum(abs(v) for v in values)) * 2 + 1e-3 * abs(
            result[0]
        ), (factors, result)
    for (w, _), (eta, _), (g, _), (new, d) in (new1, new2):
        assert abs(w - eta * g - new) <= 2 * 10.0 ** -(d or 6) * (1 + abs(eta) + abs(g)) + 1e-3 * abs(new)


def test_at_the_end_of_the_default_run_the_gradient_is_written_in_full():
    html = html_module.unescape(unwrapped_scripts(LAB.view(state(passo=200))))
    assert "= −0,000124 × 0,738203 = −0,000092" in html
    assert "0,000 ×" not in html
