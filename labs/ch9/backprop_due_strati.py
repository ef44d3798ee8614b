"""La stessa catena del laboratorio sui due pesi, ma con una curva morbida al
posto della ReLU: l'ingresso x passa per il peso w₁, poi per la tangente
iperbolica tanh, poi per il peso w₂, e l'uscita ŷ si confronta con
l'obiettivo y.

    z = w₁·x      h = tanh(z)      ŷ = w₂·h      L = (ŷ − y)²

La regola della catena dà i due gradienti, un fattore alla volta:
∂L/∂w₂ = 2(ŷ − y)·h e ∂L/∂w₁ = 2(ŷ − y)·w₂·(1 − h²)·x, dove 1 − h² è la
pendenza della tanh. Con i valori di partenza tutti e due sono negativi:
alzare i pesi avvicina ŷ a y. Il secondo riusa il pezzo 2(ŷ − y) già
calcolato per il primo: è per questo che la backpropagation costa poco.

Premi **Play** e guarda molti step di fila: a ogni step forward, backward e
w ← w − η·gradiente, e la loss scende. Poi cambia il learning rate: con
η = 1,5 i pesi rimbalzano senza arrivare, con η = 2 scappano via (li
fermiamo prima che i numeri esplodano). Prova anche w₁ = 3: la tanh è
quasi piatta, 1 − h² è vicino a 0 e w₁ non riceve quasi più correzioni.

Nota che cosa usa il backward: h, 1 − h² e x, tutti numeri del forward.
Per questo durante il training le attivazioni di ogni strato restano in
memoria finché il backward non le ha usate.
"""

from core.tanh_chain import descend
from labs.kit import (ChainNode, Group, Marker, Series, Slider, Steps, callout, chain, factor, formula, line_chart,
                      num, stat, stats, table, tag)

TITLE = "Backprop su due strati"
REF = "9G"

STEPS = 200
LIMIT = 100.0  # a weight beyond this has run away: stop before the numbers blow up

CONTROLS = [
    Steps(max=STEPS, label="Step"),
    Group("La rete e il dato", (
        Slider("x", "Ingresso x", -2.0, 2.0, 0.1, 1.0),
        Slider("y", "Obiettivo y", -2.0, 2.0, 0.1, 0.8),
        Slider("w1", "Peso iniziale w₁", -3.0, 3.0, 0.1, 0.5),
        Slider("w2", "Peso iniziale w₂", -3.0, 3.0, 0.1, 0.5),
        Slider("eta", "Learning rate η", 0.01, 2.0, 0.01, 0.03),
    )),
]


def compute(p):
    records, stopped = descend(p["x"], p["y"], p["w1"], p["w2"], p["eta"], STEPS, LIMIT)
    k = min(p["passo"], len(records) - 1)
    now = records[k]
    last = k == len(records) - 1
    return {"step": k, "asked": p["passo"], "x": p["x"], "y": p["y"], "eta": p["eta"], **now,
            "new_w1": now["w1"] - p["eta"] * now["grad_w1"], "new_w2": now["w2"] - p["eta"] * now["grad_w2"],
            "stopped": stopped, "runs_away": stopped and last,
            "losses": [r["loss"] for r in records], "w1s": [r["w1"] for r in records],
            "w2s": [r["w2"] for r in records]}


def short(v):
    """Three decimals for small numbers, fewer as they grow: a box holds about seven characters."""
    size = abs(v)
    return num(v, 3 if size < 10 else 2 if size < 100 else 1 if size < 1000 else 0)


def curves(s):
    k = s["step"]
    here = [Marker(k, f"step {k}", class_="muted")]
    done = lambda values: tuple(enumerate(values[:k + 1]))  # noqa: E731
    loss = line_chart([Series("tutti gli step", tuple(enumerate(s["losses"])), class_="muted"),
                       Series("fin qui", done(s["losses"]), markers=k == 0)],
                      markers=here, x_range=(0, STEPS), y_range=(0, max(s["losses"]) * 1.05 or 1.0),
                      x_label="step", y_label="loss", height=220, label="La loss step dopo step")
    weights = line_chart([Series("", tuple(enumerate(s["w1s"])), class_="muted"),
                          Series("", tuple(enumerate(s["w2s"])), class_="muted"),
                          Series("w₁", done(s["w1s"]), class_="s1", markers=k == 0),
                          Series("w₂", done(s["w2s"]), class_="s2", markers=k == 0)],
                      markers=here, x_range=(0, STEPS), x_label="step", y_label="peso", height=220,
                      label="I due pesi step dopo step")
    return loss, weights


def view(s):
    f2 = short
    nodes = [ChainNode("w₁", f2(s["w1"]), f2(s["grad_w1"])), ChainNode("z = w₁·x", f2(s["z"]), f2(s["dL_dz"])),
             ChainNode("h = tanh(z)", f2(s["h"]), f2(s["dL_dh"]), off=s["dh_dz"] < 0.05),
             ChainNode("ŷ = w₂·h", f2(s["y_hat"]), f2(s["dL_dyhat"])), ChainNode("L = (ŷ − y)²", short(s["loss"]), "1")]
    edges = [f"∂z/∂w₁ = x = {num(s['x'], 1)}", f"∂h/∂z = 1 − h² = {f2(s['dh_dz'])}", f"∂ŷ/∂h = w₂ = {f2(s['w2'])}",
             f"∂L/∂ŷ = {f2(s['dL_dyhat'])}"]
    d, h, w2, x = s["dL_dyhat"], s["h"], s["w2"], s["x"]
    loss, weights = curves(s)
    notes = []
    if s["runs_away"]:
        notes.append(callout(f"Con η = {num(s['eta'])} i pesi scappano: il prossimo step porterebbe un peso oltre "
                             f"±{num(int(LIMIT))}, e qui il training si ferma.", tone="error"))
    elif s["asked"] > s["step"]:
        notes.append(callout(f"Il training si è fermato allo step {s['step']}: i pesi stavano scappando.",
                             tone="error"))
    if s["dh_dz"] < 0.05:
        notes.append(callout(f"La tanh è quasi piatta qui (1 − h² = {f2(s['dh_dz'])}): il gradiente che arriva a w₁ "
                             "è quasi spento, e w₁ si muove pochissimo.", tone="warn"))
    if s["grad_w1"] == 0 and s["grad_w2"] == 0 and s["loss"] > 0:
        notes.append(callout("Tutti e due i gradienti valgono 0 pur con la loss positiva: con w₁ = w₂ = 0, o con "
                             "x = 0, la catena non trasmette niente e i pesi restano fermi.", tone="warn"))
    return tag(
        "div",
        tag("p", f"Step {s['step']} di {STEPS}", class_="lab-step-counter"),
        chain(nodes, edges, label="La catena w₁ → z → h → ŷ → L con i valori del forward e i gradienti del backward"),
        *notes,
        tag("h3", "Forward"),
        formula(f"z = w₁·x = {f2(s['w1'])} × {factor(x, 1)} = {f2(s['z'])};   h = tanh(z) = {f2(h)};   "
                f"ŷ = w₂·h = {f2(w2)} × {factor(h, 3)} = {f2(s['y_hat'])};   L = (ŷ − y)² = {num(s['loss'], 4)}"),
        tag("h3", "Backward, con la regola della catena"),
        formula(f"∂L/∂w₂ = 2(ŷ − y)·h = {f2(d)} × {factor(h, 3)} = {num(s['grad_w2'], 4)}"),
        formula(f"∂L/∂w₁ = 2(ŷ − y)·w₂·(1 − h²)·x = {f2(d)} × {factor(w2, 3)} × {f2(s['dh_dz'])} × {factor(x, 1)} "
                f"= {num(s['grad_w1'], 4)}"),
        formula(f"w₁ ← {f2(s['w1'])} − {num(s['eta'])} × {factor(s['grad_w1'], 4)} = {f2(s['new_w1'])};   "
                f"w₂ ← {f2(w2)} − {num(s['eta'])} × {factor(s['grad_w2'], 4)} = {f2(s['new_w2'])}"),
        stats(stat("Loss", num(s["loss"], 4)), stat("∂L/∂w₁", num(s["grad_w1"], 4)),
              stat("∂L/∂w₂", num(s["grad_w2"], 4))),
        loss, weights,
        tag("h3", "Che cosa il backward prende dal forward"),
        table(["Valore del forward", "Adesso", "Serve per"], [
            ["h", f2(h), "∂L/∂w₂ = 2(ŷ − y)·h"], ["1 − h²", f2(s["dh_dz"]), "attraversare la tanh"],
            ["x", num(x, 1), "∂L/∂w₁, l'ultimo fattore"]]),
        tag("p", "In una rete vera questi valori sono milioni per ogni token del batch: restano in memoria dal "
                 "forward al backward, ed è una delle ragioni per cui allenare costa molta più memoria che usare "
                 "il modello."),
        class_="lab-panel", data_part="due-strati", data_step=s["step"],
    )
