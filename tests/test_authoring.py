"""Writing a lab: every mistake an author can make is one Italian line that
names the file (and line), the scaffold writes a lab that passes the
contract, the author's guide is built from the kit, lab stylesheets are
scoped, and the global stylesheet keeps only the kit's rules.

Broken labs are written into a temporary package (a copy of the labs/
layout: a package with ch<N> chapters) that labs.discover() walks, so
nothing is left in the repository.
"""

import importlib
import importlib.util
import json
import random
import re
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
from test_contract import BalanceChecker, assert_renders, extremes, random_value

import labs
from labs.kit import Html
from labs.kit.contract import ContractError, place
from labs.scaffold import new_lab, new_test, next_ref, ref_after
from labs.styles import class_prefix, classes, lab_styles, orphans, scope, scope_for, selectors, stylesheet

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "templates" / "guide"

# A valid lab; the tests break one thing at a time. Line numbers below count from 1.
VALID = '''\
"""Una prosa di prova abbastanza lunga da essere una pagina: il laboratorio
moltiplica un numero per due e lo mostra, niente di più. Serve solo ai test
che rompono una cosa alla volta e guardano il messaggio che ne esce."""

from labs.kit import Choice, Edit, Group, Slider, Steps, Text, Toggle, stat, tag

TITLE = "Prova"
REF = "{ref}"

CONTROLS = [
    Slider("x", "Ingresso", -6.0, 6.0, 0.5, 1.0),
    Toggle("doppio", "Raddoppia", True),
]


def compute(params):
    return {{"y": params["x"] * (2 if params["doppio"] else 1)}}


def view(state):
    return tag("div", stat("y", str(state["y"])))


EDITS = [
    Edit(
        "il doppio diventa triplo",
        change=("2 if params", "3 if params"),
        expect="Con «Raddoppia» acceso il risultato è il triplo dell'ingresso.",
        check=lambda before, after: after.state["y"] == 3 * before.state["y"] / 2,
    )
]
'''


class Package:
    """A throwaway labs-like package under tmp_path: write modules, then discover."""

    def __init__(self, root):
        self.name = f"labs_prova_{uuid.uuid4().hex[:8]}"
        self.dir = root / self.name
        self.dir.mkdir()
        (self.dir / "__init__.py").write_text("")

    def chapter(self, number, title="Capitolo di prova"):
        folder = self.dir / f"ch{number}"
        if not folder.exists():
            folder.mkdir()
            (folder / "__init__.py").write_text(f'"""{title}"""\n')
        return folder

    def write(self, chapter, name, source):
        path = self.chapter(chapter) / name
        path.write_text(textwrap.dedent(source) if not source.startswith('"""') else source, encoding="utf-8")
        return path

    def lab(self, chapter, name, ref=None, change=None):
        """A valid lab with REF ref (chapter.1 by default), its source passed through change()."""
        source = VALID.format(ref=f"{chapter}.1" if ref is None else ref)
        return self.write(chapter, f"{name}.py", change(source) if change else source)

    def discover(self):
        importlib.invalidate_caches()
        return labs.discover(importlib.import_module(self.name))


@pytest.fixture
def package(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    made = Package(tmp_path)
    yield made
    for name in [n for n in sys.modules if n == made.name or n.startswith(made.name + ".")]:
        del sys.modules[name]


def only_problem(package):
    found, problems = package.discover()
    assert len(problems) == 1, problems
    (line,) = problems.values()
    assert "\n" not in line and "Traceback" not in line
    return found, line


def line_of(path, text):
    """The 1-based line of path that contains text."""
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


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


@pytest.mark.parametrize("ref, chapter", [("9B.2", "9"), ("9C", "9"), ("A.1", "A"), ("1.3", "1"), ("12.10", "12")])
def test_refs_that_belong_to_their_chapter(package, ref, chapter):
    package.lab(chapter, "dentro", ref=ref)
    found, problems = package.discover()
    assert problems == {} and found[0].ref == ref


@pytest.mark.parametrize("ref", ["1,2", "uno", "1.2.3", "9b.1", ""])
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


# --- the scaffold ----------------------------------------------------------------------------------------------------


def test_the_scaffold_writes_a_lab_that_passes_the_contract(package):
    package.lab("2", "vecchio", ref="2.7")
    path, ref = new_lab(package.dir, "2", "mio-lab", "Il mio laboratorio", package.discover()[0])
    assert path == package.dir / "ch2" / "mio_lab.py" and ref == "2.8"
    found, problems = package.discover()
    assert problems == {}
    lab = next(lab for lab in found if lab.id == "mio-lab")
    assert lab.title == "Il mio laboratorio" and lab.ref == "2.8" and len(lab.prose) > 200
    kinds = {c.kind for c in lab.params_list}
    assert len(lab.params_list) >= 2 and {"slider"} <= kinds
    # the checks of tests/test_contract.py, on the new module
    state, html = assert_renders(lab, lab.defaults())
    assert isinstance(lab.view(state), Html) and 'class="lab-stat' in html and "lab-formula" in html
    for control in lab.params_list:
        for value in extremes(control):
            assert_renders(lab, {**lab.defaults(), control.name: value})
    rng = random.Random("scaffold")
    for _ in range(20):
        assert_renders(lab, {c.name: random_value(c, rng) for c in lab.params_list})
    params = lab.defaults()
    assert json.dumps(lab.compute(params)) == json.dumps(lab.compute(params))
    for name in ("stat", "formula", "callout", "bars", "line_chart", "plane", "matrix"):
        assert name in path.read_text(), f"lo scheletro non nomina {name}"


def test_the_scaffold_prose_is_our_own():
    seeds = ROOT.parent / "shared" / "seeds"
    files = sorted(seeds.glob("*.txt"))
    if not files:
        pytest.skip("la guida (../shared/seeds) non è accanto al repository")
    from test_prose import is_prose, shingles

    guide = shingles(" ".join(f.read_text(encoding="utf-8") for f in files))
    prose = labs.scaffold.TEMPLATE.split('"""')[1]
    assert not {run for run in shingles(prose) & guide if is_prose(run)}
    example = (GUIDE / "esempio.py").read_text(encoding="utf-8").split('"""')[1]
    page = (ROOT / "templates" / "guide.md.j2").read_text(encoding="utf-8")
    for text in (example, page):
        assert not {run for run in shingles(text) & guide if is_prose(run)}


def test_the_scaffold_refuses_a_taken_id_or_a_bad_chapter(package):
    package.lab("2", "preso")
    found = package.discover()[0]
    with pytest.raises(ContractError, match=r"l'id «preso» esiste già: .*ch2/preso\.py"):
        new_lab(package.dir, "2", "preso", "Titolo", found)
    with pytest.raises(ContractError, match="il capitolo «7» non esiste: i capitoli sono 2"):
        new_lab(package.dir, "7", "nuovo", "Titolo", found)
    with pytest.raises(ContractError, match="solo lettere minuscole"):
        new_lab(package.dir, "2", "Nuovo_Lab", "Titolo", found)
    with pytest.raises(ContractError, match="manca il titolo"):
        new_lab(package.dir, "2", "nuovo", "  ", found)
    assert sorted(p.name for p in (package.dir / "ch2").glob("*.py")) == ["__init__.py", "preso.py"]


@pytest.mark.parametrize(
    "chapter, refs, expected",
    [
        ("1", ["1.1", "1.4", "1.2", "1.3"], "1.5"),
        ("2", ["2.9", "2.10"], "2.11"),
        ("9", ["9A", "9B.1", "9B.11", "9G"], "9H"),
        ("A", ["A.1", "A.5"], "A.6"),
        ("3", [], "3.1"),
        ("B", [], "B.1"),
    ],
)
def test_the_next_free_ref(chapter, refs, expected):
    assert next_ref(chapter, refs) == expected


@pytest.mark.parametrize(
    "ref, refs, expected",
    [
        ("9E", ["9A", "9E", "9F", "9G"], "9E.1"),
        ("9G", ["9E", "9F", "9G"], "9H"),
        ("9A", ["9A", "9B.1", "9C"], "9A.1"),
        ("1.4", ["1.1", "1.4"], "1.5"),
        ("9B.11", ["9B.10", "9B.11", "9C"], "9B.12"),
        ("A.6", ["A.5", "A.6"], "A.7"),
        ("9E", ["9E", "9E.1", "9F"], None),
        ("1.2", ["1.2", "1.3"], None),
    ],
)
def test_the_ref_right_after_a_lab(ref, refs, expected):
    if expected is None:
        with pytest.raises(ContractError, match=f"tra {re.escape(ref)} e .* non c'è un REF libero"):
            ref_after(ref, refs)
        return
    found = ref_after(ref, refs)
    assert found == expected and found not in refs
    later = sorted(refs + [found], key=labs.ref_key)
    assert later[later.index(ref) + 1] == found  # right after ref, before whatever came after it


def test_dopo_places_the_scaffold_after_that_lab_and_writes_its_test(package, tmp_path):
    package.lab("9", "primo", ref="9E")
    package.lab("9", "dopo", ref="9F")
    found = package.discover()[0]
    path, ref = new_lab(package.dir, None, "nuovo", "Il nuovo", found, after="primo")
    assert ref == "9E.1" and path == package.dir / "ch9" / "nuovo.py"
    found, problems = package.discover()
    assert problems == {} and [lab.id for lab in sorted(found, key=lambda lab: labs.ref_key(lab.ref))] == [
        "primo",
        "nuovo",
        "dopo",
    ]
    with pytest.raises(ContractError, match="«nessuno» non esiste"):
        new_lab(package.dir, None, "altro", "Altro", found, after="nessuno")
    with pytest.raises(ContractError, match="manca il capitolo"):
        new_lab(package.dir, None, "altro", "Altro", found)
    test = new_test(tmp_path, "nuovo", ref, "Il nuovo")
    assert test.name == "test_nuovo.py" and 'labs.get("nuovo")' in test.read_text(encoding="utf-8")
    compile(test.read_text(encoding="utf-8"), str(test), "exec")
    assert new_test(tmp_path, "nuovo", ref, "Il nuovo") is None  # an author's test is never overwritten


def test_the_next_free_ref_of_the_real_chapters():
    by_chapter = {}
    for lab in labs.all_labs():
        by_chapter.setdefault(lab.chapter.number, []).append(lab.ref)
    for chapter, refs in by_chapter.items():
        ref = next_ref(chapter, refs)
        assert ref not in refs and labs.ref_key(ref) > max(map(labs.ref_key, refs))
        assert re.match(r"\d+|[A-Z]", ref).group() == chapter


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


# --- stylesheets -----------------------------------------------------------------------------------------------------


def test_every_rule_of_every_lab_stylesheet_is_scoped_to_its_lab():
    sheets = [(lab, stylesheet(lab)) for lab in labs.all_labs() if stylesheet(lab)]
    assert {lab.id for lab, _ in sheets} >= {"transformer-miniatura", "bpe", "bigrammi"}
    assert orphans(ROOT / "labs", labs.all_labs()) == []
    for lab, path in sheets:
        written = selectors(path.read_text(encoding="utf-8"), path)
        served = selectors(scope(path.read_text(encoding="utf-8"), lab.id, path))
        assert len(written) == len(served) > 0
        for selector, _ in served:
            assert scope_for(lab.id) in selector, f"{lab.id}: «{selector}» non è dentro il laboratorio"
            assert not selector.startswith((".lab-", "[data-lab-")), selector


def test_every_class_a_lab_names_is_its_own_or_the_kits():
    """A lab's classes start with the prefix its id gives (class_prefix); any other lab- class it names, in its
    stylesheet or its module, is the kit's (styled in labs.css). No lab's prefix starts another's, nor a kit class."""
    kit_css = (ROOT / "templates" / "assets" / "labs" / "labs.css").read_text(encoding="utf-8")
    kit = {name for name in classes(kit_css) if name.startswith("lab-")}
    kit |= {
        name
        for path in (ROOT / "labs" / "kit").glob("*.py")
        for name in re.findall(r"\blab-[a-z0-9-]*[a-z0-9]", path.read_text(encoding="utf-8"))
    }
    ids = [lab.id for lab in labs.all_labs()]
    for lab in labs.all_labs():
        own = class_prefix(lab.id)
        assert not [other for other in ids if other != lab.id and class_prefix(other).startswith(own)], lab.id
        assert not [name for name in kit if name.startswith(own)], f"{lab.id}: una classe del kit ha il suo prefisso"
        path = stylesheet(lab)
        strays = {
            name
            for name in (classes(path.read_text(encoding="utf-8")) if path else [])
            if name.startswith("lab-") and not name.startswith(own) and name not in kit | {own[:-1]}
        }
        written = re.findall(r"\blab-[a-z0-9-]+", Path(lab.module.__file__).read_text(encoding="utf-8"))
        strays |= {
            name
            for name in written
            if not name.startswith(own)
            and name != own[:-1]
            and not any(k.startswith(name) or name.startswith(k) for k in kit)
        }
        assert not strays, f"{lab.id}: classi non sue né del kit: {sorted(strays)} (le sue cominciano con {own})"


def test_a_stylesheet_naming_another_labs_class_is_refused(tmp_path):
    """Two labs cannot share a class: the build refuses a stylesheet that names one of another lab's prefix."""

    class Lab:
        def __init__(self, lab_id, css):
            path = tmp_path / f"{lab_id.replace('-', '_')}.py"
            path.write_text("")
            path.with_suffix(".css").write_text(css)
            self.id, self.module = lab_id, type("M", (), {"__file__": str(path)})

    mine = Lab("testa-attention", ".lab-testa-attention-row { color: red; }\n")
    assert "lab-testa-attention-row" in lab_styles([mine, Lab("transformer-allenato", ".lab-mx-cell { gap: 0; }")])
    with pytest.raises(ContractError, match="comincia come quelle di «testa-attention»"):
        lab_styles([mine, Lab("transformer-allenato", ".a, .lab-testa-attention-row { gap: 0; }")])
    with pytest.raises(ContractError, match="comincia come quelle di «testa-attention»"):  # a prefix inside another
        lab_styles([mine, Lab("testa", ".lab-testa-attention-row { gap: 0; }")])


def test_scoping_keeps_what_lies_outside_the_lab_outside():
    css = textwrap.dedent("""\
        /* a comment { with braces } */
        .a, .b:is(.c, .d) > span { color: red; }
        .md-typeset ol.lista li { margin: 0; }
        [data-md-color-scheme="slate"] .a { color: white; }
        @media (min-width: 60em) { .a { display: grid; } }
        """)
    out = scope(css, "mio-lab", "labs/ch1/mio_lab.css")
    s = '[data-lab="mio-lab"]'
    assert f"{s} .a, {s} .b:is(.c, .d) > span {{ color: red; }}" in out
    assert f".md-typeset {s} ol.lista li {{ margin: 0; }}" in out
    assert f'[data-md-color-scheme="slate"] {s} .a {{ color: white; }}' in out
    assert f"@media (min-width: 60em) {{\n  {s} .a {{ display: grid; }}\n}}" in out
    assert "comment" not in out


@pytest.mark.parametrize(
    "css, line, says",
    [
        (".a { color: red; }\n\n@keyframes giro { from { opacity: 0; } }\n", 3, "@keyframes vale per tutto il sito"),
        ('@import "altro.css";\n', 1, "non è una regola"),
        (".a { color: red;\n.b { color: blue; }\n", 1, "manca la graffa chiusa"),
    ],
)
def test_a_stylesheet_the_build_cannot_scope_names_file_and_line(css, line, says):
    with pytest.raises(ContractError) as error:
        scope(css, "mio-lab", ROOT / "labs" / "ch1" / "mio_lab.css")
    assert str(error.value).startswith(f"labs/ch1/mio_lab.css, riga {line}:") and says in str(error.value)


def test_the_global_stylesheet_keeps_only_the_kits_rules():
    """Every class labs.css styles is drawn by the kit or the templates, or shared by several labs."""
    css = (ROOT / "templates" / "assets" / "labs" / "labs.css").read_text(encoding="utf-8")
    shared = [
        *(ROOT / "labs" / "kit").glob("*.py"),
        *(ROOT / "templates").rglob("*.j2"),
        *(ROOT / "templates" / "assets" / "labs").glob("*.js"),
        ROOT / "labs" / "__init__.py",
    ]
    shared_text = "".join(p.read_text(encoding="utf-8") for p in shared)
    modules = {lab.id: Path(lab.module.__file__).read_text(encoding="utf-8") for lab in labs.all_labs()}
    for name in sorted(set(re.findall(r"\.(lab-[\w-]+)", css))):
        stem = re.sub(r"-?\w+$", "", name) if re.search(r"\d$", name) else name  # lab-heat-p1 is written lab-heat-…
        if stem in shared_text:
            continue
        users = [lab_id for lab_id, text in modules.items() if stem in text]
        assert len(users) != 1, f"labs.css: .{name} serve solo a {users[0]}: va nel suo foglio di stile"
