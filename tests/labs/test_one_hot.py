"""9B.6 One-hot × matrice: the product picks exactly one row."""

import re

import numpy as np
import pytest

import labs

LAB = labs.get("one-hot")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_picks_the_row_of_gatto():
    s = state()
    assert s["pos"] == 1 and s["tokens"][1] == "gatto"
    assert s["one_hot"] == [0, 1, 0, 0, 0]
    assert s["product"] == s["E"][1] == [0.8, 0.5, -0.2, 0.4]
    assert (s["multiplications"], s["useful"]) == (20, 4)


@pytest.mark.parametrize("pos", range(5))
def test_one_hot_times_matrix_is_exactly_the_row(pos):
    s = state(pos=pos)
    hot, E = np.array(s["one_hot"], float), np.array(s["E"])
    np.testing.assert_array_equal(hot, np.eye(5)[pos])
    np.testing.assert_array_equal(hot @ E, E[pos])
    np.testing.assert_array_equal(s["product"], E[pos])
    np.testing.assert_array_equal(np.array(s["weighted"]), hot[:, None] * E)
    assert s["same"] is True


def test_clicking_a_cell_sets_the_same_position_as_the_slider():
    html = str(LAB.view(state()))
    one_hot = html.split('data-part="one-hot"')[1].split("</figure>")[0]
    assert re.findall(r'data-set="([^"]+)"', one_hot) == [f"pos={k}" for k in range(5)]
    table = html.split('data-part="E"')[1].split("</figure>")[0]
    assert set(re.findall(r'data-set="([^"]+)"', table)) == {f"pos={k}" for k in range(5)}
    for k in range(5):
        assert LAB.parse({"pos": str(k)})["pos"] == k
        assert f'data-pos="{k}"' in str(LAB.view(state(pos=k)))


def test_view_states_the_lookup():
    html = str(LAB.view(state(pos=3)))
    assert "«dorme»" in html and "−0,4; 0,2; 0,9; −0,5" in html
