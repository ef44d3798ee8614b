"""The Python side stands in layers that point one way (scripts/import_graph.py reads the imports with ast):
core/ → labs/kit/ → the labs → the lab engine → the code panel → the package labs → build, CLI, scripts."""

import importlib
import pkgutil
import textwrap

import pytest
from import_graph import ROOT, cycles, graph, imports, layer, module_files, problems  # scripts/, on the path

import labs.kit


def test_no_import_goes_up_a_layer_or_round_a_cycle():
    found = problems()
    assert not found, "\n".join(found)


def test_every_module_has_a_layer():
    for module in module_files():
        layer(module)  # LookupError names a module the graph does not place


def test_the_labs_stand_on_core_and_the_kit_alone():
    edges = graph()
    for module, targets in edges.items():
        if layer(module) == layer("labs.ch1"):
            assert {layer(t) for t, _ in targets} <= {layer("core"), layer("labs.kit"), layer("labs.ch1")}, module


def test_the_graph_sees_imports_inside_functions_and_relative_ones(tmp_path):
    """What the check would miss if it read only the top of a file: a kit module importing the code panel
    inside a function, through a relative import, is an upward import; two kit modules importing each
    other, one of them inside a function, are a cycle."""
    kit = tmp_path / "labs" / "kit"
    kit.mkdir(parents=True)
    (tmp_path / "core").mkdir()
    (tmp_path / "scripts").mkdir()
    (tmp_path / "build.py").write_text("import labs\n")
    (tmp_path / "labs" / "__init__.py").write_text("")
    (tmp_path / "labs" / "code.py").write_text("")
    (kit / "__init__.py").write_text("")
    (kit / "a.py").write_text(
        textwrap.dedent("""\
        from . import b


        def late():
            from .. import code
            return code
    """)
    )
    (kit / "b.py").write_text("def f():\n    from .a import late\n")
    files = module_files(tmp_path)
    assert imports("labs.kit.a", files["labs.kit.a"], files) == [("labs.kit.b", 1), ("labs.code", 5)]
    assert cycles(graph(tmp_path)) == [["labs.kit.a", "labs.kit.b"]]
    found = problems(tmp_path)
    assert "upward: labs/kit/a.py:5 (kit) imports labs/code.py (code panel)" in found
    assert "cycle: labs/kit/b.py:2 imports labs/kit/a.py (cycle of labs/kit/a.py, labs/kit/b.py)" in found


def test_no_module_of_the_kit_is_named_like_a_name_it_exports():
    """labs.kit.plane is the function plane wherever it is read: no module planes.py can hide it."""
    modules = {info.name for info in pkgutil.iter_modules(labs.kit.__path__)}
    assert not modules & set(labs.kit.__all__)
    importlib.import_module("labs.kit.planes")
    assert callable(labs.kit.plane)


@pytest.mark.parametrize("path", ["labs/kit/errors.py", "labs/kit/folds.py"])
def test_the_kits_leaves_import_nothing_of_the_kit_but_errors(path):
    files = module_files()
    module = next(m for m, p in files.items() if p == ROOT / path)
    assert {t for t, _ in graph()[module]} <= {"labs.kit.errors"}
