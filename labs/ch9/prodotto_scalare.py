"""Anna, Bruno e Carla hanno votato gli stessi cinque film, ciascuno con un
numero da −2 a +2. Per capire se due di loro hanno gusti simili moltiplichiamo i loro
voti film per film e sommiamo i prodotti. Quando un film piace a tutti e
due (+ per +) o non piace a nessuno dei due (− per −) il prodotto è
positivo; quando sono in disaccordo è negativo. Il totale si chiama
**prodotto scalare** dei due vettori di voti.

Anna e Bruno arrivano a 8: gusti simili. Anna e Carla a −10: Carla ha dato
a ogni film il voto opposto a quello di Anna. Cambia la coppia e guarda,
riga per riga, da dove viene il totale.

Lo stesso numero ha anche una lettura geometrica. Con due vettori nel piano,
a · b = |a| · |b| · cos θ, dove |a| e |b| sono le lunghezze delle frecce e θ
l'angolo tra loro. Il coseno vale 1 per frecce nello stesso verso, 0 per
frecce perpendicolari, −1 per frecce opposte: per questo il **segno** del
prodotto scalare dipende solo dall'angolo (positivo sotto i 90°, zero a 90°,
negativo oltre), mentre la **grandezza** dipende anche dalle lunghezze.

Trascina le punte di a e di b. La linea tratteggiata fa cadere b ad angolo
retto sulla retta di a: il tratto verde è l'**ombra** di b (la sua
proiezione), lunga |b| · cos θ, e il prodotto scalare è la lunghezza di a
per quell'ombra. Quando l'angolo supera i 90° l'ombra cade dalla parte
opposta ad a e il prodotto diventa negativo.
"""

import math

from core.linalg import cosine
from core.linalg import dot
from core.linalg import norm
from core.linalg import projection
from labs.kit import Arc
from labs.kit import Arrow
from labs.kit import Case
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Guide
from labs.kit import Slider
from labs.kit import Wrong
from labs.kit import callout
from labs.kit import cell_text
from labs.kit import columns
from labs.kit import formula
from labs.kit import panel
from labs.kit import plane
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag
from labs.kit import term
from labs.kit import vector_text

TITLE = "Prodotto scalare"
REF = "9B.2"

FILMS = (
    "La luna di Trastevere",
    "Pasta e fagioli a mezzanotte",
    "Il commissario Bruschi",
    "Vento sulle Dolomiti",
    "L'ultimo tram per Bari",
)
VOTES = {"Anna": [2, 1, -1, 0, 2], "Bruno": [1, 2, -2, 1, 1], "Carla": [-2, -1, 1, 0, -2]}
PAIRS = (("anna-bruno", "Anna · Bruno"), ("anna-carla", "Anna · Carla"), ("bruno-carla", "Bruno · Carla"))
VIEW = (-4.5, 4.5)


def coordinate(name, label, default):
    return Slider(name, label, -4.0, 4.0, 0.5, default)


CONTROLS = [
    Choice("coppia", "Chi confrontiamo", PAIRS, "anna-bruno"),
    Group("Vettore a (punta blu)", (coordinate("ax", "a₁", 3.0), coordinate("ay", "a₂", 1.0))),
    Group("Vettore b (punta arancione)", (coordinate("bx", "b₁", 1.0), coordinate("by", "b₂", 2.0))),
]


def compute(p):
    """Il prodotto scalare dei voti di due persone e, nel piano, l'ombra di b su a."""
    first, second = (name.capitalize() for name in p["coppia"].split("-"))
    u, v = VOTES[first], VOTES[second]
    a, b = [p["ax"], p["ay"]], [p["bx"], p["by"]]
    plane_ = {
        "a": a,
        "b": b,
        "dot": dot(a, b),
        "norm_a": norm(a),
        "norm_b": norm(b),
        "cos": None,
        "angle": None,
        "shadow": None,
        "projection": None,
    }
    if plane_["norm_a"] > 0:
        plane_["projection"] = projection(b, a)
        plane_["shadow"] = plane_["dot"] / plane_["norm_a"]  # |b| cos θ, with its sign
    if plane_["norm_a"] > 0 and plane_["norm_b"] > 0:
        plane_["cos"] = cosine(a, b)
        plane_["angle"] = math.degrees(math.acos(plane_["cos"]))
    return {
        "names": [first, second],
        "votes": [u, v],
        "products": [x * y for x, y in zip(u, v)],
        "total": dot(u, v),
        "plane": plane_,
    }


def verdict(total):
    return "gusti simili" if total > 0 else "gusti opposti" if total < 0 else "né simili né opposti"


def films_panel(s):
    (first, second), (u, v), products = s["names"], s["votes"], s["products"]
    rows = [
        [film, cell_text(x), cell_text(y), f"{term(x)} × {term(y)} = {cell_text(xy)}"]
        for film, x, y, xy in zip(FILMS, u, v, products)
    ]
    rows.append([tag("strong", "Somma dei prodotti"), "", "", tag("strong", cell_text(s["total"]))])
    return panel(
        table(["Film", first, second, "Prodotto"], rows),
        formula(
            f"{first} · {second} = "
            + " + ".join(f"{term(x)}·{term(y)}" for x, y in zip(u, v))
            + " = "
            + " + ".join(term(xy) for xy in products)
            + f" = {cell_text(s['total'])}"
        ),
        stats(
            stat(f"{first} · {second}", cell_text(s["total"]), tone="ok" if s["total"] > 0 else "warn"),
            stat("Che cosa dice", verdict(s["total"])),
        ),
        title=f"I voti di {first} e {second}",
        part="film",
    )


def arrows_panel(g):
    a, b, n = g["a"], g["b"], cell_text
    items = []
    if g["projection"] is not None:
        reach = [10 * x / g["norm_a"] for x in a]
        items += [Guide([-x for x in reach], reach), Guide(b, g["projection"])]
    if g["angle"] is not None:
        items.append(Arc((0, 0), a, b, label="θ", style="c"))
    items += [Arrow(b, label="b", style="b", drag=("bx", "by")), Arrow(a, label="a", drag=("ax", "ay"))]
    if g["projection"] is not None:  # drawn over a, which lies on the same line
        items.append(Arrow(g["projection"], label="ombra", style="result", label_at="s"))
    parts = [
        plane(items, VIEW, VIEW, label=f"a = {vector_text(a)} e b = {vector_text(b)}: a · b = {n(g['dot'])}"),
        formula(f"a · b = a₁b₁ + a₂b₂ = {term(a[0])} × {term(b[0])} + {term(a[1])} × {term(b[1])} = {n(g['dot'])}"),
        formula(
            f"|a| = √({term(a[0])}² + {term(a[1])}²) = {n(g['norm_a'])},   "
            f"|b| = √({term(b[0])}² + {term(b[1])}²) = {n(g['norm_b'])}"
        ),
    ]
    if g["angle"] is None:
        zero = " e ".join(name for name, length in (("a", g["norm_a"]), ("b", g["norm_b"])) if length == 0)
        parts.append(
            callout(
                f"Il vettore nullo non ha una direzione: con {zero} = [0 ; 0] l'angolo θ e il suo coseno "
                "non sono definiti. Il prodotto scalare invece esiste, e vale 0.",
                tone="warn",
            )
        )
        return panel(*parts, title="Con le frecce", part="frecce")
    parts += [
        formula(
            f"cos θ = a · b / (|a| · |b|) = {n(g['dot'])} / {n(g['norm_a'] * g['norm_b'])} = {n(g['cos'])}, "
            f"quindi θ = {n(g['angle'], 1)}°"
        ),
        formula(
            f"|a| · |b| · cos θ = {n(g['norm_a'])} × {n(g['norm_b'])} × {term(g['cos'])} = "
            f"{n(g['norm_a'] * g['norm_b'] * g['cos'])} = a · b"
        ),
        formula(
            f"ombra di b = |b| · cos θ = {n(g['shadow'])},   |a| × ombra = {n(g['norm_a'])} × {term(g['shadow'])} "
            f"= {n(g['norm_a'] * g['shadow'])}"
        ),
        stats(
            stat("a · b", n(g["dot"])),
            stat("Angolo θ", f"{n(g['angle'], 1)}°"),
            stat(
                "Segno",
                "positivo (sotto i 90°)"
                if g["dot"] > 1e-12
                else "negativo (oltre i 90°)"
                if g["dot"] < -1e-12
                else "zero (perpendicolari)",
            ),
        ),
    ]
    return panel(*parts, title="Con le frecce", part="frecce")


def view(s):
    return columns(films_panel(s), arrows_panel(s["plane"]))


EDITS = [
    Edit(
        "l'ombra senza dividere per a · a",
        change=("    return scale(dot(a, b) / aa, a)", "    return scale(dot(a, b), a)"),
        expect="Con a = [3 ; 1] la freccia dell'ombra diventa dieci volte più lunga (a · a = 10) ed esce dal "
        "piano: dividere per a · a è ciò che riporta l'ombra alla misura di b.",
        check=lambda before, after: all(
            abs(y - 10 * x) < 1e-9
            for x, y in zip(before.state["plane"]["projection"], after.state["plane"]["projection"])
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con Anna e Carla il totale è −10: nessun film dà un prodotto positivo.",
        {"coppia": "anna-carla"},
        "film",
        lambda s: s["total"] == -10 and all(p <= 0 for p in s["products"]),
        after="Cambia la coppia",
    ),
    Experiment(
        "Porta b in [−1 ; 3], con a in [3 ; 1]: l'angolo è di 90°, l'ombra sparisce e il prodotto scalare vale 0.",
        {"ax": 3.0, "ay": 1.0, "bx": -1.0, "by": 3.0},
        "frecce",
        lambda s: s["plane"]["dot"] == 0 and s["plane"]["angle"] == 90,
        after="il prodotto diventa negativo",
    ),
]

EXERCISES = [
    Exercise(
        dot,
        task="Scrivi il prodotto scalare di due vettori: moltiplica gli elementi a coppie, nella stessa "
        "posizione, e somma i prodotti. Due vettori di lunghezza diversa non si moltiplicano: in quel caso "
        "solleva un errore. Quando la tua funzione passa le verifiche, il totale dei voti e le frecce nel "
        "piano vengono da lei.",
        hints=(
            "Con `zip(a, b)` scorri i due vettori insieme, una coppia di elementi alla volta.",
            "La somma dei prodotti si scrive `sum(x * y for x, y in zip(a, b))`.",
            "`zip` si ferma al vettore più corto senza dirlo: prima controlla che `len(a) == len(b)`, "
            "altrimenti `raise ShapeError(...)`.",
        ),
        cases=(
            Case(([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]), "tre elementi"),
            Case(([1.0, 0.0], [0.0, 1.0]), "vettori perpendicolari"),
            Case(([2.0, 1.0], [-2.0, -1.0]), "vettori opposti"),
            Case(([0.0, 0.0, 0.0], [1.0, 2.0, 3.0]), "il vettore nullo"),
            Case(([], []), "due vettori vuoti"),
            Case(([1.0, 2.0, 3.0], [1.0, 2.0]), "lunghezze diverse: va rifiutato"),
        ),
        random=lambda rng: (
            lambda n: (
                [round(rng.uniform(-5, 5), 1) for _ in range(n)],
                [round(rng.uniform(-5, 5), 1) for _ in range(n)],
            )
        )(rng.randint(1, 8)),
        count=14,
        tolerance=1e-9,
        wrong=(
            Wrong(
                """
def dot(a, b):
    return sum(x * y for x, y in zip(a, b))
""",
                "Con vettori di lunghezza diversa zip si ferma al più corto e il conto sembra riuscire: controlla "
                "le lunghezze e solleva un errore se sono diverse.",
            ),
            Wrong(
                """
def dot(a, b):
    check_same_length(a, b)
    return sum(a) * sum(b)
""",
                "Non si moltiplicano le due somme: si moltiplicano gli elementi nella stessa posizione, a coppie, "
                "e poi si sommano i prodotti.",
            ),
            Wrong(
                """
def dot(a, b):
    check_same_length(a, b)
    return [x * y for x, y in zip(a, b)]
""",
                "Il prodotto scalare è un numero solo: dopo i prodotti a coppie manca la somma.",
            ),
        ),
    ),
]
