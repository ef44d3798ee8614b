"""Every check that concerns one lab, one after the other, with one summary line each.

    python scripts/check_lab.py <lab-id>        (make check LAB=<lab-id> builds the site first)

The checks: the contract (the module imports, renders at its defaults and
prints its state), its Python tests (pytest -k <id>: the contract tests over
every lab, its own tests/labs/test_<id>.py, its figures' descriptions, its
Italian), its suggested edits («Prova a cambiare…»), its page in Chromium
(tests/browser/test_every_lab.py), the layout at a phone and a desktop size
in the light and the dark scheme (scripts/layout_check.py --lab) and axe-core
(scripts/axe_report.py --lab). The site must be built. Exit status 1 if a
check fails; each failing check's output is printed before the summary.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PY = sys.executable
PYTEST = [PY, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"]


def only(lab_id):
    """A pytest -k expression for the tests parametrised with this lab, and not with a lab whose
    id ends with this one (-k vettori alone runs parole-come-vettori's tests too)."""
    return f"[{lab_id}] or [{lab_id}- or [{lab_id}: or chromium-{lab_id}] or test_{lab_id.replace('-', '_')}.py"


def checks(lab_id):
    """(name, command) of each check of one lab, in the order they run."""
    own = ROOT / "tests" / "labs" / f"test_{lab_id.replace('-', '_')}.py"
    return [
        ("contratto", [PY, "-m", "labs", "run", lab_id, "--html"]),
        (
            "test Python",
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
            ],
        ),
        (
            "modifiche suggerite",
            [
                *PYTEST,
                "-k",
                only(lab_id),
                "tests/test_code.py::test_a_suggested_edit_shows_what_it_promises",
            ],
        ),
        ("pagina nel browser", [*PYTEST, "-k", only(lab_id), "tests/browser/test_every_lab.py"]),
        (
            "impaginazione (telefono e desktop, chiaro e scuro)",
            [PY, "scripts/layout_check.py", "--lab", lab_id, "--verbose"],
        ),
        ("accessibilità (axe-core, chiaro e scuro)", [PY, "scripts/axe_report.py", "--lab", lab_id]),
    ]


def closing_line(output):
    """The last non-empty line of a command's output (pytest's count, a script's total)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
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
    for name, command in checks(lab_id):
        began = time.monotonic()
        run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        seconds = time.monotonic() - began
        ok = run.returncode == 0
        if not ok:
            print(f"── {name}: {' '.join(command[1:])}\n{run.stdout[-6000:]}{run.stderr[-3000:]}", flush=True)
        results.append((ok, name, seconds, closing_line(run.stdout) or closing_line(run.stderr)))
    print(
        f"\n{lab_id}: {sum(ok for ok, *_ in results)} controlli su {len(results)} passati "
        f"in {time.monotonic() - start:.0f} s"
    )
    for ok, name, seconds, last in results:
        print(f"{'ok  ' if ok else 'NO  '} {name} ({seconds:.0f} s): {last[:110]}")
    return 0 if all(ok for ok, *_ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
