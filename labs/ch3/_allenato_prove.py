"""Gli esperimenti di 3.2 (labs/ch3/transformer_allenato.py, i pulsanti «Prova»): che cosa provare, a quali
impostazioni, e la verifica sullo stato che l'effetto promesso ci sia."""

from core.bigram import make_pairs
from core.bigram import tokenize
from labs.kit import Experiment

from ._allenato_regole import CORPUS
from ._allenato_regole import ROLES
from ._allenato_regole import STEPS

KNOWN_PAIRS = frozenset(make_pairs(tokenize(CORPUS)))  # the word pairs of the default text


def first_difference(a, b):
    """Where two texts of words part (the length of the shorter if one begins the other)."""
    a, b = a.split(), b.split()
    return next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def followers(text, word):
    """The words that come after `word` in a text."""
    words = text.split()
    return {b for a, b in zip(words, words[1:]) if a == word}


def cold_sampling(s):
    """At a low temperature the transformer follows greedy past the first sentence and parts on a verb; the
    bigram parts sooner, and still picks more than one word after «il»."""
    g = s["samples"]
    greedy, sampled = g["transformer"]
    at = first_difference(greedy, sampled)
    return (
        at > greedy.split().index(".") + 5
        and ROLES.get(sampled.split()[at]) == "b"
        and first_difference(*g["bigram"]) < at
        and len(followers(g["bigram"][1], "il")) > 1
    )


def new_pairs(s):
    """Whether the sampled text of the transformer (after its prompt) has a pair of words the text has not."""
    words = (s["samples"]["prompt"] + " " + s["samples"]["transformer"][1]).split()
    return any(pair not in KNOWN_PAIRS for pair in zip(words, words[1:]))


# the training at its defaults: an experiment about the training sets all of it (the reader may have changed it)
TRAINING = {"token": "parole", "d": "16", "teste": "2", "blocchi": "1", "lr": 0.004, "seme": 0}

EXPERIMENTS = [
    Experiment(
        "Alla fine del training, nella riga di «al» della frase «il nonno nuota al», una testa guarda quasi solo "
        "«nuota».",
        {"passo": STEPS, "token": "parole", "frase": "il nonno nuota al"},
        "attention",
        lambda s: max(A[-1][2] for A in s["attention"]["maps"][0]) > 0.9,
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "Da «il papà pesca» il transformer scrive «al lago .»; il bigramma, da «al», va in un altro posto.",
        {"passo": STEPS, "token": "parole", "prompt": "il papà pesca"},
        "greedy",
        lambda s: (
            s["samples"]["transformer"][0].split()[:3] == ["al", "lago", "."]
            and s["samples"]["bigram"][0].split()[0] == "al"
            and s["samples"]["bigram"][0].split()[1] != "lago"
        ),
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "Con il learning rate a 0,01, a fine training la loss sul testo da parte supera quella del bigramma.",
        {"passo": STEPS, **TRAINING, "lr": 0.01},
        "vista-loss",
        lambda s: s["evals"][-1][1] < 0.424 and s["evals"][-1][2] > s["evals"][-1][4],
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "Con i caratteri, al passo 300 il transformer sta sotto la linea del bigramma più che con le parole.",
        {"passo": 300, **TRAINING, "token": "caratteri"},
        "vista-loss",
        lambda s: len(s["vocab"]) == 19 and s["bigram_best"] - s["evals"][-1][1] > 0.24,
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "A temperatura 0,1 il transformer segue il testo greedy fino a un verbo; il bigramma se ne stacca prima.",
        {"passo": STEPS, "token": "parole", "temperatura": 0.1},
        "campionato",
        cold_sampling,
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "A temperatura 2 il transformer scrive coppie di parole che nel testo non ci sono.",
        {"passo": STEPS, "token": "parole", "temperatura": 2.0},
        "campionato",
        new_pairs,
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "Con il seme 1, dopo 300 passi la loss del transformer sul training è già sotto la linea del bigramma.",
        {"passo": 300, **TRAINING, "seme": 1},
        "vista-loss",
        lambda s: s["evals"][-1][0] == 300 and s["evals"][-1][1] < s["bigram_best"],
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "Al passo 0, nelle mappe di attention, la riga di «in» divide il peso quasi in parti uguali tra le quattro "
        "parole.",
        {"passo": 0, "frase": "la nonna legge in", "token": "parole", "seme": 0},
        "attention",
        lambda s: all(max(m[-1]) - min(m[-1]) < 0.1 for layer in s["attention"]["maps"] for m in layer),
        after="Al passo 0",
    ),
]
