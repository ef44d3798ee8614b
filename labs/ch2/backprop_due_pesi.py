"""Una «rete» con due soli pesi, abbastanza piccola da seguire ogni
moltiplicazione: l'ingresso x passa per il peso w₁, poi per una ReLU, poi per
il peso w₂, e l'uscita ŷ si confronta con l'obiettivo y.

    z = w₁·x      h = ReLU(z)      ŷ = w₂·h      L = (ŷ − y)²

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
from labs.kit import ChainNode, Group, Slider, Steps, callout, chain, factor, formula, num, stat, stats, table, tag

TITLE = "Backprop su due pesi"
REF = "2.3"

ROUNDS = 20
PHASES = 13  # per round: 3 forward, 1 loss, 4 local derivatives, 4 backward products, 1 update

CONTROLS = [
    Group("La rete e il dato", (
        Slider("x", "Ingresso x", -2.0, 2.0, 0.1, 1.5),
        Slider("y", "Obiettivo y", -3.0, 3.0, 0.1, 2.0),
        Slider("w1", "Peso iniziale w₁", -2.0, 2.0, 0.1, 0.8),
        Slider("w2", "Peso iniziale w₂", -2.0, 2.0, 0.1, 0.5),
        Slider("eta", "Learning rate η", 0.01, 0.5, 0.01, 0.1),
    )),
    Steps(max=ROUNDS * PHASES, label="Passo"),
]


def forward_backward(x, w1, w2, y):
    """One pass through the chain with the autograd: values, local
    derivatives and gradients, all as plain floats."""
    W1, W2 = Value(w1), Value(w2)
    z = W1 * x
    h = z.relu()
    y_hat = W2 * h
    loss = (y_hat - y) ** 2
    loss.backward()
    return {
        "z": z.data, "h": h.data, "y_hat": y_hat.data, "loss": loss.data,
        "local": {"dL_dyhat": 2 * (y_hat.data - y), "dyhat_dw2": h.data, "dyhat_dh": w2,
                  "dh_dz": 1.0 if z.data > 0 else 0.0, "dz_dw1": x},
        "grad": {"y_hat": y_hat.grad, "w2": W2.grad, "h": h.grad, "z": z.grad, "w1": W1.grad},
    }


def compute(p):
    step = p["passo"]
    round_, phase = (0, 0) if step == 0 else divmod(step - 1, PHASES)
    phase = 0 if step == 0 else phase + 1
    w1, w2, losses = p["w1"], p["w2"], []
    for _ in range(round_):
        r = forward_backward(p["x"], w1, w2, p["y"])
        losses.append(r["loss"])
        w1, w2 = w1 - p["eta"] * r["grad"]["w1"], w2 - p["eta"] * r["grad"]["w2"]
    r = forward_backward(p["x"], w1, w2, p["y"])
    new_w1, new_w2 = w1 - p["eta"] * r["grad"]["w1"], w2 - p["eta"] * r["grad"]["w2"]
    after = forward_backward(p["x"], new_w1, new_w2, p["y"])["loss"]
    return {"step": step, "round": round_ + 1, "phase": phase, "x": p["x"], "y": p["y"], "eta": p["eta"],
            "w1": w1, "w2": w2, **r, "relu_on": r["z"] > 0,
            "new_w1": new_w1, "new_w2": new_w2, "loss_after": after, "losses": losses}


def explain(s):
    """Title and formula (with numbers) of the current phase."""
    L, g, x, y = s["local"], s["grad"], s["x"], s["y"]
    return [
        ("La catena", f"x = {num(x, 1)}, w₁ = {num(s['w1'])}, w₂ = {num(s['w2'])}, y = {num(y, 1)}: premi Avanti."),
        ("Forward: primo peso", f"z = w₁·x = {num(s['w1'])} × {factor(x, 1)} = {num(s['z'])}"),
        ("Forward: la ReLU", f"h = ReLU(z) = max(0; {num(s['z'])}) = {num(s['h'])}"),
        ("Forward: secondo peso", f"ŷ = w₂·h = {num(s['w2'])} × {factor(s['h'])} = {num(s['y_hat'])}"),
        ("La loss", f"L = (ŷ − y)² = ({num(s['y_hat'])} − {factor(y, 1)})² = {num(s['loss'], 4)}"),
        ("Derivata locale della loss", f"∂L/∂ŷ = 2(ŷ − y) = {num(L['dL_dyhat'], 4)}"),
        ("Derivate locali del secondo peso", f"∂ŷ/∂w₂ = h = {num(L['dyhat_dw2'])}   e   ∂ŷ/∂h = w₂ = {num(L['dyhat_dh'])}"),
        ("Derivata locale della ReLU", f"∂h/∂z = {num(L['dh_dz'], 0)} (vale 1 se z > 0, altrimenti 0)"),
        ("Derivata locale del primo peso", f"∂z/∂w₁ = x = {num(L['dz_dw1'], 1)}"),
        ("Backward: gradiente di w₂", f"∂L/∂w₂ = ∂L/∂ŷ × ∂ŷ/∂w₂ = {num(L['dL_dyhat'], 4)} × {factor(L['dyhat_dw2'])} = {num(g['w2'], 4)}"),
        ("Backward: verso h", f"∂L/∂h = ∂L/∂ŷ × ∂ŷ/∂h = {num(L['dL_dyhat'], 4)} × {factor(L['dyhat_dh'])} = {num(g['h'], 4)}"),
        ("Backward: attraverso la ReLU", f"∂L/∂z = ∂L/∂h × ∂h/∂z = {num(g['h'], 4)} × {num(L['dh_dz'], 0)} = {num(g['z'], 4)}"),
        ("Backward: gradiente di w₁", f"∂L/∂w₁ = ∂L/∂z × ∂z/∂w₁ = {num(g['z'], 4)} × {factor(x, 1)} = {num(g['w1'], 4)}"),
        ("Aggiornamento", f"w₁ ← {num(s['w1'])} − {num(s['eta'])} × {factor(g['w1'], 4)} = {num(s['new_w1'], 4)};   "
                          f"w₂ ← {num(s['w2'])} − {num(s['eta'])} × {factor(g['w2'], 4)} = {num(s['new_w2'], 4)}"),
    ][s["phase"]]


def view(s):
    ph, L, g = s["phase"], s["local"], s["grad"]
    shown = lambda at, value, digits=2: num(value, digits) if ph >= at else None  # noqa: E731
    nodes = [
        ChainNode("w₁", num(s["w1"]), shown(12, g["w1"], 3), active=ph in (8, 12)),
        ChainNode("z = w₁·x", shown(1, s["z"]), shown(11, g["z"], 3), active=ph in (1, 11)),
        ChainNode("h = ReLU(z)", shown(2, s["h"]), shown(10, g["h"], 3), active=ph in (2, 7, 10),
                  off=ph >= 2 and not s["relu_on"]),
        ChainNode("ŷ = w₂·h", shown(3, s["y_hat"]), shown(5, g["y_hat"], 3), active=ph in (3, 5, 6, 9)),
        ChainNode("L = (ŷ − y)²", shown(4, s["loss"], 3), "1" if ph >= 5 else None, active=ph in (4, 5)),
    ]
    edge_labels = [
        f"∂z/∂w₁ = {num(L['dz_dw1'], 1)}" if ph >= 8 else "",
        f"∂h/∂z = {num(L['dh_dz'], 0)}" if ph >= 7 else "",
        f"∂ŷ/∂h = {num(L['dyhat_dh'])}" if ph >= 6 else "",
        f"∂L/∂ŷ = {num(L['dL_dyhat'], 3)}" if ph >= 5 else "",
    ]
    active_edge = {8: 0, 12: 0, 7: 1, 11: 1, 6: 2, 10: 2, 5: 3}.get(ph)
    title, line = explain(s)
    parts = [
        tag("p", f"Giro {s['round']} di {ROUNDS} · passo {s['step']}", class_="lab-step-counter"),
        chain(nodes, edge_labels, active_edge=active_edge,
              label="La catena w₁ → z → h → ŷ → L con i valori del forward e i gradienti del backward"),
        tag("h3", title, data_phase=ph),
        formula(line),
    ]
    if ph >= 2 and not s["relu_on"]:
        parts.append(callout("La ReLU è spenta: z è negativo, quindi ∂h/∂z = 0. Il gradiente si ferma qui "
                             "e nessuno dei due pesi riceve una correzione.", tone="warn"))
    if ph == 13:
        parts.append(stats(stat("Loss prima", num(s["loss"], 4)), stat("Loss dopo l'aggiornamento", num(s["loss_after"], 4),
                                                                      tone="ok" if s["loss_after"] < s["loss"] else "warn")))
    rows = [[f"Giro {i + 1}", num(loss, 4)] for i, loss in enumerate(s["losses"])]
    if rows:
        parts.append(tag("details", tag("summary", "La loss nei giri completati"), table(["Giro", "Loss"], rows)))
    parts.append(table(["Peso", "Valore", "Gradiente", "Dopo l'aggiornamento"], [
        ["w₁", num(s["w1"], 4), num(g["w1"], 4) if ph >= 12 else "?", num(s["new_w1"], 4) if ph >= 13 else "?"],
        ["w₂", num(s["w2"], 4), num(g["w2"], 4) if ph >= 9 else "?", num(s["new_w2"], 4) if ph >= 13 else "?"],
    ]))
    return tag("div", *parts, class_="lab-panel", data_part="catena")
