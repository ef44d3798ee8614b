"""9B.7 Tensori: shape, count, indices from 0, slices, clamping."""

import re

import numpy as np
import pytest

import labs

LAB = labs.get("tensori")
PICKS = {
    "elemento": lambda X, b, l, k: X[b, l, k],
    "frase": lambda X, b, l, k: X[b],
    "token": lambda X, b, l, k: X[b, l],
    "posizione": lambda X, b, l, k: X[:, l],
    "numero": lambda X, b, l, k: X[:, :, k],
}


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_is_the_guides_2x3x4_tensor_and_x120():
    s = state()
    X = np.array(s["X"])
    assert X.shape == (2, 3, 4) and s["shape"] == [2, 3, 4]
    assert s["size"] == 24 == X.size
    assert s["expr"] == "X[1, 2, 0]" and s["result_shape"] == []
    assert s["result"] == X[1, 2, 0]
    assert s["cells"] == [[1, 2, 0]]
    assert s["tokens"][1][2] == "corre"  # the third token of the second sentence


@pytest.mark.parametrize("pick", PICKS)
@pytest.mark.parametrize("dims", [(2, 3, 4), (4, 5, 6), (1, 1, 1), (3, 2, 5)])
def test_every_slice_matches_numpy(pick, dims):
    B, L, d = dims
    b, l, k = B - 1, L - 1, d - 1
    s = state(B=B, L=L, d=d, pick=pick, b=b, l=l, k=k)
    X = np.array(s["X"])
    assert X.shape == dims and s["size"] == B * L * d
    want = PICKS[pick](X, b, l, k)
    np.testing.assert_array_equal(np.array(s["result"]), want)
    assert tuple(s["result_shape"]) == np.shape(want)
    positions = np.arange(X.size).reshape(dims)
    mask = np.isin(positions, PICKS[pick](positions, b, l, k))
    assert sorted(map(tuple, s["cells"])) == sorted(map(tuple, np.argwhere(mask)))


def test_numbers_stay_put_when_the_tensor_grows():
    small, big = np.array(state()["X"]), np.array(state(B=4, L=5, d=6)["X"])
    np.testing.assert_array_equal(big[:2, :3, :4], small)


def test_indices_out_of_range_are_clamped_and_explained():
    s = state(B=1, L=2, d=3, b=3, l=4, k=5)
    assert (s["b"], s["l"], s["k"]) == (0, 1, 2)
    assert s["expr"] == "X[0, 1, 2]"
    assert [c["name"] for c in s["clamped"]] == ["b", "l", "k"]
    html = str(LAB.view(s))
    assert "b = 3 non esiste" in html and "Uso l = 1" in html
    # an index the pick does not use is not worth a warning
    assert state(B=1, pick="numero", b=3, k=2)["clamped"] == []


def test_clicking_a_cell_sets_its_three_indices():
    s = state()
    html = str(LAB.view(s))
    targets = re.findall(r'data-set="b=(\d);l=(\d);k=(\d)"', html)
    assert len(targets) == 24
    X = np.array(s["X"])
    for b, l, k in [(0, 0, 0), (1, 2, 3)]:
        clicked = state(b=b, l=l, k=k)
        assert clicked["result"] == X[b, l, k]
        assert f'data-expr="X[{b}, {l}, {k}]"' in str(LAB.view(clicked))
    assert "2 · 3 · 4 = 24" in html


def test_indices_the_slice_does_not_use_say_so():
    lab = labs.get("tensori")
    follow = lambda **raw: lab.module.follow(lab.compute(lab.parse({k: str(v) for k, v in raw.items()})))  # noqa: E731
    assert follow() == {}
    assert set(follow(pick="frase")) == {"l", "k"} and set(follow(pick="numero")) == {"b", "l"}
    assert "X[b, l] non usa l'indice k" in follow(pick="token")["k"].disabled
    a = lab.compute(lab.parse({"pick": "frase", "l": "0", "k": "0"}))
    b = lab.compute(lab.parse({"pick": "frase", "l": "4", "k": "5"}))
    assert a["result"] == b["result"]  # they really do nothing


def test_one_number_one_axis():
    lab = labs.get("tensori")
    html = str(lab.view(lab.compute(lab.parse({"pick": "frase", "d": "1"}))))
    assert "ciascuno con 1 numero" in html
    assert "resta 1 asse" in str(lab.view(lab.compute(lab.parse({"pick": "token"}))))
    assert "non resta nessun asse" in str(lab.view(lab.compute(lab.parse({}))))
