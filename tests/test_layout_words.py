"""Words of place that stay true: the page has two layouts (a phone: one column; a wide screen: the controls
in a left column beside the view), so «sopra», «sotto», «a sinistra», «in alto» … about the page are true in
one of them at most. The prose and the view name a part with a link instead ([la tabella](#vista-casi)), to
an id the view gives that part. Every other use of those words must be one of the few that speak of
something else: a matrix's diagonal, a chart's line, a number («sotto i 90°»), a direction on a plane.
"""

import re
import sys
from pathlib import Path

import pytest

import labs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_arithmetic import read  # noqa: E402  the lines of a view as a reader reads them

ALL = labs.all_labs()
PLACE = re.compile(r"\b(?:qui sotto|qui sopra|sopra|sotto|a sinistra|a destra|in alto|in basso)\b(?!-)", re.I)
NOT_THE_PAGE = [
    re.compile(p, re.I)
    for p in (
        r"sopra la diagonale",  # of a matrix
        r"da sinistra a destra|da destra a sinistra",  # the flow of a network or a chain
        r"(?:passi?|verso) (?:a )?destra",  # a direction on a plane
        r"a sinistra del fondo|positivo a destra",  # the two sides of a parabola's bottom
        r"(?:sopra|sotto) (?:i |lo |la |l')?(?:[−\d]|zero)",  # a number: «sotto i 90°», «sopra 1», «sopra lo zero»
        r"sotto (?:la|le) radic",  # the root sign
        r"(?:sopra|sotto) (?:la|quella) (?:retta|linea|media|del)",  # a chart's line, an average, another curve
        r"sotto la media|sopra la media",
        r"scende (?:più in basso|sotto il)",  # a loss or a ranking that goes down
        r"più è in alto",  # a point of a plane
        r"bordo (?:in alto|a sinistra)",  # the edges of a table the reader reads
    )
]
LINK = re.compile(r"\]\(#([\w-]+)\)")


def places(text):
    """Each word of place in the text with the words around it, unless a phrase that speaks of something else
    than the page (NOT_THE_PAGE) holds it."""
    spared = [(m.start(), m.end()) for p in NOT_THE_PAGE for m in p.finditer(text)]
    return [
        text[max(0, m.start() - 30) : m.end() + 30].strip()
        for m in PLACE.finditer(text)
        if not any(a <= m.start() and m.end() <= b for a, b in spared)
    ]


def control_ids(lab):
    return {f"{lab.id}-{c.name}" for c in lab.params_list}


@pytest.mark.parametrize("lab", ALL, ids=[lab.id for lab in ALL])
def test_no_word_of_place_about_the_page(lab):
    result = labs.render(lab.id, {})
    lines, _ = read(result["html"])
    texts = [" ".join(lab.prose.split()), *lines]
    texts += [str(getattr(c, attr, "") or "") for c in lab.params_list for attr in ("label", "help")]
    found = [p for text in texts for p in places(text)]
    assert not found, f"{lab.id}: parole di luogo false in uno dei due layout: «{'», «'.join(found[:4])}»"


@pytest.mark.parametrize("lab", ALL, ids=[lab.id for lab in ALL])
def test_a_link_of_the_prose_finds_its_part(lab):
    """A link #x of the prose names one element of the view as first drawn (or a control, or the lab's heading)."""
    targets = LINK.findall(lab.prose)
    if not targets:
        return
    html = labs.render(lab.id, {})["html"]
    ids = re.findall(r'\sid="([^"]+)"', html)
    for target in targets:
        if target in control_ids(lab) or target == "laboratorio":
            continue
        assert ids.count(target) == 1, f"{lab.id}: il link #{target} della prosa trova {ids.count(target)} parti"


@pytest.mark.parametrize("lab", ALL, ids=[lab.id for lab in ALL])
def test_ids_of_the_view_are_unique(lab):
    html = labs.render(lab.id, {})["html"]
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert not set(ids) & (control_ids(lab) | {"laboratorio"})


def test_a_word_of_place_about_the_page_is_found():
    assert places("Prova i valori di η sotto il grafico.")
    assert places("Qui sotto un modello linguistico vero.")
    assert not places("la maschera cancella le caselle sopra la diagonale")
    assert not places("positivo sotto i 90°, negativo oltre")
