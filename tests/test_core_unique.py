"""One of each thing in core/: no two public functions share a name, and every
public function is there for a lab (used by labs/ or by core/ itself), not
only for the tests.

Unique names matter beyond tidiness: «Il codice Python» (labs/code.py) puts
every core function a lab reaches into one namespace, where two `forward`s
would silently replace each other.
"""

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# core/bpe.py and core/transformer.py were being rewritten by others when
# this test was written: bigram's tokenizer names are still shared with bpe's
# (tests/test_core_transformer.py imports bigram's), and both files still had
# functions only their tests call. Each entry must still be needed: the test
# fails when one is not, so that these lists only shrink.
PENDING_SHARED = {"build_vocab", "encode"}
PENDING_FILES = {"bpe"}


def parse(path):
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def core_modules():
    return {path.stem: parse(path) for path in sorted((ROOT / "core").glob("*.py")) if path.stem != "__init__"}


def public_functions(tree):
    return [
        node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_")
    ]


def imports(tree, package):
    """(names, modules): a local name → (core module, function) for `from core.m import f`,
    and a local name → core module for `from core import m` / `import core.m as m`."""
    names, modules = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            relative = node.level == 1 and package == "core"
            if node.level == 0 and node.module and node.module.startswith("core."):
                target = node.module.split(".")[1]
            elif relative and node.module:
                target = node.module
            else:
                target = None
            for alias in node.names:
                if target:
                    names[alias.asname or alias.name] = (target, alias.name)
                elif node.module == "core" and node.level == 0 or relative and not node.module:
                    modules[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("core.") and alias.asname:
                    modules[alias.asname] = alias.name.split(".")[1]
    return names, modules


def uses(tree, package, own_module=None, own_functions=()):
    """{(core module, function)} that a module's code reads: names imported
    from a core module, attributes of an imported core module (also
    core.m.f), and, in a core module, its own functions read anywhere but in
    their own body (a recursive call is not a use)."""
    names, modules = imports(tree, package)
    found = set()

    def visit(node, inside):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            inside = node.name
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id in names:
                found.add(names[node.id])
            elif node.id in own_functions and node.id != inside:
                found.add((own_module, node.id))
        elif isinstance(node, ast.Attribute):
            value = node.value
            if isinstance(value, ast.Name) and value.id in modules:
                found.add((modules[value.id], node.attr))
            elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "core":
                found.add((value.attr, node.attr))
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(tree, None)
    return found


def used_outside_tests():
    """Every (core module, function) read by labs/ or core/."""
    found = set()
    for path in sorted((ROOT / "labs").rglob("*.py")):
        found |= uses(parse(path), "labs")
    for module, tree in core_modules().items():
        found |= uses(tree, "core", module, {f.name for f in public_functions(tree)})
    return found


def listing(places):
    return "\n".join(f"  {key}: {where}" for key, where in sorted(places.items()))


def test_no_two_public_core_functions_share_a_name():
    homes = defaultdict(list)
    for module, tree in core_modules().items():
        for function in public_functions(tree):
            homes[function.name].append(f"core/{module}.py:{function.lineno}")
    shared = {name: places for name, places in homes.items() if len(places) > 1}
    new = {name: places for name, places in shared.items() if name not in PENDING_SHARED}
    assert not new, (
        "funzioni pubbliche di core/ con lo stesso nome: una sola per cosa, o nomi che dicano "
        "la differenza\n" + listing(new)
    )
    assert not PENDING_SHARED - set(shared), (
        f"non più in comune, da togliere da PENDING_SHARED: {PENDING_SHARED - set(shared)}"
    )


def test_every_public_core_function_is_used_by_a_lab_or_by_core():
    used = used_outside_tests()
    unused = {
        (module, function.name): f"core/{module}.py:{function.lineno}"
        for module, tree in core_modules().items()
        for function in public_functions(tree)
        if (module, function.name) not in used
    }
    new = {key: place for key, place in unused.items() if key[0] not in PENDING_FILES}
    assert not new, (
        "funzioni di core/ che solo i test usano: toglierle, o farle usare al laboratorio che ne "
        "rifà il conto\n" + listing(new)
    )
    done = PENDING_FILES - {module for module, _ in unused}
    assert not done, f"ormai ogni funzione di questi file serve a un laboratorio: toglierli da PENDING_FILES: {done}"


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
