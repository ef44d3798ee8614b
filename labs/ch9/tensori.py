"""Un vettore ha un indice, una matrice due. Un **tensore** è la stessa idea
con quanti indici si vuole: qui tre. Pensa a una pila di fogli: ogni foglio
è una frase, ogni riga del foglio è un token, e ogni riga contiene il
vettore di quel token. Con B frasi di L token, ciascuno descritto da d
numeri, il tensore ha shape [B × L × d].

Con i valori iniziali le frasi sono 2, i token 3 e i numeri per token 4: in
tutto 2 · 3 · 4 = 24 numeri. Il conto vale sempre: il numero di elementi è
il prodotto delle lunghezze della shape. Cambia B, L e d e guarda crescere
la pila.

Per leggere un solo numero serve un indice per ogni asse, e gli indici
partono da 0, come in Python: X[1, 2, 0] vuol dire seconda frase, terzo
token, primo numero del suo vettore. Se invece fissi solo alcuni indici ottieni una **fetta**:
X[1] è un'intera frase, una matrice [L × d]; X[1, 2] è il vettore di un
token, [d]; X[:, 2] prende il terzo token di ogni frase, [B × d]; X[:, :, 0]
il primo numero di tutti i token, [B × L]. Il simbolo «:» vuol dire «tutti».
Ogni indice fissato toglie un asse alla shape del risultato.

Scegli che cosa prendere e muovi gli indici b (la frase), l (il token) e k
(il numero del vettore), oppure clicca una casella: le
caselle prese si illuminano e compare il risultato con la sua shape.
Se rimpicciolisci il tensore e un indice resta fuori, il laboratorio te lo
dice e usa l'ultimo valore possibile.
"""

import random

from core.tensor import filled
from core.tensor import result_shape
from core.tensor import selected
from core.tensor import size
from core.tensor import take
from core.tensor import tensor_shape
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import callout
from labs.kit import equation
from labs.kit import formula
from labs.kit import matrix
from labs.kit import num
from labs.kit import plural
from labs.kit import shape_label
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag
from labs.kit import vector

TITLE = "Tensori"
REF = "9B.7"

SENTENCES = (
    "il gatto dorme sul divano",
    "un cane corre nel parco",
    "la luna brilla nel cielo",
    "oggi piove molto a Roma",
)
PICKS = (
    ("elemento", "X[b, l, k]: un numero solo"),
    ("frase", "X[b]: una frase intera"),
    ("token", "X[b, l]: il vettore di un token"),
    ("posizione", "X[:, l]: lo stesso token in ogni frase"),
    ("numero", "X[:, :, k]: lo stesso numero di ogni token"),
)
USES = {"elemento": "blk", "frase": "b", "token": "bl", "posizione": "l", "numero": "k"}

# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "b": Symbol("l'indice della frase", "frase"),
    "l": Symbol("l'indice del token nella frase", "token"),
    "k": Symbol("l'indice di un numero nel vettore del token", "numero"),
}

CONTROLS = [
    Group(
        "La shape [B × L × d]",
        (
            Slider("B", "B: quante frasi", 1, 4, 1, 2),
            Slider("L", "L: token per frase", 1, 5, 1, 3),
            Slider("d", "d: numeri per token", 1, 6, 1, 4),
        ),
    ),
    Choice("pick", "Che cosa prendo", PICKS, "elemento"),
    Group(
        "Indici (si conta da 0)",
        (
            Slider("b", "b: quale frase", 0, 3, 1, 1),
            Slider("l", "l: quale token", 0, 4, 1, 2),
            Slider("k", "k: quale numero del vettore", 0, 5, 1, 0),
        ),
    ),
]


def value(index):
    """Un numero fisso per ogni posizione, lo stesso qualunque sia la forma."""
    return round(random.Random("X" + ",".join(map(str, index))).uniform(-1, 1), 1)


def compute(p):
    """Il tensore della forma scelta e la fetta presa dall'indice."""
    dims = {"b": p["B"], "l": p["L"], "k": p["d"]}
    X = filled((p["B"], p["L"], p["d"]), value)
    idx, clamped = {}, []
    for name in "blk":
        idx[name] = min(p[name], dims[name] - 1)
        if name in USES[p["pick"]] and idx[name] != p[name]:
            clamped.append({"name": name, "asked": p[name], "used": idx[name], "length": dims[name]})
    b, l, k = idx["b"], idx["l"], idx["k"]
    index = {"elemento": (b, l, k), "frase": (b,), "token": (b, l), "posizione": (None, l), "numero": (None, None, k)}[
        p["pick"]
    ]
    shape = tensor_shape(X)
    return {
        "X": X,
        "shape": list(shape),
        "size": size(shape),
        "pick": p["pick"],
        "index": list(index),
        "b": b,
        "l": l,
        "k": k,
        "clamped": clamped,
        "expr": "X[" + ", ".join(":" if i is None else str(i) for i in index) + "]",
        "result": take(X, index),
        "result_shape": list(result_shape(shape, index)),
        "cells": [list(c) for c in selected(shape, index)],
        "tokens": [s.split()[: p["L"]] for s in SENTENCES[: p["B"]]],
    }


WHOLE = {"b": "prende tutte le frasi", "l": "prende tutti i token", "k": "prende tutti i numeri del vettore"}


def follow(s):
    """An index the chosen slice does not use says so: X[b] takes the whole sentence, whatever l and k are."""
    label = dict(PICKS)[s["pick"]].split(": ", 1)[0]
    return {
        name: Follow(disabled=f"{label} non usa l'indice {name}: {WHOLE[name]}.")
        for name in "blk"
        if name not in USES[s["pick"]]
    }


def result_view(s):
    r, tokens = s["result"], s["tokens"]
    if not s["result_shape"]:
        return stats(stat(s["expr"], num(r, 1), tone="ok"))
    if s["pick"] == "frase":
        return matrix(r, label=s["expr"], row_labels=tokens[s["b"]], digits=1, trim=False, part="risultato")
    if s["pick"] == "token":
        return vector(r, label=s["expr"], column=False, digits=1, trim=False, part="risultato")
    names = [f"frase {i}" for i in range(len(r))]
    cols = [f"token {j}" for j in range(s["shape"][1])] if s["pick"] == "numero" else None
    return matrix(r, label=s["expr"], row_labels=names, col_labels=cols, digits=1, trim=False, part="risultato")


def describe(s):
    b, l, k, tokens = s["b"], s["l"], s["k"], s["tokens"]
    return {
        "elemento": lambda: f"il numero {k} del vettore di «{tokens[b][l]}» (token {l}) nella frase {b}",
        "frase": lambda: (
            f"tutta la frase {b}: {len(tokens[b])} token, ciascuno con {plural(s['shape'][2], 'numero', 'numeri')}"
        ),
        "token": lambda: f"il vettore di «{tokens[b][l]}», token {l} della frase {b}",
        "posizione": lambda: f"il token {l} di ogni frase: " + ", ".join(f"«{t[l]}»" for t in tokens),
        "numero": lambda: f"il numero {k} del vettore di ogni token, in ogni frase",
    }[s["pick"]]()


def axis_text(name, n):
    what = {
        "b": ("c'è una sola frase", f"le frasi sono {n}"),
        "l": ("ogni frase ha un solo token", f"ogni frase ha {n} token"),
        "k": ("ogni vettore ha un solo numero", f"ogni vettore ha {n} numeri"),
    }
    return what[name][0] + ", con l'unico indice 0" if n == 1 else what[name][1] + f", con indici da 0 a {n - 1}"


def view(s):
    B, L, d = s["shape"]
    sheets = []
    for b, sheet in enumerate(s["X"]):
        cells = [(l, k) for bb, l, k in s["cells"] if bb == b]
        # a single number gets a ring; whole rows or columns a tint, lighter on the eye
        ring = cells if s["pick"] == "elemento" else ()
        rows = sorted({l for l, _ in cells}) if s["pick"] in ("frase", "token", "posizione") else ()
        cols = sorted({k for _, k in cells}) if s["pick"] == "numero" else ()
        sheets.append(
            matrix(
                sheet,
                label=f"X[{b}]: «{' '.join(s['tokens'][b])}»",
                digits=1,
                trim=False,
                highlight_cells=ring,
                highlight_rows=rows,
                highlight_cols=cols,
                row_labels=[f"{l} · {t}" for l, t in enumerate(s["tokens"][b])],
                col_labels=[str(k) for k in range(d)],
                muted_rows=() if cells else range(L),
                part=f"foglio-{b}",
                clickable=lambda l, k, b=b: (f"b={b};l={l};k={k}", f"Prendi X[{b}, {l}, {k}]"),
            )
        )
    notes = [
        callout(
            f"{c['name']} = {c['asked']} non esiste: {axis_text(c['name'], c['length'])}. "
            f"Uso {c['name']} = {c['used']}.",
            tone="warn",
        )
        for c in s["clamped"]
    ]
    rs = s["result_shape"]
    kept = f"una shape {shape_label(*rs)}" if rs else "un numero solo, senza shape"
    return tag(
        "div",
        stats(
            stat("Shape", shape_label(B, L, d)),
            stat("Numeri in tutto", f"{B} · {L} · {d} = {num(s['size'])}"),
            stat("Assi: indici per trovare un numero", "3"),
        ),
        tag("h3", f"La pila: {B} {'foglio' if B == 1 else 'fogli'}, uno per frase", id="vista-pila"),
        equation(*sheets),
        *notes,
        tag("h3", f"{s['expr']}: {len(s['cells'])} {'numero' if len(s['cells']) == 1 else 'numeri'}"),
        tag("p", f"{s['expr']} è {describe(s)}."),
        formula(
            f"{s['expr']} fissa {3 - len(rs)} {'indice' if 3 - len(rs) == 1 else 'indici'} su 3: "
            + (
                "non resta nessun asse"
                if not rs
                else f"{'resta' if len(rs) == 1 else 'restano'} {plural(len(rs), 'asse', 'assi')}"
            )
            + f", {kept}"
        ),
        result_view(s),
        data_expr=s["expr"],
    )


EDITS = [
    Edit(
        "la taglia come somma delle lunghezze",
        change=("    return math.prod(shape)", "    return sum(shape)"),
        expect="Il tensore 2 × 3 × 4 dichiara 9 numeri, ma la figura ne disegna ancora 24: un tensore tiene "
        "il prodotto delle sue lunghezze, una casella per ogni combinazione di indici.",
        check=lambda before, after: before.state["size"] == 24 and after.state["size"] == 9,
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con B = 4, L = 5 e d = 6 la pila contiene 4 · 5 · 6 = 120 numeri.",
        {"B": 4, "L": 5, "d": 6},
        "vista-pila",
        lambda s: s["shape"] == [4, 5, 6] and s["size"] == 120,
        after="guarda crescere la pila",
    ),
    Experiment(
        "Prendi X[:, 2], il terzo token di ogni frase: il risultato ha shape [2 × 4].",
        {"B": 2, "L": 3, "d": 4, "pick": "posizione", "l": 2},
        "risultato",
        lambda s: s["expr"] == "X[:, 2]" and s["result_shape"] == [2, 4],
        after="toglie un asse alla shape del risultato",
    ),
]
