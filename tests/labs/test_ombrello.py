"""1.2 Il neurone dell'ombrello: the seed's structure, checked with numpy."""

import re

import numpy as np
import pytest

import labs

LAB = labs.get("ombrello")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_day_takes_the_umbrella_both_ways():
    s = state()
    assert s["single"]["total"] == pytest.approx(0.7 * 0.4 + 0.6 * 0.8 + 0.3 * -0.6)
    assert s["single"]["umbrella"] is True
    assert s["network"]["hidden"] == pytest.approx([0.9, 0.33])
    assert s["network"]["output"] == pytest.approx(0.636)
    assert s["network"]["umbrella"] is True


def test_strong_wind_changes_the_decision():
    s = state(vento=1)
    assert s["single"]["umbrella"] is False
    assert s["network"]["umbrella"] is False


def test_weights_follow_the_seed():
    s = state()
    w_nuvole, w_pioggia, w_vento = s["single"]["weights"]
    assert w_pioggia > w_nuvole > 0 > w_vento  # forecast heavy, clouds lighter, wind negative
    weights = np.array(s["network"]["w_hidden"]).size + np.array(s["network"]["w_out"]).size
    assert weights == 8  # 6 into the hidden layer, 2 to the output


@pytest.mark.parametrize("seed", range(10))
def test_network_is_clamped_matrix_products(seed):
    rng = np.random.default_rng(seed)
    names = [c.name for c in LAB.params_list]
    raw = {
        n: str(round(float(rng.uniform(0, 1) if n in ("nuvole", "pioggia", "vento") else rng.uniform(-2, 2)), 1))
        for n in names
    }
    s = LAB.compute(LAB.parse(raw))
    x = np.array(s["inputs"])
    hidden = np.clip(np.array(s["network"]["w_hidden"]) @ x, 0, 1)
    out = np.clip(np.array(s["network"]["w_out"]) @ hidden, 0, 1)
    np.testing.assert_allclose(s["network"]["hidden"], hidden, atol=1e-12)
    assert s["network"]["output"] == pytest.approx(out[0], abs=1e-12)
    assert s["network"]["umbrella"] == (out[0] >= 0.5)


def test_view_shows_decision_and_activations():
    html = str(LAB.view(state(vento=1)))
    assert 'data-decision="no"' in html
    assert "0,96" in html  # «è scomodo» lit by the wind


def test_the_wind_slider_is_drawn_inside_the_group_of_todays_inputs():
    from sitebuild.pages import lab_page, templates

    env = templates()
    env.filters["tex"] = lambda prose: prose  # the formulas and the lockfile are not what this test reads
    env.globals["lockfile"] = "pyodide-lock.json"
    page = lab_page(env, LAB, 0)
    group = re.search(r'<details class="lab-group"[^>]*><summary>Ingressi di oggi.*?</details>', page, re.S)
    assert group, "manca il gruppo «Ingressi di oggi»"
    assert [n for n in ("nuvole", "pioggia", "vento") if f'data-param="{n}"' in group.group(0)] == [
        "nuvole",
        "pioggia",
        "vento",
    ]
    assert page.count('data-param="vento"') == 1
