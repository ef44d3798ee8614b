"""«Prova a cambiare…»: edits a lab suggests to its own code.

A lab declares, in a module-level EDITS list, one to three changes to the
code its «Il codice Python» panel shows, each a lesson the reader sees in
the figure: the softmax without the max overflows at +1000, a tie broken
the other way changes a merge. The panel offers each as a button; one
click opens the editor with the change made, runs it and goes to the
changed line, and «Ripristina» undoes it. Discovery checks each edit
against the panel's text (labs/kit/listing.py), and the tests apply every edit
and run its `check` on the states before and after (tests/test_code.py).
"""

import re
from dataclasses import dataclass
from dataclasses import field
from typing import Callable

# words that give an English sentence away and are not Italian words
ENGLISH = {
    "the",
    "of",
    "and",
    "is",
    "are",
    "with",
    "by",
    "for",
    "from",
    "when",
    "each",
    "every",
    "its",
    "it",
    "that",
    "this",
    "one",
    "on",
    "to",
    "return",
    "returns",
    "compute",
    "computes",
    "which",
    "as",
    "at",
    "an",
    "be",
    "or",
    "into",
    "than",
    "without",
    "only",
    "after",
    "before",
    "how",
    "many",
    "where",
    "whether",
    "not",
    "both",
    "all",
    "whose",
    "their",
    "what",
    "gives",
    "given",
    "number",
    "numbers",
    "up",
    "down",
    "over",
    "between",
    "same",
    "other",
    "first",
    "last",
    "new",
    "times",
    "rows",
    "columns",
    "weights",
    "add",
    "multiply",
    "pairs",
    "then",
    "if",
    "has",
    "have",
    "can",
    "does",
    "there",
    "them",
    "these",
    "those",
    "most",
    "more",
    "less",
    "but",
    "also",
    "any",
    "was",
    "were",
    "will",
    "would",
}
# one of these is in any Italian sentence of more than a couple of words
ITALIAN = {
    "il",
    "lo",
    "la",
    "i",
    "gli",
    "le",
    "l",
    "un",
    "una",
    "uno",
    "di",
    "del",
    "dello",
    "della",
    "dei",
    "degli",
    "delle",
    "e",
    "è",
    "che",
    "per",
    "con",
    "da",
    "dal",
    "dalla",
    "dai",
    "in",
    "nel",
    "nella",
    "nei",
    "su",
    "sul",
    "sulla",
    "a",
    "al",
    "alla",
    "ai",
    "non",
    "ogni",
    "come",
    "tra",
    "se",
    "o",
    "quanti",
    "quante",
    "quanto",
    "sono",
    "ne",
    "si",
    "dove",
    "quando",
}


def english_words(text):
    """Le parole inglesi di un testo (nomi di codice tra `…` e identificatori esclusi)."""
    prose = re.sub(r"`[^`]*`", " ", text)
    return [w for w in (w.lower() for w in re.findall(r"[\w'’-]+", prose) if w.isalpha()) if w in ENGLISH]


def sounds_italian(text):
    """Se un testo ha parole italiane e nessuna parola inglese (un controllo grossolano, per le didascalie)."""
    words = {w.lower() for w in re.findall(r"\w+", re.sub(r"`[^`]*`", " ", text))}
    return bool(words & ITALIAN) and not english_words(text)


@dataclass(frozen=True, eq=False)
class Edit:
    """Una modifica suggerita al codice del pannello, con l'effetto che il lettore vedrà.

    change is (old, new): old appears exactly once in the panel's text and
    becomes new; or the whole new source of one function of the panel. title
    says the change and expect what the figure shows after it, both in
    Italian. params sets controls where the effect is seen (aggiunta=1000
    for an overflow) and opens the folds it shows in (sezioni="uscite").
    check(before, after), required, for the tests: True when the effect is there;
    before and after have .state (None on error), .html and .error (the
    Italian message the panel shows, or None).
    """

    title: str
    change: "tuple[str, str] | str"
    expect: str
    params: dict = field(default_factory=dict)
    check: "Callable | None" = None
