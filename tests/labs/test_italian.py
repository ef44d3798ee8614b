"""Italian on every page: nouns agree with the count before them, articles
with the number after them («1 passo», «gli 11 token», «l'8 %»), at the
defaults, at each control's extremes and at random settings; in a stepped
lab at the first two, a middle and the last step of each (the last one a slow
training reaches in about a third of a second, away from its defaults), and
at the step where its machine stopped early. `-k <lab id>` runs one lab."""

import random
import re
from html import unescape as html_unescape

import pytest
from test_stepping import reach

import labs
from labs.kit.controls import Choice, Slider, Toggle
from labs.kit.stepping import ENDED

LABS = labs.all_labs()
# inputs on which a stepped lab's machine stops before its last step (tried here too, and in test_counters)
STOPS_EARLY = {
    "bpe": {"corpus": "aaa aaa ab"},  # 5 merges, then no pair is left
    "backprop-due-strati": {"eta": 2.0, "w1": 3.0},  # at step 4 the next step would carry w₂ past ±100
    "giro-del-token": {"frase": "tua", "testo": ""},  # no sentence: no trip to follow
}


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


# plural nouns that must not follow a lone «1» (byte, token, GPU are the same in the singular)
NOUNS = (
    "passi",
    "strati",
    "volte",
    "regole",
    "fusioni",
    "coppie",
    "teste",
    "gomiti",
    "numeri",
    "parole",
    "righe",
    "colonne",
    "dimensioni",
    "candidati",
    "assi",
    "indici",
    "miliardi",
    "milioni",
    "risposte",
    "frasi",
    "fogli",
    "posizioni",
    "matrici",
    "blocchi",
    "parametri",
    "neuroni",
    "token aggiunti",
    "token estratti",
    "ore",
    "giorni",
    "anni",
    "minuti",
    "esempi",
    "vettori",
    "caselle",
    "moltiplicazioni",
    "confronti",
)
ONE_PLURAL = re.compile(r"(?<![\d.,−+/×^])\b1 (" + "|".join(NOUNS) + r")\b")
# «i 8», «sui 11», «il 80 %», «il 1,5 %»: a number read with a vowel wants gli / l'
VOWEL = r"(?:8[\d.]*|11(?:\.\d{3})*|1(?:,\d+)?)(?![\d.])"
WRONG_ARTICLE = re.compile(rf"\b(?:tutti i|[Ii]|sui|dei|ai|nei|dai|il|del|al|nel|sul|dal) {VOWEL}(?=[ %,])")


def settings(lab, count=12):
    """Defaults, every control at its extremes one at a time (a text also empty), the lab's input that
    stops early, and random settings."""
    controls = [c for c in lab.params_list if c.kind in ("slider", "choice", "toggle", "text")]
    yield {}
    for c in controls:
        values = (
            [c.min, c.max]
            if isinstance(c, Slider)
            else [v for v, _ in c.options]
            if isinstance(c, Choice)
            else [True, False]
            if isinstance(c, Toggle)
            else [""]
        )
        for v in values:
            yield {c.name: v}
    if lab.id in STOPS_EARLY:
        yield STOPS_EARLY[lab.id]
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


def as_raw(params):
    return {k: str(int(v) if isinstance(v, bool) else v) for k, v in params.items()}


def retrains(lab, raw):
    """Whether these settings train another machine than the defaults' (what a view only reads does not)."""
    view_only = getattr(lab.module.compute, "view_only", set())
    defaults = lab.defaults()
    return any(k not in view_only and str(v) != str(defaults.get(k)) for k, v in as_raw(raw).items())


def renders(lab, count=12):
    """(settings, labs.render's answer) for every setting of settings(); a stepped lab's at its first two
    steps (0 and 1: «1 fusione»), a middle one and its last (the last reach() allows, on a slow training
    away from the defaults) and at the step where the machine stopped, if it did."""
    tried = []
    for raw in settings(lab, count):
        if lab.parse(as_raw(raw)) in tried:  # an extreme that is the default: tried already
            continue
        tried.append(lab.parse(as_raw(raw)))
        if not lab.stepped:
            yield raw, labs.render(lab.id, as_raw(raw))
            continue
        last = reach(lab) if retrains(lab, raw) else lab.steps.max
        seen, result = set(), None
        for step in (0, 1, last // 2, last, None):
            if step is None:  # where the machine stopped, seen from the last step
                end = (result.get("state_end") or {}).get("at")
                if end is None or end in seen:
                    break
                step = end
            if step in seen:
                continue
            seen.add(step)
            at = {**raw, lab.steps.name: step}
            result = labs.render(lab.id, as_raw(at))
            result["state_end"] = lab.compute(lab.parse(as_raw(at))).get(ENDED) if result["ok"] else None
            yield at, result


def visible_text(html):
    return unescape(re.sub(r"<[^>]+>", " ", html))


def read_text(result):
    """What a reader sees or hears: the view's and the timeline's text, the aria labels, the reasons
    beside disabled controls."""
    html = result["html"] + result.get("timeline", "")
    text = visible_text(html) + " " + " ".join(re.findall(r'aria-label="([^"]*)"', html))
    return text + " " + " ".join(f.get("disabled") or "" for f in result.get("controls", {}).values())


@pytest.mark.parametrize("lab", LABS, ids=[lab.id for lab in LABS])
def test_numbers_and_words_agree(lab):
    for raw, result in renders(lab):
        assert result["ok"], result.get("error")
        text = read_text(result)
        one = ONE_PLURAL.search(text)
        assert not one, f"{lab.id} {raw}: «…{text[max(0, one.start() - 40) : one.end() + 20]}…»"
        article = WRONG_ARTICLE.search(text)
        assert not article, f"{lab.id} {raw}: «…{text[max(0, article.start() - 40) : article.end() + 20]}…»"


def test_the_patterns_catch_what_they_should():
    for bad in (
        "con 1 strati",
        "compare 1 volte",
        "tutti i 11 token",
        "il 8 %",
        "sui 11 token",
        "il 1,5 %",
        "dopo 1 passi",
        "il 80 %",
    ):
        assert ONE_PLURAL.search(bad) or WRONG_ARTICLE.search(bad), bad
    for good in (
        "con 1 strato",
        "tutti gli 11 token",
        "l'8 %",
        "il 1.000",
        "il 110",
        "21 passi",
        "0,1 volte",
        "1 token",
        "il 18 %",
        "x 1 × 2",
        "il 100 %",
    ):
        assert not (ONE_PLURAL.search(good) or WRONG_ARTICLE.search(good)), good
