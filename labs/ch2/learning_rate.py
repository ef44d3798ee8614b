"""Il gradiente dice in che direzione spostare un peso; il **learning rate**
η dice di quanto. La regola è sempre la stessa:

    w ← w − η · gradiente

Qui c'è un peso solo, w, e una loss semplice, L(w) = (w − 3)²: una scodella
con il fondo in w = 3. Il gradiente è la pendenza, 2·(w − 3): negativo a
sinistra del fondo, positivo a destra, tanto più grande quanto più si è
lontani. Ogni passo riparte dal punto dove è arrivato il precedente.

Tutto dipende da η. Un passo troppo timido spreca tempo, uno ben scelto
porta sul fondo in pochi passi, uno troppo lungo scavalca il fondo e lo
manca, e oltre un certo valore ogni salto allunga il successivo. Prova i
learning rate uno per uno e segui il percorso sulla scodella e nel grafico
di w. Puoi anche trascinare il punto di partenza sul grafico e scegliere
quanti passi fare.

Per questa scodella il conto si fa a mano: ogni passo moltiplica la distanza
dal fondo per 1 − 2η. Se il fattore sta tra 0 e 1 il peso si avvicina senza
scavalcare; tra −1 e 0 scavalca a ogni passo; sotto −1 si allontana. In un
LLM i pesi sono miliardi e la loss è molto più complicata, ma il compromesso
è lo stesso: troppo piccolo spreca calcolo, troppo grande fa esplodere il
training. Per questo η si sceglie con cura, di solito tra 10⁻⁴ e 10⁻³ nel
pre-training.
"""

import math

from core.descent import descend
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Handle
from labs.kit import Marker
from labs.kit import Question
from labs.kit import Series
from labs.kit import Slider
from labs.kit import callout
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import nice_ticks
from labs.kit import num
from labs.kit import panel
from labs.kit import plural
from labs.kit import share
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag
from labs.kit import the

TITLE = "Il learning rate"
REF = "2.4"

W_STAR = 3.0
LIMIT = 1000.0  # a diverging w is stopped here, long after it has left the drawing
ARRIVED = 0.01  # «arrived» once less than 1 % of the starting distance is left

CONTROLS = [
    Slider("eta", "Learning rate η", 0.01, 1.2, 0.01, 0.2, primary=True),
    Slider("w0", "Punto di partenza w₀", -3.0, 9.0, 0.5, -1.0),
    Slider("passi", "Numero di passi", 1, 30, 1, 15),
]


def loss(w):
    """La loss del laboratorio, una parabola con il minimo in w*: (w − w*)²."""
    return (w - W_STAR) ** 2


def gradient(w):
    """La derivata della loss: 2·(w − w*)."""
    return 2 * (w - W_STAR)


def verdict(errors, stopped):
    """Il regime della discesa, letto dalle distanze dal minimo passo dopo passo."""
    first, last = abs(errors[0]), abs(errors[-1])
    if stopped or last > first * (1 + 1e-9):
        return "diverge"
    if first < 1e-12:
        return "fermo"
    if any(a * b < 0 for a, b in zip(errors, errors[1:])):
        return "oscilla"
    return "striscia" if last > ARRIVED * first else "converge"


def compute(params):
    """I pesi della discesa w ← w − η·gradiente e il regime che ne viene fuori."""
    eta, w0, n = params["eta"], params["w0"], params["passi"]
    weights, stopped = descend(gradient, w0, eta, n, LIMIT)
    errors = [w - W_STAR for w in weights]
    steps = [
        {"w": w, "grad": gradient(w), "move": eta * gradient(w), "new": new, "loss": loss(w)}
        for w, new in zip(weights, weights[1:])
    ]
    return {
        "eta": eta,
        "w0": w0,
        "n": n,
        "weights": weights,
        "losses": [loss(w) for w in weights],
        "steps": steps,
        "stopped": stopped,
        "factor": 1 - 2 * eta,
        "verdict": verdict(errors, stopped),
        "arrived_at": next((k for k, e in enumerate(errors) if abs(e) <= ARRIVED * abs(errors[0])), None),
        "travelled": 1 - abs(errors[-1]) / abs(errors[0]) if errors[0] else 1.0,
        "damped": abs(errors[-1]) < abs(errors[0]) * (1 - 1e-9),
    }


def message(s):
    last = f"dopo {plural(len(s['steps']), 'passo', 'passi')} w = {num(s['weights'][-1], 3)}"
    return {
        "fermo": ("Fermo: parti già dal fondo, il gradiente è 0 e w non si muove.", "ok"),
        "converge": (
            f"Converge: al passo {num(s['arrived_at'] or 0)} w è già praticamente sul minimo, e ci resta ({last}).",
            "ok",
        ),
        "striscia": (
            f"Striscia: {last}, ha fatto solo {the(share(s['travelled']))} della strada. "
            "Il passo è troppo piccolo (o i passi troppo pochi).",
            "warn",
        ),
        "oscilla": (
            "Oscilla: a ogni passo scavalca il minimo. "
            + (
                "I salti si accorciano e alla fine arriva, ma sprecando passi."
                if s["damped"]
                else "I salti restano lunghi uguali: non arriverà mai."
            ),
            "warn",
        ),
        "diverge": (
            "Diverge: ogni salto è più lungo del precedente. "
            + (
                f"Al passo {num(len(s['steps']) + 1)} w andrebbe oltre ±{num(int(LIMIT))}: ci fermiamo qui, i numeri "
                "crescerebbero senza limite."
                if s["stopped"]
                else f"Ora w = {num(s['weights'][-1], 3)} e continua ad allontanarsi."
            ),
            "error",
        ),
    }[s["verdict"]]


def window(ws):
    """The span of w the charts show: from −3 to 9, widened to round ends when the path goes beyond."""
    lo, hi = min(-3.0, *ws), max(9.0, *ws)
    if (lo, hi) == (-3.0, 9.0):
        return lo, hi, (-3, 0, 3, 6, 9)
    ticks, _ = nice_ticks(lo, hi)
    step = ticks[1] - ticks[0]
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    return lo, hi, None


def charts(s):
    ws = s["weights"]
    lo, hi, w_ticks = window(ws)
    curve = Series(
        "loss L(w) = (w − 3)²",
        tuple((lo + k * (hi - lo) / 120, loss(lo + k * (hi - lo) / 120)) for k in range(121)),
        class_="target",
    )
    last = f"w = {num(ws[-1], 3)}"
    path = Series(
        "i passi",
        tuple((w, loss(w)) for w in ws),
        class_="s2",
        markers=True,
        labels=("",) * (len(ws) - 1) + ((last, "w" if ws[-1] > W_STAR else "e"),),
    )
    start = Handle(
        s["w0"], loss(s["w0"]), x_name="w0", y_name=None, label="Punto di partenza: trascinalo", caption="w₀"
    )
    bowl = line_chart(
        [curve, path],
        handles=[start],
        markers=[Marker(W_STAR, "minimo w = 3", class_="s3")],
        x_range=(lo, hi),
        y_range=(0, max(40.0, loss(lo), loss(hi))),
        x_ticks=w_ticks,
        x_label="peso w",
        y_label="loss",
        height=320,
        label=f"La scodella L(w) e i passi con η = {num(s['eta'])}",
    )
    track = line_chart(
        [
            Series(
                "w dopo ogni passo",
                tuple(enumerate(ws)),
                class_="s2",
                markers=True,
                labels=("",) * (len(ws) - 1) + ((last, "sw" if ws[-1] > W_STAR else "nw"),),
            )
        ],
        markers=[Marker(W_STAR, "minimo w = 3", class_="s3", axis="y")],
        x_range=(0, s["n"]),
        y_range=(lo, hi),
        y_ticks=w_ticks,
        x_ticks=None if s["n"] > 10 else tuple(range(s["n"] + 1)),
        x_label="passo",
        y_label="w",
        height=240,
        label="Il peso w passo dopo passo",
    )
    return bowl, track


def view(s):
    text, tone = message(s)
    rows = [
        [num(k + 1), num(r["w"], 3), num(r["grad"], 3), num(r["move"], 3), num(r["new"], 3), num(r["loss"], 3)]
        for k, r in enumerate(s["steps"])
    ]
    head = ["Passo", "w", "gradiente 2(w − 3)", "η · gradiente", "nuovo w", "loss L(w)"]
    bowl, track = charts(s)
    return panel(
        tag("div", callout(text, tone=tone), bowl, id="vista-scodella"),
        stats(
            stat("Learning rate η", num(s["eta"])),
            stat("Fattore 1 − 2η", num(s["factor"])),
            stat("w finale", num(s["weights"][-1], 3)),
            stat("Loss finale", num(s["losses"][-1], 3)),
        ),
        formula(f"w − 3 ← (1 − 2η)·(w − 3) = {num(s['factor'])} · (w − 3)   a ogni passo"),
        track,
        tag("h3", "I primi passi, uno per uno"),
        table(head, rows[:6]),
        tag("details", tag("summary", f"Tutti {the(num(len(rows)) + ' passi', plural=True)}"), table(head, rows))
        if len(rows) > 6
        else None,
        part="learning-rate",
    )


EDITS = [
    Edit(
        "una derivata sbagliata di un fattore 2",
        change=("    return 2 * (w - W_STAR)", "    return (w - W_STAR)"),
        expect="Con η = 0,9 il passo giusto scavalca il minimo e oscilla; con la derivata dimezzata ogni passo "
        "è la metà e arriva quasi in un colpo solo: il learning rate buono dipende da quanto è ripida "
        "la loss.",
        params={"eta": 0.9},
        check=lambda before, after: before.state["verdict"] == "oscilla" and after.state["verdict"] == "converge",
    ),
]

AT = "Puoi anche trascinare"  # the paragraph that suggests the experiments
START = {"w0": -1.0, "passi": 15}
EXPERIMENTS = [
    Experiment(
        "Con η = 0,01 il peso striscia: dopo 15 passi ha fatto meno di metà della strada verso il fondo.",
        {"eta": 0.01, **START},
        "vista-scodella",
        lambda s: s["verdict"] == "striscia" and s["travelled"] < 0.5,
        after=AT,
    ),
    Experiment(
        "Con η = 0,2 scende deciso e si ferma sul minimo.",
        {"eta": 0.2, **START},
        "vista-scodella",
        lambda s: s["verdict"] == "converge",
        after=AT,
    ),
    Experiment(
        "Con η = 0,5 arriva sul fondo in un passo solo.",
        {"eta": 0.5, **START},
        "vista-scodella",
        lambda s: s["arrived_at"] == 1 and s["weights"][1] == W_STAR,
        after=AT,
    ),
    Experiment(
        "Con η = 0,9 scavalca il fondo a ogni passo, con salti sempre più corti.",
        {"eta": 0.9, **START},
        "vista-scodella",
        lambda s: s["verdict"] == "oscilla" and s["damped"],
        after=AT,
    ),
    Experiment(
        "Con η = 1 rimbalza per sempre tra due punti.",
        {"eta": 1.0, **START},
        "vista-scodella",
        lambda s: s["verdict"] == "oscilla" and not s["damped"] and set(s["weights"]) == {-1.0, 7.0},
        after=AT,
    ),
    Experiment(
        "Con η = 1,1 ogni salto è più lungo del precedente: dopo 15 passi il peso diverge fino a w = 64,63.",
        {"eta": 1.1, **START},
        "vista-scodella",
        lambda s: s["verdict"] == "diverge" and round(s["weights"][-1], 2) == 64.63,
        after=AT,
        predict=Question(
            "Si parte da w = −1, a distanza 4 dal fondo, con η = 1,1. Dopo 15 passi dove sarà la loss, che alla "
            "partenza vale 16?",
            (
                "Vicina a zero: il peso è arrivato sul fondo",
                "Più o meno a 16: il peso rimbalza tra due punti",
                "Molto più in alto, migliaia: il peso si allontana a ogni salto",
            ),
            2,
            "Il fattore 1 − 2η vale −1,2: a ogni passo il peso salta dall'altra parte del fondo e la distanza "
            "cresce di un quinto. Dopo 15 salti è diventata circa 62 e la loss, il suo quadrato, quasi 3.800.",
        ),
    ),
]
