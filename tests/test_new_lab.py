"""A new author's first step, end to end: `labs new --dopo softmax-temperatura`
in a copy of the repository gives a lab that every non-browser test judging a
lab (run at this lab) and its page in Chromium accept as it is (in the browser
group: it builds a site and starts Chromium)."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COPIED = (
    "core",
    "labs",
    "sitebuild",
    "tests",
    "templates",
    "scripts",
    "build.py",
    "pyproject.toml",
    "mkdocs.yml",
    "package.json",
    "package-lock.json",
    "Makefile",
    "README.md",
)
LAB_ID = "temperatura-prova"
MODULE = LAB_ID.replace("-", "_")
NOT_BROWSER = ("-m", "not browser and not engines", "tests")
TOOLING = ("tests/test_dev_loop.py", "tests/test_new_stepped_lab.py")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """The repository's sources in a temporary folder, node_modules linked (its packages, not ours)."""
    target = tmp_path_factory.mktemp("nuovo") / "repo"
    target.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=skip)
        elif source.exists():
            shutil.copy2(source, target / name)
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    return target


def run(copy, *args, timeout):
    from sitebuild.answers import CACHE

    env = {k: v for k, v in os.environ.items() if not k.startswith(("LABS_", "PYTEST_", "SITE_URL"))}
    env["LABS_ANSWERS_DIR"] = str(CACHE)  # the same sources give the same answers: make build's, not again
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)


def judges_the_new_lab(node):
    """True for a test id that checks the new lab: its own test file, a test over all labs at this lab, a test
    with no parameters outside tests/labs/ (a rule over the whole site), or any test of the built site. core/'s
    own tests are not among them: core/ imports nothing of labs/ (tests/test_layers.py), so no lab changes them;
    nor are the tests that build a copy of the repository to judge the authors' tools (make dev, a stepped lab
    made by labs new): they judge the tools on labs of their own, whatever labs the copy has."""
    if "::" not in node or node.startswith(("tests/test_core_", *TOOLING)):
        return False
    if node.startswith("tests/labs/"):
        return node.startswith(f"tests/labs/test_{MODULE}.py")
    if node.startswith("tests/test_site.py"):  # every page lists every lab: the others' pages change too
        return True
    return "[" not in node or LAB_ID in node or MODULE in node


def test_a_new_lab_after_softmax_temperatura_passes_every_test(copy):
    start = time.monotonic()
    made = run(copy, "-m", "labs", "new", "--dopo", "softmax-temperatura", LAB_ID, "Temperatura di prova", timeout=120)
    assert made.returncode == 0, made.stderr
    assert "REF 9E.1" in made.stdout and (copy / "tests" / "labs" / "test_temperatura_prova.py").exists()
    listed = run(copy, "-m", "labs", "list", timeout=120).stdout.split("\n")
    ids = [line.split()[1] for line in listed if line.strip()]
    assert ids[ids.index("softmax-temperatura") + 1] == LAB_ID
    built = run(copy, "build.py", timeout=900)
    assert built.returncode == 0, built.stderr[-3000:]
    # the suite as it judges this lab: every test over all labs at this lab, the rules no parameter splits,
    # and the lab's own test file (the other labs' own tests and their parameters do not depend on a new lab)
    collected = run(copy, "-m", "pytest", "-q", "--collect-only", "-p", "no:randomly", *NOT_BROWSER, timeout=600)
    assert collected.returncode == 0, collected.stdout[-3000:]
    chosen = [node for node in collected.stdout.splitlines() if judges_the_new_lab(node)]
    assert any(MODULE in node for node in chosen) and any("[" not in node for node in chosen)
    (copy / "scelti.txt").write_text("\n".join(chosen) + "\n")
    suite = run(
        copy,
        "-m",
        "pytest",
        "-q",
        "-x",
        "-n",
        "2",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        "@scelti.txt",
        timeout=3000,
    )
    assert suite.returncode == 0, suite.stdout[-6000:]
    assert " passed" in suite.stdout.splitlines()[-1] and "failed" not in suite.stdout.splitlines()[-1]
    page = run(
        copy,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        "-k",
        LAB_ID,
        "tests/browser/test_every_lab.py",
        timeout=900,
    )
    assert page.returncode == 0 and " passed" in page.stdout, page.stdout[-4000:]
    print(
        f"\nlabs new → suite verde: {time.monotonic() - start:.0f} s "
        f"({suite.stdout.splitlines()[-1]}; pagina: {page.stdout.splitlines()[-1]})"
    )
