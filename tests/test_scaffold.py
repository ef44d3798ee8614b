"""The scaffold (python -m labs new): it writes a lab that passes the contract, at the next free ref
or right after a given lab, with its test, and refuses a taken id or a bad chapter."""

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_contract import assert_renders, extremes, random_value

import labs
from labs.kit import Html
from labs.kit.contract import ContractError
from labs.scaffold import new_lab, new_test, next_ref, ref_after

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "templates" / "guide"

# A valid lab; the tests break one thing at a time. Line numbers below count from 1.

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


def test_the_stepped_scaffold_writes_a_stepped_lab_that_passes_the_contract(package, tmp_path):
    """labs new --passi: start/advance/present through step_machine, a timeline with its curve, an experiment at
    a later step, and a test; the checks of tests/test_contract.py and the cached steps equal to a replay."""
    package.lab("2", "vecchio", ref="2.7")
    path, ref = new_lab(package.dir, "2", "mio-passo", "Il mio passo", package.discover()[0], stepped=True)
    found, problems = package.discover()
    assert problems == {}
    lab = next(lab for lab in found if lab.id == "mio-passo")
    assert lab.stepped and ref == "2.8"
    source = path.read_text(encoding="utf-8")
    for name in ("def start(", "def advance(", "def present(", "step_machine(start, advance, present)", "Curve("):
        assert name in source, f"lo scheletro a passi non ha {name}"
    assert any(e.settings.get("passo", 0) > 0 for e in lab.experiments)
    for control in lab.params_list:
        for value in extremes(control):
            assert_renders(lab, {**lab.defaults(), control.name: value})
    params = {**lab.defaults(), "passo": 17}
    assert lab.module.compute.replay(params) == lab.compute(params)
    for experiment in lab.experiments:
        state = lab.compute(lab.parse({k: str(v) for k, v in experiment.settings.items()}))
        assert experiment.check(state), experiment.sentence
    test = new_test(tmp_path, "mio-passo", ref, "Il mio passo", stepped=True)
    assert "passo=" in test.read_text(encoding="utf-8")
    assert ruff_findings(source, ROOT / "labs" / "ch2" / "mio_passo.py") == []
    assert ruff_findings(test.read_text(encoding="utf-8"), ROOT / "tests" / "labs" / "test_mio_passo.py") == []


def test_the_scaffold_prose_is_our_own():
    seeds = ROOT.parent / "shared" / "seeds"
    files = sorted(seeds.glob("*.txt"))
    if not files:
        pytest.skip("la guida (../shared/seeds) non è accanto al repository")
    from test_prose import is_prose, shingles

    guide = shingles(" ".join(f.read_text(encoding="utf-8") for f in files))
    for template in (labs.scaffold.TEMPLATE, labs.scaffold.STEPS_TEMPLATE):
        prose = template.split('"""')[1]
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
        ("9E", ["9E", "9E.1", "9F"], "9E.0"),
        ("1.2", ["1.2", "1.3"], "1.2.1"),
        ("2.4", ["2.3", "2.4", "2.5", "2.6"], "2.4.1"),
        ("2.4.1", ["2.4", "2.4.1", "2.5"], "2.4.2"),
        ("2.4.1", ["2.4", "2.4.1", "2.4.2", "2.5"], "2.4.1.1"),
        ("2.4", ["2.4", "2.4.1", "2.4.5"], "2.4.0"),
        ("A.5", ["A.5", "A.6", "A.7"], "A.5.1"),
        ("9E", ["9E", "9E.0", "9E.1"], None),
    ],
)
def test_the_ref_right_after_a_lab(ref, refs, expected):
    if expected is None:
        with pytest.raises(ContractError, match=f"tra {re.escape(ref)} e 9E.0 non c'è un REF libero"):
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


def test_dopo_finds_a_place_after_every_real_lab_without_renumbering():
    """Between any lab and the next one of its chapter there is a REF the contract accepts."""
    from labs.kit.contract import REF_PATTERN

    for lab in labs.all_labs():
        refs = [other.ref for other in labs.all_labs() if other.chapter == lab.chapter]
        found = ref_after(lab.ref, refs)
        assert REF_PATTERN.fullmatch(found) and found not in refs, (lab.id, found)
        order = sorted([*refs, found], key=labs.ref_key)
        assert order[order.index(lab.ref) + 1] == found, (lab.id, found)


def test_a_second_level_ref_sorts_in_the_navigation_and_the_home(package):
    """2.4.1 goes between 2.4 and 2.5 in the menu and on the home page (sitebuild/pages.py)."""
    from jinja2 import Environment, FileSystemLoader

    from sitebuild.pages import index_page, navigation

    package.lab("2", "quarto", ref="2.4")
    package.lab("2", "quinto", ref="2.5")
    package.lab("2", "decimo", ref="2.10")
    path, ref = new_lab(package.dir, None, "in-mezzo", "In mezzo", package.discover()[0], after="quarto")
    assert ref == "2.4.1"
    found, problems = package.discover()
    assert problems == {}
    entries = [next(iter(entry)) for entry in next(iter(navigation(found)[1].values()))]
    assert entries == ["2.4 Prova", "2.4.1 In mezzo", "2.5 Prova", "2.10 Prova"]
    home = index_page(Environment(loader=FileSystemLoader(ROOT / "templates")), found)
    cards = re.findall(r'data-lab-card="([^"]+)"', home)
    assert cards == ["quarto", "in-mezzo", "quinto", "decimo"]


def test_the_next_free_ref_of_the_real_chapters():
    by_chapter = {}
    for lab in labs.all_labs():
        by_chapter.setdefault(lab.chapter.number, []).append(lab.ref)
    for chapter, refs in by_chapter.items():
        ref = next_ref(chapter, refs)
        assert ref not in refs and labs.ref_key(ref) > max(map(labs.ref_key, refs))
        assert re.match(r"\d+|[A-Z]", ref).group() == chapter


def ruff_findings(text, where):
    """What `make lint` (ruff check and ruff format --check) says of text as if it were the file at where."""
    ruff = Path(sys.executable).parent / "ruff"
    said = []
    for args in (("check", "--quiet"), ("format", "--check", "--quiet")):
        run = subprocess.run(
            [str(ruff), *args, "--stdin-filename", str(where), "-"], input=text, capture_output=True, text=True
        )
        if run.returncode:
            said.append(run.stdout + run.stderr)
    return said


def test_what_the_scaffold_writes_passes_make_lint_where_it_lands(package, tmp_path):
    """The lab in labs/chN/ (one import a line, labs/ruff.toml) and its test in tests/labs/, as written."""
    package.lab("2", "vecchio", ref="2.7")
    path, ref = new_lab(package.dir, "2", "mio-lab", "Il mio laboratorio", package.discover()[0])
    test = new_test(tmp_path, "mio_lab", ref, "Il mio laboratorio")
    assert ruff_findings(path.read_text(encoding="utf-8"), ROOT / "labs" / "ch2" / "mio_lab.py") == []
    assert ruff_findings(test.read_text(encoding="utf-8"), ROOT / "tests" / "labs" / "test_mio_lab.py") == []
    merged = path.read_text(encoding="utf-8").replace(
        "from labs.kit import Edit\nfrom labs.kit import Experiment", "from labs.kit import Edit, Experiment"
    )
    assert ruff_findings(merged, ROOT / "labs" / "ch2" / "mio_lab.py")  # the check sees a merged import


def test_the_scaffold_with_an_exercise_asks_for_the_function_the_lab_computes_with(package):
    """labs new --esercizio: the product comes from core's dot, and the «Esercizio» on it passes the contract,
    its reference passes its cases, its wrong answer is caught, and the lab drawn with it is the same; ruff is clean."""
    from labs import code_exercises

    package.lab("2", "vecchio", ref="2.7")
    path, _ = new_lab(package.dir, "2", "mio-esercizio", "Il mio esercizio", package.discover()[0], exercise=True)
    found, problems = package.discover()
    assert problems == {}
    lab = next(lab for lab in found if lab.id == "mio-esercizio")
    (exercise,) = code_exercises.exercises_of(lab)
    assert exercise.name == "dot"
    assert code_exercises.check(lab, exercise, exercise.solution())["ok"]
    for wrong in exercise.wrong:
        assert code_exercises.check(lab, exercise, wrong.code)["remark"] == wrong.remark
    assert lab.compute(lab.defaults())["product"] == 0.5
    assert ruff_findings(path.read_text(encoding="utf-8"), ROOT / "labs" / "ch2" / "mio_esercizio.py") == []
    with pytest.raises(ContractError, match="--esercizio"):
        new_lab(package.dir, "2", "altro", "Altro", found, stepped=True, exercise=True)
