"""Una testa di attention guarda la frase in un modo solo: la sua query
cerca una cosa, le key rispondono, i pesi (la tabella A) dicono dove va lo sguardo. Per
guardare in più modi insieme il transformer mette più teste una accanto
all'altra, ognuna con le sue matrici W_q, W_k e W_v, tutte sulla stessa
matrice X. Il laboratorio «Un'intera testa di attention» mostra i conti di
una testa; qui ne lavorano tre sulla frase «il trofeo non entra nella
valigia .».

I vettori dei token sono leggibili: quattro numeri dicono che cosa è il token
(nome, verbo, parola funzionale, punto) e due dicono dove si trova, il seno e
il coseno di 0,75 radianti per posizione. I pesi delle teste sono scelti a mano.
La **prima** confronta la posizione di chi guarda, girata indietro di un
passo, con quella degli altri: guarda il token **precedente**. La
**seconda** ha la stessa query per tutti e una key che vale solo per i
**nomi**: guarda «trofeo» e, quando arriva, anche «valigia». La **terza**
confronta la posizione con se stessa: ognuno guarda **se stesso**.

Scegli un token (o clicca una riga di una tabella) e confronta le tre righe:
stesso token, tre sguardi diversi. Porta a 0 la decisione delle query e i
pesi diventano uguali in tutte le teste. Togli la maschera causale (come in
BERT) e le righe si riempiono anche sopra la diagonale: «trofeo» ora vede
«valigia» anche se viene dopo.

Ogni testa restituisce 2 numeri per token. Le uscite si mettono in fila,
una accanto all'altra (7 × 6), e una matrice **W_o** le rimescola in un
vettore della stessa lunghezza di X, pronto da sommare al flusso residuo:
apri «3. Le uscite in fila, poi W_o» per vedere il prodotto.
Nei modelli veri le teste sono decine e nessuno le sceglie a mano: imparano
da sole a guardare in modi diversi.
"""

import math
from functools import lru_cache

from core.attention import comparisons
from core.attention import is_visible
from core.attention import multi_head
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Slider
from labs.kit import Toggle
from labs.kit import callout
from labs.kit import equation
from labs.kit import fold
from labs.kit import formula
from labs.kit import frozen
from labs.kit import matrix
from labs.kit import num
from labs.kit import opened
from labs.kit import panel
from labs.kit import shape_label
from labs.kit import table
from labs.kit import tag

TITLE = "Più teste, più modi di guardare"
REF = "A.4"

TOKENS = ("il", "trofeo", "non", "entra", "nella", "valigia", ".")
KINDS = ("nome", "verbo", "funzione", "punto")
FEATURES = KINDS + ("sin pos", "cos pos")
TYPE = (2, 0, 2, 1, 2, 0, 3)  # index into KINDS
THETA = 0.75  # radians per position: −7 steps make 5.25 rad, still less alike than one step (cos 0.51 < cos 0.73)
X = [[float(k == TYPE[p]) for k in range(4)] + [math.sin(THETA * p), math.cos(THETA * p)] for p in range(len(TOKENS))]
SHARP = 7.0  # query length of the positional heads: cos 0 − cos 0.75 ≈ 0.27 needs it to stand out


def only(rows):
    """A 6 × 2 matrix with the given rows (feature name → pair), zeros elsewhere."""
    return [list(rows.get(f, (0.0, 0.0))) for f in FEATURES]


c, s = math.cos(THETA), math.sin(THETA)
POSITION = {"sin pos": (1.0, 0.0), "cos pos": (0.0, 1.0)}
# (name, W_q, W_k, W_v, names of the value columns). The first query turns the
# position back by one step (a rotation by −0.75), so it matches the key of p − 1.
HEADS = (
    (
        "precedente",
        only({"sin pos": (SHARP * c, SHARP * s), "cos pos": (-SHARP * s, SHARP * c)}),
        only(POSITION),
        only({"nome": (1, 0), "funzione": (0, 1)}),
        ("nome", "funzione"),
    ),
    (
        "nomi",
        only({k: (4.0, 0.0) for k in KINDS}),
        only({"nome": (1, 0)}),
        only({"nome": (1, 0), "verbo": (0, 1)}),
        ("nome", "verbo"),
    ),
    (
        "se stesso",
        only({f: (SHARP * a, SHARP * b) for f, (a, b) in POSITION.items()}),
        only(POSITION),
        only({"verbo": (1, 0), "punto": (0, 1)}),
        ("verbo", "punto"),
    ),
)
WHAT = {"precedente": "il token precedente", "nomi": "i nomi", "se stesso": "se stesso"}
SUP = "¹²³"
CONCAT_NAMES = [f"{v}{SUP[h]}" for h, spec in enumerate(HEADS) for v in spec[4]]
# W_o sends each head's column back onto the feature it carries, at half weight.
W_O = [[0.5 if f == name.rstrip(SUP) else 0.0 for f in FEATURES] for name in CONCAT_NAMES]

FOLDS = ("uscite",)  # the product with W_o: drawn only while the reader has it open

CONTROLS = [
    Choice("riga", "Token che guarda", tuple((str(i + 1), f"«{t}»") for i, t in enumerate(TOKENS)), "4"),
    Toggle("maschera", "Maschera causale (GPT)", True, help="Spenta: ogni token vede anche quelli dopo (BERT)"),
    Slider(
        "decisione",
        "Decisione delle query",
        0.0,
        2.0,
        0.25,
        1.0,
        help="Ogni W_q moltiplicata per questo numero: a 0 nessuna testa cerca niente",
    ),
]


def compute(p):
    """Le tre teste sullo stesso X, le loro uscite affiancate e mescolate da W_o."""
    return {**heads_at(p["maschera"], p["decisione"]), "row": int(p["riga"]) - 1, "outputs_open": opened(p, "uscite")}


# The token that looks only picks a row to show: choosing another one finds the heads computed. Every
# setting of the other two controls (2 × 9) fits, a few kB each: any setting seen once costs nothing again.
@lru_cache(maxsize=32)
def heads_at(causal, k):
    """Le tre teste con la maschera scelta e le query moltiplicate per k."""
    weights = [([[k * x for x in r] for r in W_q], W_k, W_v) for _, W_q, W_k, W_v, _ in HEADS]
    together = multi_head(X, weights, causal, W_O)
    heads = [
        {
            "name": name,
            "W_q": W_q,
            "W_k": W_k,
            "W_v": W_v,
            "v_names": list(v_names),
            "A": h["A"],
            "O": h["O"],
            "top": [max(range(len(r)), key=r.__getitem__) for r in h["A"]],
        }
        for (name, *_, v_names), (W_q, W_k, W_v), h in zip(HEADS, weights, together["heads"])
    ]
    return {
        "tokens": list(TOKENS),
        "causal": causal,
        "X": X,
        "heads": heads,
        "concat": together["concat"],
        "W_o": W_O,
        "out": together["out"],
        "sums": [[sum(r) for r in h["A"]] for h in heads],
        "comparisons": comparisons(len(TOKENS), causal) * len(heads),
    }


def by_token(values, label, cols, tokens, r, **kw):
    """A matrix with a row per token, the row r highlighted; a click in a row follows it."""
    return matrix(
        values,
        label=label,
        row_labels=[f"«{t}»" for t in tokens],
        col_labels=cols,
        highlight_rows=[r],
        pick_row=token_rows(tokens),
        **kw,
    )


def token_rows(tokens):
    """A row's button: «riga» becomes its token's."""
    return lambda i: (f"riga={i + 1}", f"Segui la riga di «{tokens[i]}»")


# X and W_o do not change with the controls (only X's highlighted row does): each is drawn once and kept,
# keyed by its numbers (tuples), so a reader's edited compute() still sees its own.
@lru_cache(maxsize=16)
def x_matrix(values, tokens, r):
    return by_token(values, "X", FEATURES, tokens, r, part="X")


@lru_cache(maxsize=4)
def w_o_matrix(values):
    return matrix(values, label="W_o", row_labels=CONCAT_NAMES, col_labels=FEATURES, part="W_o")


def view(s):
    tokens, r, n = s["tokens"], s["row"], len(s["tokens"])
    names = [f"«{t}»" for t in tokens]

    def weights(h, i):
        # a masked cell stays empty: the −∞ of the mask is not a weight
        return [
            [a if is_visible(i, j, s["causal"]) else None for j, a in enumerate(row)] for i, row in enumerate(h["A"])
        ]

    heats = [
        matrix(
            weights(h, 0),
            label=f"A{SUP[k]}: {h['name']}",
            row_labels=names,
            col_labels=tokens,
            pick_row=token_rows(tokens),
            heat=1.0,
            highlight_cells=[(r, h["top"][r])],
            part=f"A{k + 1}",
        )
        for k, h in enumerate(s["heads"])
    ]
    rows = [
        [f"{k + 1}", WHAT[h["name"]], f"«{tokens[h['top'][r]]}»", num(h["A"][r][h["top"][r]])]
        for k, h in enumerate(s["heads"])
    ]
    hh = len(s["heads"])
    return panel(
        x_matrix(frozen(s["X"]), tuple(tokens), r),
        tag("h3", "2. Tre teste, tre tabelle di pesi"),
        tag(
            "p",
            "Ogni riga è un token che guarda, ogni colonna un token guardato; il riquadro segna dove "
            "guarda di più." + (" Le caselle vuote sono nascoste dalla maschera." if s["causal"] else ""),
        ),
        equation(*heats),
        tag("p", tag("strong", f"Dove guarda {names[r]}"), ", testa per testa:"),
        table(["Testa", "Cerca", "Guarda soprattutto", "Peso"], rows),
        fold(
            "3. Le uscite in fila, poi W_o",
            "uscite",
            s["outputs_open"],
            lambda: [
                formula(
                    f"{hh} teste × {shape_label(n, 2)} messe accanto = {shape_label(n, hh * 2)} · W_o "
                    f"{shape_label(hh * 2, len(FEATURES))} = {shape_label(n, len(FEATURES))}"
                ),
                equation(
                    by_token(s["concat"], "[O¹ | O² | O³]", CONCAT_NAMES, tokens, r, part="concat"),
                    "·",
                    w_o_matrix(frozen(s["W_o"])),
                    "=",
                    by_token(s["out"], "uscita", FEATURES, tokens, r, part="out"),
                ),
            ],
        ),
        callout(
            f"Confronti fatti: {hh} × {num(s['comparisons'] // hh)} = {num(s['comparisons'])}. "
            "Più teste costano più conti, ma ognuna lavora su vettori corti (qui 2 numeri) e tutte insieme "
            "si calcolano in parallelo."
            if s["causal"]
            else "Senza maschera ogni token vede tutta la frase, anche il futuro: va bene per leggere (BERT), "
            "non per generare.",
            tone="info" if s["causal"] else "warn",
        ),
        title="1. La frase: che cosa è ogni token e dove si trova",
        part="multi-head",
        data_row=r,
    )


EDITS = [
    Edit(
        "le teste senza W_o",
        change=('"out": matmul(concat, W_o) if W_o is not None else concat}', '"out": concat}'),
        expect="L'uscita è solo l'affiancamento delle teste: ogni numero viene da una testa sola. È W_o a "
        "mescolarle, perché ogni dimensione del risultato possa usare ciò che hanno visto tutte.",
        params={"sezioni": "uscite"},
        check=lambda before, after: (
            before.state["out"] != before.state["concat"] and after.state["out"] == after.state["concat"]
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Porta a 0 la decisione delle query: nella riga di «entra» i pesi diventano uguali in tutte e tre le teste.",
        {"riga": "4", "maschera": True, "decisione": 0.0},
        "multi-head",
        lambda s: all(all(abs(w - 0.25) < 1e-12 for w in h["A"][3][:4]) for h in s["heads"]),
        after="i pesi diventano uguali in tutte le teste",
    ),
    Experiment(
        "Togli la maschera causale: «trofeo» ora vede anche «valigia», che viene dopo.",
        {"riga": "2", "maschera": False, "decisione": 1.0},
        "multi-head",
        lambda s: not s["causal"] and s["heads"][1]["A"][1][5] > 0.1,
        after="anche se viene dopo",
    ),
]
