"""The site's prose is our own: no lab repeats the guide word for word.

The guide lives in ../shared/seeds beside the repository (CI has a copy
there too); without it the test is skipped.
"""

import re
from pathlib import Path

import pytest

import labs

SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"
RUN = 12  # words in a row: longer shared runs are copying, not a shared technical phrase


def shingles(text, n=RUN):
    words = text.split()
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


def is_prose(run):
    """A run made mostly of words, not of a formula or a list of numbers."""
    return sum(bool(re.fullmatch(r"[^\W\d_]{3,}[.,;:»]?", w)) for w in run.split()) >= 8


@pytest.fixture(scope="module")
def guide():
    files = sorted(SEEDS.glob("*.txt"))
    if not files:
        pytest.skip("la guida (../shared/seeds) non è accanto al repository")
    return shingles(" ".join(f.read_text(encoding="utf-8") for f in files))


@pytest.mark.parametrize("lab", labs.all_labs(), ids=lambda lab: lab.id)
def test_prose_is_not_copied_from_the_guide(lab, guide):
    copied = {run for run in shingles(lab.prose) & guide if is_prose(run)}
    assert not copied, f"{lab.id} ripete la guida parola per parola: «{sorted(copied)[0]}»"
