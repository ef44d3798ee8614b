"""Una «rete» con due soli pesi, abbastanza piccola da seguire ogni
moltiplicazione: l'ingresso x passa per il peso w₁, poi per una ReLU, poi per
il peso w₂, e l'uscita ŷ si confronta con l'obiettivo y.

    z = w₁·x      h = ReLU(z)      ŷ = w₂·h      L = (ŷ − y)²

z è la somma pesata che entra nella ReLU, h quello che ne esce, L la loss.

Premi **Avanti** e il conto si svela un pezzo alla volta. Prima il
**forward**: i valori da sinistra a destra, fino alla loss. Poi le
**derivate locali**: ogni operazione sa da sola quanto cambia la sua uscita
se il suo ingresso si muove un poco. Poi il **backward**: partendo dalla loss
si moltiplicano le derivate locali una dopo l'altra, da destra a sinistra
(è la regola della catena), fino al gradiente di ciascun peso. Infine
l'**aggiornamento**: w ← w − η·gradiente, per tutti e due i pesi insieme, e
si ricomincia il giro con i pesi nuovi.

Prova a rendere negativo il primo peso: la ReLU si spegne, la sua derivata
vale 0 e il gradiente si ferma lì. Nessuno dei due pesi riceve più una
correzione.
"""

from core.autograd import Value
from labs.kit import Curve
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Slider
from labs.kit import Steps
from labs.kit import callout
from labs.kit import factor
from labs.kit import formula
from labs.kit import num
from labs.kit import panel
from labs.kit import stat
from labs.kit import stats
from labs.kit import step_machine
from labs.kit import table
from labs.kit import tag
from labs.kit.svg import arrow_marker
from labs.kit.svg import group
from labs.kit.svg import line
from labs.kit.svg import rect
from labs.kit.svg import svg
from labs.kit.svg import text

TITLE = "Backprop su due pesi"
REF = "2.3"

ROUNDS = 20
PHASES = 13  # per round: 3 forward, 1 loss, 4 local derivatives, 4 backward products, 1 update
PHASE_NAMES = (
    "La catena",
    "Forward: z",
    "Forward: h",
    "Forward: ŷ",
    "Loss",
    "Locale: ∂L/∂ŷ",
    "Locali: ∂ŷ/∂w₂, ∂ŷ/∂h",
    "Locale: ∂h/∂z",
    "Locale: ∂z/∂w₁",
    "Backward: ∂L/∂w₂",
    "Backward: ∂L/∂h",
    "Backward: ∂L/∂z",
    "Backward: ∂L/∂w₁",
    "Aggiornamento",
)
DIGITS = 4  # every number inside one equation has as many decimals as the others

CONTROLS = [
    Group(
        "La rete e il dato",
        (
            Slider("x", "Ingresso x", -2.0, 2.0, 0.1, 1.5),
            Slider("y", "Obiettivo y", -3.0, 3.0, 0.1, 2.0),
            Slider("w1", "Peso iniziale w₁", -2.0, 2.0, 0.1, 0.8),
            Slider("w2", "Peso iniziale w₂", -2.0, 2.0, 0.1, 0.5),
            Slider("eta", "Learning rate η", 0.01, 0.5, 0.01, 0.1),
        ),
    ),
    Steps(max=ROUNDS * PHASES, phases=PHASE_NAMES, prelude=1, curve=Curve("curve", "loss", points=ROUNDS + 1)),
]


def forward_backward(x, w1, w2, y):
    """Un passaggio nella catena con l'autograd: valori, derivate locali e gradienti.

    One pass through the chain with the autograd: values, local
    derivatives and gradients, all as plain floats.
    """
    W1, W2 = Value(w1), Value(w2)
    z = W1 * x
    h = z.relu()
    y_hat = W2 * h
    loss = (y_hat - y) ** 2
    loss.backward()
    return {
        "z": z.data,
        "h": h.data,
        "y_hat": y_hat.data,
        "loss": loss.data,
        "local": {
            "dL_dyhat": 2 * (y_hat.data - y),
            "dyhat_dw2": h.data,
            "dyhat_dh": w2,
            "dh_dz": 1.0 if z.data > 0 else 0.0,
            "dz_dw1": x,
        },
        "grad": {"y_hat": y_hat.grad, "w2": W2.grad, "h": h.grad, "z": z.grad, "w1": W1.grad},
    }


# The machine: the step, the weights at the start of this round and the loss
# of every round completed. Step 0 shows the chain; then each round is 13
# steps, and only leaving its last one (the update) changes the weights.


def start(p):
    """La macchina al passo 0: i pesi iniziali e nessuna loss ancora."""
    return {"step": 0, "w1": p["w1"], "w2": p["w2"], "losses": []}


def advance(m, p):
    """Un passo avanti: alla fine di un giro si applica l'aggiornamento dei due pesi."""
    if m["step"] and m["step"] % PHASES == 0:  # leaving an update: the new weights start the next round
        r = forward_backward(p["x"], m["w1"], m["w2"], p["y"])
        m = {
            **m,
            "losses": [*m["losses"], r["loss"]],
            "w1": m["w1"] - p["eta"] * r["grad"]["w1"],
            "w2": m["w2"] - p["eta"] * r["grad"]["w2"],
        }
    return {**m, "step": m["step"] + 1}


def present(m, p):
    """Lo stato del passo: il giro, la fase e i conti di forward e backward con questi pesi."""
    step, w1, w2 = m["step"], m["w1"], m["w2"]
    round_, phase = (0, 0) if step == 0 else divmod(step - 1, PHASES)
    phase = 0 if step == 0 else phase + 1
    r = forward_backward(p["x"], w1, w2, p["y"])
    new_w1, new_w2 = w1 - p["eta"] * r["grad"]["w1"], w2 - p["eta"] * r["grad"]["w2"]
    after = forward_backward(p["x"], new_w1, new_w2, p["y"])["loss"]
    # the curve of the timeline: the loss of each round's weights once the page has shown it (the first at
    # its forward, the others at the update before), and the loss after this update once that is shown
    shown = round_ > 0 or phase >= 4
    curve = m["losses"] + ([r["loss"]] if shown else []) + ([after] if phase == PHASES else [])
    return {
        "step": step,
        "round": round_ + 1,
        "phase": phase,
        "x": p["x"],
        "y": p["y"],
        "eta": p["eta"],
        "w1": w1,
        "w2": w2,
        **r,
        "relu_on": r["z"] > 0,
        "new_w1": new_w1,
        "new_w2": new_w2,
        "loss_after": after,
        "losses": list(m["losses"]),
        "curve": curve,
    }


compute = step_machine(start, advance, present)


def explain(s):
    """Title and formula (with numbers) of the current phase."""
    L, g, x, y = s["local"], s["grad"], s["x"], s["y"]
    n = lambda v: num(v, DIGITS)  # noqa: E731
    f = lambda v: factor(v, DIGITS)  # noqa: E731
    return [
        ("La catena", f"x = {num(x)}, w₁ = {num(s['w1'])}, w₂ = {num(s['w2'])}, y = {num(y)}: premi Avanti."),
        ("Forward: primo peso", f"z = w₁·x = {n(s['w1'])} × {f(x)} = {n(s['z'])}"),
        ("Forward: la ReLU", f"h = ReLU(z) = max(0; {n(s['z'])}) = {n(s['h'])}"),
        ("Forward: secondo peso", f"ŷ = w₂·h = {n(s['w2'])} × {f(s['h'])} = {n(s['y_hat'])}"),
        ("La loss", f"L = (ŷ − y)² = ({n(s['y_hat'])} − {f(y)})² = {n(s['loss'])}"),
        ("Derivata locale della loss", f"∂L/∂ŷ = 2(ŷ − y) = {n(L['dL_dyhat'])}"),
        ("Derivate locali del secondo peso", f"∂ŷ/∂w₂ = h = {n(L['dyhat_dw2'])}   e   ∂ŷ/∂h = w₂ = {n(L['dyhat_dh'])}"),
        ("Derivata locale della ReLU", f"∂h/∂z = {num(L['dh_dz'], 0)} (vale 1 se z > 0, altrimenti 0)"),
        ("Derivata locale del primo peso", f"∂z/∂w₁ = x = {n(L['dz_dw1'])}"),
        (
            "Backward: gradiente di w₂",
            f"∂L/∂w₂ = ∂L/∂ŷ × ∂ŷ/∂w₂ = {n(L['dL_dyhat'])} × {f(L['dyhat_dw2'])} = {n(g['w2'])}",
        ),
        ("Backward: verso h", f"∂L/∂h = ∂L/∂ŷ × ∂ŷ/∂h = {n(L['dL_dyhat'])} × {f(L['dyhat_dh'])} = {n(g['h'])}"),
        ("Backward: attraverso la ReLU", f"∂L/∂z = ∂L/∂h × ∂h/∂z = {n(g['h'])} × {f(L['dh_dz'])} = {n(g['z'])}"),
        ("Backward: gradiente di w₁", f"∂L/∂w₁ = ∂L/∂z × ∂z/∂w₁ = {n(g['z'])} × {f(x)} = {n(g['w1'])}"),
        (
            "Aggiornamento",
            f"w₁ ← {n(s['w1'])} − {n(s['eta'])} × {f(g['w1'])} = {n(s['new_w1'])};   "
            f"w₂ ← {n(s['w2'])} − {n(s['eta'])} × {f(g['w2'])} = {n(s['new_w2'])}",
        ),
    ][s["phase"]]


# ---------------------------------------------------------------- the graph
#
# The computation as a graph: the data x flows along the bottom row
# (z, h, ŷ, L); the weights w₁, w₂ and the target y come in from above. Each
# node holds its forward value, and under it (above it, for those on top)
# the gradient of the loss with respect to it, once the backward gets there.
# Each arrow carries its local derivative once it is revealed.

BOX_W, BOX_H, GAP = 100, 64, 76
TOP, BOTTOM = 30, 150  # the top of the boxes of each row


def column_x(k):
    return 6 + k * (BOX_W + GAP)


def node(k, row_top, name, value, grad=None, active=False, off=False, grad_above=False):
    x = column_x(k)
    cls = "lab-box" + (" is-active" if active else "") + (" is-off" if off else "")
    grad_y = row_top - 14 if grad_above else row_top + BOX_H + 20
    return group(
        rect(x, row_top, BOX_W, BOX_H, class_=cls, rx=8),
        text(x + BOX_W / 2, row_top + 17, name, class_="lab-box-name"),
        text(x + BOX_W / 2, row_top + 46, "?" if value is None else value, class_="lab-box-value"),
        text(x + BOX_W / 2, grad_y, grad or "", class_="lab-box-grad"),
        data_node=name.split(" ")[0],
    )


def across(k, label, value, active):
    """The arrow from column k to column k + 1 on the bottom row, its derivative written above and below it."""
    x1, x2, y = column_x(k) + BOX_W + 3, column_x(k + 1) - 3, BOTTOM + BOX_H / 2
    cls = " is-active" if active else ""
    return group(
        line(x1, y, x2, y, class_="lab-flow" + cls, marker_end="url(#lab-arrow)"),
        text((x1 + x2) / 2, y - 13, label if value else "", class_="lab-flow-label" + cls),
        text((x1 + x2) / 2, y + 15, value or "", class_="lab-flow-label" + cls),
    )


def down(k, label, active):
    """The arrow from the node above column k into the box below, its derivative beside it."""
    x, cls = column_x(k) + BOX_W / 2, " is-active" if active else ""
    return group(
        line(x, TOP + BOX_H + 3, x, BOTTOM - 3, class_="lab-flow" + cls, marker_end="url(#lab-arrow)"),
        text(x + 8, (TOP + BOX_H + BOTTOM) / 2, label, class_="lab-flow-label" + cls, anchor="start"),
    )


def graph(s):
    ph, L, g = s["phase"], s["local"], s["grad"]
    value = lambda at, v: num(v, 3) if ph >= at else None  # noqa: E731
    grad = lambda at, of, v: f"∂L/∂{of} = {num(v, 3)}" if ph >= at else None  # noqa: E731
    off = ph >= 2 and not s["relu_on"]
    parts = [
        arrow_marker(),
        node(1, TOP, "w₁", num(s["w1"], 3), grad(12, "w₁", g["w1"]), active=ph in (1, 8, 12), grad_above=True),
        node(3, TOP, "w₂", num(s["w2"], 3), grad(9, "w₂", g["w2"]), active=ph in (3, 6, 9), grad_above=True),
        node(4, TOP, "y", num(s["y"], 1), active=ph == 4),
        node(0, BOTTOM, "x", num(s["x"], 1), active=ph == 1),
        node(1, BOTTOM, "z = w₁·x", value(1, s["z"]), grad(11, "z", g["z"]), active=ph in (1, 11)),
        node(2, BOTTOM, "h = ReLU(z)", value(2, s["h"]), grad(10, "h", g["h"]), active=ph in (2, 7, 10), off=off),
        node(3, BOTTOM, "ŷ = w₂·h", value(3, s["y_hat"]), grad(5, "ŷ", g["y_hat"]), active=ph in (3, 5, 6, 10)),
        node(4, BOTTOM, "L = (ŷ − y)²", value(4, s["loss"]), "∂L/∂L = 1" if ph >= 5 else None, active=ph in (4, 5)),
        across(0, "", "", ph == 1),
        across(1, "∂h/∂z", num(L["dh_dz"], 0) if ph >= 7 else None, ph in (2, 7, 11)),
        across(2, "∂ŷ/∂h", value(6, L["dyhat_dh"]), ph in (3, 6, 10)),
        across(3, "∂L/∂ŷ", value(5, L["dL_dyhat"]), ph in (4, 5)),
        down(1, f"∂z/∂w₁ = {num(L['dz_dw1'], 1)}" if ph >= 8 else "", ph in (1, 8, 12)),
        down(3, f"∂ŷ/∂w₂ = {num(L['dyhat_dw2'], 3)}" if ph >= 6 else "", ph in (3, 6, 9)),
        down(4, "", ph == 4),
    ]
    return svg(
        column_x(4) + BOX_W + 6,
        BOTTOM + BOX_H + 34,
        *parts,
        label="Il grafo del calcolo: x e w₁ danno z, poi h, poi con w₂ ŷ, poi con y la loss L; "
        "in ogni nodo il valore del forward, accanto il gradiente del backward",
        description=graph_description(s),
    )


def graph_description(s):
    """What the graph shows at this phase: the forward values found so far, then the gradients."""
    ph, g = s["phase"], s["grad"]
    known = [
        f"{name} = {num(s[key], 3)}"
        for at, name, key in ((1, "z", "z"), (2, "h", "h"), (3, "ŷ", "y_hat"), (4, "L", "loss"))
        if ph >= at
    ]
    grads = [
        f"∂L/∂{name} = {num(g[key], 3)}"
        for at, name, key in ((5, "ŷ", "y_hat"), (9, "w₂", "w2"), (10, "h", "h"), (11, "z", "z"), (12, "w₁", "w1"))
        if ph >= at
    ]
    text = f"Con x = {num(s['x'], 1)}, w₁ = {num(s['w1'], 3)}, w₂ = {num(s['w2'], 3)} e y = {num(s['y'], 1)}: "
    text += ", ".join(known) + "." if known else "il forward non è ancora cominciato."
    return text + (f" Gradienti: {', '.join(grads)}." if grads else "")


def view(s):
    ph, g = s["phase"], s["grad"]
    title, line_ = explain(s)
    parts = [
        graph(s),
        tag("h3", f"Giro {s['round']} di {ROUNDS} · {title}", data_phase=ph),
        formula(line_),
    ]
    if ph >= 2 and not s["relu_on"]:
        parts.append(
            callout(
                "La ReLU è spenta: z è negativo, quindi ∂h/∂z = 0. Il gradiente si ferma qui "
                "e nessuno dei due pesi riceve una correzione.",
                tone="warn",
            )
        )
    if ph == PHASES:
        better = s["loss_after"] < s["loss"]
        parts.append(
            stats(
                stat("Loss prima", num(s["loss"], 4)),
                stat("Loss dopo l'aggiornamento", num(s["loss_after"], 4), tone="ok" if better else "warn"),
            )
        )
    rows = [[f"Giro {i + 1}", num(loss, 4)] for i, loss in enumerate(s["losses"])]
    if rows:
        parts.append(tag("details", tag("summary", "La loss nei giri completati"), table(["Giro", "Loss"], rows)))
    parts.append(
        table(
            ["Peso", "Valore", "Gradiente", "Dopo l'aggiornamento"],
            [
                [
                    "w₁",
                    num(s["w1"], 4),
                    num(g["w1"], 4) if ph >= 12 else "?",
                    num(s["new_w1"], 4) if ph >= PHASES else "?",
                ],
                [
                    "w₂",
                    num(s["w2"], 4),
                    num(g["w2"], 4) if ph >= 9 else "?",
                    num(s["new_w2"], 4) if ph >= PHASES else "?",
                ],
            ],
        )
    )
    return panel(*parts, part="catena")


EDITS = [
    Edit(
        "le derivate locali del prodotto scambiate",
        change=(
            '        return Value(self.data * other.data, (self, other), (other.data, self.data), "×")',
            '        return Value(self.data * other.data, (self, other), (self.data, other.data), "×")',
        ),
        expect="∂(a·b)/∂a è b, non a: scambiandole il gradiente di w₁ e quello di w₂ escono sbagliati, e "
        "dopo l'aggiornamento la loss non scende come prima.",
        params={"passo": 13},
        check=lambda before, after: (
            after.state["grad"]["w1"] != before.state["grad"]["w1"]
            and after.state["loss_after"] > before.state["loss_after"]
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con w₁ = −0,5 la ReLU si spegne: alla fine del primo giro i due gradienti valgono 0 e i pesi restano fermi.",
        {"x": 1.5, "y": 2.0, "w1": -0.5, "w2": 0.5, "passo": 13},
        "catena",
        lambda s: not s["relu_on"] and s["grad"]["w1"] == s["grad"]["w2"] == 0 and s["new_w1"] == s["w1"],
        after="Prova a rendere negativo il primo peso",
    ),
    Experiment(
        "Con i pesi di partenza, dopo 5 giri interi la loss è scesa da 1,96 a meno di 0,0001.",
        {"x": 1.5, "y": 2.0, "w1": 0.8, "w2": 0.5, "eta": 0.1, "passo": 65},
        "catena",
        lambda s: s["round"] == 5 and s["losses"][0] > 1.9 and s["loss"] < 1e-4,
        after="si ricomincia il giro con i pesi nuovi",
    ),
]
