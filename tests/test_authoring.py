"""Writing a lab: every mistake an author can make is one Italian line that
names the file (and line). Broken labs are written into a throwaway package
(tests/lab_package.py)."""

import importlib
import importlib.util
import re
from pathlib import Path

import pytest
from lab_package import line_of, only_problem
from test_contract import assert_renders

import labs
from labs.kit.contract import ContractError, place

ROOT = Path(__file__).resolve().parent.parent

# A valid lab; the tests break one thing at a time. Line numbers below count from 1.

# --- the module's names ----------------------------------------------------------------------------------------------


def test_a_valid_lab_is_found_with_no_problem(package):
    package.lab("2", "buono")
    found, problems = package.discover()
    assert problems == {} and [lab.id for lab in found] == ["buono"]
    assert found[0].ref == "2.1" and found[0].chapter.number == "2"


def test_a_helper_without_underscore_is_reported_and_the_other_labs_still_work(package):
    package.lab("2", "buono")
    helper = package.write("2", "comune.py", "def doppio(x):\n    return 2 * x\n")
    found, line = only_problem(package)
    assert [lab.id for lab in found] == ["buono"]
    assert line.startswith(place(helper)) and "manca TITLE" in line and "«_»" in line


def test_a_helper_with_underscore_is_not_a_lab_and_labs_can_import_it(package):
    package.write("2", "_comune.py", "def doppio(x):\n    return 2 * x\n")
    package.lab(
        "2",
        "buono",
        change=lambda s: s.replace(
            "from labs.kit import", f"from {package.name}.ch2._comune import doppio\nfrom labs.kit import"
        ),
    )
    found, problems = package.discover()
    assert problems == {} and [lab.id for lab in found] == ["buono"]


@pytest.mark.parametrize("name", ["TITLE", "REF", "CONTROLS", "compute", "view"])
def test_a_missing_name_is_named_with_the_file(package, name):
    pattern = {
        "TITLE": r'TITLE = "Prova"\n',
        "REF": r'REF = "2.1"\n',
        "CONTROLS": r"CONTROLS = \[.*?\n\]\n",
        "compute": r"def compute\(params\):\n.*?\n\n",
        "view": r"def view\(state\):\n.*",
    }[name]
    path = package.lab("2", "senza", change=lambda s: re.sub(pattern, "", s, flags=re.S))
    found, line = only_problem(package)
    assert found == () and line.startswith(place(path)) and f"manca {name}" in line


def test_a_mistyped_name_gets_a_hint(package):
    path = package.lab("2", "refuso", change=lambda s: s.replace("TITLE =", "Title ="))
    _, line = only_problem(package)
    assert line.startswith(place(path)) and "«Title»" in line and "TITLE" in line


def test_a_title_of_the_wrong_type_names_its_line(package):
    path = package.lab("2", "titolo", change=lambda s: s.replace('TITLE = "Prova"', "TITLE = 42"))
    _, line = only_problem(package)
    assert line.startswith(f"{place(path)}, riga {line_of(path, 'TITLE = 42')}:") and "stringa" in line


def test_controls_that_are_not_kit_controls(package):
    path = package.lab(
        "2", "comandi", change=lambda s: s.replace('Toggle("doppio", "Raddoppia", True),', '{"name": "doppio"},')
    )
    _, line = only_problem(package)
    assert line.startswith(f"{place(path)}, riga {line_of(path, 'CONTROLS = [')}:")
    assert "non è un comando del kit" in line


def test_compute_that_takes_no_argument(package):
    path = package.lab(
        "2",
        "argomenti",
        change=lambda s: s.replace("def compute(params):", "def compute():").replace(
            'params["x"] * (2 if params["doppio"] else 1)', "0"
        ),
    )
    _, line = only_problem(package)
    assert line.startswith(f"{place(path)}, riga {line_of(path, 'def compute')}:") and "compute(params)" in line


def test_a_syntax_error_names_file_and_line(package):
    path = package.lab("2", "sintassi", change=lambda s: s.replace("def view(state):", "def view(state)"))
    _, line = only_problem(package)
    assert line.startswith(f"{place(path)}, riga {line_of(path, 'def view(state)')}:") and "sintassi" in line


def test_an_exception_at_import_names_file_and_line(package):
    path = package.lab("2", "importa", change=lambda s: s.replace("CONTROLS = [", "SCALE = 1 / 0\n\nCONTROLS = ["))
    _, line = only_problem(package)
    assert line.startswith(f"{place(path)}, riga {line_of(path, 'SCALE = 1 / 0')}:") and "ZeroDivisionError" in line


# --- REF -------------------------------------------------------------------------------------------------------------


def test_two_labs_with_the_same_ref_name_both_files(package):
    first = package.lab("2", "primo", ref="2.3")
    second = package.lab("2", "secondo", ref="2.3")
    found, line = only_problem(package)
    assert [lab.id for lab in found] == ["primo"]
    assert line.startswith(place(second)) and place(first) in line and "«2.3»" in line


@pytest.mark.parametrize("ref, chapter", [("9B.2", "2"), ("A.1", "2"), ("1.3", "A"), ("2.1", "1")])
def test_a_ref_of_another_chapter(package, ref, chapter):
    path = package.lab(chapter, "fuori", ref=ref)
    _, line = only_problem(package)
    owner = re.match(r"\d+|[A-Z]", ref).group()
    assert line.startswith(f"{place(path)}, riga {line_of(path, 'REF =')}:")
    assert f"capitolo {owner}" in line and f"ch{chapter}" in line and f"ch{owner}/" in line


@pytest.mark.parametrize(
    "ref, chapter",
    [("9B.2", "9"), ("9C", "9"), ("A.1", "A"), ("1.3", "1"), ("12.10", "12"), ("2.4.1", "2"), ("9E.1.2", "9")],
)
def test_refs_that_belong_to_their_chapter(package, ref, chapter):
    package.lab(chapter, "dentro", ref=ref)
    found, problems = package.discover()
    assert problems == {} and found[0].ref == ref


@pytest.mark.parametrize("ref", ["1,2", "uno", "1.2.", "1..2", "9b.1", ""])
def test_a_malformed_ref(package, ref):
    path = package.lab("1", "malformato", ref=ref)
    _, line = only_problem(package)
    assert line.startswith(place(path)) and "REF dev'essere" in line


# --- controls, checked when declared ---------------------------------------------------------------------------------

BAD_CONTROLS = [
    ('Slider("x", "Ingresso", -6.0, 6.0, 0.5, 10.0)', "il cursore «x»", "fuori dall'intervallo da -6 a 6"),
    ('Slider("x", "Ingresso", -6.0, 6.0, 0, 1.0)', "il cursore «x»", "step dev'essere maggiore di zero"),
    ('Slider("x", "Ingresso", 6.0, -6.0, 0.5, 1.0)', "il cursore «x»", "min (6) dev'essere minore di max (-6)"),
    ('Slider("x", "Ingresso", -6.0, 6.0, 0.5, 1.2)', "il cursore «x»", "non si raggiunge a passi di 0.5"),
    ('Slider("x", "Ingresso", -6.0, "6", 0.5, 1.0)', "il cursore «x»", "numeri finiti"),
    ('Slider("x y", "Ingresso", -6.0, 6.0, 0.5, 1.0)', "il cursore «x y»", "identificatore"),
    ('Toggle("numeri", "Numeri", False)', "l'interruttore «numeri»", "è della pagina"),
    ('Slider("sezioni", "Sezioni", 0.0, 1.0, 0.5, 0.5)', "il cursore «sezioni»", "è della pagina"),
    ('Choice("x", "Scelta", (("a", "A"), ("b", "B")), "c")', "la scelta «x»", "non è tra le opzioni (a, b)"),
    ('Choice("x", "Scelta", (), "a")', "la scelta «x»", "options è vuota"),
    ('Choice("x", "Scelta", (("a", "A"), ("a", "Altra")), "a")', "la scelta «x»", "stesso valore: a"),
    ('Choice("x", "Scelta", ("a", "b"), "a")', "la scelta «x»", "coppie (valore, etichetta)"),
    ("Steps(max=10, default=12)", "i passi «passo»", "fuori dall'intervallo da 0 a 10"),
    ("Steps(max=0)", "i passi «passo»", "max dev'essere un intero, almeno 1"),
    ('Toggle("x", "Interruttore", 1)', "l'interruttore «x»", "True o False"),
    ('Text("x", "Testo", "abc", max_length=2)', "il testo «x»", "più di max_length"),
    ('Group("Gruppo", (Slider("x", "Ingresso", 0.0, 1.0, 0.1, 0.5), "y"))', "il gruppo", "non è un comando del kit"),
]


@pytest.mark.parametrize("declaration, who, message", BAD_CONTROLS, ids=[b[0][:40] for b in BAD_CONTROLS])
def test_a_bad_control_is_refused_where_it_is_declared(package, declaration, who, message):
    path = package.lab(
        "2", "comando", change=lambda s: s.replace('Slider("x", "Ingresso", -6.0, 6.0, 0.5, 1.0),', declaration + ",")
    )
    _, line = only_problem(package)
    assert line.startswith(f"{place(path)}, riga {line_of(path, declaration)}: {who}: "), line
    assert message in line


def test_a_control_built_by_a_helper_points_at_the_line_that_calls_it(package):
    helper = 'def weight(name, default):\n    return Slider(name, "Peso", -1.0, 1.0, 0.1, default)\n\n\n'
    path = package.lab(
        "2",
        "aiuto",
        change=lambda s: s.replace("CONTROLS = [", helper + "CONTROLS = [").replace(
            'Toggle("doppio", "Raddoppia", True),', 'Toggle("doppio", "Raddoppia", True),\n    weight("w", 3.0),'
        ),
    )
    _, line = only_problem(package)
    call = line_of(path, 'weight("w", 3.0)')
    assert line.startswith(f"{place(path)}, riga {call}: il cursore «w»"), line


def test_two_controls_with_the_same_name_name_the_second_line(package):
    path = package.lab(
        "2",
        "doppione",
        change=lambda s: s.replace(
            'Toggle("doppio", "Raddoppia", True),', 'Toggle("doppio", "Raddoppia", True),\n    Toggle("x", "Ancora x"),'
        ),
    )
    _, line = only_problem(package)
    first, second = line_of(path, 'Slider("x"'), line_of(path, 'Toggle("x"')
    assert line.startswith(f"{place(path)}, riga {second}:") and f"riga {first}" in line and "«x»" in line


@pytest.mark.parametrize(
    "docstring, says",
    [
        ("", "la classe Allenamento non ha una docstring"),
        ('    """Weights and losses of a training."""\n', "la didascalia di Allenamento è in inglese"),
    ],
)
def test_a_class_in_the_code_panel_without_an_italian_caption_names_its_line(package, docstring, says):
    """The functions' rule holds for the classes the code panel shows: checked at import, the class's line."""

    def change(source):
        source = source.replace(
            "def compute(params):\n",
            "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Allenamento:\n"
            f"{docstring}    y: float\n\n\ndef compute(params):\n",
        )
        return source.replace('    return {"y"', '    Allenamento(0.0)\n    return {"y"')

    path = package.lab("1", "con_classe", change=lambda source: change(source))
    _, line = only_problem(package)
    assert line.startswith(f"{place(path)}, riga {line_of(path, 'class Allenamento')}: {says}"), line


def test_every_lab_module_passes_the_checks_at_import():
    assert labs.problems() == {}


@pytest.mark.parametrize("lab", labs.all_labs(), ids=lambda lab: lab.id)
def test_every_real_control_passes_its_own_checks(lab):
    """The checks accept every lab of the site (they run at import: reaching here means they did)."""
    for control in lab.params_list:
        assert control._where.startswith(place(lab.module.__file__)), (lab.id, control.name, control._where)


# --- view must return the kit's Html ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, says",
    [
        ('return "<b>" + str(state["y"]) + "</b>"', "ha restituito una str"),
        ('tag("div", str(state["y"]))', "non ha restituito niente"),
        ("return [1, 2]", "ha restituito list"),
    ],
)
def test_a_view_that_does_not_return_html_is_refused(package, body, says):
    path = package.lab("2", "vista", change=lambda s: s.replace('return tag("div", stat("y", str(state["y"])))', body))
    (lab,), problems = package.discover()
    assert problems == {}  # the module is fine to import: the check is on what view() returns
    html = lab.view(lab.compute(lab.defaults()))
    message = labs.view_problem(lab, html)
    assert message.startswith(f"{place(path)}, riga {line_of(path, 'def view')}:") and says in message
    with pytest.raises(AssertionError, match=re.escape(says)):
        assert_renders(lab, lab.defaults())  # the contract tests refuse it too


@pytest.mark.parametrize("fake", [lambda state: "<p>testo</p>", lambda state: None])
def test_render_refuses_a_plain_string_or_none(monkeypatch, fake):
    lab = labs.get("ombrello")
    monkeypatch.setattr(lab.module, "view", fake)
    result = labs.render("ombrello", {})
    assert not result["ok"] and result["error"].startswith(place(lab.module.__file__))
    assert "l'Html del kit" in result["error"]


# --- what the tools do with a broken lab -----------------------------------------------------------------------------


def test_asking_for_a_broken_lab_gives_its_line(monkeypatch):
    broken = "labs/ch2/rotto.py: manca TITLE, il titolo della pagina."
    monkeypatch.setattr(labs.registry, "_discovered", lambda: (ALL, {"rotto": broken}))
    with pytest.raises(ContractError, match="manca TITLE"):
        labs.get("rotto")
    assert labs.get("ombrello").id == "ombrello"  # the others still work


ALL = labs.all_labs()


def load_build():
    spec = importlib.util.spec_from_file_location("site_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_stops_with_one_line_per_broken_lab(monkeypatch):
    build = load_build()
    monkeypatch.setattr(labs, "problems", lambda: {"rotto": "labs/ch2/rotto.py: manca TITLE, il titolo della pagina."})
    with pytest.raises(SystemExit) as stop:
        build.check_labs()
    assert str(stop.value) == "build.py: labs/ch2/rotto.py: manca TITLE, il titolo della pagina."


def test_a_crash_while_prerendering_names_the_file_and_line_of_the_exception(monkeypatch):
    import core.losses

    build = load_build()
    lab = labs.get("ombrello")
    monkeypatch.setattr(lab.module, "compute", lambda params: core.losses.cross_entropy(0.0))
    with pytest.raises(SystemExit) as stop:
        build.prerender(lab)
    raise_line = line_of(ROOT / "core" / "losses.py", 'raise ValueError("la probabilità deve stare in (0, 1]")')
    message = str(stop.value)
    assert message == (
        f"build.py: core/losses.py, riga {raise_line}: il laboratorio «ombrello» si è interrotto: "
        "ValueError: la probabilità deve stare in (0, 1]"
    )
