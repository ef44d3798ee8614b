"""La stessa catena del laboratorio sui due pesi, ma con una curva morbida al
posto della ReLU: l'ingresso x passa per il peso w₁, poi per la tangente
iperbolica tanh, poi per il peso w₂, e l'uscita ŷ si confronta con
l'obiettivo y.

    z = w₁·x      h = tanh(z)      ŷ = w₂·h      L = (ŷ − y)²

z è la somma pesata che entra nella tanh, h quello che ne esce, L la loss.

La regola della catena dà i due gradienti, un fattore alla volta:
∂L/∂w₂ = 2(ŷ − y)·h e ∂L/∂w₁ = 2(ŷ − y)·w₂·(1 − h²)·x, dove 1 − h² è la
pendenza della tanh. Con i valori di partenza tutti e due sono negativi:
alzare i pesi avvicina ŷ a y. Il secondo riusa il pezzo 2(ŷ − y) già
calcolato per il primo: è per questo che la backpropagation costa poco.

Premi **Play** e guarda molti passi di fila: a ogni passo forward, backward e
w ← w − η·gradiente, e la loss scende. Poi cambia il learning rate: con
η = 1,5 i pesi rimbalzano senza arrivare, con η = 2 scappano via (li
fermiamo prima che i numeri esplodano). Prova anche w₁ = 3: la tanh è
quasi piatta, 1 − h² è vicino a 0 e w₁ non riceve quasi più correzioni.

Nota che cosa usa il backward: h, 1 − h² e x, tutti numeri del forward.
Per questo durante il training le attivazioni di ogni strato restano in
memoria finché il backward non le ha usate.
"""

import math

from core.tanh_chain import descend_chain
from core.tanh_chain import forward_backward
from core.tanh_chain import update
from labs.kit import ChainNode
from labs.kit import Curve
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Marker
from labs.kit import Series
from labs.kit import Slider
from labs.kit import Steps
from labs.kit import callout
from labs.kit import chain
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import sci
from labs.kit import stat
from labs.kit import stats
from labs.kit import step_machine
from labs.kit import table
from labs.kit import tag
from labs.kit.stepping import ended

TITLE = "Backprop su due strati"
REF = "9G"

STEPS = 200
LIMIT = 100.0  # a weight beyond this has run away: stop before the numbers blow up

CONTROLS = [
    Steps(max=STEPS, label="Passo", curve=Curve("losses", "loss", points=STEPS + 1)),
    Group(
        "La rete e il dato",
        (
            Slider("x", "Ingresso x", -2.0, 2.0, 0.1, 1.0),
            Slider("y", "Obiettivo y", -2.0, 2.0, 0.1, 0.8),
            Slider("w1", "Peso iniziale w₁", -3.0, 3.0, 0.1, 0.5),
            Slider("w2", "Peso iniziale w₂", -3.0, 3.0, 0.1, 0.5),
            Slider("eta", "Learning rate η", 0.01, 2.0, 0.01, 0.03),
        ),
    ),
]


def start(p):
    """I pesi al passo 0 e gli assi dei grafici.

    The axes come from the whole run, computed once here (200 steps of two
    numbers cost nothing): they stay still while the curves grow."""
    records, _ = descend_chain(p["x"], p["y"], p["w1"], p["w2"], p["eta"], STEPS, LIMIT)
    weights = [r[w] for r in records for w in ("w1", "w2")]
    r = forward_backward(p["x"], p["w1"], p["w2"], p["y"])
    return {
        "at": 0,
        "w1": p["w1"],
        "w2": p["w2"],
        "losses": [r["loss"]],
        "w1s": [p["w1"]],
        "w2s": [p["w2"]],
        "loss_top": max(r["loss"] for r in records),
        "weight_span": [min(weights), max(weights)],
    }


def advance(m, p):
    """Un passo di forward, backward e w ← w − η·gradiente; niente se i pesi scapperebbero."""
    new = update(m["w1"], m["w2"], forward_backward(p["x"], m["w1"], m["w2"], p["y"]), p["eta"], LIMIT)
    if new is None:
        return m
    return {
        **m,
        "at": m["at"] + 1,
        "w1": new[0],
        "w2": new[1],
        "losses": [*m["losses"], forward_backward(p["x"], *new, p["y"])["loss"]],
        "w1s": [*m["w1s"], new[0]],
        "w2s": [*m["w2s"], new[1]],
    }


def present(m, p):
    """Lo stato del passo: i conti con questi pesi, il passo che segue e le curve fin qui."""
    now = forward_backward(p["x"], m["w1"], m["w2"], p["y"])
    k = m["at"]
    return {
        "step": k,
        "asked": p["passo"],
        "x": p["x"],
        "y": p["y"],
        "eta": p["eta"],
        "w1": m["w1"],
        "w2": m["w2"],
        **now,
        "new_w1": m["w1"] - p["eta"] * now["grad_w1"],
        "new_w2": m["w2"] - p["eta"] * now["grad_w2"],
        "stopped": (stopped := k < STEPS and update(m["w1"], m["w2"], now, p["eta"], LIMIT) is None),
        **(ended(k, "fermo") if stopped else {}),
        "losses": list(m["losses"]),
        "w1s": list(m["w1s"]),
        "w2s": list(m["w2s"]),
        "loss_top": m["loss_top"],
        "weight_span": list(m["weight_span"]),
    }


compute = step_machine(start, advance, present)


def short(v):
    """Four decimals, as the equations below write them, below 100; fewer beyond: a box holds about seven
    characters."""
    size = abs(v)
    return num(v, 4 if size < 100 else 1 if size < 1000 else 0)


def same_decimals(*values, least=4, most=6):
    """The numbers of one equation, all written with the same decimals: as
    many as the smallest needs to show two significant digits, at least
    `least`, so that the written numbers combine into the written result.
    A number too small for `most` decimals is written as a power of ten."""
    tiny = 10.0 ** (1 - most)  # below this, two significant digits need more than `most` decimals
    needed = [1 - math.floor(math.log10(abs(v))) for v in values if abs(v) >= tiny]
    d = max([least, *needed])
    return [sci(v) if 0 < abs(v) < tiny else num(v, d) for v in values]


def paren(text, first=False):
    """A written number as a factor: in brackets when it is a power of ten,
    or negative after × or −."""
    return f"({text})" if "×" in text or (text.startswith("−") and not first) else text


def curves(s):
    """Loss and weights so far, on axes that hold the whole run."""
    k = s["step"]
    here = [Marker(k, f"passo {k}", class_="muted")]
    low, high = s["weight_span"]
    room = (high - low) * 0.05 or 1.0
    loss = line_chart(
        [Series("loss", tuple(enumerate(s["losses"])), markers=k == 0)],
        markers=here,
        x_range=(0, STEPS),
        y_range=(0, s["loss_top"] * 1.05 or 1.0),
        x_label="passo",
        y_label="loss",
        height=220,
        label="La loss passo dopo passo",
    )
    weights = line_chart(
        [
            Series("w₁", tuple(enumerate(s["w1s"])), class_="s1", markers=k == 0),
            Series("w₂", tuple(enumerate(s["w2s"])), class_="s2", markers=k == 0),
        ],
        markers=here,
        x_range=(0, STEPS),
        y_range=(low - room, high + room),
        x_label="passo",
        y_label="peso",
        height=220,
        label="I due pesi passo dopo passo",
    )
    return loss, weights


def view(s):
    f2 = short
    nodes = [
        ChainNode("w₁", f2(s["w1"]), f2(s["grad_w1"])),
        ChainNode("z = w₁·x", f2(s["z"]), f2(s["dL_dz"])),
        ChainNode("h = tanh(z)", f2(s["h"]), f2(s["dL_dh"]), off=s["dh_dz"] < 0.05),
        ChainNode("ŷ = w₂·h", f2(s["y_hat"]), f2(s["dL_dyhat"])),
        ChainNode("L = (ŷ − y)²", short(s["loss"]), "1"),
    ]
    edges = [
        f"∂z/∂w₁ = x = {num(s['x'], 1)}",
        f"∂h/∂z = 1 − h² = {f2(s['dh_dz'])}",
        f"∂ŷ/∂h = w₂ = {f2(s['w2'])}",
        f"∂L/∂ŷ = {f2(s['dL_dyhat'])}",
    ]
    d, h, w1, w2, x, eta = s["dL_dyhat"], s["h"], s["w1"], s["w2"], s["x"], s["eta"]
    loss, weights = curves(s)
    notes = []
    if s["stopped"]:
        where = "qui" if s["asked"] == s["step"] else f"al passo {s['step']}"
        notes.append(
            callout(
                f"Con η = {num(eta)} i pesi scappano: il passo successivo porterebbe un peso oltre "
                f"±{num(int(LIMIT))}, e il training si ferma {where}.",
                tone="error",
            )
        )
    flat = same_decimals(s["dh_dz"])[0]
    if s["dh_dz"] < 0.05:
        notes.append(
            callout(
                f"La tanh è quasi piatta qui (1 − h² = {flat}): il gradiente che arriva a w₁ "
                "è quasi spento, e w₁ si muove pochissimo.",
                tone="warn",
            )
        )
    if s["grad_w1"] == 0 and s["grad_w2"] == 0 and s["loss"] > 0:
        notes.append(
            callout(
                "Tutti e due i gradienti valgono 0 pur con la loss positiva: con w₁ = w₂ = 0, o con "
                "x = 0, la catena non trasmette niente e i pesi restano fermi.",
                tone="warn",
            )
        )
    z = same_decimals(w1, x, s["z"])
    y_hat = same_decimals(w2, h, s["y_hat"])
    loss_text, grad1, grad2 = (same_decimals(v)[0] for v in (s["loss"], s["grad_w1"], s["grad_w2"]))
    back2 = same_decimals(d, h, s["grad_w2"])
    back1 = same_decimals(d, w2, s["dh_dz"], x, s["grad_w1"])
    new1 = same_decimals(w1, eta, s["grad_w1"], s["new_w1"])
    new2 = same_decimals(w2, eta, s["grad_w2"], s["new_w2"])
    return panel(
        chain(
            nodes,
            edges,
            label="La catena w₁ → z → h → ŷ → L con i valori del forward e i gradienti del backward",
            width=680,  # four decimals on each arrow: labels wider than the kit's 640 leaves room for
        ),
        *notes,
        tag("h3", "Forward"),
        formula(
            f"z = w₁·x = {z[0]} × {paren(z[1])} = {z[2]};   h = tanh(z) = {f2(h)};   "
            f"ŷ = w₂·h = {y_hat[0]} × {paren(y_hat[1])} = {y_hat[2]};   L = (ŷ − y)² = {loss_text}"
        ),
        tag("h3", "Backward, con la regola della catena"),
        formula(f"∂L/∂w₂ = 2(ŷ − y)·h = {paren(back2[0], True)} × {paren(back2[1])} = {back2[2]}"),
        formula(
            f"∂L/∂w₁ = 2(ŷ − y)·w₂·(1 − h²)·x = {paren(back1[0], True)} × {paren(back1[1])} × "
            f"{paren(back1[2])} × {paren(back1[3])} = {back1[4]}"
        ),
        formula(
            f"w₁ ← {new1[0]} − {paren(new1[1])} × {paren(new1[2])} = {new1[3]};   "
            f"w₂ ← {new2[0]} − {paren(new2[1])} × {paren(new2[2])} = {new2[3]}"
        ),
        stats(stat("Loss", loss_text), stat("∂L/∂w₁", grad1), stat("∂L/∂w₂", grad2)),
        loss,
        weights,
        tag("h3", "Che cosa il backward prende dal forward"),
        table(
            ["Valore del forward", "Adesso", "Serve per"],
            [
                ["h", f2(h), "∂L/∂w₂ = 2(ŷ − y)·h"],
                ["1 − h²", flat, "attraversare la tanh"],
                ["x", num(x, 1), "∂L/∂w₁, l'ultimo fattore"],
            ],
            quantities="rows",
        ),
        tag(
            "p",
            "In una rete vera questi valori sono milioni per ogni token del batch: restano in memoria dal "
            "forward al backward, ed è una delle ragioni per cui allenare costa molta più memoria che usare "
            "il modello.",
        ),
        part="due-strati",
        data_step=s["step"],
    )


EDITS = [
    Edit(
        "ReLU al posto di tanh",
        change=(
            "    h = math.tanh(z)\n    y_hat = w2 * h\n    dL_dyhat = 2 * (y_hat - y)\n"
            "    dL_dh = dL_dyhat * w2\n    dh_dz = 1 - h * h",
            "    h = max(0.0, z)\n    y_hat = w2 * h\n    dL_dyhat = 2 * (y_hat - y)\n"
            "    dL_dh = dL_dyhat * w2\n    dh_dz = 1.0 if z > 0 else 0.0",
        ),
        expect="Con w₁ = −0,5 la ReLU è spenta (z < 0, h = 0): i due gradienti valgono zero e la loss resta "
        "ferma per tutti i 200 passi, mentre tanh lascia passare un gradiente anche sotto zero.",
        params={"w1": -0.5, "passo": 200},
        check=lambda before, after: (
            before.state["losses"][-1] < 0.5 * before.state["losses"][0]
            and after.state["losses"][-1] == after.state["losses"][0]
        ),
    ),
]

START = {"x": 1.0, "y": 0.8, "w1": 0.5, "w2": 0.5}
EXPERIMENTS = [
    Experiment(
        "Con i valori di partenza e η = 0,03, dopo 200 passi ŷ è quasi esattamente 0,8 e la loss è quasi 0.",
        {**START, "eta": 0.03, "passo": 200},
        "due-strati",
        lambda s: round(s["y_hat"], 3) == 0.8 and s["loss"] < 1e-8,
        after="e la loss scende",
    ),
    Experiment(
        "Con η = 2 i pesi scappano via: al passo 6 il training si ferma, prima che i numeri esplodano.",
        {**START, "eta": 2.0, "passo": 6},
        "due-strati",
        lambda s: s["stopped"] and s["loss"] > 1000,
        after="non riceve quasi più correzioni",
    ),
    Experiment(
        "Con w₁ = 3 la tanh è quasi piatta: la pendenza 1 − h² è sotto 0,01 e il gradiente di w₁ quasi 0.",
        {**START, "w1": 3.0, "eta": 0.03, "passo": 0},
        "due-strati",
        lambda s: s["dh_dz"] < 0.01 and abs(s["grad_w1"]) < 0.01,
        after="non riceve quasi più correzioni",
    ),
]
