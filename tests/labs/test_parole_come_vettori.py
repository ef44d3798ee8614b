"""1.1 Parole come vettori: re − uomo + donna lands on regina."""

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import labs

LAB = labs.get("parole-come-vettori")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_reproduces_the_seed():
    s = state()
    assert s["words"] == ["re", "uomo", "donna"]
    assert s["places"]["uomo"] == [0.1, 0.1] and s["places"]["donna"] == [0.1, 0.9]
    assert s["places"]["re"] == [0.9, 0.1] and s["places"]["regina"] == [0.9, 0.9]
    assert s["step"] == pytest.approx([0, 0.8])  # donna − uomo
    assert s["result"] == [0.9, 0.9]  # exactly regina
    assert s["nearest"][0] == {"word": "regina", "distance": 0.0}
    html = str(LAB.view(s))
    assert "regale" in html and "femminile" in html
    assert "donna − uomo = [0,1 ; 0,9] − [0,1 ; 0,1] = [0 ; 0,8]" in html
    assert "re + (donna − uomo) = [0,9 ; 0,1] + [0 ; 0,8] = [0,9 ; 0,9]" in html


@pytest.mark.parametrize(
    "a, b, c, nearest",
    [
        ("principe", "uomo", "donna", "principessa"),
        ("regina", "donna", "uomo", "re"),
        ("re", "uomo", "persona", "monarca"),
    ],
)
def test_other_triples_name_the_nearest_word(a, b, c, nearest):
    s = state(a=a, b=b, c=c)
    assert s["nearest"][0]["word"] == nearest
    assert s["nearest"][0]["distance"] == pytest.approx(0, abs=1e-9)


def test_moved_words_land_near_but_not_on_regina():
    s = state(c_dx=0.05, c_dy=-0.1, a_dy=0.05)
    assert s["moved"]
    assert s["places"]["donna"] == pytest.approx([0.15, 0.8])
    assert s["nearest"][0]["word"] == "regina"
    vocab = {w: np.array(v) for w, v in s["places"].items()}
    result = vocab["re"] - vocab["uomo"] + vocab["donna"]
    np.testing.assert_allclose(s["result"], result, atol=1e-9)
    distances = {w: np.linalg.norm(result - v) for w, v in vocab.items()}
    assert s["nearest"][0]["distance"] == pytest.approx(min(distances.values()))
    assert 0 < s["nearest"][0]["distance"] < 0.2


def test_a_result_outside_the_drawing_is_said():
    s = state(a="uomo", b="re", c="donna")  # [−0,7 ; 0,9]
    assert not s["in_view"]
    assert "fuori dal disegno" in str(LAB.view(s))


# ---------------------------------------------------------------- the inputs are not answers


def test_an_input_on_the_result_is_named_apart_not_given_as_the_answer():
    s = state(a="re", b="re", c="donna")  # re − re + donna = donna, one of the inputs
    assert s["result"] == [0.1, 0.9]
    assert s["nearest"][0]["word"] == "persona" and s["nearest"][0]["distance"] == pytest.approx(0.4)
    assert s["closer_input"] == [{"word": "donna", "distance": 0.0}]
    html = str(LAB.view(s))
    assert "Più vicina ancora è «donna»" in html and "escluse le tre del conto" in html


def test_regina_is_not_its_own_nearest_word():
    s = state(a="regina")  # regina − uomo + donna = [0,9 ; 1,7]
    inputs = set(s["words"])
    assert all(n["word"] not in inputs for n in s["nearest"])
    assert s["nearest"][0]["word"] != "regina" and s["closer_input"][0]["word"] == "regina"


@pytest.mark.parametrize("a", list(LAB.module.WORDS))
@pytest.mark.parametrize("b", ["uomo", "regina", "persona"])
@pytest.mark.parametrize("c", ["donna", "re", "uomo"])
def test_the_answer_is_the_nearest_word_outside_the_sum(a, b, c):
    s = state(a=a, b=b, c=c)
    result = np.array(s["result"])
    others = {w: np.linalg.norm(result - np.array(v)) for w, v in s["places"].items() if w not in {a, b, c}}
    assert s["nearest"][0]["distance"] == pytest.approx(min(others.values()))
    assert s["nearest"][0]["word"] in {w for w, d in others.items() if d <= min(others.values()) + 1e-9}
    closer = [w for w in {a, b, c} if np.linalg.norm(result - np.array(s["places"][w])) < min(others.values()) - 1e-9]
    assert sorted(x["word"] for x in s["closer_input"]) == sorted(closer)


# ---------------------------------------------------------------- dragging the three words


SVG = "{http://www.w3.org/2000/svg}"


def drag(params, slot, to):
    """What the runtime does: the pointer over data point `to` on the handle's own plane sets its two sliders."""
    page = ET.fromstring(str(LAB.view(LAB.compute(LAB.parse(params)))))
    root = next(e for e in page.iter(f"{SVG}svg") if "lab-plane" in e.get("class", ""))
    xmin, xmax, ymin, ymax = (float(v) for v in root.get("data-plane").split())
    _, _, w, h = (float(v) for v in root.get("viewBox").split())
    px, py = (to[0] - xmin) / (xmax - xmin) * w, (ymax - to[1]) / (ymax - ymin) * h
    (own,) = [
        e
        for e in root.iter(f"{SVG}svg")
        if e is not root
        and e.get("data-plane")
        and any(c.get("data-drag") == f"{slot}_dx {slot}_dy" for c in e.iter(f"{SVG}circle"))
    ]
    a, b, c, d = (float(v) for v in own.get("data-plane").split())
    _, _, w2, h2 = (float(v) for v in own.get("viewBox").split())
    return {**params, f"{slot}_dx": f"{a + px / w2 * (b - a):.4f}", f"{slot}_dy": f"{d - py / h2 * (d - c):.4f}"}


def test_each_chosen_word_has_a_handle_that_moves_it_where_it_is_dropped():
    html = str(LAB.view(state()))
    assert sorted(re.findall(r'data-drag="([^"]+)"', html)) == ["a_dx a_dy", "b_dx b_dy", "c_dx c_dy"]
    params = drag({}, "a", (0.8, 0.25))  # re, from [0,9 ; 0,1]
    s = LAB.compute(LAB.parse(params))
    assert s["places"]["re"] == pytest.approx([0.8, 0.25], abs=1e-9)
    params = drag(params, "a", (0.7, 0.3))  # dragged again: from where it is now, not from the start
    assert LAB.compute(LAB.parse(params))["places"]["re"] == pytest.approx([0.7, 0.3], abs=1e-9)
    far = LAB.compute(LAB.parse(drag({}, "c", (1.2, 1.2))))  # beyond the sliders' ±0,4: it stops there
    assert far["places"]["donna"] == pytest.approx([0.5, 1.2], abs=1e-9)  # x: 0,1 + 0,4 at most


def test_moving_a_or_c_drags_the_result_along_b_the_other_way():
    """«spostare A o C lo trascina nello stesso verso, spostare B in quello opposto»."""
    base = np.array(state()["result"])
    for slot, sign in (("a", 1), ("b", -1), ("c", 1)):
        moved = np.array(state(**{f"{slot}_dx": 0.1, f"{slot}_dy": -0.2})["result"])
        np.testing.assert_allclose(moved - base, sign * np.array([0.1, -0.2]), atol=1e-9)
