"""Un vettore **one-hot** è tutto zeri tranne un solo 1: la posizione
«accesa». Sembra un modo sprecone di scrivere un numero intero, ma ha una
proprietà preziosa: moltiplicato per una matrice, sceglie una riga.

[La matrice E](#vista-e) ha una riga per ciascuno dei cinque token di un
vocabolario in miniatura e quattro numeri per riga: è una piccola tabella di
embedding. Il prodotto one-hot · E si calcola come ogni prodotto tra
matrici: ogni riga di E viene moltiplicata per il numero del one-hot che le
corrisponde, poi le righe si sommano colonna per colonna. Le righe
moltiplicate per 0 diventano zeri e non pesano sulla somma; resta soltanto
la riga moltiplicata per 1.

Scegli la posizione accesa con il cursore, oppure clicca una casella del
vettore one-hot o una riga della tabella. Qualunque posizione tu scelga, il
risultato coincide numero per numero con la riga di quel token: il prodotto
è una **ricerca in tabella**, e l'ID del token dice quale riga leggere.

Guarda anche quante moltiplicazioni servono: 20 per ottenere 4 numeri, e 16
di queste moltiplicano per zero. Per questo un modello vero non fa il
prodotto: usa l'ID come indice e legge direttamente la riga. Il risultato è
lo stesso, il lavoro molto meno.
"""

from core.linalg import matmul
from core.linalg import one_hot
from core.linalg import scale
from core.linalg import shape
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Slider
from labs.kit import callout
from labs.kit import equation
from labs.kit import formula
from labs.kit import matrix
from labs.kit import num
from labs.kit import shape_label
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag
from labs.kit import vector

TITLE = "One-hot × matrice"
REF = "9B.6"

TOKENS = ("il", "gatto", "cane", "dorme", "mangia")
EMBEDDING = [
    [0.1, -0.3, 0.2, 0.0],
    [0.8, 0.5, -0.2, 0.4],
    [0.7, 0.6, -0.1, 0.3],
    [-0.4, 0.2, 0.9, -0.5],
    [-0.3, 0.4, 0.7, 0.6],
]

CONTROLS = [Slider("pos", "Posizione accesa (ID del token)", 0, len(TOKENS) - 1, 1, 1)]


def compute(p):
    """Il prodotto one-hot × matrice, calcolato per intero: esce una riga di E."""
    pos = p["pos"]
    hot = [int(x) for x in one_hot(pos, len(TOKENS))]
    product = matmul([hot], EMBEDDING)[0]  # a real [1 × 5]·[5 × 4] product, not a lookup
    rows, cols = shape(EMBEDDING)
    return {
        "tokens": list(TOKENS),
        "pos": pos,
        "one_hot": hot,
        "E": EMBEDDING,
        "weighted": [scale(h, row) for h, row in zip(hot, EMBEDDING)],
        "product": product,
        "row": EMBEDDING[pos],
        "same": product == EMBEDDING[pos],
        "multiplications": rows * cols,
        "useful": cols,
    }


def view(s):
    pos, tokens = s["pos"], s["tokens"]
    names = [f"{i} · {t}" for i, t in enumerate(tokens)]
    others = [i for i in range(len(tokens)) if i != pos]

    def pick(k):
        return f"pos={k}", f"Accendi la posizione {k}, «{tokens[k]}»"

    n, d = len(tokens), len(s["row"])
    product = equation(
        vector(
            s["one_hot"],
            label="one-hot",
            column=False,
            labels=[str(i) for i in range(n)],
            highlight=[pos],
            muted=others,
            clickable=pick,
            shape=shape_label(1, n),
            part="one-hot",
        ),
        "·",
        matrix(
            s["E"],
            label="E (embedding)",
            row_labels=names,
            highlight_rows=[pos],
            muted_rows=others,
            pick_row=pick,
            part="E",
        ),
        "=",
        matrix([s["product"]], label="risultato", highlight_rows=[0], part="prodotto"),
    )
    terms = " + ".join(f"{h} · riga «{t}»" for h, t in zip(s["one_hot"], tokens))
    by_rows = equation(
        matrix(
            s["weighted"],
            label="ogni riga × il suo numero del one-hot",
            row_labels=[f"{h} × {t}" for h, t in zip(s["one_hot"], tokens)],
            highlight_rows=[pos],
            muted_rows=others,
            part="pesate",
        ),
        "somma per colonna →",
        matrix([s["product"]], label="risultato", highlight_rows=[0]),
    )
    row_text = "; ".join(num(x, 1) for x in s["row"])
    verdict = (
        callout(
            f"Il risultato è identico alla riga {pos} di E, quella di «{tokens[pos]}»: [{row_text}]. "
            "Moltiplicare per un one-hot vuol dire leggere una riga della tabella.",
            tone="ok",
        )
        if s["same"]
        else callout("Il risultato non coincide con la riga scelta.", tone="error")
    )
    return tag(
        "div",
        tag("h3", f"{shape_label(1, n)} · {shape_label(n, d)} = {shape_label(1, d)}"),
        tag("div", product, id="vista-e"),  # the prose links here
        verdict,
        tag("h3", "Lo stesso prodotto, riga per riga"),
        formula(terms, f" = riga «{tokens[pos]}»"),
        by_rows,
        stats(
            stat("Moltiplicazioni fatte", num(s["multiplications"])),
            stat("… per zero", num(s["multiplications"] - s["useful"]), tone="warn"),
            stat("Numeri letti con l'indice", num(s["useful"]), tone="ok"),
        ),
        data_pos=pos,
    )


EDITS = [
    Edit(
        "un one-hot spostato di un posto",
        change=(
            "    return [1.0 if j == i else 0.0 for j in range(n)]",
            "    return [1.0 if j == i + 1 else 0.0 for j in range(n)]",
        ),
        expect="L'1 finisce nella posizione dopo: il prodotto tira fuori la riga del token successivo, e il "
        "controllo «è proprio la riga di E» non torna più.",
        check=lambda before, after: (
            before.state["same"]
            and not after.state["same"]
            and after.state["product"] == after.state["E"][after.state["pos"] + 1]
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Accendi la posizione 3: il risultato coincide con la riga di «dorme», [−0,4 ; 0,2 ; 0,9 ; −0,5].",
        {"pos": 3},
        "prodotto",
        lambda s: s["same"] and s["product"] == s["E"][3] == [-0.4, 0.2, 0.9, -0.5],
        after="quale riga leggere",
    ),
    Experiment(
        "Con la posizione 0 accesa servono 20 moltiplicazioni per 4 numeri, e 16 moltiplicano per zero.",
        {"pos": 0},
        "pesate",
        lambda s: s["multiplications"] == 20 and s["useful"] == 4 and s["product"] == s["E"][0],
        after="quante moltiplicazioni servono",
    ),
]
