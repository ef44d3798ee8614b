"""«Prova»: the experiments a lab's prose suggests, declared once.

A lab lists them in a module-level EXPERIMENTS list. Each is the sentence
the reader reads (Italian, short: what to try and what will be seen), the
settings it makes (control values as the URL carries them, a stepped lab's
step included, and the folds it opens under «sezioni»), the part of the view
that shows the effect (an id the view gives, «vista-…», or a kit component's
part= name), the effect as a
check on the state the settings give (check(state) → True), and the words of
the prose's paragraph it belongs after.

One declaration, three uses: the page puts a «Prova» button after that
paragraph (prose_with_experiments, below; the runtime's experiments.js
sets the controls, every one it does not name to its default so that it
shows its promise whatever the reader did before (after_click), opens
their group, scrolls to the part and marks it,
and «Ripristina» puts the reader's settings back); the contract checks it at
import (experiments_problem: known controls, valid values, an existing
part, a paragraph that names it); the tests perform it
(tests/test_experiments.py: compute at the settings, run the check).
"""

import inspect
import re
import sys
from dataclasses import dataclass
from dataclasses import field
from typing import Callable

from .controls import flatten
from .controls import parse_params
from .edits import sounds_italian
from .errors import ParamError
from .errors import declared_at
from .folds import FOLDS_PARAM
from .folds import parse_folds
from .html import esc

PART = re.compile(r"[A-Za-z][A-Za-z0-9-]*")  # an id «vista-…» of the view, or a kit component's part= name
MAX_WORDS = 40  # a sentence the reader reads beside a button, not a paragraph


@dataclass(frozen=True, eq=False)
class Experiment:
    """Un esperimento che la prosa suggerisce, a un clic: «Prova».

    sentence: what the reader tries and sees, in Italian (one or two short
    sentences). settings: {control name: value} as the URL carries it
    (eta=0.5, passo=30; a toggle as True/False; FOLDS_PARAM opens folds).
    look: the part of the view that shows the effect: an id it gives («vista-…») or a part= name.
    check(state) → True when the state at these settings shows the effect.
    after: a few words of the prose's paragraph the button follows (they must
    appear once in the prose, line breaks read as spaces); empty, the button
    closes the prose.
    predict: a Question (kit.exercises) the reader answers before the «Prova» runs.
    """

    sentence: str
    settings: dict
    look: str
    check: Callable
    after: str = ""
    predict: "object | None" = None  # a kit Question («Prevedi») asked before the «Prova»
    where: str = field(default="", compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "where", declared_at())

    @property
    def data_set(self):
        """The settings as the runtime's data-set reads them: «eta=0.5;passo=30» (a toggle as 1 or 0)."""
        return ";".join(f"{name}={raw_value(value)}" for name, value in self.settings.items())


def raw_value(value):
    """A setting as the page writes it: a toggle as 1 or 0, a whole float without «.0», a text as it is."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def raw_settings(experiment):
    """{name: raw value}: the settings as the URL carries them, for labs.render and the lab's parse."""
    return {name: raw_value(value) for name, value in experiment.settings.items()}


def after_click(controls, before, experiment):
    """{name: raw value} the page holds after a «Prova» is clicked, from `before` (the page's raw values):
    a «Prova» sets the whole state it was written for, whatever the reader did before it. Every control the
    experiment names takes its value, every other one its default (experiments.js, from each input's
    data-default); folds it names are opened, the others stay as they were."""
    named = raw_settings(experiment)
    after = dict(before)
    for control in flatten(controls):
        after[control.name] = named.get(control.name, raw_value(control.default))
    if FOLDS_PARAM in named:
        opened = [f for f in str(after.get(FOLDS_PARAM, "")).split(",") if f]
        after[FOLDS_PARAM] = ",".join(dict.fromkeys(opened + named[FOLDS_PARAM].split(",")))
    return after


def source_of(module):
    """The lab's source and that of its helper modules («_…», beside it) whose functions it uses: the parts of
    the view may be named in a helper module that draws them."""
    package = module.__name__.rpartition(".")[0]
    helpers = {
        getattr(value, "__module__", None)
        for value in vars(module).values()
        if callable(value) and str(getattr(value, "__module__", "")).startswith(f"{package}._")
    }
    texts = []
    for part in (module, *(sys.modules[name] for name in sorted(helpers) if name in sys.modules)):
        try:
            texts.append(inspect.getsource(part))
        except (OSError, TypeError):
            pass
    return "\n".join(texts)


def experiment_problem(module, experiment, controls, folds, prose, source):
    """None if one experiment is sound for this lab, else one Italian line (without the place)."""
    if not isinstance(experiment, Experiment):
        return (
            f"in EXPERIMENTS c'è {type(experiment).__name__}, non un Experiment(frase, settings, look, check) del kit"
        )
    sentence = experiment.sentence
    if not isinstance(sentence, str) or not sentence.strip():
        return "un esperimento ha la frase vuota: scrivi in italiano che cosa provare e che cosa si vedrà"
    head = f"l'esperimento «{sentence[:50]}»"
    if not sounds_italian(re.sub(r"«[^»]*»", " ", sentence)):  # a quoted token («one») is not prose
        return f"{head}: la frase dev'essere in italiano"
    if len(sentence.split()) > MAX_WORDS:
        return f"{head}: la frase è lunga {len(sentence.split())} parole (al massimo {MAX_WORDS}): accorciala"
    if re.search(r"[*_`$<>]", sentence):
        return f"{head}: la frase è testo semplice (niente Markdown, formule o HTML)"
    settings = experiment.settings
    if not isinstance(settings, dict) or not settings:
        return f"{head}: settings dev'essere un dizionario non vuoto {{nome del comando: valore}}"
    for name, value in settings.items():
        if any(c in raw_value(value) for c in ";="):
            return f"{head}: il valore di «{name}» non può contenere «;» o «=» (viaggiano in data-set)"
    raw = raw_settings(experiment)
    try:
        parse_params(controls, {k: v for k, v in raw.items() if k != FOLDS_PARAM}, strict=True)
        parse_folds(raw.get(FOLDS_PARAM, ()), folds, strict=True)
    except ParamError as error:
        return f"{head}: settings non va ({error})"
    for control in flatten(controls):
        if control.kind == "slider" and control.name in raw:
            k = (float(raw[control.name]) - control.min) / control.step
            if abs(k - round(k)) > 1e-9 * max(1.0, abs(k)):
                return (
                    f"{head}: «{control.name}» = {raw[control.name]} non si raggiunge a passi di "
                    f"{control.step:g} da {control.min:g}: il cursore non potrebbe mostrarlo"
                )
    look = experiment.look
    if not isinstance(look, str) or not PART.fullmatch(look):
        return f"{head}: look dev'essere una parte della vista, un id come «vista-scodella» o un part= (è {look!r})"
    if f'"{look}"' not in source and f"'{look}'" not in source:
        return (
            f'{head}: la vista non dà a nessuna parte il nome «{look}» (scrivi id="vista-…" o part="{look}" nella view)'
        )
    if not callable(experiment.check):
        return f"{head}: check dev'essere una funzione check(stato) → True se l'effetto c'è"
    after = experiment.after
    if not isinstance(after, str):
        return f"{head}: after dev'essere qualche parola del paragrafo della prosa che l'esperimento segue"
    found = flat(prose).count(flat(after)) if after else 1
    if found != 1:
        found = "non c'è" if found == 0 else f"compare {found} volte"
        return f"{head}: after «{after}» {found} nella prosa (deve comparire una volta sola)"
    return None


def flat(text):
    """A text with its line breaks and runs of spaces as single spaces: `after` is matched on this."""
    return " ".join(text.split())


def experiments_problem(module, controls):
    """(place, Italian line) of the first unsound experiment of the lab, or None."""
    experiments = getattr(module, "EXPERIMENTS", ())
    if not isinstance(experiments, (list, tuple)):
        return None, f"EXPERIMENTS dev'essere una lista di Experiment(…) del kit (è {type(experiments).__name__})"
    prose = module.__doc__ or ""
    source = source_of(module)
    folds = tuple(getattr(module, "FOLDS", ()))
    sentences = set()
    for experiment in experiments:
        problem = experiment_problem(module, experiment, controls, folds, prose, source)
        if problem is None and experiment.sentence in sentences:
            problem = f"l'esperimento «{experiment.sentence[:50]}» è ripetuto: ogni esperimento vuole la sua frase"
        if problem:
            return getattr(experiment, "where", None), problem
        sentences.add(experiment.sentence)
    return None


class Reading(dict):
    """Uno stato che annota quali chiavi legge il check di un esperimento (per dire che cosa ha visto)."""

    def __init__(self, state):
        super().__init__(state)
        self.read = []

    def __getitem__(self, key):
        self.note(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.note(key)
        return super().get(key, default)

    def note(self, key):
        if key not in self.read and key in self:
            self.read.append(key)


def shown_value(value):
    """A value of the state as a failure message shows it: short, a long list by its length and its last items."""
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)) and len(value) > 4:
        return f"[{len(value)} valori, gli ultimi {', '.join(shown_value(v) for v in value[-3:])}]"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(shown_value(v) for v in value) + "]"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def parts_of(html):
    """The names an experiment's look can point at in a drawn view: its ids and its data-part names."""
    return re.findall(r'\s(?:id|data-part)="([^"]+)"', str(html))


def experiment_failure(experiment, state, html):
    """None if the experiment shows what it promises in this state and view (drawn at its settings), else
    one Italian line: which part is missing from the view (and which it has), or what its check read
    in the state and what it answered."""
    head = f"l'esperimento «{experiment.sentence}», con {experiment.settings}"
    reading = Reading(state if isinstance(state, dict) else {})
    try:
        answer = experiment.check(reading if isinstance(state, dict) else state)
    except Exception as error:  # a check that breaks says where, not just False
        return f"{head}: check(stato) si è interrotto: {type(error).__name__}: {error}"
    if not answer:
        seen = "; ".join(f"{key} = {shown_value(dict.__getitem__(reading, key))}" for key in reading.read)
        return f"{head}: check(stato) ha dato {answer!r}" + (
            f" leggendo {seen}" if seen else " (senza leggere nessuna chiave dello stato)"
        )
    names = parts_of(html)
    if experiment.look not in names:
        have = ", ".join(sorted(set(names))) or "nessuna"
        return f"{head}: la parte «{experiment.look}» non è nella vista disegnata (le parti con un nome: {have})"
    return None


def box(lab_id, experiments, answers=None):
    """The «Prova» buttons of some experiments, as one block of raw HTML for the Markdown prose (one line:
    Markdown ends a raw block at a blank line). The runtime (experiments.js) finds it by data-experiments.
    experiments: [(index in EXPERIMENTS, Experiment)]; answers: {index: (answer file, checkpoint file or None)}
    of the answers the build ships beside the page (labs.answers), given to its button as data-answer and
    data-checkpoint."""
    from .exercises import question_html  # here: only the build writes the prose

    answers = answers or {}
    items = "".join(
        '<li class="lab-experiment">'
        + (question_html(e.predict, f"{lab_id}/{i}") if e.predict is not None else "")
        + '<button type="button" class="md-button" data-experiment '
        f'data-set="{esc(e.data_set)}" data-look="{esc(e.look)}"'
        + "".join(
            f' data-{kind}="{esc(name)}"' for kind, name in zip(("answer", "checkpoint"), answers.get(i, ())) if name
        )
        + (
            # with a question before it, the sentence (which tells the answer) waits for the reader's guess
            ' aria-label="Prova: fai l\'esperimento della domanda">Prova</button> '
            f"<span data-predict-sentence hidden>{esc(e.sentence)}</span></li>"
            if e.predict is not None
            else f' aria-label="Prova: {esc(e.sentence)}">Prova</button> <span>{esc(e.sentence)}</span></li>'
        )
        for i, e in experiments
    )
    return (
        f'<div class="lab-experiments" data-experiments="{esc(lab_id)}" role="group" aria-label="Esperimenti">'
        f'<ul>{items}</ul><p class="lab-experiments-undo" hidden><button type="button" class="md-button" '
        f"data-experiment-undo>Ripristina</button> <span>i comandi come li avevi lasciati</span></p></div>"
    )


# The prose is Markdown, and Markdown passes HTML through: a token written «<fine>» would become a tag the page
# swallows. A «<» that opens a tag the prose may use stays; any other is written &lt; and shows as written.
# Formulas ($…$, $$…$$, read by KaTeX as written) and code (`…`, shown as written by Markdown) are left alone.
PROSE_TAGS = ("abbr", "br", "code", "em", "kbd", "small", "strong", "sub", "sup")
AS_WRITTEN = re.compile(
    r"(\$\$.+?\$\$|(?<![\\$])\$(?=\S)[^$]+?(?<=[^\s\\])\$(?![$\d])|`+[^`]*?`+)"
    rf"|<(?!/?(?:{'|'.join(PROSE_TAGS)})\b)(?=[/!?A-Za-z])",
    re.S,
)


def prose_text(prose):
    """The prose with every «<» that does not open one of PROSE_TAGS written &lt; (see AS_WRITTEN)."""
    return AS_WRITTEN.sub(lambda m: m.group(1) or "&lt;", prose)


def prose_with_experiments(prose, lab_id, experiments, answers=None):
    """The prose, its text shown as written (prose_text), with each experiment's «Prova» after the paragraph
    its `after` words are in (those without, after the last paragraph): one box per paragraph, the experiments in their declared order. answers:
    {index in experiments: (answer file, checkpoint file)} of the answers shipped beside the page (see box)."""
    paragraphs = re.split(r"\n\s*\n", prose)
    boxes = {}
    for i, e in enumerate(experiments):
        at = next((k for k, p in enumerate(paragraphs) if e.after and flat(e.after) in flat(p)), len(paragraphs) - 1)
        boxes.setdefault(at, []).append((i, e))
    out = []
    for k, paragraph in enumerate(paragraphs):
        out.append(prose_text(paragraph))
        if k in boxes:
            out.append(box(lab_id, boxes[k], answers))
    return "\n\n".join(out)


__all__ = [
    "Experiment",
    "after_click",
    "box",
    "experiment_failure",
    "experiments_problem",
    "prose_text",
    "prose_with_experiments",
    "raw_settings",
    "raw_value",
]
