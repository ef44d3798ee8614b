"""core/'s two rules (sitebuild/core_rules.py, checked by the build's contract stage): the code base keeps them,
and a break of each is one Italian line naming the file and the line."""

import ast
from pathlib import Path

from sitebuild.core_rules import core_problems, uses

ROOT = Path(__file__).resolve().parent.parent


def test_core_keeps_its_rules():
    assert core_problems() == []


def tree_with(tmp_path, core_files, lab_source):
    """A small project: core/ with these files, and one lab that reads what lab_source reads."""
    (tmp_path / "core").mkdir()
    (tmp_path / "labs" / "ch1").mkdir(parents=True)
    for name, source in core_files.items():
        (tmp_path / "core" / f"{name}.py").write_text(source, encoding="utf-8")
    (tmp_path / "labs" / "ch1" / "lab.py").write_text(lab_source, encoding="utf-8")
    return tmp_path


def test_two_functions_with_one_name_are_one_italian_line_naming_both_places(tmp_path):
    root = tree_with(
        tmp_path,
        {"a": "def softmax(x):\n    return x\n", "b": "\n\ndef softmax(x):\n    return x\n"},
        "from core.a import softmax\nfrom core import b\nY = softmax(1) + b.softmax(1)\n",
    )
    assert core_problems(root)[0] == (
        "core/b.py, riga 3: la funzione «softmax» c'è già in core/a.py, riga 1: in core/ ogni funzione pubblica ha "
        "un nome suo (il pannello del codice le mette tutte insieme): cambia nome a una delle due"
    )


def test_a_function_no_lab_uses_is_one_italian_line(tmp_path):
    root = tree_with(
        tmp_path,
        {"a": "def used(x):\n    return x\n\n\ndef lonely(x):\n    return x\n\n\ndef _helper(x):\n    return x\n"},
        "from core.a import used\nY = used(1)\n",
    )
    problems = [p for p in core_problems(root) if not p.startswith("sitebuild/")]
    assert problems == [
        "core/a.py, riga 5: la funzione «lonely» non la usa nessun laboratorio né altro codice di core/: usala in "
        "un laboratorio, toglila, o chiamala «_lonely» se aiuta una sola funzione"
    ]


def test_the_build_stops_on_a_break_of_core_s_rules(tmp_path, monkeypatch):
    from sitebuild import contract

    monkeypatch.setattr(contract, "core_problems", lambda root: ["core/a.py, riga 5: la funzione «lonely» …"])
    try:
        contract.check_labs()
    except SystemExit as stop:
        assert str(stop) == "build.py: core/a.py, riga 5: la funzione «lonely» …"
    else:
        raise AssertionError("la build non si è fermata")


def test_the_use_finder_sees_each_way_of_importing():
    lab = ast.parse(
        "from core.linalg import dot as d\nfrom core import stats\nimport core.pca as p\nimport core.rank\n"
        "def f(x):\n    return d(x, x) + stats.bin_counts(x) + p.project(x) + core.rank.matrix_rank(x)\n"
        "DEFAULT = f(stats.bin_edges(0, 1, 2))\n"
    )
    assert uses(lab, "labs") == {
        ("linalg", "dot"),
        ("stats", "bin_counts"),
        ("pca", "project"),
        ("rank", "matrix_rank"),
        ("stats", "bin_edges"),
    }
    assert uses(ast.parse("from core.linalg import dot\n"), "labs") == set()  # imported is not used
    core = ast.parse(
        "from .linalg import norm\nfrom . import stats\n"
        "def a(x):\n    return a(x)\ndef b(x):\n    return a(norm(x)) + stats.bin_counts(x)\n"
    )
    assert uses(core, "core", "m", {"a", "b"}) == {("linalg", "norm"), ("m", "a"), ("stats", "bin_counts")}
