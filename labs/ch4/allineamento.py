"""Dopo il pre-training il modello sa moltissimo ma non sa conversare. Le
due fasi successive lo insegnano con due loss diverse, entrambe qui in
numeri.

**SFT** (fine-tuning supervisionato): conversazioni scritte apposta, con i
ruoli segnati da token speciali, e la solita cross-entropy del capitolo 2.
Con una differenza: conta solo sui token della **risposta**. La domanda
entra nel modello come contesto, ma se il modello l'avrebbe prevista bene o
male non interessa, perché non deve imparare a scrivere domande. Muovi le
probabilità di «Parigi» e di «<fine>» e confronta la media sulla sola
risposta con quella su tutti i token: la seconda è dominata dalla domanda.

**DPO** parte da coppie di risposte allo stesso prompt, una preferita
(chosen) e una scartata (rejected). Per ciascuna conta di quanto il modello
ha alzato la sua log-probabilità rispetto al modello di riferimento, quello
congelato uscito dall'SFT: Δ = log π − log π_ref, dove π è la probabilità
che il modello dà alla risposta. La loss è −log σ(β · (Δc − Δr)), dove σ è
la sigmoide, che porta ogni numero tra 0 e 1 (non la deviazione standard di
altre pagine): se il modello non ha spostato niente vale log 2 ≈ 0,693, scende verso
0 man mano che la chosen sale rispetto alla rejected, cresce quasi in linea
retta se il modello preferisce la rejected.

Trascina il punto sulla curva per alzare log π(chosen): la loss scende, e
la sua pendenza, che decide quanto spinge il gradiente, si smorza. Le coppie
già separate insegnano poco; quelle sbagliate molto. β misura quanto costa
allontanarsi dal riferimento: più è grande, meno Δ serve per lo stesso
margine.

Conta solo la differenza tra le due Δ. Prova ad abbassare tutte e due le
log-probabilità del modello, la rejected più della chosen: la loss scende lo
stesso, anche se la risposta preferita è diventata meno probabile di prima.
"""

import math

from core.activations import sigmoid
from core.alignment import dpo_gradient
from core.alignment import dpo_loss
from core.alignment import dpo_margin
from core.alignment import sft_loss
from labs.kit import Bar
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Handle
from labs.kit import Marker
from labs.kit import Series
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import bars
from labs.kit import callout
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag
from labs.kit import the

TITLE = "SFT e DPO"
REF = "4.3"

# A chat after the template: role tokens, the question, the answer. p is the
# probability the model gives to each token given the ones before it
# (illustrative values: questions are hard to predict, the template easy).
CHAT = (
    ("<utente>", None, 0),
    ("Qual", 0.02, 0),
    ("è", 0.55, 0),
    ("la", 0.7, 0),
    ("capitale", 0.05, 0),
    ("della", 0.6, 0),
    ("Francia", 0.03, 0),
    ("?", 0.85, 0),
    ("<assistente>", 0.9, 0),
    ("Parigi", "parigi", 1),
    (".", 0.5, 1),
    ("<fine>", "fine", 1),
)
CHOSEN, REJECTED = "La capitale della Francia è Parigi.", "Forse Lione."
LP = dict(min=-30.0, max=0.0, step=0.5)

# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "π": Symbol("la probabilità che il modello dà a una risposta", "probabilit"),
    "σ": Symbol("la sigmoide, che porta ogni numero tra 0 e 1", "sigmoide"),
}

CONTROLS = [
    Group(
        "SFT: probabilità date alla risposta",
        (
            Slider("parigi", "p(«Parigi»)", 0.01, 0.99, 0.01, 0.5),
            Slider("fine", "p(«<fine>»)", 0.01, 0.99, 0.01, 0.3),
        ),
    ),
    Group(
        "DPO: log-probabilità delle due risposte",
        (
            Slider("lc", "log π(chosen), modello", LP["min"], LP["max"], LP["step"], -9.0),
            Slider("lc_ref", "log π_ref(chosen), riferimento", LP["min"], LP["max"], LP["step"], -9.0),
            Slider("lr", "log π(rejected), modello", LP["min"], LP["max"], LP["step"], -7.0),
            Slider("lr_ref", "log π_ref(rejected), riferimento", LP["min"], LP["max"], LP["step"], -7.0),
            Slider("beta", "β", 0.05, 1.0, 0.05, 0.1),
        ),
    ),
]


def compute(p):
    """La loss SFT sui soli token della risposta e i conti della loss DPO."""
    tokens = [{"token": t, "p": p[v] if isinstance(v, str) else v, "answer": a} for t, v, a in CHAT]
    scored = tokens[1:]  # the first token has nothing before it: no prediction, no loss
    for t in scored:
        t["loss"] = -math.log(t["p"])
    losses, mask = [t["loss"] for t in scored], [t["answer"] for t in scored]
    args = (p["lc"], p["lc_ref"], p["lr"], p["lr_ref"], p["beta"])
    margin = dpo_margin(*args)
    grad_c, grad_r = dpo_gradient(*args)
    xs = [LP["min"] + k * 0.25 for k in range(int((LP["max"] - LP["min"]) / 0.25) + 1)]
    return {
        "tokens": tokens,
        "sft_answer": sft_loss([t["p"] for t in scored], mask),
        "sft_all": sum(losses) / len(losses),
        "answer_count": sum(mask),
        "count": len(losses),
        "dpo": {
            "delta_c": p["lc"] - p["lc_ref"],
            "delta_r": p["lr"] - p["lr_ref"],
            "margin": margin,
            "loss": dpo_loss(*args),
            "win": sigmoid(margin),
            "grad_c": grad_c,
            "grad_r": grad_r,
            "beta": p["beta"],
            "lc": p["lc"],
            "lc_ref": p["lc_ref"],
            "curve": [[x, dpo_loss(x, *args[1:])] for x in xs],
        },
    }


def sft_panel(s):
    loss_bars = [
        Bar(
            f"{t['token']}  [{t['answer']}]",
            t["loss"],
            class_="s2" if t["answer"] else "muted",
            highlight=bool(t["answer"]),
            text=f"p = {num(t['p'])}  →  {num(t['loss'], 3)}",
        )
        for t in s["tokens"][1:]
    ]
    return tag(
        "section",
        tag("h3", "SFT: la loss conta solo la risposta"),
        tag(
            "p",
            f"La conversazione comincia con {s['tokens'][0]['token']}, che non ha niente prima di sé da cui "
            "essere previsto. Per ogni token dopo: la probabilità p che il modello gli dava dato il contesto, "
            "−log p, e tra parentesi la maschera (1 = risposta, conta; 0 = domanda, non conta).",
            class_="lab-step-counter",
        ),
        bars(loss_bars, label="−log p di ogni token: in colore quelli della risposta, che contano", hi=4.0),
        stats(
            stat(
                f"Loss SFT: media {the(num(s['answer_count']) + ' token', plural=True, prep='su')} della risposta",
                num(s["sft_answer"], 3),
                tone="ok",
            ),
            stat(f"Media su tutti {the(num(s['count']) + ' token', plural=True)}", num(s["sft_all"], 3)),
        ),
        formula("loss = Σ maschera · (−log p) / Σ maschera"),
    )


def moves(dc, dr):
    """What the model did to the two answers, from the signs of Δc and Δr."""

    def one(delta, what):
        verb = "alzato" if delta > 0 else "abbassato" if delta < 0 else "lasciato com'era"
        return f"{verb} la {what}"

    if dc * dr > 0:  # same direction: say which moved more
        verb = "alzato" if dc > 0 else "abbassato"
        return f"ha {verb} tutte e due le risposte, la {'chosen' if abs(dc) > abs(dr) else 'rejected'} di più"
    return f"ha {one(dc, 'chosen')} e {one(dr, 'rejected')}"


def dpo_verdict(d):
    """The verdict on the pair, with its tone: it names what happened to each answer."""
    dc, dr = d["delta_c"], d["delta_r"]
    if dc == 0 and dr == 0:
        return "Il modello non ha ancora spostato niente: margine 0, loss = log 2 ≈ 0,693.", "info"
    if abs(d["margin"]) < 1e-12:
        verb = "alzato" if dc > 0 else "abbassato"
        return (
            f"Il modello ha {verb} tutte e due le risposte della stessa quantità: margine 0, loss = log 2 ≈ 0,693.",
            "info",
        )
    if d["margin"] > 0:
        text = f"Il modello {moves(dc, dr)}: il margine è positivo e la loss è sotto log 2."
        if dc < 0:
            text += (
                " La loss scende anche se la chosen è diventata meno probabile: DPO guarda solo la differenza "
                "tra le due."
            )
        return text, "ok" if dc >= 0 else "warn"
    return (
        f"Il modello {moves(dc, dr)}: preferisce la rejected, la loss è sopra log 2 e il gradiente spinge forte.",
        "warn",
    )


def dpo_panel(d):
    curve = Series("loss al variare di log π(chosen)", tuple(map(tuple, d["curve"])), class_="s1")
    top = max(v for _, v in d["curve"])
    chart = line_chart(
        [curve],
        handles=[
            Handle(
                d["lc"],
                d["loss"],
                x_name="lc",
                y_name=None,
                label="log π(chosen): trascinalo",
                class_="s2",
                caption=f"loss {num(d['loss'], 3)}",
            )
        ],
        markers=[
            Marker(d["lc_ref"], "log π_ref(chosen): qui Δc = 0", class_="s3"),
            Marker(math.log(2), "log 2", class_="muted", axis="y"),
        ],
        x_range=(LP["min"], LP["max"]),
        y_range=(0, max(1.0, top * 1.05)),
        x_label="log π(chosen)",
        y_label="loss DPO",
        height=280,
        label="La loss DPO al variare della log-probabilità della risposta preferita",
    )
    verdict, tone = dpo_verdict(d)
    return tag(
        "section",
        tag("h3", "DPO: una coppia di risposte"),
        tag("p", f"Chosen: «{CHOSEN}»  ·  Rejected: «{REJECTED}»", class_="lab-step-counter"),
        formula(
            f"Δc = {num(d['lc'], 1)} − ({num(d['lc_ref'], 1)}) = {num(d['delta_c'], 1, signed=True)}   ·   "
            f"Δr = {num(d['delta_r'], 1, signed=True)}   ·   margine = β·(Δc − Δr) = {num(d['beta'])} × "
            f"{num(d['delta_c'] - d['delta_r'], 1)} = {num(d['margin'], 3)}"
        ),
        stats(
            stat("Loss −log σ(margine)", num(d["loss"], 3), tone=tone if tone != "info" else None),
            stat("σ(margine)", num(d["win"], 3)),
            stat("∂loss/∂log π(chosen)", num(d["grad_c"], 4)),
            stat("∂loss/∂log π(rejected)", num(d["grad_r"], 4)),
        ),
        callout(verdict, tone=tone),
        chart,
        tag(
            "p",
            f"Alzare log π(chosen) di 1 aggiunge β = {num(d['beta'])} al margine; la loss scende di circa "
            f"{num(-d['grad_c'], 4)}, tanto meno quanto più la coppia è già separata.",
            class_="lab-step-counter",
        ),
    )


def view(s):
    return panel(sft_panel(s), dpo_panel(s["dpo"]), part="allineamento")


EDITS = [
    Edit(
        "la loss SFT anche sui token della domanda",
        change=(
            "    return masked_mean([-math.log(p) for p in probabilities], mask)",
            "    return masked_mean([-math.log(p) for p in probabilities], [1] * len(mask))",
        ),
        expect="La loss SFT diventa la media su tutti i token, domanda compresa: il modello verrebbe "
        "premiato anche per saper scrivere le domande, che non deve produrre.",
        check=lambda before, after: (
            before.state["sft_answer"] != before.state["sft_all"]
            and abs(after.state["sft_answer"] - before.state["sft_all"]) < 1e-12
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Porta al 99 % «Parigi» e la fine della risposta: la loss sulla sola risposta scende a 0,24, quella su tutti "
        "i token resta sopra 1.",
        {"parigi": 0.99, "fine": 0.99},
        "allineamento",
        lambda s: round(s["sft_answer"], 2) == 0.24 and s["sft_all"] > 1,
        after="la seconda è dominata dalla domanda",
    ),
    Experiment(
        "Abbassa log π(chosen) a −12 e log π(rejected) a −14: la loss scende a 0,51, meno di log 2, anche se la "
        "chosen ora è meno probabile.",
        {"lc": -12.0, "lc_ref": -9.0, "lr": -14.0, "lr_ref": -7.0, "beta": 0.1},
        "allineamento",
        lambda s: round(s["dpo"]["loss"], 2) == 0.51 and s["dpo"]["delta_c"] < 0,
        after="meno probabile di prima",
    ),
]
