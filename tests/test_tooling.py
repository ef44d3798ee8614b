"""The helper scripts that make and the tests rely on."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIND = ROOT / "scripts" / "find-python.sh"


def test_find_python_gives_a_working_312_or_newer():
    out = subprocess.run(["bash", str(FIND)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    version = subprocess.run(
        [out.stdout.strip(), "-c", "import sys; print(sys.version_info[:2] >= (3, 12))"], capture_output=True, text=True
    )
    assert version.stdout.strip() == "True"


def test_find_python_says_clearly_when_there_is_none(tmp_path):
    # a PATH with only a fake python3.12 that does not work, and no pyenv
    fake = tmp_path / "python3.12"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    env = {"PATH": f"{tmp_path}:/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run(["/bin/bash", str(FIND)], capture_output=True, text=True, env=env)
    if out.returncode == 0:  # the machine has a system Python >= 3.12 in /usr/bin
        assert out.stdout.strip().startswith("/usr/")
        return
    assert "Nessun Python >= 3.12" in out.stderr and "PYTHON=" in out.stderr


def test_python_env_override_is_tried_first():
    out = subprocess.run(
        ["bash", str(FIND)], capture_output=True, text=True, env={"PYTHON": sys.executable, "PATH": "/usr/bin:/bin"}
    )
    assert out.returncode == 0 and Path(out.stdout.strip()).resolve() == Path(sys.executable).resolve()


@pytest.mark.parametrize("lab_id", ["vettori"])  # its id ends another lab's: the hard case
def test_make_check_selects_each_test_file_s_tests_of_that_lab_and_no_other(lab_id):
    """make check LAB=… (scripts/check_lab.py) runs every test file it names with one -k expression:
    each must select exactly that lab's tests (a file where it selects none would report a failure)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from check_lab import checks, only

    for name, command in ((check.name, command) for check in checks(lab_id) for command in check.commands):
        files = [part for part in command if isinstance(part, str) and part.startswith("tests/")]
        if "-k" not in command or not files:
            continue
        collected = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "--collect-only",
                "-q",
                "-p",
                "no:cacheprovider",
                "-k",
                only(lab_id),
                *files,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert collected.returncode == 0, f"«{name}»: {collected.stdout[-300:]}{collected.stderr[-300:]}"
        ids = [line for line in collected.stdout.splitlines() if "::" in line]
        assert ids, f"«{name}»: nessun test selezionato"
        assert all(lab_id in i and "parole-come-vettori" not in i for i in ids if "[" in i), (name, ids)


def test_every_name_a_script_imports_from_another_script_is_there():
    """A script that moves a name (bench.py into bench_page.py, say) must not leave another script, or the
    part of one that runs only with a flag, importing it from where it was: read with ast, imports inside
    functions too."""
    import importlib

    from sitebuild.wheels import import_statements

    scripts = {path.stem: path for path in (ROOT / "scripts").glob("*.py")}
    missing = []
    for name, path in sorted(scripts.items()):
        for line, base, names in import_statements(path, f"scripts.{name}"):
            if base in scripts and names:
                module = importlib.import_module(base)
                missing += [f"scripts/{name}.py:{line}: {base}.{n}" for n in names if not hasattr(module, n)]
    assert not missing, "\n".join(missing)


def test_make_check_runs_ruff_on_the_lab_s_files_and_the_tests_of_the_core_modules_it_imports():
    sys.path.insert(0, str(ROOT / "scripts"))
    from check_lab import checks

    found = {check.name: check for check in checks("learning-rate")}
    for command in found["ruff"].commands:
        assert "labs/ch2/learning_rate.py" in command and "tests/labs/test_learning_rate.py" in command
        assert subprocess.run(command, cwd=ROOT, capture_output=True).returncode == 0, command
    assert [c[-1] for c in found["test di core/"].commands] == ["tests/test_core_descent.py"]
    helpers = {
        str(part)
        for command in dict((c.name, c) for c in checks("transformer-allenato"))["ruff"].commands
        for part in command
    }
    assert "labs/ch3/_allenato_viste.py" in helpers  # a helper module beside the lab is the lab's own file too


@pytest.mark.parametrize("fails", [False, True])
def test_every_make_check_summary_line_reads_as_a_sentence(fails, monkeypatch, capsys):
    """With the outputs the checks really end with («}» of the state's JSON, «error 0 / 1» of the layout's
    table, pytest's counts), each summary line is an Italian sentence with its seconds, never a raw last line."""
    import types

    sys.path.insert(0, str(ROOT / "scripts"))
    import check_lab

    def fake_run(command, **kwargs):
        joined = " ".join(map(str, command))
        if "pytest" in joined:
            out, code = ("2 failed, 46 passed, 1 skipped in 3.1s", 1) if fails else ("48 passed, 1 skipped in 3.1s", 0)
        elif "layout_check" in joined:
            out, code = (
                ("in totale\noverlap     1 / 1  learning-rate\nerror       0 / 1", 1)
                if fails
                else ("in totale\nerror       0 / 1", 0)
            )
        elif "axe_report" in joined:
            out, code = "dark, 1 pagine: {'critical': 0, 'serious': 0}", 0
        else:
            out, code = '{\n  "lab": "learning-rate"\n}', 0
        return types.SimpleNamespace(returncode=code, stdout=out, stderr="")

    monkeypatch.setattr(check_lab.subprocess, "run", fake_run)
    monkeypatch.setenv("LABS_SITE_DIR", str(ROOT / "site"))
    status = check_lab.main(["learning-rate"])
    printed = capsys.readouterr().out.rsplit("\nlearning-rate: ", 1)[1].strip().splitlines()
    assert status == (1 if fails else 0)
    head, lines = printed[0], printed[1:]
    assert head.startswith("passano 4 controlli su 9" if fails else "passano tutti i controlli (9 su 9)"), head
    assert len(lines) == 9
    for line in lines:
        assert re.fullmatch(r"(ok |NO ) [A-ZÈ][^{}]*\(\d+ s\)\.", line), line
        assert " / " not in line and "passed" not in line and "error" not in line, line
    if fails:
        assert any(line.startswith("NO  Falliscono 2 test Python del laboratorio su 48") for line in lines), lines
        assert any("L'impaginazione non va: overlap" in line for line in lines), lines
