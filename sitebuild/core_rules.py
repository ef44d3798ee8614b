"""The two rules of core/, checked by the build's contract stage: one of each thing.

No two public functions of core/ share a name, in any two files (one softmax):
«Il codice Python» (labs/code.py) puts every core function a lab reaches into
one namespace, where two `forward`s would silently replace each other. And
every public function is there for a lab (read by labs/ or by core/ itself),
not only for the tests; a helper of one function starts with «_».
"""

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Shared names and files with test-only functions that predate the rules: the lists only shrink (an entry no longer
# needed is itself a problem).
PENDING_SHARED = {"build_vocab", "encode"}
PENDING_FILES = {"bpe"}


def parse(path):
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def core_modules(root=ROOT):
    """{module name: its syntax tree} for every module of core/."""
    return {path.stem: parse(path) for path in sorted((root / "core").glob("*.py")) if path.stem != "__init__"}


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


def used_outside_tests(root=ROOT):
    """Every (core module, function) read by labs/ or core/."""
    found = set()
    for path in sorted((root / "labs").rglob("*.py")):
        found |= uses(parse(path), "labs")
    for module, tree in core_modules(root).items():
        found |= uses(tree, "core", module, {f.name for f in public_functions(tree)})
    return found


def shared_names(root=ROOT):
    """{name: ["core/m.py, riga N", …]} for each public name defined in more than one place of core/."""
    homes = defaultdict(list)
    for module, tree in core_modules(root).items():
        for function in public_functions(tree):
            homes[function.name].append(f"core/{module}.py, riga {function.lineno}")
    return {name: places for name, places in homes.items() if len(places) > 1}


def unused_functions(root=ROOT):
    """{(module, name): "core/m.py, riga N"} for each public function of core/ that neither labs/ nor core/ reads."""
    used = used_outside_tests(root)
    return {
        (module, function.name): f"core/{module}.py, riga {function.lineno}"
        for module, tree in core_modules(root).items()
        for function in public_functions(tree)
        if (module, function.name) not in used
    }


def core_problems(root=ROOT):
    """One Italian line per break of core/'s two rules (and per entry of the pending lists no longer needed)."""
    problems = []
    shared = shared_names(root)
    for name, places in sorted(shared.items()):
        if name not in PENDING_SHARED:
            problems.append(
                f"{places[1]}: la funzione «{name}» c'è già in {places[0]}: in core/ ogni funzione pubblica ha un "
                "nome suo (il pannello del codice le mette tutte insieme): cambia nome a una delle due"
            )
    for name in sorted(PENDING_SHARED - set(shared)):
        problems.append(f"sitebuild/core_rules.py: «{name}» non è più doppio: toglilo da PENDING_SHARED")
    unused = unused_functions(root)
    for (module, name), where in sorted(unused.items()):
        if module not in PENDING_FILES:
            problems.append(
                f"{where}: la funzione «{name}» non la usa nessun laboratorio né altro codice di core/: "
                "usala in un laboratorio, toglila, o chiamala «_" + name + "» se aiuta una sola funzione"
            )
    for module in sorted(PENDING_FILES - {module for module, _ in unused}):
        problems.append(
            f"sitebuild/core_rules.py: ogni funzione di core/{module}.py ormai serve: toglilo da PENDING_FILES"
        )
    return problems


def lab_users(root=ROOT):
    """{(core module, function): {lab ids}} for every core function a lab reads, in its module or in a helper
    module of its chapter («_…») that it imports; a module of the kit that reads one counts as «kit/name.py»."""
    chapters = sorted(p for p in (root / "labs").glob("ch*") if p.is_dir())
    found = defaultdict(set)
    for chapter in chapters:
        trees = {path.stem: parse(path) for path in sorted(chapter.glob("*.py")) if path.stem != "__init__"}
        for stem, tree in trees.items():
            if stem.startswith("_"):
                continue
            lab_id = stem.replace("_", "-")
            read = set(uses(tree, "labs"))
            for node in ast.walk(tree):  # the helpers it imports: from labs.chN._x import …, from ._x import …
                if isinstance(node, ast.ImportFrom):
                    helper = (node.module or "").rpartition(".")[2]
                    helpers = [helper] if helper in trees else [a.name for a in node.names if a.name in trees]
                    for name in helpers:
                        if name.startswith("_"):
                            read |= uses(trees[name], "labs")
            for used in read:
                found[used].add(lab_id)
    for path in sorted((root / "labs" / "kit").glob("*.py")):  # the kit draws with a few functions of core/
        for used in uses(parse(path), "labs"):
            found[used].add(f"kit/{path.name}")
    return found


def core_index(root=ROOT):
    """[(file, signature, caption, lab ids, core functions)] for every public function of core/, in file order:
    its first docstring line, the labs that read it (labs_users) and the functions of core/ that call it."""
    core_users = defaultdict(set)
    trees = core_modules(root)
    for module, tree in trees.items():
        names, modules = imports(tree, "core")
        own = {f.name for f in public_functions(tree)}
        callers = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
        for function in callers:  # a class's methods call functions too (Value calls as_value)
            for node in ast.walk(function):
                used = None
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    used = names.get(node.id) or ((module, node.id) if node.id in own else None)
                elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
                    used = (modules[node.value.id], node.attr)
                if used and used != (module, function.name):
                    core_users[used].add(function.name)
    labs_of = lab_users(root)
    index = []
    for module, tree in trees.items():
        for function in public_functions(tree):
            doc = (ast.get_docstring(function) or "").split("\n\n")[0]
            key = (module, function.name)
            index.append(
                (
                    f"core/{module}.py",
                    f"{function.name}({ast.unparse(function.args)})",
                    " ".join(doc.split()),
                    sorted(labs_of.get(key, ())),
                    sorted(core_users.get(key, ())),
                )
            )
    return index
