"""An author's stepped lab, end to end: `labs new --dopo learning-rate … --passi` in a copy of the repository
writes a lab at 2.4.1, between 2.4 and 2.5, with no other lab's REF changed, and every check of
`make check LAB=…` (scripts/check_lab.py, after a build) passes on it as written (in the browser group: it
builds a site and starts Chromium)."""

import json
import time

import pytest
from test_new_lab import copy, run  # noqa: F401 (copy: the fixture, the repository's sources in a temporary folder)

LAB_ID = "neurone-a-passi"

pytestmark = pytest.mark.browser


def refs(copy):  # noqa: F811
    listed = run(copy, "-m", "labs", "list", "--json", timeout=120)
    assert listed.returncode == 0, listed.stderr
    return {lab["id"]: lab["ref"] for lab in map(json.loads, listed.stdout.splitlines())}


def test_a_stepped_lab_after_learning_rate_passes_make_check_as_written(copy):  # noqa: F811
    start = time.monotonic()
    before = refs(copy)
    made = run(
        copy, "-m", "labs", "new", "--dopo", "learning-rate", LAB_ID, "Un neurone a passi", "--passi", timeout=120
    )
    assert made.returncode == 0, made.stderr
    assert "REF 2.4.1" in made.stdout and (copy / "tests" / "labs" / "test_neurone_a_passi.py").exists()
    after = refs(copy)
    assert {k: v for k, v in after.items() if k != LAB_ID} == before  # nobody else renumbered
    ids = list(after)
    assert ids[ids.index("learning-rate") + 1] == LAB_ID and after[LAB_ID] == "2.4.1"
    built = run(copy, "build.py", timeout=900)
    assert built.returncode == 0, built.stderr[-3000:]
    checked = run(copy, "scripts/check_lab.py", LAB_ID, timeout=1800)
    assert checked.returncode == 0, checked.stdout[-8000:]
    assert "passano tutti i controlli" in checked.stdout and "\nNO " not in checked.stdout
    print(f"\nlabs new --passi → make check verde: {time.monotonic() - start:.0f} s\n{checked.stdout[-1500:]}")
