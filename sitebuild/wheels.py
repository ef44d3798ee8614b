"""Stage 2a: the labs' Python as wheels for Pyodide, so that a page downloads only what its lab needs.

The base (the kit, labs/__init__), the modules of core/ that a lab imports, the lab's chapter (its
__init__ and _helpers) and the lab itself; the worker fetches the other labs when the reader is idle.
Each wheel's Requires-Dist names the wheels its imports need, which become the lockfile's "depends".
"""

import ast
import base64
import hashlib
import io
import re
import tomllib
import zipfile

from . import DIST, PACKAGE, ROOT, fail
from .slim import slim

# command line, build
NOT_IN_BROWSER = {"labs/__main__.py", "labs/answers.py", "labs/cli.py", "labs/scaffold.py", "labs/styles.py"}


def wheel_owner(module):
    """(package, the package it sits on) for the wheel that holds a module:
    labs.ch3.bigrammi → (laboratori-llm-ch3-bigrammi, laboratori-llm-ch3);
    labs.ch3._comune → (laboratori-llm-ch3, laboratori-llm); core.bpe → (laboratori-llm-core-bpe,
    laboratori-llm-core); core → (laboratori-llm-core, None); labs.kit.chart → (laboratori-llm, None)."""
    parts = module.split(".")
    if parts[0] == "core":  # a page gets only the maths its lab uses
        if len(parts) == 1:
            return f"{PACKAGE}-core", None
        return f"{PACKAGE}-core-{parts[1]}".replace("_", "-"), f"{PACKAGE}-core"
    if parts[0] != "labs" or len(parts) < 2 or not re.fullmatch(r"ch\w+", parts[1]):
        return PACKAGE, None
    chapter = f"{PACKAGE}-{parts[1]}".lower()
    if len(parts) > 2 and not parts[2].startswith("_"):
        return f"{chapter}-{parts[2]}".lower().replace("_", "-"), chapter
    return chapter, PACKAGE


def module_of(arcname):
    """core/bpe.py → core.bpe; labs/ch1/__init__.py → labs.ch1."""
    return arcname.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def import_statements(path, module):
    """(line, base, names) for every import of a source file, at any depth in it except under
    «if __name__ == "__main__"» (a helper's script part may import its lab): «import a.b» gives
    (line, "a.b", ()), «from .x import y, z» in the module p.m gives (line, "p.x", ("y", "z")): a relative
    import resolved from the file's package (a package's __init__ is its own)."""

    def main_block(node):
        return (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Compare)
            and ast.unparse(node.test).replace("'", '"') == '__name__ == "__main__"'
        )

    def walk(node):
        yield node
        for child in ast.iter_child_nodes(node):
            if not main_block(child):
                yield from walk(child)

    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            parts = (package[: len(package) - node.level + 1] if node.level else []) + (
                [node.module] if node.module else []
            )
            yield node.lineno, ".".join(parts), tuple(alias.name for alias in node.names)


def imported_modules(path, module):
    """Every module a source file imports when imported (import_statements): «from . import _comune»
    counts both the package and the module _comune, since either may be what it names."""
    found = set()
    for _, base, names in import_statements(path, module):
        found.add(base)
        found |= {f"{base}.{name}" for name in names}
    return found


def write_wheel(name, version, files, requires):
    """A pure-Python wheel (PEP 427) of {path in the wheel: source file}, the same bytes from the
    same sources (fixed dates), named by its content hash (its build tag) in DIST. The base's
    sources go in slimmed (sitebuild/slim.py): every page loads them and none shows them."""
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    entries = {
        arcname: slim(source.read_text(encoding="utf-8")).encode() if name == PACKAGE else source.read_bytes()
        for arcname, source in sorted(files.items())
    }
    entries[f"{info}/METADATA"] = "".join(
        [
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nRequires-Python: >=3.12\n",
            *(f"Requires-Dist: {r}\n" for r in sorted(requires)),
        ]
    ).encode()
    entries[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = [
        f"{arcname},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}"
        for arcname, data in entries.items()
    ]
    entries[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,", ""]).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for arcname, data in entries.items():
            entry = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    data = buffer.getvalue()
    wheel = DIST / f"{dist}-{version}-0{hashlib.sha256(data).hexdigest()[:12]}-py3-none-any.whl"
    wheel.write_bytes(data)
    return wheel


def dependency_cycle(requires):
    """The first cycle in {package: packages it requires}, as a list that starts and ends with the same
    package, or None: Pyodide's loadPackage would wait for ever on one."""
    for name in requires:
        todo = [(name, [name])]
        while todo:
            current, path = todo.pop()
            for other in requires[current]:
                if other == name:
                    return [*path, name]
                if other not in path:
                    todo.append((other, [*path, other]))
    return None


def plan_wheels():
    """(version, {package: {path in the wheel: source file}}, {package: the one it sits on},
    {package: the packages its imports need}): what build_wheels writes, without writing it."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    groups, parents = {}, {}  # package → {path in the wheel: source file}, package → the one it sits on
    for path in sorted([*(ROOT / "core").rglob("*.py"), *(ROOT / "labs").rglob("*.py")]):
        arcname = path.relative_to(ROOT).as_posix()
        if arcname not in NOT_IN_BROWSER and "__pycache__" not in arcname:
            name, parents[name] = wheel_owner(module_of(arcname))
            groups.setdefault(name, {})[arcname] = path
    requires = {}
    for name, files in groups.items():
        needed = {
            wheel_owner(m)[0]
            for arcname, path in files.items()
            for m in imported_modules(path, module_of(arcname))
            if m.split(".")[0] in ("core", "labs")
        }
        requires[name] = (needed | {parents[name]}) - {name, None}
    return version, groups, parents, requires


def lab_modules(groups, parents):
    """{lab module: its package}, for each module in a lab's own wheel, in plan_wheels' order."""
    return {
        module_of(arcname): name
        for name, files in groups.items()
        if parents[name] not in (PACKAGE, f"{PACKAGE}-core", None)
        for arcname in files
    }


def build_wheels():
    """[wheel], {lab module: its package}: the base, one wheel per core module, per chapter, per lab."""
    version, groups, parents, requires = plan_wheels()
    DIST.mkdir(parents=True, exist_ok=True)
    wheels = [write_wheel(name, version, files, requires[name]) for name, files in groups.items()]
    modules = lab_modules(groups, parents)
    cycle = dependency_cycle(requires)
    if cycle:
        fail(f"le wheel dipendono l'una dall'altra in cerchio: {' → '.join(cycle)}")
    return wheels, modules
