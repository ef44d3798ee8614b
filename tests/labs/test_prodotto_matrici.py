"""9B.8 Prodotto tra matrici: cells, the inner-dimension rule, B·A."""

import re

import numpy as np
import pytest

import labs

LAB = labs.get("prodotto-matrici")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_is_2x3_times_3x2():
    s = state()
    A, B = np.array(s["A"]), np.array(s["B"])
    assert A.shape == (2, 3) and B.shape == (3, 2)
    np.testing.assert_array_equal(np.array(s["C"]), A @ B)
    assert np.array(s["C"]).shape == (2, 2)
    assert (s["i"], s["j"]) == (1, 2)
    np.testing.assert_array_equal(s["row"], A[0])
    np.testing.assert_array_equal(s["col"], B[:, 1])
    assert s["cell"] == A[0] @ B[:, 1] == sum(s["products"])
    assert s["multiplications"] == 12
    np.testing.assert_array_equal(np.array(s["BA"]), B @ A)  # [3 × 2]·[2 × 3] = [3 × 3]
    assert np.array(s["BA"]).shape == (3, 3)


@pytest.mark.parametrize("seed", range(0, 21, 4))
@pytest.mark.parametrize("m, n, p", [(1, 1, 1), (5, 5, 5), (4, 2, 3), (1, 5, 2)])
def test_every_cell_is_a_row_times_a_column(seed, m, n, p):
    for i in range(1, m + 1):
        for j in range(1, p + 1):
            s = state(m=m, n=n, n2=n, p=p, seed=seed, i=i, j=j)
            A, B = np.array(s["A"]), np.array(s["B"])
            np.testing.assert_array_equal(np.array(s["C"]), A @ B)
            assert s["cell"] == A[i - 1] @ B[:, j - 1]


def test_mismatched_inner_dimensions_are_explained_not_computed():
    s = state(n2=2)
    assert s["ok"] is False and s["C"] is None
    html = str(LAB.view(s)).replace("\u00a0", " ")
    assert "[2 × 3]·[2 × 2]: le dimensioni interne 3 e 2 non coincidono" in html
    assert 'data-ok="no"' in html


def test_clicking_a_result_cell_equals_the_sliders():
    html = str(LAB.view(state(m=3, p=4)))
    result = html.split('data-part="C"')[1].split("</figure>")[0]
    assert re.findall(r'data-set="([^"]+)"', result) == [f"i={i};j={j}" for i in range(1, 4) for j in range(1, 5)]
    assert 'data-cell="3,4"' in str(LAB.view(state(m=3, p=4, i=3, j=4)))


def test_cell_out_of_range_is_clamped_and_said():
    s = state(m=1, p=1, i=5, j=5)
    assert (s["i"], s["j"]) == (1, 1)
    html = str(LAB.view(s))
    assert "i = 5 è fuori dal risultato" in html and "uso j = 1" in html


def test_b_times_a_needs_p_equal_m():
    s = state(m=2, p=3)
    assert s["BA"] is None
    assert "non si può nemmeno calcolare" in str(LAB.view(s))


def test_growing_a_matrix_keeps_its_numbers():
    np.testing.assert_array_equal(np.array(state(m=5, n=5, n2=5)["A"])[:2, :3], np.array(state()["A"]))


def test_the_cell_to_compute_stays_inside_the_result():
    r = labs.render("prodotto-matrici", {"i": "5", "j": "5"})
    assert (r["params"]["i"], r["params"]["j"]) == (2, 2)  # A·B is 2 × 2 by default
    assert r["controls"]["i"]["max"] == 2 and r["controls"]["j"]["max"] == 2
    r = labs.render("prodotto-matrici", {"n2": "2"})
    assert "A·B non esiste" in r["controls"]["i"]["disabled"]


def test_one_number_agrees():
    lab = labs.get("prodotto-matrici")
    html = str(lab.view(lab.compute(lab.parse({"n": "1", "n2": "2"}))))
    assert "che ha 1 numero," in html
