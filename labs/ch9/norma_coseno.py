"""Quanto è lunga la freccia [3 ; 4]? Fa 3 passi a destra e 4 in su, quindi
è l'ipotenusa di un triangolo rettangolo con cateti 3 e 4: per Pitagora è
lunga √(3² + 4²) = √25 = 5. Questa lunghezza si chiama **norma** e si scrive
|a|. Con più di due numeri non cambia nulla: radice quadrata della somma
dei quadrati di ogni elemento.

Se dividiamo ogni elemento per la norma, la freccia si accorcia (o si
allunga) fino a misurare esattamente 1, ma continua a puntare dalla stessa
parte: [3 ; 4] / 5 = [0,6 ; 0,8]. È il **vettore unitario**, e la sua punta
cade sempre sul cerchio di raggio 1 del secondo disegno.

Il prodotto scalare dipende sia dalle direzioni sia dalle lunghezze. Per
confrontare solo le direzioni lo si divide per le due norme: è la
**similarità coseno**, sempre tra −1 e 1. [3 ; 4] e [6 ; 8] puntano dalla
stessa parte, anche se la seconda è lunga il doppio: il coseno vale 1.
[3 ; 4] e [4 ; −3] sono perpendicolari: il coseno vale 0. È la misura che si
usa per cercare testi simili, confrontando il vettore di una domanda con
quello di ogni documento.

Trascina le punte delle frecce, o usa i pulsanti per i casi della guida.
Prova anche a portare una freccia sull'origine: il vettore nullo non ha
direzione, e il coseno non si può calcolare.
"""

import math

from core.linalg import cosine
from core.linalg import dot
from core.linalg import norm
from core.linalg import unit
from labs.kit import Arc
from labs.kit import Arrow
from labs.kit import Case
from labs.kit import Circle
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Slider
from labs.kit import Wrong
from labs.kit import callout
from labs.kit import cell_text
from labs.kit import columns
from labs.kit import formula
from labs.kit import panel
from labs.kit import plane
from labs.kit import presets
from labs.kit import stat
from labs.kit import stats
from labs.kit import term
from labs.kit import vector_text

TITLE = "Norma, vettore unitario, coseno"
REF = "9B.3"

VIEW, UNIT_VIEW = (-8.5, 8.5), (-1.3, 1.3)


def coordinate(name, label, default):
    return Slider(name, label, -8.0, 8.0, 0.5, default)


CONTROLS = [
    Group("Vettore a (punta blu)", (coordinate("ax", "a₁", 3.0), coordinate("ay", "a₂", 4.0))),
    Group("Vettore b (punta arancione)", (coordinate("bx", "b₁", 6.0), coordinate("by", "b₂", 8.0))),
]

CASES = [
    ("b = [6 ; 8], il doppio", {"ax": 3, "ay": 4, "bx": 6, "by": 8}),
    ("b = [4 ; −3], perpendicolare", {"ax": 3, "ay": 4, "bx": 4, "by": -3}),
    ("b = [−3 ; −4], opposto", {"ax": 3, "ay": 4, "bx": -3, "by": -4}),
    ("b = [0 ; 0], nullo", {"ax": 3, "ay": 4, "bx": 0, "by": 0}),
]


def compute(p):
    """Norma, vettore unitario e coseno dei due vettori."""
    a, b = [p["ax"], p["ay"]], [p["bx"], p["by"]]
    s = {
        "a": a,
        "b": b,
        "norm_a": norm(a),
        "norm_b": norm(b),
        "dot": dot(a, b),
        "unit_a": None,
        "unit_b": None,
        "cos": None,
        "angle": None,
    }
    if s["norm_a"] > 0:
        s["unit_a"] = unit(a)
    if s["norm_b"] > 0:
        s["unit_b"] = unit(b)
    if s["norm_a"] > 0 and s["norm_b"] > 0:
        s["cos"] = cosine(a, b)
        s["angle"] = math.degrees(math.acos(s["cos"]))
    return s


def meaning(c):
    if c > 0.9999:
        return "stessa direzione"
    if c < -0.9999:
        return "direzioni opposte"
    if abs(c) < 1e-9:
        return "perpendicolari"
    return "abbastanza simili" if c > 0 else "piuttosto opposte"


def length_lines(name, v, length, u):
    lines = [formula(f"|{name}| = √({term(v[0])}² + {term(v[1])}²) = √{cell_text(dot(v, v))} = {cell_text(length)}")]
    if u is not None:
        lines.append(formula(f"{name} / |{name}| = {vector_text(v)} / {cell_text(length)} = {vector_text(u)}"))
    return lines


def view(s):
    a, b, ua, ub = s["a"], s["b"], s["unit_a"], s["unit_b"]
    big = plane(
        [Arrow(b, label="b", style="b", drag=("bx", "by")), Arrow(a, label="a", drag=("ax", "ay"))],
        VIEW,
        VIEW,
        ticks=2,
        label=f"a = {vector_text(a)} e b = {vector_text(b)}",
    )
    together = s["angle"] is not None and s["angle"] < 20  # one label, or the two would overlap
    small_items = [Circle((0, 0), 1)]
    if s["angle"] is not None and s["angle"] >= 1:
        small_items.append(Arc((0, 0), ua, ub, label="θ", style="c", radius=34))
    if ub is not None:
        small_items.append(Arrow(ub, label="" if together else "b / |b|", style="b"))
    if ua is not None:
        small_items.append(Arrow(ua, label="a / |a| e b / |b|" if together else "a / |a|"))
    small = plane(
        small_items,
        UNIT_VIEW,
        UNIT_VIEW,
        grid=0.25,
        ticks=0.5,
        width=300,
        small=True,
        label="I vettori unitari: frecce lunghe 1, con la punta sul cerchio di raggio 1",
    )
    parts = [
        presets("Casi della guida:", CASES),
        columns(panel(big, title="Le frecce"), panel(small, title="Portate a lunghezza 1")),
        *length_lines("a", a, s["norm_a"], ua),
        *length_lines("b", b, s["norm_b"], ub),
    ]
    if s["cos"] is None:
        zero = " e ".join(name for name, u in (("a", ua), ("b", ub)) if u is None)
        parts.append(
            callout(
                f"Il vettore nullo ({zero} = [0 ; 0]) è lungo 0 e non punta da nessuna parte: "
                "dividere per 0 non si può, quindi non ha vettore unitario e il coseno non è definito.",
                tone="warn",
            )
        )
        return panel(*parts, part="norma")
    parts += [
        formula(
            f"cos θ = a · b / (|a| · |b|) = {cell_text(s['dot'])} / ({cell_text(s['norm_a'])} × "
            f"{cell_text(s['norm_b'])}) = {cell_text(s['cos'])}"
        ),
        formula(
            f"lo stesso coseno con i vettori unitari: {term(ua[0])} × {term(ub[0])} + {term(ua[1])} × "
            f"{term(ub[1])} = {cell_text(dot(ua, ub))}"
        ),
        stats(
            stat("|a|", cell_text(s["norm_a"])),
            stat("|b|", cell_text(s["norm_b"])),
            stat("cos θ", cell_text(s["cos"]), tone="ok" if s["cos"] > 0.9999 else None),
            stat("Angolo θ", f"{cell_text(s['angle'], 1)}°"),
            stat("Che cosa dice", meaning(s["cos"])),
        ),
    ]
    return panel(*parts, part="norma")


EDITS = [
    Edit(
        "la norma senza la radice",
        change=("    return math.sqrt(dot(a, a))", "    return dot(a, a)"),
        expect="|[3 ; 4]| diventa 25 invece di 5, il «vettore unitario» non è più lungo 1 e il coseno di due "
        "frecce parallele non vale più 1: la radice riporta il quadrato a una lunghezza.",
        check=lambda before, after: (
            before.state["norm_a"] == 5
            and after.state["norm_a"] == 25
            and before.state["cos"] == 1
            and after.state["cos"] < 0.1
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con [3 ; 4] e [6 ; 8], che puntano dalla stessa parte, il coseno vale 1 anche se la seconda è lunga il doppio.",
        {"ax": 3.0, "ay": 4.0, "bx": 6.0, "by": 8.0},
        "norma",
        lambda s: abs(s["cos"] - 1) < 1e-12 and s["norm_b"] == 2 * s["norm_a"],
        after="quello di ogni documento",
    ),
    Experiment(
        "Con [3 ; 4] e [4 ; −3], perpendicolari, il coseno vale 0.",
        {"ax": 3.0, "ay": 4.0, "bx": 4.0, "by": -3.0},
        "norma",
        lambda s: s["cos"] == 0 and s["angle"] == 90,
        after="quello di ogni documento",
    ),
    Experiment(
        "Porta b sull'origine: il vettore nullo non ha direzione e il coseno non si calcola.",
        {"ax": 3.0, "ay": 4.0, "bx": 0.0, "by": 0.0},
        "norma",
        lambda s: s["norm_b"] == 0 and s["cos"] is None,
        after="il coseno non si può calcolare",
    ),
]

EXERCISES = [
    Exercise(
        cosine,
        task="Scrivi il coseno tra due vettori: il prodotto scalare diviso per il prodotto delle due norme. "
        "Dice quanto puntano nella stessa direzione, da −1 (opposti) a 1 (paralleli), qualunque sia la loro "
        "lunghezza. Con un vettore nullo il coseno non esiste: solleva un errore. Quando la tua funzione passa "
        "le verifiche, il coseno e l'angolo del laboratorio vengono da lei.",
        hints=(
            "Qui puoi chiamare `dot(a, b)` e `norm(a)`, che è la radice di `dot(a, a)`.",
            "Se una delle due norme è zero, `raise ZeroDivisionError(...)` prima di dividere.",
            "Gli arrotondamenti possono dare 1,0000000000000002: tieni il risultato tra −1 e 1 con "
            "`max(-1.0, min(1.0, c))`, o l'arcocoseno dell'angolo protesterà.",
        ),
        cases=(
            Case(([1.0, 0.0], [0.0, 1.0]), "vettori perpendicolari"),
            Case(([1.0, 1.0], [2.0, 2.0]), "stessa direzione, lunghezze diverse"),
            Case(([1.0, 0.0], [-3.0, 0.0]), "direzioni opposte"),
            Case(([3.0, 4.0], [4.0, 3.0]), "un angolo piccolo"),
            Case(([1.0, 2.0, 2.0], [2.0, 0.0, 1.0]), "tre dimensioni"),
            Case(([0.0, 0.0], [1.0, 2.0]), "il vettore nullo: va rifiutato"),
        ),
        random=lambda rng: (lambda n: ([rng.uniform(-4, 4) for _ in range(n)], [rng.uniform(-4, 4) for _ in range(n)]))(
            rng.randint(2, 5)
        ),
        count=14,
        tolerance=1e-9,
        wrong=(
            Wrong(
                """
def cosine(a, b):
    return dot(a, b) / norm(a)
""",
                "Hai diviso solo per la norma di a: così il risultato cresce con la lunghezza di b. Dividi per "
                "il prodotto delle due norme, |a|·|b|.",
            ),
            Wrong(
                """
def cosine(a, b):
    return dot(a, b) / (dot(a, a) * dot(b, b))
""",
                "a · a è il quadrato della norma, non la norma: manca la radice quadrata. La norma è √(a · a).",
            ),
        ),
    ),
]
