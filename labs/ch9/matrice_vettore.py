"""Una matrice 2 × 2 prende un vettore di due numeri e ne restituisce un
altro. Con A = [[2, 1], [0, 1]] e x = [1 ; 1] il conto si può fare in due
modi, che danno lo stesso risultato. **Riga per riga**: ogni riga di A fa un
prodotto scalare con x, 2·1 + 1·1 = 3 e 0·1 + 1·1 = 1, quindi Ax = [3 ; 1].
**Colonna per colonna**: si prende x₁ volte la prima colonna più x₂ volte la
seconda, 1·[2 ; 0] + 1·[1 ; 1] = [3 ; 1]. La seconda lettura dice una cosa
utile: le colonne sono i punti in cui finiscono le frecce [1 ; 0] e [0 ; 1].

Nel piano si vede che cosa fa la matrice a tutti i punti insieme. La griglia
sottile colorata è la griglia quadrettata dopo la trasformazione, la F piena
è la F grigia trasformata. Nessuna linea si incurva, due linee parallele
non si incontrano mai e l'origine resta ferma: per questo la moltiplicazione per una
matrice si chiama trasformazione **lineare**.

I pulsanti caricano i casi tipici. La **rotazione** gira il piano senza
cambiare lunghezze né angoli. La **scala** [[s₁, 0], [0, s₂]] allunga o
accorcia ciascun asse per conto suo. Il **taglio** [[1, k], [0, 1]] sposta
ogni riga orizzontale di lato, di più quanto più è in alto: il quadrato
diventa un parallelogramma. La **proiezione** [[1, 0], [0, 0]] butta via la seconda
coordinata: tanti punti finiscono nello stesso posto e non si può più
tornare indietro.

Puoi anche trascinare le punte delle due colonne (dove finiscono [1 ; 0] e
[0 ; 1]) e la punta del vettore x. Guarda il determinante: dice per quanto
si moltiplicano le aree, e quando è negativo la F esce rovesciata, come
allo specchio.
"""

import math

from core.linalg import column
from core.linalg import matvec
from core.linalg import matvec_by_columns
from labs.kit import Arrow
from labs.kit import Case
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Shape
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import Wrong
from labs.kit import callout
from labs.kit import cell_text
from labs.kit import equation
from labs.kit import formula
from labs.kit import matrix
from labs.kit import panel
from labs.kit import plane
from labs.kit import presets
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag
from labs.kit import term
from labs.kit import vector
from labs.kit import vector_text

TITLE = "Matrice × vettore"
REF = "9B.5"

VIEW = (-5.5, 5.5)
F = ((0, 0), (0.4, 0), (0.4, 0.8), (1, 0.8), (1, 1.2), (0.4, 1.2), (0.4, 1.6), (1.2, 1.6), (1.2, 2), (0, 2))


def entry(name, label, default):
    return Slider(name, label, -3.0, 3.0, 0.1, default)


# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "k": Symbol("quanto sposta di lato il taglio [[1, k], [0, 1]]", "taglio"),
    "F": Symbol("la lettera F disegnata nel piano, che mostra la trasformazione", "piena", "grigia"),
}

CONTROLS = [
    Group(
        "Matrice A",
        (
            entry("a11", "a₁₁ (riga 1, colonna 1)", 2.0),
            entry("a12", "a₁₂ (riga 1, colonna 2)", 1.0),
            entry("a21", "a₂₁ (riga 2, colonna 1)", 0.0),
            entry("a22", "a₂₂ (riga 2, colonna 2)", 1.0),
        ),
    ),
    Group("Vettore x", (Slider("x1", "x₁", -3.0, 3.0, 0.5, 1.0), Slider("x2", "x₂", -3.0, 3.0, 0.5, 1.0))),
]


def preset(a11, a12, a21, a22):
    return {"a11": a11, "a12": a12, "a21": a21, "a22": a22}


# rotations whose entries the 0.1 sliders hold exactly: 90°, and 36,87° (cos 0,8, sin 0,6)
PRESETS = [
    ("Identità", preset(1, 0, 0, 1)),
    ("Rotazione di 90°", preset(0, -1, 1, 0)),
    ("Rotazione di 36,87°", preset(0.8, -0.6, 0.6, 0.8)),
    ("Scala 2 e 0,5", preset(2, 0, 0, 0.5)),
    ("Taglio k = 1", preset(1, 1, 0, 1)),
    ("Proiezione", preset(1, 0, 0, 0)),
    ("Specchio", preset(-1, 0, 0, 1)),
    ("La matrice della guida", preset(2, 1, 0, 1)),
]


def close(u, v):
    """Se due numeri sono uguali a meno di 10⁻⁹."""
    return abs(u - v) < 1e-9


def describe(a, det):
    """Una frase in italiano su che cosa fa al piano la matrice a."""
    (p, q), (r, t) = a
    if close(det, 0):
        if all(close(v, 0) for v in (p, q, r, t)):
            return "schiaccia tutto il piano nell'origine."
        return "schiaccia il piano su una retta: punti diversi finiscono nello stesso posto, e non si torna indietro."
    if close(p, 1) and close(t, 1) and close(q, 0) and close(r, 0):
        return "lascia ogni punto dov'è: è l'identità."
    if close(p, t) and close(q, -r) and close(p * p + r * r, 1):
        return f"ruota il piano di {term(math.degrees(math.atan2(r, p)), 2)}° senza cambiare lunghezze né angoli."
    if det < 0:
        return "ribalta il piano: la F esce rovesciata, come allo specchio."
    if close(q, 0) and close(r, 0):
        return "allunga o accorcia ciascun asse per conto suo: è una scala."
    if close(p, 1) and close(t, 1) and (close(q, 0) or close(r, 0)):
        return "fa scivolare le righe le une sulle altre: è un taglio."
    if close(q, 0) or close(r, 0):
        return "allunga e insieme fa scivolare il piano: un po' scala e un po' taglio."
    return "ruota, allunga e inclina il piano tutto insieme."


def compute(p):
    """A·x riga per riga e colonna per colonna, e dove A manda i punti del piano."""
    a = [[p["a11"], p["a12"]], [p["a21"], p["a22"]]]
    x = [p["x1"], p["x2"]]
    det = p["a11"] * p["a22"] - p["a12"] * p["a21"]
    ax = matvec(a, x)
    return {
        "A": a,
        "x": x,
        "Ax": ax,
        "by_columns": matvec_by_columns(a, x),
        "columns": [column(a, 0), column(a, 1)],
        "det": det,
        "what": describe(a, det),
        "in_view": all(VIEW[0] <= v <= VIEW[1] for v in ax),
    }


def grid_lines(a):
    """The lines x = k and y = k of the square grid, after the matrix."""
    lines = []
    for k in range(-6, 7):
        for start, end in (((k, -30), (k, 30)), ((-30, k), (30, k))):
            lines.append(Shape((matvec(a, start), matvec(a, end)), style="c", closed=False, thin=True))
    return lines


def view(s):
    a, x, ax, (c1, c2) = s["A"], s["x"], s["Ax"], s["columns"]
    items = [
        *grid_lines(a),
        Shape(F),
        Shape([matvec(a, list(pt)) for pt in F], style="c"),
        Arrow((1, 0), style="muted"),
        Arrow((0, 1), style="muted"),
        Arrow(c1, label="col. 1", drag=("a11", "a21")),
        Arrow(c2, label="col. 2", style="b", drag=("a12", "a22")),
        Arrow(x, label="x", style="d", drag=("x1", "x2"), label_at="nw" if x in (c1, c2) else "auto"),
        Arrow(ax, label="Ax", style="result"),
    ]
    figure = plane(
        items, VIEW, VIEW, label=f"Il piano trasformato dalla matrice; x = {vector_text(x)}, Ax = {vector_text(ax)}"
    )
    rows = [
        f"riga {i + 1}: {term(r[0])}·{term(x[0])} + {term(r[1])}·{term(x[1])} = {cell_text(v)}"
        for i, (r, v) in enumerate(zip(a, ax))
    ]
    parts = [
        presets("Casi tipici:", PRESETS),
        figure,
        tag(
            "p",
            "In blu la colonna 1 di A, dove finisce [1 ; 0]; in arancione la colonna 2, dove finisce [0 ; 1]; "
            "in rosso x e in verde Ax. La F grigia è prima della matrice, quella viola dopo.",
        ),
        equation(matrix(a, label="A"), "·", vector(x, label="x"), "=", vector(ax, label="Ax")),
        formula("Riga per riga: " + ";   ".join(rows)),
        formula(
            f"Colonna per colonna: {term(x[0])}·{vector_text(c1)} + {term(x[1])}·{vector_text(c2)} = "
            f"{vector_text(s['by_columns'])}"
        ),
        callout(f"Questa matrice {s['what']}"),
        stats(
            stat("Determinante a₁₁a₂₂ − a₁₂a₂₁", cell_text(s["det"])),
            stat("Le aree si moltiplicano per", cell_text(abs(s["det"]))),
        ),
    ]
    if not s["in_view"]:
        parts.insert(2, callout(f"Ax = {vector_text(ax)} esce dal disegno.", tone="warn"))
    return panel(*parts, part="trasformazione")


EDITS = [
    Edit(
        "le colonne di A al posto delle righe",
        change=("    return [dot(row, v) for row in m]", "    return [dot(col, v) for col in transpose(m)]"),
        expect="La lettura riga per riga dà [2 ; 2] invece di [3 ; 1], mentre quella per colonne resta [3 ; 1]: "
        "le due strade non tornano più, perché ora si calcola Aᵀ·x.",
        check=lambda before, after: after.state["Ax"] == [2.0, 2.0] and after.state["by_columns"] == [3.0, 1.0],
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con A = [[−1, 0], [0, 1]] il determinante vale −1: le aree restano uguali ma la F esce rovesciata.",
        {"a11": -1.0, "a12": 0.0, "a21": 0.0, "a22": 1.0},
        "trasformazione",
        lambda s: s["det"] == -1,
        after="come allo specchio",
    ),
    Experiment(
        "Con la proiezione [[1, 0], [0, 0]] il determinante vale 0: tutto il piano finisce su una retta.",
        {"a11": 1.0, "a12": 0.0, "a21": 0.0, "a22": 0.0},
        "trasformazione",
        lambda s: s["det"] == 0 and s["columns"][1] == [0.0, 0.0],
        after="non si può più",
    ),
]

EXERCISES = [
    Exercise(
        matvec,
        task="Scrivi il prodotto di una matrice per un vettore: ogni riga della matrice fa il prodotto scalare "
        "con il vettore, e quei numeri, uno per riga, sono il risultato. Se le colonne della matrice non sono "
        "tante quanti gli elementi del vettore, solleva un errore. Quando la tua funzione passa le verifiche, "
        "il vettore A·x e la sua freccia nel piano vengono da lei.",
        hints=(
            "Il risultato ha un numero per ogni riga: `[... for row in m]`.",
            "Il numero della riga è il suo prodotto scalare con il vettore: qui puoi chiamare `dot(row, v)`.",
            "Le colonne sono `len(m[0])`: se non sono `len(v)`, `raise ShapeError(...)` prima di fare i conti.",
        ),
        cases=(
            Case(([[2.0, 1.0], [0.0, 1.0]], [1.0, 2.0]), "una matrice 2 × 2 non simmetrica"),
            Case(([[1.0, 0.0], [0.0, 1.0]], [3.0, -4.0]), "l'identità lascia il vettore com'è"),
            Case(([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [1.0, 1.0]), "tre righe e due colonne"),
            Case(([[1.0, 2.0, 3.0]], [1.0, 0.0, -1.0]), "una riga sola"),
            Case(([[2.0, 1.0], [0.0, 1.0]], [0.0, 0.0]), "il vettore nullo"),
            Case(([[1.0, 2.0], [3.0, 4.0]], [1.0, 2.0, 3.0]), "forme che non combaciano: va rifiutato"),
        ),
        random=lambda rng: (
            lambda r, c: (
                [[round(rng.uniform(-3, 3), 1) for _ in range(c)] for _ in range(r)],
                [round(rng.uniform(-3, 3), 1) for _ in range(c)],
            )
        )(rng.randint(1, 4), rng.randint(1, 4)),
        count=14,
        tolerance=1e-9,
        wrong=(
            Wrong(
                """
def matvec(m, v):
    return [sum(m[i][j] * v[i] for i in range(len(m))) for j in range(len(v))]
""",
                "Hai moltiplicato il vettore per le colonne invece che per le righe: è il prodotto con la "
                "trasposta. Ogni numero del risultato è una riga di M per v.",
            ),
            Wrong(
                """
def matvec(m, v):
    return [sum(a * b for a, b in zip(row, v)) for row in m]
""",
                "Se la matrice ha meno colonne degli elementi del vettore, zip ne butta via qualcuno senza dirlo: "
                "controlla che le colonne siano tante quanti gli elementi e altrimenti solleva un errore.",
            ),
        ),
    ),
]
