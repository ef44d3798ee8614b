"""9B.5 Matrice × vettore: the seed's product both ways, and the presets."""

import math
import re

import numpy as np
import pytest

import labs

LAB = labs.get("matrice-vettore")


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_default_reproduces_the_seed():
    s = state()
    assert s["A"] == [[2, 1], [0, 1]] and s["x"] == [1, 1]
    assert s["Ax"] == [3, 1] and s["by_columns"] == [3, 1]
    assert s["columns"] == [[2, 0], [1, 1]]
    html = str(LAB.view(s))
    assert "riga 1: 2·1 + 1·1 = 3" in html and "riga 2: 0·1 + 1·1 = 1" in html
    assert "1·[2 ; 0] + 1·[1 ; 1] = [3 ; 1]" in html


def presets():
    html = str(LAB.view(state()))
    found = re.findall(r'data-set="([^"]+)" aria-label="Casi tipici: ([^"]+)"', html)
    return {label: {k: float(v) for k, v in (pair.split("=") for pair in spec.split(";"))} for spec, label in found}


def matrix_of(values):
    s = LAB.compute(LAB.parse({k: str(v) for k, v in values.items()}))
    return np.array(s["A"]), s


def test_presets_set_the_right_matrices():
    found = presets()
    assert set(found) >= {
        "Identità",
        "Rotazione di 90°",
        "Rotazione di 36,87°",
        "Scala 2 e 0,5",
        "Taglio k = 1",
        "Proiezione",
        "Specchio",
        "La matrice della guida",
    }
    expected = {
        "Identità": np.eye(2),
        "Rotazione di 90°": [[0, -1], [1, 0]],
        "Taglio k = 1": [[1, 1], [0, 1]],
        "Proiezione": [[1, 0], [0, 0]],
        "Scala 2 e 0,5": [[2, 0], [0, 0.5]],
        "La matrice della guida": [[2, 1], [0, 1]],
        "Specchio": [[-1, 0], [0, 1]],
    }
    for label, m in expected.items():
        np.testing.assert_allclose(matrix_of(found[label])[0], m, atol=1e-12)
    rotation, s = matrix_of(found["Rotazione di 36,87°"])
    np.testing.assert_allclose(rotation.T @ rotation, np.eye(2), atol=1e-12)  # a true rotation
    assert np.linalg.det(rotation) == pytest.approx(1)
    assert "36,87°" in s["what"]


@pytest.mark.parametrize(
    "label, words",
    [
        ("Proiezione", "non si torna indietro"),
        ("Specchio", "specchio"),
        ("Taglio k = 1", "taglio"),
        ("Scala 2 e 0,5", "scala"),
        ("Rotazione di 90°", "ruota il piano di 90°"),
    ],
)
def test_each_preset_is_described(label, words):
    assert words in matrix_of(presets()[label])[1]["what"]


@pytest.mark.parametrize("seed", range(10))
def test_product_against_numpy(seed):
    rng = np.random.default_rng(seed)
    a = np.round(rng.uniform(-3, 3, (2, 2)), 1)
    x = rng.choice(np.arange(-3, 3.5, 0.5), 2)
    s = state(a11=a[0, 0], a12=a[0, 1], a21=a[1, 0], a22=a[1, 1], x1=x[0], x2=x[1])
    np.testing.assert_allclose(s["Ax"], a @ x, atol=1e-12)
    np.testing.assert_allclose(s["by_columns"], a @ x, atol=1e-12)
    assert s["det"] == pytest.approx(np.linalg.det(a))
    assert math.isfinite(s["det"])


def test_columns_and_x_are_draggable():
    html = str(LAB.view(state()))
    for names in ("a11 a21", "a12 a22", "x1 x2"):
        assert f'data-drag="{names}"' in html
