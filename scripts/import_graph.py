"""The import graph of the Python side, layer by layer, read from the sources with ast.

    python scripts/import_graph.py           # every module, its layer, its lines and what it imports
    python scripts/import_graph.py --check   # only the cycles and the upward imports (exit status 1 if any)

The layers, from the bottom: core/ (the maths) → labs/kit/ (the kit) → the
labs (labs/ch*/, on core and the kit alone) → the lab engine (registry,
drawing, worker API) → the code panel (labs/code.py) → the package labs
(labs/__init__.py, which only re-exports) → build.py, the command line and
scripts/. A module imports its own layer or lower ones, never in a cycle.
Every import counts, the ones inside functions too; a relative import is
resolved from its file's package; an import under
`if __name__ == "__main__"` does not (it runs only as a script).
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitebuild.wheels import import_statements  # noqa: E402

LAYERS = ("core", "kit", "lab", "engine", "code panel", "package labs", "build, CLI, scripts")
ENGINE = {"labs.registry", "labs.drawing", "labs.worker_api", "labs.answers"}
TOP = {"build", "labs.__main__", "labs.cli", "labs.scaffold", "labs.styles"}


def module_files(root=ROOT):
    """{module name: path} for core/, labs/, sitebuild/, build.py and scripts/*.py (a script is «scripts.name»)."""
    found = {"build": root / "build.py"}
    for package in ("core", "labs", "sitebuild"):
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    for path in sorted((root / "scripts").glob("*.py")):
        found[f"scripts.{path.stem}"] = path
    return found


def layer(module):
    """The layer's index in LAYERS for one of our modules."""
    if module == "core" or module.startswith("core."):
        return 0
    if module == "labs.kit" or module.startswith("labs.kit."):
        return 1
    if module.startswith("labs.ch"):
        return 2
    if module in ENGINE:
        return 3
    if module in ("labs.code", "labs.code_exercises"):
        return 4
    if module == "labs":
        return 5
    if module in TOP or module.startswith(("scripts.", "sitebuild")):
        return 6
    raise LookupError(f"{module}: no layer for this module (add it to scripts/import_graph.py)")


def imports(module, path, known):
    """[(imported module, line)]: the modules of ours that module's file imports
    (sitebuild.wheels.import_statements). «from a import b» is the module a.b when there is one, else a;
    «import a.b.c» the longest of a.b.c, a.b, a that is ours."""

    def ours(name):
        if name.startswith("scripts.") or name in known:
            return name if name in known else None
        script = f"scripts.{name}"
        return script if module.startswith("scripts.") and script in known else None

    found = []
    for line, base, names in import_statements(path, module):
        if names:
            found += [(name, line) for alias in names if (name := ours(f"{base}.{alias}") or ours(base))]
        else:
            parts = base.split(".")
            prefixes = (".".join(parts[:n]) for n in range(len(parts), 0, -1))
            name = next(filter(None, map(ours, prefixes)), None)
            if name:
                found.append((name, line))
    return sorted(set(found), key=lambda item: (item[1], item[0]))


def graph(root=ROOT):
    """{module: [(imported module, line)]} for every module of ours, itself left out."""
    files = module_files(root)
    return {
        module: [(target, line) for target, line in imports(module, path, files) if target != module]
        for module, path in files.items()
    }


def cycles(edges):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target, _ in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def problems(root=ROOT):
    """One line per problem: each import inside a cycle, each import that goes up a layer, naming both files."""
    files = module_files(root)
    edges = graph(root)

    def where(module):
        return files[module].relative_to(root).as_posix()

    lines = []
    for component in cycles(edges):
        members = set(component)
        for module in component:
            for target, line in edges[module]:
                if target in members:
                    lines.append(
                        f"cycle: {where(module)}:{line} imports {where(target)} "
                        f"(cycle of {', '.join(where(m) for m in component)})"
                    )
    for module, targets in sorted(edges.items()):
        for target, line in targets:
            if layer(target) > layer(module):
                lines.append(
                    f"upward: {where(module)}:{line} ({LAYERS[layer(module)]}) imports "
                    f"{where(target)} ({LAYERS[layer(target)]})"
                )
    return lines


def line_counts(root=ROOT):
    """{layer name: (modules, lines)}."""
    counts = {name: [0, 0] for name in LAYERS}
    for module, path in module_files(root).items():
        count = counts[LAYERS[layer(module)]]
        count[0] += 1
        count[1] += len(path.read_text(encoding="utf-8").splitlines())
    return {name: tuple(count) for name, count in counts.items()}


def report(root=ROOT):
    """The graph as text: layer by layer, each module with its lines and what it imports; then the totals."""
    files = module_files(root)
    edges = graph(root)
    out = []
    for number, name in enumerate(LAYERS):
        out.append(f"== {number} {name}")
        for module in sorted(m for m in files if layer(m) == number):
            lines = len(files[module].read_text(encoding="utf-8").splitlines())
            targets = sorted({target for target, _ in edges[module]})
            out.append(f"  {module} ({lines}) → {', '.join(targets) if targets else '–'}")
    out.append("")
    out.append(f"{'layer':22} {'modules':>7} {'lines':>7}")
    for name, (modules, lines) in line_counts(root).items():
        out.append(f"{name:22} {modules:7} {lines:7}")
    return "\n".join(out)


def main(argv):
    found = problems()
    if "--check" not in argv:
        print(report())
    print(f"\n{len(found)} problems" + (":" if found else ""))
    for line in found:
        print(f"  {line}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
