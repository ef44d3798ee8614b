"""The lab contract, checked on every lab that build.py would find.

No lab is listed here: a new module under labs/ is picked up by itself.
"""

import json
import random
import re
from html import unescape
from html.parser import HTMLParser

import pytest
from test_stepping import reach

import labs
from labs.kit.controls import Choice, Slider, Steps, Text, Toggle

ALL = labs.all_labs()
IDS = [lab.id for lab in ALL]
XSS = "<script>alert(1)</script><img src=x onerror=alert(1)>"
NOT_A_NUMBER = re.compile(r"(?<![\w])(nan|inf|infinity)(?![\w])", re.IGNORECASE)
# An integer of four digits or more written without its thousands point (1000 for 1.000): not after a comma (the
# decimals of 0,0001) nor inside a word or a number already grouped
UNGROUPED = re.compile(r"(?<![\w.,/#&])\d{4,}(?![\w]|[.,]\d)")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class BalanceChecker(HTMLParser):
    """Fails on a closing tag that does not match the open one."""

    def __init__(self):
        super().__init__()
        self.stack = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> chiude <{self.stack[-1] if self.stack else '∅'}>"
        self.stack.pop()


def assert_renders(lab, params):
    """compute → a finite JSON-able state; view → balanced HTML."""
    state = lab.compute(params)
    labs.check_finite(state)
    json.dumps(state, allow_nan=False)
    view = lab.view(state)
    problem = labs.view_problem(lab, view)
    assert problem is None, problem
    html = str(view)
    assert html.strip()
    checker = BalanceChecker()
    checker.feed(html)
    checker.close()
    assert not checker.stack, f"tag non chiusi: {checker.stack}"
    assert not NOT_A_NUMBER.search(html), "NaN o infinito visibile nella vista"
    shown = text_of(html)
    ungrouped = UNGROUPED.search(shown)
    assert not ungrouped, (
        f"«{ungrouped.group()}» senza il punto delle migliaia: …{shown[max(0, ungrouped.start() - 40) : ungrouped.end() + 10]}…"
    )
    return state, html


def text_of(html):
    """The words a view shows: its text, without tags, styles or scripts, entities read."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def extremes(control):
    if isinstance(control, Slider):
        return [control.min, control.max, control.default]
    if isinstance(control, Steps):
        return [0, control.max, control.default]
    if isinstance(control, Choice):
        return [value for value, _ in control.options]
    if isinstance(control, Toggle):
        return [True, False]
    if isinstance(control, Text):
        return ["", control.default, "x" * control.max_length]
    raise AssertionError(f"controllo sconosciuto: {control}")


def random_value(control, rng, last=None):
    """A random value of the control; a step at most `last` (default: the control's max)."""
    if isinstance(control, Slider):
        return control.parse(rng.uniform(control.min, control.max))
    if isinstance(control, Steps):
        return rng.randint(0, control.max) % ((control.max if last is None else last) + 1)
    return rng.choice(extremes(control))


def test_labs_are_found():
    assert {"ombrello", "backprop-due-pesi"} <= set(IDS)


def test_ids_and_refs_are_unique():
    assert len(set(IDS)) == len(IDS)
    assert len({lab.ref for lab in ALL}) == len(ALL)


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_metadata_and_prose(lab):
    assert lab.title and lab.ref and lab.chapter.title
    assert len(lab.prose) > 200, "la prosa del laboratorio (docstring) è troppo corta"
    assert lab.path == f"{lab.chapter.slug}/{lab.id}/"
    assert lab.chapter.label.endswith(lab.chapter.title)
    names = [c.name for c in lab.params_list]
    assert len(set(names)) == len(names), "due controlli con lo stesso nome"


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_prerender(lab):
    result = labs.render(lab.id, {})
    assert result["ok"], result.get("error")
    assert result["params"] == lab.defaults()


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_every_control_at_its_extremes(lab):
    for control in lab.params_list:
        for value in extremes(control):
            params = {**lab.defaults(), control.name: value}
            assert_renders(lab, params)


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_random_settings(lab):
    """20 random settings. Where a step is expensive (3.2 trains a transformer: each setting is a new
    training, replayed from step 0) the random steps stay within a third of a second of replay
    (test_stepping.reach); the last step is rendered by the extremes test above."""
    rng = random.Random(f"contract-{lab.id}")
    last = reach(lab) if lab.stepped else None
    for _ in range(20):
        params = {c.name: random_value(c, rng, last) for c in lab.params_list}
        try:
            assert_renders(lab, params)
        except AssertionError as error:
            raise AssertionError(f"{lab.id} {params}: {error}") from error


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_compute_is_pure(lab):
    params = lab.defaults()
    before = json.dumps(params, sort_keys=True)
    first = json.dumps(lab.compute(params), sort_keys=True)
    assert json.dumps(lab.compute(params), sort_keys=True) == first
    assert json.dumps(params, sort_keys=True) == before, "compute ha modificato i parametri"


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_bad_raw_values_are_clamped_or_defaulted(lab):
    """What a URL can carry never crashes the lab: values end up in range. A value that lands on the
    last step is test_every_control_at_its_extremes's last step, drawn there (3.2: 1000 steps of
    training, 27 s in CPython): here only its clamping is checked."""
    last = {**lab.defaults(), lab.steps.name: lab.steps.max} if lab.stepped else None
    for control in lab.params_list:
        for raw in ("1e9", "-1e9", "abc", "", "nan", "inf", XSS):
            params = lab.parse({control.name: raw})
            value = params[control.name]
            if isinstance(control, (Slider, Steps)):
                low, high = (control.min, control.max) if isinstance(control, Slider) else (0, control.max)
                assert low <= value <= high
            if params == last:
                continue
            result = labs.render(lab.id, {control.name: raw})
            assert result["ok"], result.get("error")


@pytest.mark.parametrize(
    "lab",
    [lab for lab in ALL if any(isinstance(c, Text) for c in lab.params_list)]
    or [pytest.param(None, marks=pytest.mark.skip(reason="nessun laboratorio ha testo libero"))],
)
def test_text_controls_escape_what_the_reader_types(lab):
    for control in (c for c in lab.params_list if isinstance(c, Text)):
        for typed in ("", "a" * 100_000, XSS):
            result = labs.render(lab.id, {control.name: typed})
            html = result.get("html", "") + result.get("error", "")
            assert "<script" not in html and "<img" not in html


def test_strict_parsing_names_valid_params():
    lab = labs.get("ombrello")
    with pytest.raises(labs.ParamError, match="Parametri validi: nuvole"):
        lab.parse({"pioggiaa": "1"}, strict=True)
    with pytest.raises(labs.ParamError, match="tra 0.0 e 1.0"):
        lab.parse({"vento": "2"}, strict=True)


def test_a_lab_that_raises_gives_an_italian_error_not_an_exception(monkeypatch):
    lab = labs.get("ombrello")
    monkeypatch.setattr(lab.module, "compute", lambda p: 1 / 0)
    result = labs.render("ombrello", {})
    assert not result["ok"] and "non è riuscito" in result["error"]
    monkeypatch.setattr(lab.module, "compute", lambda p: (_ for _ in ()).throw(labs.LabError("Matrici incompatibili")))
    assert labs.render("ombrello", {})["error"] == "Matrici incompatibili"


def test_refs_sort_naturally_and_lettered_groups_come_last():
    refs = ["A.2", "9B.10", "1.10", "9D.2", "A.10", "1.2", "9B.2", "9D.1", "9C"]
    assert sorted(refs, key=labs.ref_key) == ["1.2", "1.10", "9B.2", "9B.10", "9C", "9D.1", "9D.2", "A.2", "A.10"]


def test_chapter_labels_and_paths():
    assert labs.Chapter("1", "Dal testo al modello").label == "Capitolo 1 · Dal testo al modello"
    assert labs.Chapter("1", "x").slug == "capitolo-1"
    extra = labs.Chapter("A", "Approfondimenti: il blocco")
    assert extra.label == "Approfondimenti: il blocco" and extra.slug == "approfondimenti-a"


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_no_group_holds_a_primary_control(lab):
    """A primary control is drawn in the lab's bar, so inside a group it would sit outside the group on a wide
    screen, beside the controls it was declared with."""
    for group in (c for c in lab.controls if c.kind == "group"):
        primary = [c.name for c in group.controls if getattr(c, "primary", False)]
        assert not primary, f"il gruppo «{group.label}» contiene controlli principali: {', '.join(primary)}"


# words that point at the page or at what came before: on a home-page card, alone, they point at nothing
NOT_ALONE = re.compile(r"^(qui|qua|ecco|sotto|sopra|poi|ora|adesso|come prima)\b|\b(qui|qua) (sotto|sopra)\b", re.I)


@pytest.mark.parametrize("lab", ALL, ids=IDS)
def test_the_card_text_is_a_first_sentence_that_stands_alone(lab):
    """The home page's card shows the prose's first sentence (lab.blurb): a whole sentence, not «Qui sotto…»."""
    card = lab.blurb
    assert re.search(r"[.!?]$", card), f"«{card}»: la prima frase della prosa non finisce"
    assert 20 <= len(card) <= 260, f"«{card}»: troppo corta o troppo lunga per una scheda"
    assert not NOT_ALONE.search(card), f"«{card}»: sulla scheda della home non sta in piedi da sola"
