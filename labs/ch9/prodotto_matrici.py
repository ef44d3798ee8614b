"""Per moltiplicare due matrici si fanno tanti prodotti scalari: la casella
nella riga i e nella colonna j del risultato è la **riga i di A** per la
**colonna j di B**, moltiplicate numero per numero e sommate.

Da qui viene la regola delle shape. A ha shape [m × n] e B [n₂ × p]: ogni
riga di A ha n numeri, ogni colonna di B ne ha n₂, e il prodotto scalare
vuole due liste della stessa lunghezza. Quindi le dimensioni **interne**, n
e n₂, devono coincidere; nel risultato spariscono e restano le
**esterne**: [m × n]·[n × p] = [m × p].

Parti da [2 × 3]·[3 × 2] e clicca una casella del risultato (oppure usa i
cursori i e j): si illuminano la riga di A e la colonna di B che la
producono, e il conto è scritto per intero. Poi cambia le shape:
prova a rendere diverse le dimensioni interne e guarda perché il prodotto
non si può fare. «Nuovi numeri» riempie le matrici con altri interi piccoli.

L'ordine conta: B·A, quando si può calcolare, è in generale un'altra
matrice, spesso perfino di un'altra shape. E conta anche il costo: il
risultato ha m · p caselle e ognuna chiede n moltiplicazioni.
"""

import random

from core.linalg import column
from core.linalg import matmul
from core.linalg import shape
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Slider
from labs.kit import callout
from labs.kit import equation
from labs.kit import factor
from labs.kit import formula
from labs.kit import matrix
from labs.kit import num
from labs.kit import plural
from labs.kit import shape_label
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag

TITLE = "Prodotto tra matrici"
REF = "9B.8"

SIZE = 5

CONTROLS = [
    Group(
        "Le shape: A [m × n] · B [n₂ × p]",
        (
            Slider("m", "m: righe di A", 1, SIZE, 1, 2),
            Slider("n", "n: colonne di A", 1, SIZE, 1, 3),
            Slider("n2", "n₂: righe di B", 1, SIZE, 1, 3),
            Slider("p", "p: colonne di B", 1, SIZE, 1, 2),
        ),
    ),
    Slider("seed", "Nuovi numeri", 0, 20, 1, 0),
    Group(
        "La casella da calcolare",
        (
            Slider("i", "i: riga del risultato", 1, SIZE, 1, 1),
            Slider("j", "j: colonna del risultato", 1, SIZE, 1, 2),
        ),
    ),
]


def entries(seed, name, rows, cols):
    """Piccoli interi fissi per posizione: ingrandire una matrice tiene i suoi vecchi numeri."""
    return [[random.Random(f"{seed}:{name}:{r}:{c}").randint(-3, 4) for c in range(cols)] for r in range(rows)]


def compute(p):
    """Il prodotto A·B se le dimensioni interne coincidono, con i conti di una cella."""
    m, n, n2, cols = p["m"], p["n"], p["n2"], p["p"]
    A, B = entries(p["seed"], "A", m, n), entries(p["seed"], "B", n2, cols)
    state = {
        "A": A,
        "B": B,
        "ok": n == n2,
        "C": None,
        "BA": matmul(B, A) if cols == m else None,
        "i": min(p["i"], m),
        "j": min(p["j"], cols),
        "asked": [p["i"], p["j"]],
    }
    if state["ok"]:
        C = matmul(A, B)
        i, j = state["i"] - 1, state["j"] - 1
        row, col = A[i], column(B, j)
        state.update(
            C=C,
            row=row,
            col=col,
            products=[a * b for a, b in zip(row, col)],
            cell=C[i][j],
            multiplications=m * n * cols,
        )
    return state


def follow(s):
    """i and j pick a cell of A·B: they stop at its size, and wait while A·B does not exist."""
    m, p = len(s["A"]), len(s["B"][0])
    if not s["ok"]:
        reason = "A·B non esiste finché n e n₂ sono diversi: non c'è una casella da scegliere."
        return {"i": Follow(disabled=reason), "j": Follow(disabled=reason)}
    return {"i": Follow(max=m), "j": Follow(max=p)}


def view(s):
    A, B = s["A"], s["B"]
    (m, n), (n2, p) = shape(A), shape(B)
    rule = formula(
        f"{shape_label(m, n)} · {shape_label(n2, p)}: dimensioni interne {n} e {n2}",
        f" → il risultato è {shape_label(m, p)}" if s["ok"] else " → non coincidono",
    )
    if not s["ok"]:
        return tag(
            "div",
            rule,
            equation(matrix(A, label="A"), "·", matrix(B, label="B"), "=", "?"),
            callout(
                f"{shape_label(m, n)}·{shape_label(n2, p)}: le dimensioni interne {n} e {n2} non coincidono. "
                f"Ogni casella del risultato sarebbe il prodotto scalare di una riga di A, che ha "
                f"{plural(n, 'numero', 'numeri')}, per una "
                f"colonna di B, che ne ha {n2}: due liste di lunghezza diversa non si moltiplicano a coppie. "
                "Porta n e n₂ allo stesso valore.",
                tone="error",
            ),
            data_ok="no",
            id="vista-regola",
        )
    i, j = s["i"], s["j"]
    rows = [f"riga {r + 1}" for r in range(m)]
    cols = [f"col. {c + 1}" for c in range(p)]

    def pick(r, c):
        return f"i={r + 1};j={c + 1}", f"Calcola la casella in riga {r + 1}, colonna {c + 1}"

    product = equation(
        matrix(A, label="A", row_labels=rows, highlight_rows=[i - 1], part="A"),
        "·",
        matrix(B, label="B", col_labels=cols, highlight_cols=[j - 1], part="B"),
        "=",
        matrix(
            s["C"],
            label="A·B",
            row_labels=rows,
            col_labels=cols,
            highlight_cells=[(i - 1, j - 1)],
            clickable=pick,
            part="C",
        ),
    )
    pairs = " + ".join(f"{factor(a)}·{factor(b)}" for a, b in zip(s["row"], s["col"]))
    terms = " + ".join(factor(x) for x in s["products"])
    moved = [
        f"{name} = {asked} è fuori dal risultato, che ha {size} {what}: uso {name} = {used}."
        for name, asked, used, size, what in (
            ("i", s["asked"][0], i, m, "righe" if m > 1 else "riga"),
            ("j", s["asked"][1], j, p, "colonne" if p > 1 else "colonna"),
        )
        if asked != used
    ]
    if s["BA"] is None:
        other = callout(
            f"E B·A? {shape_label(n2, p)}·{shape_label(m, n)}: le dimensioni interne {p} e {m} non "
            "coincidono, quindi B·A non si può nemmeno calcolare. L'ordine conta."
        )
    else:
        same = shape(s["BA"]) == (m, p)
        verdict = (
            ("ha la stessa shape di A·B ma " + ("gli stessi numeri." if s["BA"] == s["C"] else "numeri diversi."))
            if same
            else f"è {shape_label(n2, n)}, non {shape_label(m, p)}: un'altra matrice."
        )
        other = tag(
            "div",
            tag("h3", "E nell'altro ordine?"),
            equation(matrix(B, label="B"), "·", matrix(A, label="A"), "=", matrix(s["BA"], label="B·A")),
            callout(f"B·A {verdict} L'ordine dei fattori conta."),
        )
    return tag(
        "div",
        rule,
        product,
        *(callout(text, tone="warn") for text in moved),
        formula(f"casella ({i}, {j}) = riga {i} di A · colonna {j} di B = {pairs} = {terms} = {num(s['cell'])}"),
        stats(
            stat("Caselle del risultato", f"{m} · {p} = {num(m * p)}"),
            stat("Moltiplicazioni per casella", num(n)),
            stat("Moltiplicazioni in tutto", f"{m} · {n} · {p} = {num(s['multiplications'])}"),
        ),
        other,
        data_ok="si",
        data_cell=f"{i},{j}",
    )


EDITS = [
    Edit(
        "B·A al posto di A·B",
        change=("        C = matmul(A, B)", "        C = matmul(B, A)"),
        expect="Con A 2 × 3 e B 3 × 2, B·A è una tabella 3 × 3 e non 2 × 2, con altri numeri: il prodotto "
        "tra matrici dipende dall'ordine.",
        check=lambda before, after: (
            len(before.state["C"]) == 2 and len(after.state["C"]) == 3 and len(after.state["C"][0]) == 3
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con [2 × 3]·[3 × 2] la casella in riga 1, colonna 2 vale 4·2 + 4·2 + (−2)·(−1) = 18.",
        {"m": 2, "n": 3, "n2": 3, "p": 2, "seed": 0, "i": 1, "j": 2},
        "C",
        lambda s: s["ok"] and s["cell"] == 18 and s["products"] == [8, 8, 2],
        after="il conto è scritto per intero",
    ),
    Experiment(
        "Rendi diverse le dimensioni interne, n = 3 e n₂ = 2: il prodotto non si può fare.",
        {"m": 2, "n": 3, "n2": 2, "p": 2},
        "vista-regola",
        lambda s: not s["ok"],
        after="il conto è scritto per intero",
    ),
]
