"""Ogni mattina, prima di uscire, decidi se portare l'ombrello guardando tre
cose: quante **nuvole** ci sono, quanto è sicura la **previsione di pioggia**
e quanto **vento** tira. Misura ciascuna da 0 (per niente) a 1 (moltissimo).

Un neurone artificiale fa lo stesso conto in tre mosse: moltiplica ogni
ingresso per il suo **peso**, somma, e confronta il totale con una
**soglia**. Un peso grande vuol dire «questo conta molto», un peso vicino a
zero «conta poco», un peso negativo «spinge verso il no»: il vento forte
rovescia l'ombrello, quindi gli diamo un peso negativo.

Poi mettiamo i neuroni in fila. Nella rete 3 → 2 → 1 i tre ingressi
arrivano a due neuroni nascosti: uno pesa soprattutto nuvole e pioggia
(«sembra brutto tempo»), l'altro soprattutto il vento («è scomodo»). Ognuno
si accende come una luce con il regolatore, da 0 a 1, e il neurone finale
ascolta i due: se arriva almeno a 0,5, l'ombrello viene con te.

Gli **ingressi** e i **pesi** hanno comandi separati, perché sono cose
diverse: gli ingressi cambiano ogni giorno con il tempo che fa, i pesi sono
della rete e, finito l'allenamento, restano gli stessi tutti i giorni.
"""

from core.neuron import clamp
from core.neuron import dense
from core.neuron import threshold_neuron
from labs.kit import Case
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Node
from labs.kit import Question
from labs.kit import Slider
from labs.kit import Wrong
from labs.kit import callout
from labs.kit import columns
from labs.kit import formula
from labs.kit import network
from labs.kit import num
from labs.kit import panel
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag

TITLE = "Il neurone dell'ombrello"
REF = "1.2"

INPUTS = (("nuvole", "Nuvole"), ("pioggia", "Previsione di pioggia"), ("vento", "Vento"))
HIDDEN = ("Brutto tempo", "È scomodo")


def weight(name, label, default):
    return Slider(name, label, -2.0, 2.0, 0.1, default)


CONTROLS = [
    Group(
        "Ingressi di oggi (cambiano ogni giorno)",
        (
            Slider("nuvole", "Nuvole", 0.0, 1.0, 0.05, 0.7),
            Slider("pioggia", "Previsione di pioggia", 0.0, 1.0, 0.05, 0.6),
            Slider("vento", "Vento", 0.0, 1.0, 0.05, 0.3),
        ),
    ),
    Group(
        "Neurone singolo: pesi e soglia (restano fissi)",
        (
            weight("w_nuvole", "Peso delle nuvole", 0.4),
            weight("w_pioggia", "Peso della previsione", 0.8),
            weight("w_vento", "Peso del vento", -0.6),
            Slider("soglia", "Soglia", 0.0, 2.0, 0.05, 0.5),
        ),
    ),
    Group(
        "Rete 3 → 2 → 1: gli 8 pesi (restano fissi)",
        (
            weight("bt_nuvole", "Nuvole → brutto tempo", 0.6),
            weight("bt_pioggia", "Pioggia → brutto tempo", 0.8),
            weight("bt_vento", "Vento → brutto tempo", 0.0),
            weight("sc_nuvole", "Nuvole → è scomodo", 0.0),
            weight("sc_pioggia", "Pioggia → è scomodo", 0.1),
            weight("sc_vento", "Vento → è scomodo", 0.9),
            weight("out_bt", "Brutto tempo → ombrello", 1.0),
            weight("out_sc", "È scomodo → ombrello", -0.8),
        ),
        open=False,
    ),
]


def compute(p):
    """Il neurone a soglia e la rete 3 → 2 → 1 sugli stessi ingressi."""
    x = [p["nuvole"], p["pioggia"], p["vento"]]
    w = [p["w_nuvole"], p["w_pioggia"], p["w_vento"]]
    total, fires = threshold_neuron(x, w, p["soglia"])
    w_hidden = [[p["bt_nuvole"], p["bt_pioggia"], p["bt_vento"]], [p["sc_nuvole"], p["sc_pioggia"], p["sc_vento"]]]
    w_out = [[p["out_bt"], p["out_sc"]]]
    hidden_totals, hidden = dense(x, w_hidden, clamp)
    (out_total,), (out,) = dense(hidden, w_out, clamp)
    return {
        "inputs": x,
        "single": {
            "weights": w,
            "products": [a * b for a, b in zip(x, w)],
            "total": total,
            "threshold": p["soglia"],
            "umbrella": fires,
        },
        "network": {
            "w_hidden": w_hidden,
            "w_out": w_out,
            "hidden_totals": hidden_totals,
            "hidden": hidden,
            "output_total": out_total,
            "output": out,
            "umbrella": out >= 0.5,
        },
    }


def decision(umbrella):
    text = "Sì: prendo l'ombrello ☂" if umbrella else "No: l'ombrello resta a casa"
    return tag(
        "p",
        text,
        class_="lab-ombrello-decision " + ("is-yes" if umbrella else "is-no"),
        data_decision="si" if umbrella else "no",
    )


def sum_of_products(inputs, weights):
    return " + ".join(f"{num(x)} × {num(w, 1) if w >= 0 else '(' + num(w, 1) + ')'}" for x, w in zip(inputs, weights))


def view(s):
    x, single, net = s["inputs"], s["single"], s["network"]
    inputs = [Node(label, value, caption=num(value)) for (_, label), value in zip(INPUTS, x)]
    lit = 1.0 if single["umbrella"] else 0.0
    single_fig = network(
        [inputs, [Node("Ombrello?", lit, caption="sì" if single["umbrella"] else "no")]],
        [[single["weights"]]],
        label="Il neurone singolo: tre ingressi, tre pesi, una decisione",
    )
    comparison = ">" if single["umbrella"] else "≤"
    single_panel = panel(
        single_fig,
        formula(sum_of_products(x, single["weights"]), f" = {num(single['total'])}"),
        formula(f"{num(single['total'])} {comparison} soglia {num(single['threshold'])}"),
        decision(single["umbrella"]),
        title="Un neurone solo: sì o no",
        part="singolo",
    )
    hidden_nodes = [Node(name, a, caption=num(a)) for name, a in zip(HIDDEN, net["hidden"])]
    out_node = Node("Ombrello", net["output"], caption=num(net["output"]))
    net_fig = network(
        [inputs, hidden_nodes, [out_node]],
        [net["w_hidden"], net["w_out"]],
        label="La rete 3 → 2 → 1: ogni arco porta un peso, ogni nodo mostra quanto è acceso",
    )
    rows = [
        [name, sum_of_products(x, row), num(t), num(a)]
        for name, row, t, a in zip(HIDDEN, net["w_hidden"], net["hidden_totals"], net["hidden"])
    ]
    rows.append(
        ["Ombrello", sum_of_products(net["hidden"], net["w_out"][0]), num(net["output_total"]), num(net["output"])]
    )
    net_panel = panel(
        net_fig,
        table(["Neurone", "Totale pesato", "Totale", "Acceso (tra 0 e 1)"], rows),
        stats(stat("Neurone dell'ombrello", num(net["output"])), stat("Soglia di decisione", "0,50")),
        decision(net["umbrella"]),
        callout("Questa rete ha 8 pesi: 6 tra gli ingressi e lo strato nascosto, 2 verso l'uscita."),
        title="La rete 3 → 2 → 1: luci con il regolatore",
        part="rete",
    )
    return columns(single_panel, net_panel)


EDITS = [
    Edit(
        "la rete senza il limite tra 0 e 1",
        change=(
            "    hidden_totals, hidden = dense(x, w_hidden, clamp)\n"
            "    (out_total,), (out,) = dense(hidden, w_out, clamp)",
            "    hidden_totals, hidden = dense(x, w_hidden, lambda t: t)\n"
            "    (out_total,), (out,) = dense(hidden, w_out, lambda t: t)",
        ),
        expect="Con nuvole, pioggia e vento al massimo, «brutto tempo» vale 1,4 invece di 1 e vince su «è "
        "scomodo»: l'uscita sale a 0,6 e l'ombrello arriva, mentre con il limite restava a casa.",
        params={"nuvole": 1, "pioggia": 1, "vento": 1},
        check=lambda before, after: (
            not before.state["network"]["umbrella"]
            and after.state["network"]["umbrella"]
            and after.state["network"]["hidden"][0] > 1
        ),
    ),
]

TODAY = {"nuvole": 0.7, "pioggia": 0.6}
EXPERIMENTS = [
    Experiment(
        "Con il vento a 1 il totale del neurone singolo scende a 0,16, meno della soglia, e l'ombrello resta a casa.",
        {**TODAY, "vento": 1.0, "w_nuvole": 0.4, "w_pioggia": 0.8, "w_vento": -0.6, "soglia": 0.5},
        "singolo",
        lambda s: abs(s["single"]["total"] - 0.16) < 1e-9 and not s["single"]["umbrella"],
        after="gli diamo un peso negativo",
        predict=Question(
            "Nuvole a 0,7 e pioggia a 0,6 non cambiano; il vento sale fino a 1, con il suo peso di −0,6. Che cosa "
            "fa il neurone singolo?",
            (
                "Il totale sale: più vento, più motivi per l'ombrello",
                "Il totale scende sotto la soglia di 0,5 e l'ombrello resta a casa",
                "Niente: il vento non entra nel conto",
            ),
            1,
            "Un peso negativo toglie dal totale: 0,7 × 0,4 + 0,6 × 0,8 fa 0,76, e il vento a 1 ne porta via 0,6. "
            "Restano 0,16, meno della soglia, quindi la risposta è no.",
        ),
    ),
    Experiment(
        "Porta a 0 il peso «è scomodo → ombrello»: anche con il vento a 1 la rete dice di portare l'ombrello.",
        {**TODAY, "vento": 1.0, "out_sc": 0.0},
        "rete",
        lambda s: s["network"]["umbrella"] and s["network"]["hidden"][1] > 0.9,
        after="l'ombrello viene con te",
    ),
]

EXERCISES = [
    Exercise(
        threshold_neuron,
        task="Scrivi il neurone a soglia: moltiplica ogni ingresso per il suo peso, somma i prodotti e dì se il "
        "totale supera la soglia (con ingressi e pesi di lunghezza diversa, un errore). Restituisci due cose, il totale e la decisione (`True` o `False`). Quando la tua "
        "funzione passa le verifiche, il pannello del neurone singolo, con il suo sì o no, viene calcolato da lei.",
        doc="Il totale Σ xᵢ·wᵢ degli ingressi per i loro pesi e se supera la soglia: (totale, decisione).",
        hints=(
            "Prima controlla le lunghezze: se ingressi e pesi non sono tanti quanti, `raise ValueError(...)`.",
            "Il totale è la somma dei prodotti, presi a coppie: `sum(x * w for x, w in zip(inputs, weights))`.",
            "«Supera» vuol dire strettamente maggiore: con un totale uguale alla soglia il neurone resta spento. "
            "Alla fine scrivi `return total, total > threshold`.",
        ),
        cases=(
            Case(([0.7, 0.6, 0.3], [0.4, 0.8, -0.6], 0.5), "la giornata di partenza del laboratorio"),
            Case(([0.7, 0.6, 1.0], [0.4, 0.8, -0.6], 0.5), "vento forte: il peso negativo spinge verso il no"),
            Case(([1.0, 1.0, 0.0], [0.25, 0.25, 2.0], 0.5), "un totale uguale alla soglia"),
            Case(([0.0, 0.0, 0.0], [0.4, 0.8, -0.6], 0.0), "nessun ingresso e soglia zero"),
            Case(([1.0, 1.0, 1.0], [-1.0, -1.0, -1.0], -4.0), "pesi e soglia negativi"),
            Case(([0.5, 0.5], [1.0, 1.0, 1.0], 1.0), "tre pesi per due ingressi: va rifiutato"),
        ),
        random=lambda rng: (
            [round(rng.uniform(0, 1), 2) for _ in range(3)],
            [round(rng.uniform(-2, 2), 1) for _ in range(3)],
            round(rng.uniform(-1, 1), 1),
        ),
        count=14,
        tolerance=1e-9,
        wrong=(
            Wrong(
                """
def threshold_neuron(inputs, weights, threshold):
    total = sum(x * w for x, w in zip(inputs, weights))
    return total, total >= threshold
""",
                "Con un totale esattamente uguale alla soglia il neurone non si accende: la soglia va superata, "
                "quindi il confronto è total > threshold, non ≥.",
            ),
            Wrong(
                """
def threshold_neuron(inputs, weights, threshold):
    total = sum(x * w for x, w in zip(inputs, weights))
    return total > threshold
""",
                "Il laboratorio mostra anche il totale, non solo il sì o il no: restituisci la coppia "
                "(totale, decisione).",
            ),
            Wrong(
                """
def threshold_neuron(inputs, weights, threshold):
    total = sum(x * w for x, w in zip(inputs, weights))
    return total, total > threshold
""",
                "Ingressi e pesi devono essere tanti quanti: zip si ferma al più corto e butta via un peso senza "
                "dirlo. Controlla le lunghezze e solleva un errore (ValueError) se sono diverse.",
            ),
        ),
    ),
]
