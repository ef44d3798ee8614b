"""«Esercizio» and «Prevedi»: the reader does the maths, the site says whether it is right.

An exercise asks the reader to write one function of core/ that the lab
really calls (it is in the lab's «Il codice Python» listing). The reference
is that function itself, never a second copy of the solution. The reader
starts from its signature, an Italian docstring and a body to fill; hidden
cases compare what the reader's function returns with what the reference
returns: first the edge cases the author names (a tie, zeros, huge values,
an empty input), then seeded random ones of the right shapes. The first
difference is told in Italian; when the reader's answer behaves there like
one of the typical wrong answers the author declares, the author's remark
comes with it. Once it passes, the lab runs on the reader's function
(labs/code_exercises.py, through the code panel's path).

A question («Prevedi») comes before a «Prova»: the reader predicts, then
sees the correction and the figure. It is declared on the Experiment it
precedes (Experiment(…, predict=Question(…))).

The contract (exercises_problem, questions_problem) checks all of it at
import; tests/test_exercises.py runs every reference against its cases
and every declared wrong answer against them.
"""

import inspect
import textwrap
from dataclasses import dataclass
from dataclasses import field
from typing import Callable

from .edits import english_words
from .edits import sounds_italian
from .errors import ContractError
from .errors import declared_at
from .errors import line_of
from .errors import place
from .html import esc

MIN_CASES = 6  # named and random together: fewer would let a lucky wrong answer through
MAX_CASES = 80  # every «Verifica» runs them all, in well under a second


@dataclass(frozen=True, eq=False)
class Case:
    """Un caso di prova che l'autore sceglie: gli argomenti e, in italiano, che cosa mette alla prova.

    args: the positional arguments of the call, plain data (lists, numbers,
    strings, tuples, dicts). why: a few Italian words said when the case
    fails («un pareggio», «logit enormi»)."""

    args: tuple
    why: str = ""


@dataclass(frozen=True, eq=False)
class Wrong:
    """Una risposta sbagliata tipica, con il commento che il lettore legge se la sua si comporta allo stesso modo.

    code: the whole source of a wrong version of the function (same name).
    remark: Italian, what is wrong and how to mend it. The checker must
    catch it (a test runs it against the cases), and a reader's function
    that fails a case the way this one does gets the remark."""

    code: str
    remark: str


@dataclass(frozen=True, eq=False)
class Exercise:
    """Un esercizio: il lettore scrive una funzione di core/ che il laboratorio usa.

    function: the core/ function asked for; it is the reference.
    task: Italian, what to write (a short paragraph, Markdown allowed).
    doc: the docstring the reader starts from (default: the reference's first line).
    given: lines of the body given to the reader (indented as in the body).
    body: what stands where the reader writes (default: a comment and «...»).
    hints: Italian hints, revealed one at a time.
    cases: the edge cases the author names (Case(args, why)).
    random: random(rng) → args, for seeded random cases of the right shapes; count of them.
    tolerance: relative (and absolute, near 0) difference allowed between floats.
    wrong: the typical wrong answers (Wrong(code, remark)), at least one.
    """

    function: Callable
    task: str
    cases: tuple
    wrong: tuple
    hints: tuple = ()
    random: "Callable | None" = None
    count: int = 20
    tolerance: float = 1e-9
    doc: str = ""
    given: str = ""
    body: str = ""
    where: str = field(default="", compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "where", declared_at())

    @property
    def name(self):
        return self.function.__name__

    @property
    def key(self):
        """What names the exercise in the page, the URL and the reader's saved progress: the function's name."""
        return self.name

    def starter(self):
        """The code the reader starts from: signature, Italian docstring, the given lines, the body to write."""
        signature = inspect.signature(self.function)
        doc = self.doc or first_line(self.function)
        given = textwrap.indent(textwrap.dedent(self.given).strip("\n"), "    ") + "\n" if self.given.strip() else ""
        body = textwrap.indent(textwrap.dedent(self.body).strip("\n"), "    ") + "\n" if self.body.strip() else BODY
        return f'def {self.name}{signature}:\n    """{doc}"""\n{given}{body}'

    def solution(self):
        """The reference's source: what «Soluzione» shows."""
        return textwrap.dedent(inspect.getsource(self.function))


BODY = "    # Scrivi qui il corpo della funzione.\n    ...\n"


def first_line(function):
    """The first paragraph of a function's docstring, on one line."""
    return (inspect.getdoc(function) or "").split("\n\n")[0].replace("\n", " ").strip()


@dataclass(frozen=True, eq=False)
class Question:
    """Una domanda «Prevedi» prima di un «Prova»: il lettore sceglie, poi vede la correzione e la figura.

    prompt: the question, Italian. options: two to five answers. answer:
    the index of the right one, or a tuple of indices when more are right
    (the reader then ticks every right one). explain: Italian, why, shown
    after the answer beside the figure."""

    prompt: str
    options: tuple
    answer: "int | tuple"
    explain: str

    @property
    def right(self):
        """The right options' indices, as a tuple."""
        return (self.answer,) if isinstance(self.answer, int) else tuple(self.answer)

    @property
    def multiple(self):
        return not isinstance(self.answer, int)


def exercise_problem(exercise, shown):
    """None if one exercise is sound (shown: the names of the functions the lab's code panel lists), else
    one Italian line (without the place)."""
    if not isinstance(exercise, Exercise):
        return f"in EXERCISES c'è {type(exercise).__name__}, non un Exercise(funzione, task, cases, wrong) del kit"
    function = exercise.function
    if not inspect.isfunction(function) or not function.__module__.startswith("core."):
        return f"l'esercizio chiede {function!r}: dev'essere una funzione di core/, il riferimento"
    head = f"l'esercizio su {exercise.name}"
    if exercise.name not in shown:
        return (
            f"{head}: il laboratorio non la usa (non è nel pannello del codice, che mostra "
            f"{', '.join(sorted(shown))}): la figura non potrebbe venire dalla funzione del lettore"
        )
    for what, text in (("task", exercise.task), ("il docstring di partenza", exercise.doc or first_line(function))):
        if not isinstance(text, str) or not sounds_italian(text):
            return f"{head}: {what} dev'essere in italiano ({text!r})"
    if not isinstance(exercise.hints, tuple) or not all(
        isinstance(h, str) and sounds_italian(h) for h in exercise.hints
    ):
        return f"{head}: hints dev'essere una tupla di suggerimenti in italiano"
    if not isinstance(exercise.cases, tuple) or not exercise.cases:
        return f"{head}: cases dev'essere una tupla di Case(argomenti, perché), almeno uno"
    for case in exercise.cases:
        if not isinstance(case, Case) or not isinstance(case.args, tuple):
            return f"{head}: in cases c'è {case!r}, non un Case((argomenti, …), perché)"
        if not isinstance(case.why, str) or english_words(case.why):
            return f"{head}: il perché del caso {case.args!r} dev'essere in italiano"
    if exercise.random is not None and not callable(exercise.random):
        return f"{head}: random dev'essere una funzione random(rng) → argomenti"
    total = len(exercise.cases) + (exercise.count if exercise.random else 0)
    if not MIN_CASES <= total <= MAX_CASES:
        return f"{head}: {total} casi in tutto (nominati e casuali): ne servono da {MIN_CASES} a {MAX_CASES}"
    if not isinstance(exercise.tolerance, float) or not 0 <= exercise.tolerance < 0.01:
        return f"{head}: tolerance è la differenza relativa ammessa, un float tra 0 e 0,01"
    if not isinstance(exercise.wrong, tuple) or not exercise.wrong:
        return f"{head}: wrong dev'essere una tupla di Wrong(codice, commento), almeno una risposta sbagliata tipica"
    for wrong in exercise.wrong:
        if not isinstance(wrong, Wrong):
            return f"{head}: in wrong c'è {wrong!r}, non un Wrong(codice, commento)"
        if not sounds_italian(wrong.remark):
            return f"{head}: il commento di una risposta sbagliata dev'essere in italiano ({wrong.remark!r})"
        if f"def {exercise.name}(" not in wrong.code:
            return f"{head}: il codice di una risposta sbagliata deve definire {exercise.name}(…)"
    return None


def exercises_problem(module, shown):
    """(place, Italian line) of the first unsound exercise of a lab, or None."""
    exercises = getattr(module, "EXERCISES", ())
    if not isinstance(exercises, (list, tuple)):
        return None, f"EXERCISES dev'essere una lista di Exercise(…) del kit (è {type(exercises).__name__})"
    names = set()
    for exercise in exercises:
        problem = exercise_problem(exercise, shown)
        if problem is None and exercise.name in names:
            problem = f"due esercizi chiedono {exercise.name}: uno per funzione"
        if problem:
            return getattr(exercise, "where", None), problem
        names.add(exercise.name)
    return None


def question_problem(question):
    """None if a «Prevedi» question is sound, else one Italian line."""
    if not isinstance(question, Question):
        return f"predict dev'essere una Question(domanda, opzioni, risposta, spiegazione) del kit, non {question!r}"
    head = f"la domanda «{str(question.prompt)[:50]}»"
    for what, text in (("la domanda", question.prompt), ("la spiegazione", question.explain)):
        if not isinstance(text, str) or not sounds_italian(text):
            return f"{head}: {what} dev'essere in italiano"
    options = question.options
    if not isinstance(options, tuple) or not 2 <= len(options) <= 5:
        return f"{head}: options dev'essere una tupla da due a cinque risposte"
    if not all(isinstance(o, str) and o.strip() for o in options) or len(set(options)) != len(options):
        return f"{head}: le risposte devono essere testi diversi e non vuoti"
    right = question.right
    if (
        not right
        or not all(isinstance(i, int) and 0 <= i < len(options) for i in right)
        or len(set(right)) != len(right)
    ):
        return f"{head}: answer dev'essere l'indice della risposta giusta (da 0 a {len(options) - 1}) o una tupla di indici"
    return None


def check_exercises(module, shown):
    """Raise ContractError, naming the line of the declaration, unless the lab's EXERCISES and the questions of
    its experiments are sound. shown: the names of the functions the lab's code panel lists (kit.listing)."""
    problem = exercises_problem(module, shown)
    if problem:
        where, message = problem
        raise ContractError(f"{where or place(module.__file__, line_of(module, 'EXERCISES'))}: {message}")
    for experiment in getattr(module, "EXPERIMENTS", ()):
        question = getattr(experiment, "predict", None)
        message = question_problem(question) if question is not None else None
        if message:
            raise ContractError(f"{experiment.where}: {message}")


def question_html(question, key):
    """A «Prevedi» question as the page shows it before its «Prova» (one line of raw HTML: the prose is
    Markdown). key names it in the reader's saved progress; the runtime's predict.js reads data-right."""
    kind = "checkbox" if question.multiple else "radio"
    options = "".join(
        f'<li><label><input type="{kind}" name="prevedi-{esc(key)}" value="{i}"> '
        f"<span>{esc(option)}</span></label></li>"
        for i, option in enumerate(question.options)
    )
    how = "Scegli tutte le risposte giuste" if question.multiple else "Scegli una risposta"
    return (
        f'<div class="lab-predict" data-predict="{esc(key)}" data-right="{",".join(map(str, question.right))}" '
        f'role="group" aria-label="Prevedi: {esc(question.prompt)}">'
        f'<p class="lab-predict-prompt"><strong>Prevedi.</strong> {esc(question.prompt)} '
        f'<span class="lab-predict-how">({how}, poi guarda la figura.)</span></p>'
        f'<ul class="lab-predict-options">{options}</ul>'
        f'<p class="lab-predict-actions"><button type="button" class="md-button md-button--primary" '
        f"data-predict-check disabled>Rispondi e prova</button> "
        f'<button type="button" class="md-button" data-predict-again hidden>Rispondi di nuovo</button></p>'
        f'<div class="lab-predict-result" data-predict-result role="status" hidden>'
        f'<p data-predict-verdict></p><p class="lab-predict-explain">{esc(question.explain)}</p></div></div>'
    )


__all__ = [
    "Case",
    "Exercise",
    "Question",
    "Wrong",
    "check_exercises",
    "exercise_problem",
    "exercises_problem",
    "question_html",
    "question_problem",
]
