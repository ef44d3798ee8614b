"""Il primo strato di un modello non calcola niente: **legge**. La tabella
di embedding E ha una riga per ogni token del vocabolario e d colonne, e
l'ID di un token dice quale riga prendere. Qui il vocabolario ha 8 token e
d = 6; in Llama 2 le righe sono 32.000 e le colonne 4.096, circa 131 milioni
di numeri. All'inizio del training E è riempita di numeri casuali piccoli,
estratti da una normale con media 0 e deviazione standard 0,02: nessuna riga
significa ancora qualcosa, il significato arriva con il training. Clicca una
riga per leggerla.

La riga di E non sa dove si trova il token: in «il cane morde l'uomo» e
«l'uomo morde il cane» i vettori sono gli stessi, solo in un altro ordine, e
l'attention, che pesa e somma, non vede la differenza. **RoPE** (rotary
position embedding) rimedia dentro l'attention: prima del prodotto scalare
ruota la query del token in posizione m di un angolo m·θ e la key del token
in posizione n di un angolo n·θ. Qui n non conta i token: come m, è una
posizione nella frase.

Nel piano vedi una query q e una key k di 2 numeri (trascina le frecce
tratteggiate), prima e dopo la rotazione. Muovi m e n: il prodotto scalare
cambia, perché cambia l'angolo tra le due frecce ruotate, che dipende da
m − n. Poi muovi «sposta entrambe»: le due frecce girano insieme, l'angolo
tra loro resta quello e il prodotto scalare non cambia. Il punteggio tra due
token dipende da quanto sono lontani, non da dove stanno nella frase; la
tabella lo verifica su più coppie di posizioni.

Un vettore vero ha molte coppie di numeri, e ogni coppia gira con la sua
velocità θᵢ: le prime in fretta, le ultime lentissime, così sia le distanze
brevi sia quelle lunghe lasciano un segno. Il transformer del 2017 faceva
diversamente: **sommava** all'embedding un vettore fisso di seni e coseni
della posizione assoluta. RoPE invece non aggiunge niente: **ruota**, e
conta solo la distanza tra i due token.
"""

import math
import random

from core.attention import rope
from core.attention import rope_frequencies
from core.attention import rope_score
from core.linalg import dot
from labs.kit import Arc
from labs.kit import Arrow
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import callout
from labs.kit import cell_text
from labs.kit import formula
from labs.kit import matrix
from labs.kit import num
from labs.kit import panel
from labs.kit import plane
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag
from labs.kit import vector_text

TITLE = "Embedding e posizione"
REF = "9C"

VOCAB = ("<eos>", "il", "gatto", "dorme", "sul", "divano", "nero", "letto")
D = 6
# a freshly created table: N(0, 0.02), seeded so that every page shows the same numbers
E = [[round(random.Random(f"E:{i}:{j}").gauss(0.0, 0.02), 3) for j in range(D)] for i in range(len(VOCAB))]
SENTENCE = ("il", "gatto", "dorme")
LLAMA_V, LLAMA_D = 32_000, 4_096
VIEW = (-4.5, 4.5)


# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "m": Symbol("la posizione della query nella frase", "posizion"),
    "n": Symbol("la posizione della key nella frase (non il numero di token)", "posizion"),
}


def coordinate(name, label, default):
    return Slider(name, label, -3.0, 3.0, 0.5, default)


CONTROLS = [
    Slider("id", "ID del token (riga di E)", 0, len(VOCAB) - 1, 1, 2),
    Group(
        "Query e key (frecce tratteggiate)",
        (
            coordinate("qx", "q₁", 3.0),
            coordinate("qy", "q₂", 1.0),
            coordinate("kx", "k₁", 2.0),
            coordinate("ky", "k₂", 2.0),
        ),
    ),
    Group(
        "Posizioni",
        (
            Slider("m", "m: posizione della query", 0, 10, 1, 5),
            Slider("n", "n: posizione della key", 0, 10, 1, 2),
            Slider("sposta", "Sposta entrambe di", 0, 20, 1, 0),
            Slider("theta", "θ: gradi per posizione", 0, 90, 5, 30),
        ),
    ),
]


def compute(p):
    """La riga di E di un token e il punteggio di q e k ruotati da RoPE alle loro posizioni."""
    q, k, theta = [p["qx"], p["qy"]], [p["kx"], p["ky"]], math.radians(p["theta"])
    m, n = p["m"] + p["sposta"], p["n"] + p["sposta"]

    def score(a, b):
        return rope_score(q, k, a, b, frequencies=[theta])

    shifts = sorted({0, 1, 5, 100, p["sposta"]})
    return {
        "vocab": list(VOCAB),
        "E": E,
        "id": p["id"],
        "row": E[p["id"]],
        "ids": [VOCAB.index(t) for t in SENTENCE],
        "llama": LLAMA_V * LLAMA_D,
        "q": q,
        "k": k,
        "m": m,
        "n": n,
        "theta": p["theta"],
        "shift": p["sposta"],
        "q_rot": rope(q, m, frequencies=[theta]),
        "k_rot": rope(k, n, frequencies=[theta]),
        "plain": dot(q, k),
        "score": score(m, n),
        "pairs": [[p["m"] + t, p["n"] + t, score(p["m"] + t, p["n"] + t)] for t in shifts],
        "other": [m, n + 1, score(m, n + 1)],
        "frequencies": rope_frequencies(8),
    }


def degrees(v):
    return math.degrees(math.atan2(v[1], v[0]))


def view(s):
    vocab, i = s["vocab"], s["id"]
    names = [f"{j} · {t}" for j, t in enumerate(vocab)]
    table_e = matrix(
        s["E"],
        label="E",
        row_labels=names,
        col_labels=[str(c) for c in range(D)],  # from 0, as the rows' IDs and the pairs i below
        highlight_rows=[i],
        digits=3,
        trim=False,
        part="E",
        pick_row=lambda r: (f"id={r}", f"Leggi la riga {r}, «{vocab[r]}»"),
    )
    m, n, theta = s["m"], s["n"], s["theta"]
    between = (m - n) * theta + degrees(s["q"]) - degrees(s["k"])
    items = [
        Arrow(s["k"], label="k", style="muted", dashed=True, drag=("kx", "ky")),
        Arrow(s["q"], label="q", style="muted", dashed=True, drag=("qx", "qy")),
        Arrow(s["k_rot"], label=f"k in pos. {n}", style="b"),
        Arrow(s["q_rot"], label=f"q in pos. {m}"),
    ]
    if any(s["q"]) and any(s["k"]):
        items.insert(0, Arc((0, 0), s["k_rot"], s["q_rot"], label="φ", style="c", radius=30))
    rows = [[num(a), num(b), num(a - b), cell_text(x), "adesso" if (a, b) == (m, n) else ""] for a, b, x in s["pairs"]]
    a, b, x = s["other"]
    rows.append([num(a), num(b), num(a - b), cell_text(x), "distanza diversa"])
    return panel(
        table_e,
        formula(f"ID {i} → riga {i} di E = «{vocab[i]}»: {vector_text(s['row'], 3)}"),
        formula(
            f"«{' '.join(SENTENCE)}» → ID {s['ids']} → righe {', '.join(map(str, s['ids']))} di E "
            f"→ una matrice [{len(SENTENCE)} × {D}]"
        ),
        stats(
            stat("E qui", f"{len(vocab)} × {D} = {num(len(vocab) * D)} numeri"),
            stat("E in Llama 2", f"{num(LLAMA_V)} × {num(LLAMA_D)} ≈ {num(round(s['llama'] / 1e6))} milioni"),
        ),
        tag("h3", "2. RoPE: ruotare query e key"),
        plane(
            items,
            VIEW,
            VIEW,
            ticks=1.0,
            width=360,
            label=f"q ruotata di {num(m)} × {num(theta)}° e k ruotata di {num(n)} × {num(theta)}°",
        ),
        formula(
            f"q ruota di m·θ = {num(m)} × {num(theta)}° = {num(m * theta)}°;   "
            f"k ruota di n·θ = {num(n)} × {num(theta)}° = {num(n * theta)}°"
        ),
        formula(
            f"senza posizione q · k = {cell_text(s['plain'])};   con RoPE q_m · k_n = {cell_text(s['score'])}"
            f";   angolo φ tra le frecce ruotate: {cell_text(abs((between + 180) % 360 - 180), 1)}°"
        ),
        tag("h3", "Stessa distanza, stesso punteggio"),
        table(["m", "n", "m − n", "q_m · k_n", ""], rows),
        callout(
            f"Spostando entrambe le posizioni della stessa quantità il prodotto scalare resta "
            f"{cell_text(s['score'])}: conta solo m − n = {num(m - n)}.",
            tone="ok",
        ),
        tag("h3", "3. Tante coppie, tante velocità"),
        table(
            ["Coppia i", "θᵢ (radianti per posizione)", "Gradi per posizione", "Un giro completo ogni"],
            [
                [num(j), cell_text(f, 3), cell_text(math.degrees(f)), f"{num(2 * math.pi / f, 0)} posizioni"]
                for j, f in enumerate(s["frequencies"])
            ],
        ),
        formula("θᵢ = 10.000^(−2i/d), qui con d = 8"),
        tag(
            "p",
            "Qui d = 8, cioè 4 coppie, e non 6 come le colonne di E: con d = 8 ogni velocità è esattamente "
            "un decimo della precedente.",
        ),
        title="1. La tabella E: un ID, una riga",
        part="posizione",
    )


EDITS = [
    Edit(
        "RoPE che ruota solo la query",
        change=(
            "    return dot(rope(q, m, base, frequencies), rope(k, n, base, frequencies))",
            "    return dot(rope(q, m, base, frequencies), k)",
        ),
        expect="Spostando la frase di 1, 5 o 100 posizioni il punteggio cambia, anche se la distanza tra i due "
        "token è la stessa: è girando entrambi i vettori che conta solo m − n.",
        check=lambda before, after: (
            len({round(s, 9) for *_, s in before.state["pairs"]}) == 1
            and len({round(s, 9) for *_, s in after.state["pairs"]}) > 1
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Porta «sposta entrambe» a 20: le due frecce girano insieme e il prodotto scalare resta 4.",
        {"qx": 3.0, "qy": 1.0, "kx": 2.0, "ky": 2.0, "m": 5, "n": 2, "theta": 30, "sposta": 20},
        "posizione",
        lambda s: round(s["score"], 9) == 4 and s["m"] == 25,
        after="il prodotto scalare non cambia",
    ),
    Experiment(
        "Con m = n = 2 le frecce girano dello stesso angolo e il prodotto scalare torna 8, quello senza rotazione.",
        {"qx": 3.0, "qy": 1.0, "kx": 2.0, "ky": 2.0, "m": 2, "n": 2, "theta": 30, "sposta": 0},
        "posizione",
        lambda s: round(s["score"], 9) == s["plain"] == 8,
        after="il prodotto scalare non cambia",
    ),
]
