"""La tavola pitagorica ha 100 caselle, ma bastano 20 numeri per
ricostruirla: i numeri da 1 a 10 sul bordo in alto e quelli sul bordo a
sinistra. In ogni casella c'è il numero del suo bordo sinistro per quello del
suo bordo in alto.

Lo stesso trucco con la colonna u = [1; 2; 3] e la riga v = [1, 0, 2] dà una
matrice 3 × 3, M = u·vᵀ, in cui la casella (i, j) vale uᵢ·vⱼ. Muovi x: qualunque
vettore entri, l'uscita M·x è sempre (v·x) volte u, cioè un multiplo di
[1; 2; 3]. Tutte le uscite stanno sulla stessa retta: la matrice ha
**rango 1**. Il rango è il numero di direzioni indipendenti che le uscite
riescono a occupare.

Generalizzando, una matrice [d × d] si può costruire come B·A, con B
[d × r] e A [r × d] e r piccolo. Il risultato ha la shape giusta, ma
servono solo 2·d·r numeri invece di d². Con d = 1.000 e r = 10 sono 20.000
numeri invece di 1.000.000: cinquanta volte meno. Scegli d e r e guarda il
risparmio; quando r arriva a metà di d il risparmio sparisce.

In fondo lo stesso conto in piccolo, con d = 6: x entra in A e ne escono
solo r numeri, un **collo di bottiglia**; B li riporta a 6. Allarga r e
guarda il rango di B·A crescere con lui.
"""

import random

from core.linalg import dot
from core.linalg import matmul
from core.linalg import matvec
from core.linalg import outer
from core.linalg import scale
from core.rank import matrix_rank
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Slider
from labs.kit import callout
from labs.kit import equation
from labs.kit import formula
from labs.kit import matrix
from labs.kit import num
from labs.kit import shape_label
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag
from labs.kit import vector

TITLE = "Rango 1 e rango basso"
REF = "9B.11"

U, V = [1, 2, 3], [1, 0, 2]
SAMPLES = ([1, 0, 0], [0, 1, 0], [0, 0, 1], [2, -1, 1])
SIZES = (4, 16, 64, 256, 1000, 4096)
RANKS = (1, 2, 4, 8, 10, 16, 32, 64, 100, 128, 256, 500, 1000, 2048, 4096)
SMALL_D = 6

CONTROLS = [
    Group(
        "Rango 1: il vettore x che entra in u·vᵀ",
        tuple(Slider(f"x{k}", f"x{'₁₂₃'[k - 1]}", -3.0, 3.0, 0.5, 1.0) for k in (1, 2, 3)),
    ),
    Group(
        "Rango basso: W = B·A",
        (
            Choice("d", "d: la matrice è [d × d]", tuple((str(n), num(n)) for n in SIZES), "1000"),
            Choice("r", "r: lo spessore di B e A", tuple((str(n), num(n)) for n in RANKS), "10"),
        ),
    ),
    Slider("r_small", f"r dell'esempio piccolo (d = {SMALL_D})", 1, SMALL_D, 1, 2),
]

_rng = random.Random("rango-0")
B_FULL = [[_rng.randint(-2, 2) for _ in range(SMALL_D)] for _ in range(SMALL_D)]
A_FULL = [[_rng.randint(-2, 2) for _ in range(SMALL_D)] for _ in range(SMALL_D)]
X_SMALL = [1, -1, 2, 0, 1, -2]


def compute(p):
    """La matrice di rango 1 u·vᵀ, il suo effetto su x, e il conto dei numeri di B·A."""
    x = [p["x1"], p["x2"], p["x3"]]
    M = outer(U, V)
    d, asked = int(p["d"]), int(p["r"])
    r = min(asked, d)
    k = p["r_small"]
    B, A = [row[:k] for row in B_FULL], A_FULL[:k]  # growing r keeps the old columns of B and rows of A
    z = matvec(A, X_SMALL)
    return {
        "M": M,
        "x": x,
        "Mx": matvec(M, x),
        "vx": dot(V, x),
        "scaled": scale(dot(V, x), U),
        "rank_M": matrix_rank(M),
        "samples": [{"x": s, "Mx": matvec(M, s), "k": dot(V, s)} for s in SAMPLES],
        "d": d,
        "r": r,
        "r_asked": asked,
        "low": 2 * d * r,
        "full": d * d,
        "ratio": d * d / (2 * d * r),
        "small": {
            "r": k,
            "B": B,
            "A": A,
            "x": X_SMALL,
            "z": z,
            "y": matvec(B, z),
            "W": matmul(B, A),
            "rank": matrix_rank(matmul(B, A)),
            "low": 2 * SMALL_D * k,
            "full": SMALL_D**2,
        },
    }


def short(a):
    """1,0 → 1 and 2,5 → 2,5: these examples only have halves."""
    return num(float(a), 1).removesuffix(",0")


def vtext(v):
    return "[" + "; ".join(short(a) for a in v) + "]"


def view(s):
    x, sm, d, r = s["x"], s["small"], s["d"], s["r"]
    rank1 = tag(
        "section",
        tag("h3", "Rango 1: una colonna per una riga"),
        equation(
            vector(U, label="u"),
            "·",
            vector(V, label="vᵀ", column=False, shape=shape_label(1, 3)),
            "=",
            matrix(s["M"], label="M = u·vᵀ", highlight_cols=[1]),
        ),
        equation(
            matrix(s["M"], label="M"),
            "·",
            vector(x, label="x", digits=1),
            "=",
            vector(s["Mx"], label="M·x", digits=1, emphasize=True, part="Mx"),
        ),
        formula(
            "v·x = "
            + " + ".join(f"{a}·{f'({short(b)})' if b < 0 else short(b)}" for a, b in zip(V, x))
            + f" = {short(s['vx'])}   →   (v·x)·u = {short(s['vx'])} · [1; 2; 3] = {vtext(s['scaled'])} = M·x"
        ),
        table(
            ["x", "M·x", "è un multiplo di u"],
            [[vtext(e["x"]), vtext(e["Mx"]), f"{short(e['k'])} · [1; 2; 3]"] for e in s["samples"]],
        ),
        callout(
            f"Ogni uscita è un multiplo di [1; 2; 3]: tutte su una retta, rango {s['rank_M']}. "
            "La colonna di zeri viene da v₂ = 0: x₂ non conta affatto. 9 caselle, ma bastano 6 numeri."
        ),
    )
    notes = []
    if s["r_asked"] > d:
        notes.append(
            callout(
                f"r = {num(s['r_asked'])} supera d = {num(d)}: B·A non può avere più "
                f"direzioni della matrice stessa. Uso r = {num(d)}.",
                tone="warn",
            )
        )
    if 2 * r >= d:
        notes.append(
            callout(
                f"Con r = {num(r)}, almeno metà di d = {num(d)}, il rango basso non fa più "
                f"risparmiare niente: 2·d·r = {num(s['low'])} contro d² = {num(s['full'])}.",
                tone="warn",
            )
        )
    saving = f"{short(s['ratio'])} volte meno" if s["ratio"] > 1 else "nessun risparmio"
    low = tag(
        "section",
        tag("h3", "Rango basso: due matrici sottili", id="vista-risparmio"),
        formula(f"B {shape_label(d, r)} · A {shape_label(r, d)} = W {shape_label(d, d)}"),
        stats(
            stat("Numeri di B e A: 2·d·r", num(s["low"]), tone="ok" if s["ratio"] > 1 else "warn"),
            stat("Numeri di W piena: d²", num(s["full"])),
            stat("Risparmio", saving),
        ),
        *notes,
    )
    small = tag(
        "section",
        tag("h3", f"Il collo di bottiglia, in piccolo: d = {SMALL_D}, r = {sm['r']}"),
        equation(
            matrix(sm["A"], label="A"),
            "·",
            vector(sm["x"], label="x"),
            "=",
            vector(sm["z"], label="A·x", emphasize=True, part="collo"),
        ),
        equation(
            matrix(sm["B"], label="B"),
            "·",
            vector(sm["z"], label="A·x"),
            "=",
            vector(sm["y"], label="B·(A·x)", emphasize=True),
        ),
        formula(f"{shape_label(SMALL_D)} → {shape_label(sm['r'])} → {shape_label(SMALL_D)}"),
        equation(
            matrix(sm["B"], label="B"),
            "·",
            matrix(sm["A"], label="A"),
            "=",
            matrix(sm["W"], label="W = B·A", heat=True, caption=f"rango {sm['rank']}"),
        ),
        stats(
            stat("Rango di B·A", num(sm["rank"])),
            stat("Numeri di B e A", num(sm["low"]), tone="ok" if sm["low"] < sm["full"] else "warn"),
            stat("Numeri di W", num(sm["full"])),
        ),
    )
    return tag("div", rank1, low, small)


EDITS = [
    Edit(
        "uᵢ + vⱼ al posto di uᵢ·vⱼ",
        change=("    return [[x * y for y in v] for x in u]", "    return [[x + y for y in v] for x in u]"),
        expect="La tabella delle somme non è più di rango 1: il rango sale a 2, e M·x non è più un multiplo "
        "di u. Solo il prodotto riga × colonna dà una matrice fatta di una direzione sola.",
        check=lambda before, after: before.state["rank_M"] == 1 and after.state["rank_M"] == 2,
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con d = 1.000 e r = 10 servono 20.000 numeri invece di 1.000.000: cinquanta volte meno.",
        {"d": "1000", "r": "10"},
        "vista-risparmio",
        lambda s: s["low"] == 20_000 and s["full"] == 1_000_000 and s["ratio"] == 50,
        after="guarda il risparmio",
    ),
    Experiment(
        "Con d = 1.000 e r = 500 il risparmio sparisce: B e A insieme hanno 1.000.000 di numeri, quanti d².",
        {"d": "1000", "r": "500"},
        "vista-risparmio",
        lambda s: s["low"] == s["full"] == 1_000_000,
        after="guarda il risparmio",
    ),
    Experiment(
        "Allarga il collo di bottiglia a r = 4: il rango di B·A sale a 4.",
        {"r_small": 4},
        "collo",
        lambda s: s["small"]["rank"] == 4,
        after="guarda il rango di B·A crescere",
    ),
]
