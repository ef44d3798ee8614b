"""Every check that concerns one lab, one after the other, with one summary sentence each.

    python scripts/check_lab.py <lab-id>        (make check LAB=<lab-id> builds the site first)

The checks: the contract (the module imports, renders at its defaults and
prints its state), ruff (check and format --check, the rules of make lint)
on the lab's own files (its module, the helper modules beside it that it
imports, its test), its Python tests (pytest -k <id>: the contract tests over
every lab, its own tests/labs/test_<id>.py, its figures' descriptions, its
Italian), the tests of the core/ modules it imports (tests/test_core_<name>.py,
those modules' own imports of core/ included), its suggested edits («Prova a
cambiare…»), its page in Chromium (tests/browser/test_every_lab.py), the
layout at a phone and a desktop size in the light and the dark scheme
(scripts/layout_check.py --lab) and axe-core (scripts/axe_report.py --lab).
The site must be built. Exit status 1 if a check fails; each failing check's
output is printed before the summary.

    python scripts/check_lab.py --al-salvataggio <lab-id> …   (make dev, after each save)

The same checks but the contract (make dev has just run it), in the background
of make dev: first the rules that name a lab's declarations (the experiments'
count and promises, compute's purity, Italian at every setting, the arithmetic:
a few seconds), then the other Python tests, the page, the layout and axe. Each
failing check is one line, the file and the line of the lab it is about first,
for the terminal and the page's banner.
"""

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PY = sys.executable
PYTEST = [PY, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"]
RUFF = str(Path(PY).parent / "ruff")


@dataclass(frozen=True)
class Check:
    """One check of a lab: its name, the commands it runs from ROOT one after the other (it passes when
    every one exits 0), and said(ok, output) → the summary sentence, in Italian."""

    name: str
    commands: list
    said: Callable


def only(lab_id):
    """A pytest -k expression for the tests parametrised with this lab, and not with a lab whose
    id ends with this one (-k vettori alone runs parole-come-vettori's tests too)."""
    return f"[{lab_id}] or [{lab_id}- or [{lab_id}: or chromium-{lab_id}] or test_{lab_id.replace('-', '_')}.py"


def counts(output):
    """{"passed": n, "failed": n, …} read off pytest's closing line (-q): «3 passed, 1 skipped in 2.0s»."""
    line = closing_line(output)
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|errors?|deselected)", line)}


def tests_said(what):
    """said() for a pytest check: «passano i 12 test Python …» or «falliscono 2 test Python su 12 …»."""

    def said(ok, output):
        n = counts(output)
        passed, failed = n.get("passed", 0), n.get("failed", 0) + n.get("error", 0) + n.get("errors", 0)
        skipped = {0: "", 1: ", 1 saltato"}.get(n.get("skipped", 0), f", {n.get('skipped')} saltati")
        if ok:
            return f"{'passa 1 test' if passed == 1 else f'passano {passed} test'} {what}{skipped}"
        if failed:
            return f"{'fallisce 1 test' if failed == 1 else f'falliscono {failed} test'} {what} su {passed + failed}"
        return f"i test {what} non sono partiti: {closing_line(output)[:100]}"

    return said


def lab_files(lab):
    """The lab's module and the helper modules of its chapter («_…») it imports, as paths from ROOT."""
    from sitebuild.wheels import import_statements

    module = Path(lab.module.__file__).resolve()
    chapter = lab.module.__name__.rpartition(".")[0]
    files = [module]
    for _, base, names in import_statements(module, lab.module.__name__):
        for name in (base, *(f"{base}.{n}" for n in names)):
            helper = ROOT / Path(*name.split(".")).with_suffix(".py")
            if name.startswith(f"{chapter}._") and helper.exists() and helper not in files:
                files.append(helper)
    return [f.relative_to(ROOT) for f in files]


def core_modules(files):
    """The core/ modules the files import, and those these import in turn: their names («descent», …)."""
    from sitebuild.wheels import import_statements

    found, todo = [], [(ROOT / f, ".".join(Path(f).with_suffix("").parts)) for f in files]
    while todo:
        path, module = todo.pop()
        for _, base, names in import_statements(path, module):
            for name in (base, *(f"{base}.{n}" for n in names)):
                parts = name.split(".")
                source = ROOT / Path(*parts).with_suffix(".py")
                if parts[0] == "core" and len(parts) == 2 and source.exists() and parts[1] not in found:
                    found.append(parts[1])
                    todo.append((source, name))
    return sorted(found)


def ruff_said(files):
    def said(ok, output):
        if ok:
            return f"ruff (check e format) non trova niente da correggere in {', '.join(map(str, files))}"
        first = next((line.strip() for line in output.splitlines() if line.strip()), "")
        return f"ruff trova da correggere ({first[:90]}): «ruff format» e «ruff check --fix» sistemano quasi tutto"

    return said


def contract_said(ok, output):
    if ok:
        return "il contratto è rispettato: il modulo si importa, si disegna ai valori iniziali e stampa il suo stato"
    return f"il contratto non è rispettato: {closing_line(output)[:160]}"


def layout_said(ok, output):
    if ok:
        return "l'impaginazione va bene su telefono e desktop, nel tema chiaro e in quello scuro"
    total = output.split("in totale", 1)[-1]
    broken = [m.group(1) for m in re.finditer(r"^(\S+)\s+(\d+) / \d+", total, re.M) if int(m.group(2))]
    return f"l'impaginazione non va: {', '.join(broken) or closing_line(output)[:100]} (i dettagli sono sopra)"


def axe_said(ok, output):
    if ok:
        return "axe-core non trova problemi gravi di accessibilità, nel tema chiaro e in quello scuro"
    return "axe-core trova problemi gravi di accessibilità (le regole sono sopra)"


def checks(lab_id):
    """The checks of one lab, in the order they run."""
    import labs

    lab = labs.get(lab_id)
    own = ROOT / "tests" / "labs" / f"test_{lab_id.replace('-', '_')}.py"
    files = lab_files(lab) + ([own.relative_to(ROOT)] if own.exists() else [])
    core = core_modules(lab_files(lab))
    core_tests = [f"tests/test_core_{name}.py" for name in core if (ROOT / "tests" / f"test_core_{name}.py").exists()]
    return [
        Check("contratto", [[PY, "-m", "labs", "run", lab_id, "--html"]], contract_said),
        Check(
            "ruff",
            [[RUFF, "check", "--quiet", *map(str, files)], [RUFF, "format", "--check", "--quiet", *map(str, files)]],
            ruff_said(files),
        ),
        Check(
            "test Python",
            [
                [
                    *PYTEST,
                    "-n",
                    "2",
                    "-m",
                    "not browser",
                    "-k",
                    only(lab_id),
                    "tests",
                    *([str(own)] if own.exists() else []),
                ]
            ],
            tests_said("Python del laboratorio"),
        ),
        Check(
            "test di core/",
            [[*PYTEST, "-n", "2", *core_tests]] if core_tests else [],
            tests_said(f"di core/ che il laboratorio usa ({', '.join(core)})")
            if core_tests
            else lambda ok, output: "il laboratorio non importa moduli di core/ che abbiano un test",
        ),
        Check(
            "esercizi",
            [[*PYTEST, "-k", only(lab_id), "tests/test_exercises.py"]] if getattr(lab.module, "EXERCISES", ()) else [],
            tests_said("degli esercizi (il riferimento passa i suoi casi, ogni sbaglio tipico è preso)")
            if getattr(lab.module, "EXERCISES", ())
            else lambda ok, output: "il laboratorio non ha esercizi",
        ),
        Check(
            "modifiche suggerite",
            [[*PYTEST, "-k", only(lab_id), "tests/test_code.py::test_a_suggested_edit_shows_what_it_promises"]],
            tests_said("delle modifiche suggerite («Prova a cambiare…»)"),
        ),
        Check(
            "pagina nel browser",
            [[*PYTEST, "-k", only(lab_id), "tests/browser/test_every_lab.py"]],
            tests_said("della pagina nel browser"),
        ),
        Check(
            "impaginazione (telefono e desktop, chiaro e scuro)",
            [[PY, "scripts/layout_check.py", "--lab", lab_id, "--verbose"]],
            layout_said,
        ),
        Check("accessibilità (axe-core, chiaro e scuro)", [[PY, "scripts/axe_report.py", "--lab", lab_id]], axe_said),
    ]


# the tests of the rules that name a lab's declarations: what make dev reports first after a save
RULE_TESTS = (
    "tests/test_experiments.py",
    "tests/test_contract.py",
    "tests/labs/test_italian.py",
    "tests/test_arithmetic.py",
    "tests/test_descriptions.py",
)
# a failing rule test → the declaration of the lab it is about (else the line the failure quotes, else view)
DECLARED_BY = {"test_every_lab_suggests_at_least_two_experiments": "EXPERIMENTS", "test_compute_is_pure": "compute"}


def save_checks(lab_id):
    """The checks make dev runs in the background after a save: make check's but the contract, the rules
    first (RULE_TESTS), every pytest one telling where a failure happened (--tb=short)."""
    found = {check.name: check for check in checks(lab_id) if check.name != "contratto"}
    python = found.pop("test Python")
    rules = Check(
        "regole",
        [[*PYTEST, "-m", "not browser", "-k", only(lab_id), *RULE_TESTS]],
        tests_said(
            "sulle regole (esperimenti, purezza di compute, italiano a ogni impostazione, conti, descrizioni delle figure)"
        ),
    )
    rest = Check(python.name, [[*python.commands[0], *(f"--ignore={path}" for path in RULE_TESTS)]], python.said)
    ordered = [found.pop("ruff"), rules, rest, *found.values()]
    return [
        Check(c.name, [[*cmd, "--tb=short"] if cmd[:3] == PYTEST[:3] else cmd for cmd in c.commands], c.said)
        for c in ordered
    ]


def failure_lines(lab, check, output):
    """A line for each failure of a failed check (each failed test of a pytest one): where in the lab (file and
    line), the check's sentence, and the test's own words (its first «E» line)."""
    sentence = check.said(False, output)
    # pytest --tb=short: a section per failure, «___ test_name[lab] ___», then its frames and «E» lines
    sections = re.split(r"^_+ (?:ERROR at \w+ of )?(\w+)\S* _+$", output, flags=re.M)
    failures = list(zip(sections[1::2], sections[2::2])) or [("", output)]
    return [
        f"{where_in(lab, test, text)}: {sentence}" + (f": {said[:240]}" if (said := said_by(text)) else "")
        for test, text in failures
    ]


def said_by(text):
    """The first «E» line of a pytest failure, without its «E»; empty if there is none."""
    found = re.search(r"^E +(.+)$", text, re.M)
    return found.group(1) if found else ""


def where_in(lab, test, text):
    """The lab's file and line a failure is about: the last frame of a traceback in the lab's files (pytest
    --tb=short «labs/ch2/x.py:12: in compute», a linter's «x.py:12:5»), the declaration the failed rule is
    about (DECLARED_BY), the line that holds most of the words the failure quotes, or the line of view."""
    from labs.kit.errors import line_of, place

    files = [str(f) for f in lab_files(lab)]
    frames = [(f, int(n)) for f, n in re.findall(r"(?:^|--> )(\S+\.py):(\d+):", text, re.M) if f in files]
    if frames:
        return place(ROOT / frames[-1][0], frames[-1][1])
    if test in DECLARED_BY and line_of(lab.module, DECLARED_BY[test]):
        return place(ROOT / files[0], line_of(lab.module, DECLARED_BY[test]))
    return quoted_line(files, said_by(text)) or place(ROOT / files[0], line_of(lab.module, "view"))


def quoted_line(files, said):
    """The place of the line of the lab's files that shares most words (three at least) with what a failure
    says, or None."""
    from labs.kit.errors import place

    words = set(re.findall(r"[^\W\d_]{3,}", said))
    best, where = 2, None
    for file in files:
        for number, line in enumerate((ROOT / file).read_text(encoding="utf-8").splitlines(), 1):
            found = len(words & set(re.findall(r"[^\W\d_]{3,}", line)))
            if found > best:
                best, where = found, place(ROOT / file, number)
    return where


def at_save(lab_ids):
    """make dev's background checks of the saved labs: a line for each failed check, as soon as it fails."""
    import labs

    failed = 0
    for lab_id in lab_ids:
        lab = labs.get(lab_id)
        for check in save_checks(lab_id):
            ok, output = run_check(check, show=False)
            if not ok:
                failed += 1
                for line in failure_lines(lab, check, output):
                    print(line, flush=True)
    return 1 if failed else 0


def run_check(check, show=True):
    """(ok, output) of a check's commands, one after the other until one fails (show: its output printed)."""
    ok, output = True, ""
    for command in check.commands:
        run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        output += run.stdout + run.stderr
        if run.returncode:
            if show:
                print(f"── {check.name}: {' '.join(command[1:])}\n{run.stdout[-6000:]}{run.stderr[-3000:]}", flush=True)
            return False, output
    return ok, output


def closing_line(output):
    """The last non-empty line of a command's output (pytest's count, a script's total)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--al-salvataggio"]:
        return at_save(argv[1:])
    if len(argv) != 1 or argv[0].startswith("-"):
        sys.exit("uso: python scripts/check_lab.py <id del laboratorio> (oppure make check LAB=<id>)")
    lab_id = argv[0]
    import labs

    try:
        labs.get(lab_id)
    except (LookupError, labs.ContractError) as error:
        sys.exit(f"errore: {error}")
    if not (ROOT / "site" / "index.html").exists() and "LABS_SITE_DIR" not in os.environ:
        sys.exit("errore: manca il sito: make build (make check LAB=… lo costruisce da sé)")
    start, results = time.monotonic(), []
    for check in checks(lab_id):
        began = time.monotonic()
        ok, output = run_check(check)
        results.append((ok, check.said(ok, output), time.monotonic() - began))
    passed = sum(ok for ok, *_ in results)
    print(f"\n{lab_id}: {summary_head(passed, len(results))}, in {time.monotonic() - start:.0f} s.")
    for ok, sentence, seconds in results:
        print(f"{'ok ' if ok else 'NO '} {sentence[:1].upper()}{sentence[1:]} ({seconds:.0f} s).")
    return 0 if passed == len(results) else 1


def summary_head(passed, total):
    """«passano tutti i controlli (8 su 8)» or «passano 6 controlli su 8»."""
    if passed == total:
        return f"passano tutti i controlli ({total} su {total})"
    return f"{'passa 1 controllo' if passed == 1 else f'passano {passed} controlli'} su {total}"


if __name__ == "__main__":
    sys.exit(main())
