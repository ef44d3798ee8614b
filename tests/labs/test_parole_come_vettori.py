"""1.1 Parole come vettori: re − uomo + donna lands on regina."""

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


@pytest.mark.parametrize("a, b, c, nearest", [("principe", "uomo", "donna", "principessa"),
                                              ("regina", "donna", "uomo", "re"),
                                              ("re", "uomo", "persona", "monarca"),
                                              ("re", "re", "donna", "donna")])
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
