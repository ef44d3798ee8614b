"""Un blocco del transformer ha due sotto-strati, ma non si dividono i
parametri a metà. L'attention usa quattro matrici d × d (query, key, value e
la proiezione d'uscita): 4d² numeri. La rete feed-forward classica allarga il
vettore a 4d e poi lo riporta a d con due matrici d × 4d: 8d² numeri. Su
12d² in tutto, **due terzi** stanno nella feed-forward, qualunque sia d.

Le varianti moderne come **SwiGLU** (LLaMA e molti altri) usano tre matrici
invece di due: una in più fa da «cancello» che decide quanto lasciar passare.
Per non spendere di più si stringe lo strato interno da 4d a circa 8d/3:
3 · d · 8d/3 = 8d², di nuovo due terzi. Prova anche SwiGLU senza stringere
lo strato interno, per vedere quanto crescerebbe la quota.

I parametri non dicono tutto sul **costo**. Per ogni token la feed-forward
fa un numero fisso di conti, circa 2 operazioni per parametro: 16d². Anche le
quattro matrici dell'attention hanno un costo fisso, 8d². Ma poi il token
deve confrontare la sua query con le key di tutti gli n token del contesto
(n·d moltiplicazioni) e mescolare altrettanti value (altre n·d): 4nd
operazioni, che crescono con n.

Sposta la **lunghezza della sequenza** n e guarda le linee incrociarsi: i
punteggi dell'attention raggiungono la feed-forward quando 4nd = 16d², cioè
a **n = 4d**; l'attention tutta intera (8d² + 4nd) la raggiunge già a n = 2d.
Con d = 512, il transformer originale, basta un contesto di 2.048 token;
con d = 4.096 ne servono 16.384. Con meno token pesa di più la feed-forward, con più
token l'attention.
"""

from labs.kit import Bar
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Marker
from labs.kit import Series
from labs.kit import bars
from labs.kit import big
from labs.kit import callout
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag

TITLE = "Dove stanno i parametri"
REF = "A.3"

WIDTHS = (512, 768, 1024, 2048, 4096, 8192, 12288)
LENGTHS = tuple(2**k for k in range(7, 21, 2))  # 128 … 1.048.576 tokens
FFNS = {  # name: (label, matrices, inner width as a multiple of d)
    "classica": ("Classica: 2 matrici, 4d", 2, 4.0),
    "swiglu": ("SwiGLU: 3 matrici, 8d/3", 3, 8 / 3),
    "swiglu4": ("SwiGLU senza stringere: 3 matrici, 4d", 3, 4.0),
}

CONTROLS = [
    Choice("d", "Larghezza d del modello", tuple((str(d), num(d)) for d in WIDTHS), "4096"),
    Choice("ffn", "Feed-forward", tuple((k, v[0]) for k, v in FFNS.items()), "classica"),
    Choice("n", "Lunghezza della sequenza n (token)", tuple((str(n), num(n)) for n in LENGTHS), "2048"),
]


def costs(d, n, ffn_params):
    """Le operazioni per token (moltiplicazione e somma contano 2) per il token in posizione n."""
    return {"projections": 2 * 4 * d * d, "scores": 4 * n * d, "ffn": 2 * ffn_params}


def compute(p):
    """I parametri dell'attention e dell'FFN di un blocco, e il loro costo al crescere di n."""
    d, n = int(p["d"]), int(p["n"])
    _, matrices, ratio = FFNS[p["ffn"]]
    attention, ffn = 4 * d * d, matrices * d * ratio * d
    c = costs(d, n, ffn)
    return {
        "d": d,
        "n": n,
        "ffn_kind": p["ffn"],
        "matrices": matrices,
        "ratio": ratio,
        "d_ff": ratio * d,
        "attention_params": attention,
        "ffn_params": ffn,
        "ffn_share": ffn / (attention + ffn),
        **c,
        # 4nd = 2·ffn  and  8d² + 4nd = 2·ffn, solved for n
        "crossover_scores": 2 * ffn / (4 * d),
        "crossover_attention": (2 * ffn - 8 * d * d) / (4 * d),
    }


def cost_chart(s):
    d, ffn = s["d"], s["ffn_params"]
    xs = [2 ** (k / 2) for k in range(12, 43)]
    rows = [costs(d, n, ffn) for n in xs]
    series = [
        Series("feed-forward", tuple((x, r["ffn"]) for x, r in zip(xs, rows)), class_="s2"),
        Series("attention: punteggi (4nd)", tuple((x, r["scores"]) for x, r in zip(xs, rows)), class_="s1"),
        Series(
            "attention intera (8d² + 4nd)",
            tuple((x, r["projections"] + r["scores"]) for x, r in zip(xs, rows)),
            class_="s1",
            dashed=True,
        ),
        Series("", ((s["n"], s["scores"]), (s["n"], s["ffn"])), class_="s3", markers=True, line=False),
    ]
    markers = [
        Marker(s["crossover_scores"], f"n = {num(round(s['crossover_scores']))}: punteggi = feed-forward", class_="s3"),
        Marker(s["n"], f"n scelto = {num(s['n'])}", class_="muted", dashed=False),
    ]
    return line_chart(
        series,
        markers=markers,
        x_log=True,
        y_log=True,
        x_range=(64, 2**21),
        x_ticks=(100, 1000, 10_000, 100_000, 1_000_000),
        label="Operazioni per token al crescere della sequenza: feed-forward e attention",
        x_label="lunghezza della sequenza n (scala logaritmica)",
        y_label="operazioni per token (scala log.)",
        height=320,
    )


def view(s):
    d, share = s["d"], s["ffn_share"]
    ratio_text = "(8/3)·" if abs(s["ratio"] - 8 / 3) < 1e-12 else num(s["ratio"], 0)
    total = s["projections"] + s["scores"]
    leader = "la feed-forward" if s["ffn"] > total else "l'attention"
    return panel(
        formula(f"attention: 4 · d² = 4 · {num(d)}² = {num(s['attention_params'])}"),
        formula(
            f"feed-forward: {s['matrices']} · d · {ratio_text}d = {s['matrices']} · {num(d)} · "
            f"{num(s['d_ff'], 0 if float(s['d_ff']).is_integer() else 1)} = {num(round(s['ffn_params']))}"
        ),
        bars(
            [
                Bar("attention", 1 - share, text=f"{percent(1 - share, 1)}", class_="s1"),
                Bar("feed-forward", share, text=f"{percent(share, 1)}", class_="s2", highlight=True),
            ],
            label="Quota dei parametri del blocco",
            lo=0,
            hi=1,
            row_height=34,
        ),
        stats(
            stat("Parametri del blocco", big(s["attention_params"] + s["ffn_params"])),
            stat("Quota della feed-forward", percent(share, 1), tone="ok" if abs(share - 2 / 3) < 1e-9 else None),
        ),
        tag("h3", f"Il costo di un token con {num(s['n'])} token di contesto"),
        stats(
            stat("Feed-forward", big(s["ffn"])),
            stat("Attention: proiezioni", big(s["projections"])),
            stat("Attention: punteggi", big(s["scores"])),
        ),
        cost_chart(s),
        formula(
            f"4 · n · d = 2 · {num(round(s['ffn_params']))}  →  n = {num(round(s['crossover_scores']))}"
            f" (attention intera: n = {num(round(s['crossover_attention']))})"
        ),
        callout(
            f"Con n = {num(s['n'])} costa di più {leader}. I conti sono per il token in fondo al contesto: "
            "nella media di una frase ogni token guarda circa metà dei precedenti, e l'incrocio si sposta "
            f"a n = {num(round(2 * s['crossover_scores']))}."
        ),
        title="I parametri di un blocco",
        part="quota",
    )


EDITS = [
    Edit(
        "un FFN largo d invece di 4d",
        change=("attention, ffn = 4 * d * d, matrices * d * ratio * d", "attention, ffn = 4 * d * d, matrices * d * d"),
        expect="Con d_ff = d le due matrici dell'FFN valgono 2d² contro i 4d² dell'attention: la quota "
        "dell'FFN scende da due terzi a un terzo.",
        check=lambda before, after: (
            abs(before.state["ffn_share"] - 2 / 3) < 1e-9 and abs(after.state["ffn_share"] - 1 / 3) < 1e-9
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con SwiGLU senza stringere lo strato interno la feed-forward sale a tre quarti dei parametri del blocco.",
        {"ffn": "swiglu4"},
        "quota",
        lambda s: s["ffn_share"] == 0.75,
        after="quanto crescerebbe la quota",
    ),
    Experiment(
        "Con d = 512 e un contesto di 2.048 token i punteggi dell'attention costano quanto la feed-forward.",
        {"d": "512", "n": "2048", "ffn": "classica"},
        "quota",
        lambda s: s["scores"] == s["ffn"] and s["crossover_scores"] == 2048,
        after="ne servono 16.384",
    ),
]
