"""The author's guide is built from the kit: its example meets the contract, every name the kit
exports is documented with a signature, a summary and a drawing."""

import importlib
import importlib.util
from pathlib import Path

import pytest
from test_contract import BalanceChecker, assert_renders, extremes

import labs
from labs.kit import Html

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "templates" / "guide"

# A valid lab; the tests break one thing at a time. Line numbers below count from 1.

# --- the author's guide ----------------------------------------------------------------------------------------------


def load_guide():
    spec = importlib.util.spec_from_file_location("guide.guida", GUIDE / "guida.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guide_example_meets_the_contract_and_renders():
    guide = load_guide()
    lab = guide.example_lab()
    assert lab.ref == "1.9" and len(lab.prose) > 200
    result = guide.example_result(lab)
    assert result["params"] == lab.defaults() and isinstance(lab.view(lab.compute(lab.defaults())), Html)
    for control in lab.params_list:
        for value in extremes(control):
            assert_renders(lab, {**lab.defaults(), control.name: value})
    # the numbers it shows: −log 0.6 with the defaults, −log 0.2 when «cane» is the right word
    assert result["state"]["loss"] == pytest.approx(0.5108256237659907, abs=1e-12)
    assert lab.compute({**lab.defaults(), "giusta": "cane"})["loss"] == pytest.approx(1.6094379124341003, abs=1e-12)
    assert 'data-set="giusta=cane"' in result["html"]


def test_the_guide_documents_every_name_the_kit_exports():
    guide = load_guide()
    catalogue = guide.load("componenti")
    names = guide.documented(catalogue)
    assert len(names) == len(set(names)), "un nome compare due volte in templates/guide/componenti.py"
    missing = sorted(set(labs.kit.__all__) - set(names))
    assert not missing, f"aggiungi {', '.join(missing)} a templates/guide/componenti.py (con un esempio)"
    assert not set(names) - set(labs.kit.__all__), "componenti.py nomina qualcosa che il kit non esporta"


def test_every_kit_component_in_the_guide_has_a_signature_a_summary_and_a_drawing():
    context = load_guide().context()
    for item in [
        *context["figures"],
        *context["texts"],
        *context["controls"],
        *context["stepped"],
        *context["errors"],
        *(p for f in context["figures"] for p in f["parts"]),
    ]:
        assert item["signature"].startswith(item["name"] + "(")
        assert item["summary"] and not item["summary"].startswith(item["name"] + "("), (
            f"{item['name']}: manca la docstring (la guida ne mostra il primo paragrafo)"
        )
    for figure in context["figures"]:
        checker = BalanceChecker()
        checker.feed(figure["html"])
        checker.close()
        assert not checker.stack and figure["html"].startswith("<"), figure["name"]
    # keyword-only options show in the signatures the page prints
    signatures = {p["name"]: p["signature"] for f in context["figures"] for p in f["parts"]}
    assert signatures["Bar"].startswith("Bar(label, value, *, text=None")
    assert signatures["Marker"].startswith("Marker(at, label='', *, class_=")
    assert context["sample_error"] == "il cursore «x»: il valore iniziale 10 è fuori dall'intervallo da -6 a 6"


@pytest.mark.parametrize(
    "cls, args",
    [
        ("Marker", (1.0, "etichetta", "s2")),
        ("Bar", ("a", 0.5, "50 %")),
        ("Handle", (0.0, 0.0, "x", "y", "trascina")),
        ("Point", ((0, 0), "p", "b")),
        ("Arrow", ((1, 1), (0, 0))),
        ("Node", ("n", 0.5, "0,5")),
        ("Label", ((0, 0), "t", "d")),
    ],
)
def test_figure_options_are_keyword_only(cls, args):
    with pytest.raises(TypeError):
        getattr(labs.kit, cls)(*args)
