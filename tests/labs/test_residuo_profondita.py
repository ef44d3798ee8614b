"""A.2 Residui e profondità: the chain rule against finite differences, and
the vanishing gradient without the residual at the default weights."""

import math
import random
import re
from html import unescape as html_unescape

import pytest

import labs
from core import deep_stack as M
from labs.kit.html import unwrapped_scripts


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


LAB = labs.get("residuo-profondita")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


@pytest.mark.parametrize("norm", ["nessuna", "pre", "post"])
@pytest.mark.parametrize("residual", [False, True])
@pytest.mark.parametrize("seed", [1, 7])
def test_chain_rule_matches_finite_differences(norm, residual, seed):
    x, weights = M.draw_stack(seed, 12, 1.0)
    y, tape = M.stack_forward(x, weights, residual, norm)
    grad, sizes = M.stack_backward(weights, tape, residual, norm)
    step = 1e-6
    for i in range(M.D):
        up, down = list(x), list(x)
        up[i] += step
        down[i] -= step
        numeric = (
            M.stack_forward(up, weights, residual, norm)[0] - M.stack_forward(down, weights, residual, norm)[0]
        ) / (2 * step)
        assert grad[i] == pytest.approx(numeric, rel=1e-5, abs=1e-8)
    assert sizes[0] == pytest.approx(math.hypot(*grad), rel=1e-12)
    assert sizes[-1] == pytest.approx(math.sqrt(M.D))  # ∂y/∂h_L is all ones


def test_default_without_residual_the_gradient_vanishes():
    s = state()
    assert (s["layers"], s["norm"], s["sigma"]) == (50, "nessuna", 0.5)
    assert s["plain"][0] < 1e-12  # about 2 × 10⁻¹⁵ at the input
    assert 1 < s["residual"][0] < 1e3
    assert s["orders"] > 10
    assert len(s["plain"]) == len(s["residual"]) == 51
    assert "con residuo è 1,6 × 10¹⁶ volte quello senza" in unwrapped_scripts(LAB.view(s))
    assert "i primi strati non ricevono quasi niente" in unwrapped_scripts(LAB.view(s))


@pytest.mark.parametrize("seed", range(1, 21))
def test_every_seed_shows_orders_of_magnitude_at_default_weights(seed):
    assert state(seme=seed)["orders"] > 10


def test_one_layer_makes_little_difference():
    s = state(strati=1)
    assert abs(s["orders"]) < 2


def test_pre_norm_with_residual_keeps_the_gradient_healthy():
    for seed in range(1, 11):
        pre = state(seme=seed, norma="pre", scala=1)["summary"]["pre"]
        assert 0.5 < pre[1] < 1e3


def test_every_number_shown_is_measured_never_a_clamp():
    s = state(scala=0.2)
    x, weights = M.draw_stack(1, 50, 0.2)
    assert s["plain"] == M.gradient_sizes(x, weights, False, "nessuna")
    assert s["plain"][0] < 1e-30  # about 2,8 × 10⁻³⁵: far below the old floor of 10⁻³⁰
    html = unwrapped_scripts(LAB.view(s))
    assert "1,0 × 10⁻³⁰" not in html and "2,8 × 10⁻³⁵" in html
    assert "10⁻³⁰ … 10³⁰" not in html and not s["zeros"]


def test_one_layer_agrees():
    assert "con 1 strato<" in unwrapped_scripts(LAB.view(state(strati=1)))
    assert "con 2 strati<" in unwrapped_scripts(LAB.view(state(strati=2)))


# ---------------------------------------------------------------- the verdict, for the selected norm


def verdict(**changes):
    html = unescape(unwrapped_scripts(LAB.view(state(**changes))))
    return re.search(r'lab-callout is-(\w+)"[^>]*>(All.ingresso[^<]*)<', html).groups()


def test_the_issues_cases_read_right():
    tone, text = verdict(norma="pre", seme=11, scala=2.9)
    assert "Prova pre-norm" not in text and "anche con pre-norm" in text and tone == "warn"
    tone, text = verdict(norma="post", seme=6, scala=2.6)
    assert "con il residuo e post-norm" in text and "Prova pre-norm" in text
    tone, text = verdict(norma="post", scala=3)  # residual 0,06 < plain 1,9: the residual does not help here
    assert "senza residuo è 31,6 volte quello con residuo" in text and "il residuo non aiuta" in text
    assert "tutti e due" not in text and tone == "warn"


@pytest.mark.parametrize("seed", range(80))
def test_every_verdict_says_what_the_numbers_do(seed):
    rng = random.Random(seed)
    changes = {
        "seme": rng.randint(1, 20),
        "scala": round(rng.uniform(0.2, 3.0), 1),
        "strati": rng.randint(1, 50),
        "norma": rng.choice(["nessuna", "pre", "post"]),
    }
    s = state(**changes)
    plain, res, norm = s["plain"][0], s["residual"][0], s["norm"]
    tone, text = verdict(**changes)
    healthy = lambda v: 0.01 <= v <= 1e3  # noqa: E731
    assert ("con residuo è" in text) == (res >= plain)
    assert ("senza residuo è" in text) == (res < plain)
    assert ("non ricevono quasi niente" in text) == (plain < 1e-6)
    assert ("senza residuo arriva un segnale molto debole" in text) == (1e-6 <= plain < 0.01)
    assert ("senza residuo il gradiente esplode" in text) == (plain > 1e3)
    both = healthy(plain) and healthy(res) and not (norm == "post" and res < plain)
    assert ("tutti e due arrivano" in text) == both
    if "Prova pre-norm" in text:
        assert norm != "pre" and not healthy(res)
    if "pre-norm" in text.replace("Prova pre-norm", ""):
        assert norm == "pre" and res > 1e3
    if "post-norm" in text:
        assert norm == "post"
    if "con il residuo arriva in buona salute" in text or "tutti e due" in text:
        assert healthy(res)
    assert (tone == "ok") == ("tutti e due" in text)


# ---------------------------------------------------------------- the prose's claims


def test_pre_norm_with_residual_never_vanishes_and_stays_under_about_2000():
    """«per ogni seme, ogni scala e ogni L resta sopra 1 … al massimo fino a circa 2.000»."""
    sizes = []
    for seed in range(1, 21):
        for k in range(2, 31):
            x, weights = M.draw_stack(seed, 50, k / 10)
            sizes.append(M.gradient_sizes(x, weights, True, "pre")[0])
            if k % 7 == 0:  # other depths too: the stack of L layers is the first L of these
                sizes += [M.gradient_sizes(x, weights[:layers], True, "pre")[0] for layers in (1, 5, 20, 38, 44)]
    assert min(sizes) > 1 and max(sizes) < 2100
    assert max(sizes) > 1900  # «circa 2.000», seed 11 at σ = 2,9


def test_without_norm_the_residual_reaches_tens_of_thousands_and_post_norm_goes_both_ways():
    x, weights = M.draw_stack(11, 50, 2.8)
    assert M.gradient_sizes(x, weights, True, "nessuna")[0] > 1e4
    x, weights = M.draw_stack(11, 50, 2.5)
    assert M.gradient_sizes(x, weights, True, "post")[0] > 1e4
    x, weights = M.draw_stack(9, 50, 1.7)
    assert M.gradient_sizes(x, weights, True, "post")[0] < 0.01


def test_growing_the_weights_then_choosing_pre_norm():
    """«la scala dei pesi fino a 3. Poi scegli … pre-norm»: without norm the residual grows, pre-norm tames it."""
    grown = state(scala=3)
    assert grown["residual"][0] > 1e3 and "Prova pre-norm" in verdict(scala=3)[1]
    tamed = state(scala=3, norma="pre")
    assert 1 < tamed["residual"][0] < 1e3 and tamed["residual"][0] < grown["residual"][0] / 100


def test_a_seed_draws_one_sequence_whatever_length_is_asked_first():
    from core.linalg import seeded_rng
    from core.stats import gaussian_sample

    M.DRAWN.clear()
    rng = random.Random(3)
    for n in [5, 3208, 7, 1, 200, 3209, 64] + [rng.randrange(1, 4000) for _ in range(20)]:
        seed = rng.choice([1, 2, 20])
        got = M.normals(seed, n)
        assert got == gaussian_sample(n, seeded_rng(seed))
        got[0] = 99.0  # the reader of a draw may change it: the kept sequence does not
    assert all(v != 99.0 for drawn in M.DRAWN.values() for v in drawn)


def test_states_remembered_are_the_states_computed_afresh():
    """The lab keeps the stacks and their six measurements: a walk over the controls, one at a time as a
    reader moves them, gives at every setting the state computed from empty caches."""
    from labs.chA import residuo_profondita as lab

    def fresh(params):
        lab.measured.cache_clear(), lab.stack.cache_clear(), M.DRAWN.clear()
        return LAB.compute(params)

    rng = random.Random(5)
    raw = {}
    remembered = []
    for _ in range(40):
        name, value = rng.choice(
            [
                ("strati", rng.randint(1, 50)),
                ("norma", rng.choice(["nessuna", "pre", "post"])),
                ("scala", rng.choice([0.2, 0.5, 1.7, 3.0])),
                ("seme", rng.randint(1, 20)),
            ]
        )
        raw[name] = str(value)
        params = LAB.parse(raw)
        remembered.append((params, LAB.compute(params)))
    assert lab.measured.cache_info().hits > 0
    for params, state_ in remembered:
        assert state_ == fresh(params)
