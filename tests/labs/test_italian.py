"""Italian on every page that is not a stepped lab: nouns agree with the
count before them, articles with the number after them («1 passo», «gli 11
token», «l'8 %»), at the defaults, at each control's extremes and at random
settings. (The stepped labs are being rebuilt: add them here when they are.)"""

import random
import re
from html import unescape as html_unescape

import pytest

import labs
from labs.kit.controls import Choice, Slider, Text, Toggle


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")

LABS = [lab for lab in labs.all_labs() if not lab.stepped]

# plural nouns that must not follow a lone «1» (byte, token, GPU are the same in the singular)
NOUNS = ("passi", "strati", "volte", "regole", "fusioni", "coppie", "teste", "gomiti", "numeri", "parole", "righe",
         "colonne", "dimensioni", "candidati", "assi", "indici", "miliardi", "milioni", "risposte", "frasi", "fogli",
         "posizioni", "matrici", "blocchi", "parametri", "neuroni", "token aggiunti", "token estratti", "ore",
         "giorni", "anni", "minuti", "esempi", "vettori", "caselle", "moltiplicazioni", "confronti")
ONE_PLURAL = re.compile(r"(?<![\d.,−+/×^])\b1 (" + "|".join(NOUNS) + r")\b")
# «i 8», «sui 11», «il 80 %», «il 1,5 %»: a number read with a vowel wants gli / l'
VOWEL = r"(?:8[\d.]*|11(?:\.\d{3})*|1(?:,\d+)?)(?![\d.])"
WRONG_ARTICLE = re.compile(rf"\b(?:tutti i|[Ii]|sui|dei|ai|nei|dai|il|del|al|nel|sul|dal) {VOWEL}(?=[ %,])")


def settings(lab, count=12):
    """Defaults, every control at its extremes one at a time, and random settings."""
    controls = [c for c in lab.params_list if not isinstance(c, Text)]
    yield {}
    for c in controls:
        values = ([c.min, c.max] if isinstance(c, Slider) else [v for v, _ in c.options] if isinstance(c, Choice)
                  else [True, False] if isinstance(c, Toggle) else [])
        for v in values:
            yield {c.name: v}
    rng = random.Random(lab.id)
    for _ in range(count):
        raw = {}
        for c in controls:
            if isinstance(c, Slider):
                raw[c.name] = c.parse(rng.choice([c.min, c.max, rng.uniform(c.min, c.max), c.min + c.step]))
            elif isinstance(c, Choice):
                raw[c.name] = rng.choice([v for v, _ in c.options])
            elif isinstance(c, Toggle):
                raw[c.name] = rng.random() < 0.5
        yield raw


def visible_text(html):
    return unescape(re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("lab", LABS, ids=[lab.id for lab in LABS])
def test_numbers_and_words_agree(lab):
    for raw in settings(lab):
        result = labs.render(lab.id, {k: str(int(v) if isinstance(v, bool) else v) for k, v in raw.items()})
        assert result["ok"], result.get("error")
        html = result["html"]
        text = visible_text(html) + " " + " ".join(re.findall(r'aria-label="([^"]*)"', html))
        text += " " + " ".join(f.get("disabled") or "" for f in result.get("controls", {}).values())
        one = ONE_PLURAL.search(text)
        assert not one, f"{lab.id} {raw}: «…{text[max(0, one.start() - 40):one.end() + 20]}…»"
        article = WRONG_ARTICLE.search(text)
        assert not article, f"{lab.id} {raw}: «…{text[max(0, article.start() - 40):article.end() + 20]}…»"


def test_the_patterns_catch_what_they_should():
    for bad in ("con 1 strati", "compare 1 volte", "tutti i 11 token", "il 8 %", "sui 11 token", "il 1,5 %",
                "dopo 1 passi", "il 80 %"):
        assert ONE_PLURAL.search(bad) or WRONG_ARTICLE.search(bad), bad
    for good in ("con 1 strato", "tutti gli 11 token", "l'8 %", "il 1.000", "il 110", "21 passi", "0,1 volte",
                 "1 token", "il 18 %", "x 1 × 2", "il 100 %"):
        assert not (ONE_PLURAL.search(good) or WRONG_ARTICLE.search(good)), good
