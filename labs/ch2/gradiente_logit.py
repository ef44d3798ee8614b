"""Dopo «La capitale della Francia è …» il modello ha dato a «Parigi» solo il
12 % e a «Lione» il 30 %. La loss dice quanto ha sbagliato; il **gradiente**
dice che cosa fare di ogni **logit**, il punteggio grezzo che la softmax
trasforma in probabilità.

Per la softmax seguita dalla cross-entropy la derivata si scrive a mano: per
il token j vale p(j) − y(j), dove y è 1 sul token giusto e 0 su tutti gli
altri. Il segno indica la direzione: negativo vuol dire «alza questo logit»,
positivo «abbassalo». «Parigi» riceve 0,12 − 1 = −0,88, una spinta forte
verso l'alto; «Lione» +0,30, tanto quanta probabilità ha sottratto;
«banana», con lo 0,1 %, riceve +0,001 e resta quasi ferma. Nessuno ha
deciso a mano di spingere su «Parigi» e frenare «Lione»: è la derivata a
farlo. E i gradienti
sommano sempre a 0, perché le probabilità sommano a 1 e in y c'è un solo 1.

Da dove vengono i logit? Li abbiamo scelti perché la softmax restituisca
proprio le probabilità dell'esempio: ciascuno è log(1000·p). Aggiungere lo
stesso numero a tutti i logit non cambia nessuna probabilità, e così
«banana» sta a 0 e gli altri sopra lo zero.

Cambia il **token giusto**: con «Lione» i segni si capovolgono, con
«banana» il gradiente arriva quasi a −1. Poi muovi il **passo η** e guarda
l'aggiornamento z ← z − η·(p − y): il logit del token giusto sale, quelli
degli altri scendono, ciascuno in proporzione alla probabilità che aveva.
La probabilità del token giusto cresce e la loss cala.
"""

import math

from core.losses import cross_entropy_from_logits
from core.losses import softmax_cross_entropy_grad
from core.softmax import softmax
from labs.kit import Bar
from labs.kit import Case
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Slider
from labs.kit import Wrong
from labs.kit import bars
from labs.kit import callout
from labs.kit import formula
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag

TITLE = "Il gradiente dei logit"
REF = "2.2"

PROBS = {"Parigi": 0.12, "Lione": 0.30, "Marsiglia": 0.20, "Roma": 0.15, "Nizza": 0.13, "una": 0.099, "banana": 0.001}
TOKENS = tuple(PROBS)
LOGITS = tuple(math.log(1000 * p) for p in PROBS.values())  # softmax gives back PROBS; «banana» sits at 0

CONTROLS = [
    Choice("giusto", "Token giusto", tuple((t, f"«{t}»") for t in TOKENS), "Parigi"),
    Slider("eta", "Passo η", 0.0, 3.0, 0.1, 1.0, help="Quanto spostare i logit contro il gradiente", primary=True),
]


def compute(params):
    """Il gradiente p − y dei logit, e i logit dopo un passo di learning rate η."""
    target, eta = TOKENS.index(params["giusto"]), params["eta"]
    z = list(LOGITS)
    grad = softmax_cross_entropy_grad(z, target)
    new_z = [zj - eta * g for zj, g in zip(z, grad)]
    return {
        "tokens": list(TOKENS),
        "target": target,
        "eta": eta,
        "logits": z,
        "probs": softmax(z),
        "grad": grad,
        "grad_sum": math.fsum(grad),
        "loss": cross_entropy_from_logits(z, target),
        "new_logits": new_z,
        "new_probs": softmax(new_z),
        "new_loss": cross_entropy_from_logits(new_z, target),
    }


def small(x, signed=False):
    """Three decimals, but 0,88 rather than 0,880: the guide's figures as it
    writes them, and 0,099 or 0,001 not rounded away."""
    text = num(x, 3, signed=signed)
    return text[:-1] if text.endswith("0") else text


def view(s):
    t, name = s["target"], s["tokens"][s["target"]]
    rows = [
        [
            tag("strong", f"«{tok}»") if j == t else f"«{tok}»",
            num(z),
            small(p),
            "1" if j == t else "0",
            tag("strong", small(g, signed=True)),
            num(nz),
        ]
        for j, (tok, z, p, g, nz) in enumerate(zip(s["tokens"], s["logits"], s["probs"], s["grad"], s["new_logits"]))
    ]
    gradient = [
        Bar(f"«{tok}»", g, text=small(g, signed=True), class_="sign", highlight=j == t)
        for j, (tok, g) in enumerate(zip(s["tokens"], s["grad"]))
    ]
    after = [
        Bar(f"«{tok}»", q, text=percent(q, 1), class_="s3" if j == t else "target", highlight=j == t, before=p)
        for j, (tok, p, q) in enumerate(zip(s["tokens"], s["probs"], s["new_probs"]))
    ]
    p_old, p_new = s["probs"][t], s["new_probs"][t]
    return panel(
        tag("p", "La capitale della Francia è … ", tag("strong", f"«{name}»"), class_="lab-formula"),
        stats(
            stat(f"p(«{name}»)", percent(p_old, 1)),
            stat("Loss = −log p", num(s["loss"])),
            stat(f"Gradiente del logit di «{name}»", small(s["grad"][t], signed=True)),
        ),
        tag("h3", "Il gradiente di ogni logit: p − y"),
        bars(
            gradient,
            lo=-1,
            hi=1,
            part="gradiente",
            label=f"Gradiente p − y di ogni logit quando il token giusto è «{name}»",
        ),
        table(["Token", "Logit z", "p", "y", "p − y", "z dopo"], rows),
        formula(f"somma dei gradienti = Σp − 1 = {num(math.fsum(s['probs']), 3)} − 1 = {small(s['grad_sum'])}"),
        tag("h3", f"Un passo: z ← z − {num(s['eta'], 1)} · (p − y)"),
        bars(
            after,
            lo=0,
            hi=1,
            before_label="prima del passo",
            part="dopo",
            label=f"Probabilità dopo un passo di {num(s['eta'], 1)}, con il contorno di quelle di prima",
        ),
        stats(
            stat(
                f"p(«{name}») dopo il passo",
                f"{percent(p_old, 1)} → {percent(p_new, 1)}",
                tone="ok" if p_new > p_old else None,
            ),
            stat(
                "Loss dopo il passo",
                f"{num(s['loss'])} → {num(s['new_loss'])}",
                tone="ok" if s["new_loss"] < s["loss"] else None,
            ),
        ),
        callout("Con η = 0 i logit restano fermi: il gradiente indica la direzione, il passo decide quanto muoversi.")
        if s["eta"] == 0
        else None,
        part="logit",
    )


EDITS = [
    Edit(
        "il passo nel verso del gradiente",
        change=("new_z = [zj - eta * g for zj, g in zip(z, grad)]", "new_z = [zj + eta * g for zj, g in zip(z, grad)]"),
        expect="Il logit del token giusto scende invece di salire e gli altri salgono: dopo il passo la loss "
        "è più alta di prima. Il segno meno di w ← w − η·gradiente è quello che fa scendere la loss.",
        check=lambda before, after: (
            before.state["new_loss"] < before.state["loss"] and after.state["new_loss"] > after.state["loss"]
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con «Lione» come token giusto i segni si capovolgono: «Lione» riceve −0,70 e «Parigi» +0,12.",
        {"giusto": "Lione", "eta": 1.0},
        "gradiente",
        lambda s: round(s["grad"][1], 2) == -0.7 and round(s["grad"][0], 2) == 0.12,
        after="Cambia il **token giusto**",
    ),
    Experiment(
        "Con η = 3 un solo aggiornamento porta «Parigi» dal 12 % al 77 % e la loss da 2,12 a 0,26.",
        {"giusto": "Parigi", "eta": 3.0},
        "dopo",
        lambda s: round(s["new_probs"][0], 2) == 0.77 and round(s["new_loss"], 2) == 0.26,
        after="La probabilità del token giusto cresce",
    ),
]

EXERCISES = [
    Exercise(
        softmax_cross_entropy_grad,
        task="Scrivi il gradiente della loss rispetto ai logit: calcola le probabilità con la softmax e togli 1 "
        "solo nella posizione del token giusto, cioè p − y con y il vettore one-hot. Quando la tua funzione passa "
        "le verifiche, le frecce del gradiente e i logit dopo il passo vengono da lei.",
        doc="Il gradiente p − y della cross-entropy rispetto ai logit: la softmax meno il one-hot del token giusto.",
        hints=(
            "Le probabilità le dà la softmax, che qui puoi chiamare: `p = softmax(logits)`.",
            "y è tutto zeri tranne un 1 nella posizione `target`: `one_hot(target, len(logits))`.",
            "Il risultato è la differenza, elemento per elemento: `[pj - yj for pj, yj in zip(p, y)]`.",
        ),
        cases=(
            Case(([1.0, 2.0, 3.0], 2), "il token giusto è già il più probabile"),
            Case(([1.0, 2.0, 3.0], 0), "il token giusto è il meno probabile"),
            Case(([0.0, 0.0, 0.0, 0.0], 1), "logit tutti uguali"),
            Case(([5.0], 0), "un solo token: niente da correggere"),
            Case(([1000.0, 0.0, -1000.0], 1), "logit enormi"),
            Case(([1.0, 2.0, 3.0], 3), "un indice che non esiste: va rifiutato"),
        ),
        random=lambda rng: (lambda n: ([rng.uniform(-5, 5) for _ in range(n)], rng.randrange(n)))(rng.randint(2, 8)),
        count=14,
        tolerance=1e-9,
        wrong=(
            Wrong(
                """
def softmax_cross_entropy_grad(logits, target):
    return [p + y for p, y in zip(softmax(logits), one_hot(target, len(logits)))]
""",
                "È p − y, non p + y: il token giusto deve avere un gradiente negativo, così il passo contro il "
                "gradiente alza il suo logit.",
            ),
            Wrong(
                """
def softmax_cross_entropy_grad(logits, target):
    return [y - p for p, y in zip(softmax(logits), one_hot(target, len(logits)))]
""",
                "Il segno è rovesciato: il gradiente è p − y (quanto ogni probabilità è troppo alta), non y − p. "
                "Con y − p il passo abbasserebbe proprio il token giusto.",
            ),
            Wrong(
                """
def softmax_cross_entropy_grad(logits, target):
    return softmax(logits)
""",
                "Manca il one-hot: alla probabilità del token giusto va tolto 1. Così tutti i gradienti sono "
                "positivi e nessun logit sale.",
            ),
        ),
    ),
]
