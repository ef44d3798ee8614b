"""Perché i blocchi di un transformer sommano l'ingresso all'uscita, invece di
passare avanti solo l'uscita? Qui non lo raccontiamo: lo misuriamo. Una pila
di **L strati**, ognuno una piccola rete con 8 numeri in ingresso e 8 in
uscita (pesi estratti a caso, fissati dal **seme**), riceve un vettore e
alla fine somma i suoi 8 numeri in un'uscita y.

Poi facciamo quello che fa l'addestramento: calcoliamo con la regola della
catena quanto y cambia se tocchiamo il vettore a ogni profondità, cioè la
lunghezza del gradiente ∂y/∂h. Il grafico la mostra strato per strato, dall'ingresso
fino alla fine, su scala logaritmica: ogni
tacca è un fattore 10.

**Senza residuo** (h ← f(h), con f(h) = tanh(W·h) e W i pesi dello
strato) il gradiente attraversa uno strato dopo l'altro
e a ogni passaggio viene moltiplicato per la pendenza dello strato. Con pesi
piccoli quei fattori sono minori di 1 e il prodotto crolla: con 50 strati
all'ingresso arriva quasi niente, e i primi strati non imparano. **Con il
residuo** (h ← h + f(h)) ogni strato aggiunge un pezzo a un ramo diretto, la
cui derivata è 1: il segnale ha sempre una strada libera per tornare
indietro. Il residuo però somma e basta: con pesi grandi e senza
normalizzazione il gradiente cresce strato dopo strato.

Prova a far crescere L da 1 a 50, poi la **scala dei pesi** fino a 3. Poi
scegli dove mettere la normalizzazione (una RMSNorm): prima di f
(**pre-norm**, come nei modelli moderni) o dopo la somma (**post-norm**,
come nel transformer originale). Con pre-norm e residuo il gradiente
all'ingresso non sparisce mai: per ogni seme, ogni scala e ogni L resta
sopra 1. Con pesi grandi cresce anche lui, ma al massimo fino a circa 2.000,
mentre senza normalizzazione arriva a decine di migliaia. Con post-norm la
normalizzazione sta anche sulla strada diretta, e il residuo da solo non
basta più: a seconda dei pesi il gradiente si spegne o esplode. Senza
residuo, qualunque sia la normalizzazione, dipende tutto dai pesi. [La
tabella dei sei casi](#vista-casi) li riassume.
"""

import math
from functools import lru_cache

from core.deep_stack import draw_stack
from core.deep_stack import gradient_sizes
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Series
from labs.kit import Slider
from labs.kit import callout
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import plural
from labs.kit import sci
from labs.kit import significant
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag

TITLE = "Residui e profondità: un esperimento"
REF = "A.2"

HEALTHY = (0.01, 1e3)  # a gradient at the input in this band reaches the first layers in good health
NOTHING = 1e-6  # below this the first layers receive practically nothing
NORMS = (("nessuna", "Nessuna"), ("pre", "Pre-norm"), ("post", "Post-norm"))
RULES = {
    "nessuna": ("tanh(W·h)", "h + tanh(W·h)"),
    "pre": ("tanh(W·norm(h))", "h + tanh(W·norm(h))"),
    "post": ("norm(tanh(W·h))", "norm(h + tanh(W·h))"),
}

CONTROLS = [
    Slider("strati", "Strati L", 1, 50, 1, 50),
    Choice("norma", "Normalizzazione", NORMS, "nessuna"),
    Slider("scala", "Scala dei pesi σ", 0.2, 3.0, 0.1, 0.5),
    Slider("seme", "Seme dei pesi", 1, 20, 1, 1),
]


@lru_cache(maxsize=4)
def stack(seed, layers, sigma):
    """La pila di strati estratta con questo seme, ricordata: i sei casi della tabella la usano tutti."""
    return draw_stack(seed, layers, sigma)


# The table measures all six cases of a stack: a change of the normalisation finds them measured already.
@lru_cache(maxsize=64)
def measured(seed, layers, sigma, residual, norm):
    """La norma del gradiente a ogni profondità di una pila (dall'ingresso all'uscita), misurata una volta."""
    x, weights = stack(seed, layers, sigma)
    return tuple(gradient_sizes(x, weights, residual, norm))


def compute(p):
    """La norma del gradiente a ogni profondità, con e senza la connessione residua."""

    def sizes(residual, norm):
        return list(measured(p["seme"], p["strati"], p["scala"], residual, norm))

    curves = {res: sizes(res, p["norma"]) for res in (False, True)}
    summary = {
        norm: [curves[res][0] if norm == p["norma"] else sizes(res, norm)[0] for res in (False, True)]
        for norm, _ in NORMS
    }
    # every number is the one measured: floats reach 10⁻³⁰⁸, and only an exact 0 has no place on a log axis
    return {
        "layers": p["strati"],
        "norm": p["norma"],
        "sigma": p["scala"],
        "plain": curves[False],
        "residual": curves[True],
        "summary": summary,
        "zeros": any(v == 0 for c in curves.values() for v in c),
        "orders": math.log10(curves[True][0] / curves[False][0]) if curves[False][0] > 0 else None,
    }


def size(v):
    """A plain number when it reads easily (three significant digits), a power of ten when it does not."""
    return significant(v) if HEALTHY[0] <= v < HEALTHY[1] else sci(v)


def health(v):
    """How the gradient reaches the input: nothing, weak, healthy or exploded."""
    if v < NOTHING:
        return "nothing"
    if v < HEALTHY[0]:
        return "weak"
    return "exploded" if v > HEALTHY[1] else "healthy"


def verdict(s):
    """What the two numbers at the input say, each judged on its own, for the selected norm."""
    plain, res, norm = s["plain"][0], s["residual"][0], s["norm"]
    if plain == 0 or res == 0:
        compare = "All'ingresso uno dei due gradienti vale esattamente 0"
    elif res >= plain:
        compare = f"All'ingresso il gradiente con residuo è {size(res / plain)} volte quello senza"
    else:
        compare = f"All'ingresso il gradiente senza residuo è {size(plain / res)} volte quello con residuo"
    without = {
        "nothing": "senza residuo i primi strati non ricevono quasi niente",
        "weak": "senza residuo arriva un segnale molto debole",
        "exploded": "senza residuo il gradiente esplode",
        "healthy": "senza residuo arriva in buona salute",
    }[health(plain)]
    state = health(res)
    if state == "exploded":
        with_res = {
            "nessuna": "con il residuo ma senza normalizzazione la somma accumula e il gradiente cresce a "
            "ogni strato. Prova pre-norm",
            "pre": "con il residuo cresce anche con pre-norm: con pesi così grandi la normalizzazione "
            "frena la crescita, non la ferma",
            "post": "con il residuo e post-norm, con pesi così grandi, il gradiente cresce comunque. Prova pre-norm",
        }[norm]
    elif state in ("weak", "nothing"):
        with_res = (
            "con il residuo arriva un segnale debole: con post-norm anche la strada diretta passa per la "
            "normalizzazione, che la accorcia a ogni strato. Prova pre-norm"
            if norm == "post"
            else "con il residuo arriva un segnale debole"
        )
    elif norm == "post" and res < plain:
        with_res = (
            "con il residuo arriva in buona salute, ma meno che senza: con post-norm anche la strada diretta "
            "passa per la normalizzazione, e il residuo non aiuta"
        )
    elif health(plain) == "healthy":
        return callout(f"{compare}: qui tutti e due arrivano all'ingresso in buona salute.", tone="ok")
    else:
        with_res = "con il residuo arriva in buona salute"
    return callout(f"{compare}: {without}; {with_res}.", tone="warn")


def view(s):
    plain, res = s["plain"], s["residual"]
    ys = [v for v in plain + res if v > 0]
    lo, hi = math.floor(math.log10(min(0.1, *ys))), math.ceil(math.log10(max(10.0, *ys)))
    every = max(1, math.ceil((hi - lo) / 7))  # at most about eight labelled decades
    chart = line_chart(
        [
            Series("senza residuo", tuple(enumerate(plain)), class_="s2", markers=s["layers"] < 12),
            Series("con residuo", tuple(enumerate(res)), class_="s1", markers=s["layers"] < 12),
        ],
        label="Lunghezza del gradiente a ogni profondità, con e senza residuo",
        y_log=True,
        x_range=(0, max(1, s["layers"])),
        y_range=(10.0**lo, 10.0**hi),
        y_ticks=[10.0**k for k in range(hi, lo - 1, -every)],
        x_label="strato (0 = ingresso)",
        y_label="‖∂y/∂h‖ (scala logaritmica)",
        height=300,
    )
    names = dict(NORMS)
    return panel(
        formula(f"senza residuo: h ← {RULES[s['norm']][0]}"),
        formula(f"con residuo: h ← {RULES[s['norm']][1]}"),
        stats(
            stat("Strati", num(s["layers"])),
            stat("‖∂y/∂x‖ senza residuo", size(plain[0]), tone=None if health(plain[0]) == "healthy" else "warn"),
            stat("‖∂y/∂x‖ con residuo", size(res[0]), tone="ok" if health(res[0]) == "healthy" else "warn"),
        ),
        chart,
        verdict(s),
        callout(
            "Alcuni gradienti valgono esattamente 0, sotto il più piccolo numero che il computer sa scrivere: "
            "su una scala logaritmica non hanno un posto, e il grafico li salta.",
            tone="warn",
        )
        if s["zeros"]
        else None,
        tag(
            "h3",
            f"Il gradiente che arriva all'ingresso, con {plural(s['layers'], 'strato', 'strati')}",
            id="vista-casi",
        ),  # the prose links here
        table(
            ("Normalizzazione", "Senza residuo", "Con residuo"),
            [(names[k] + (" ◀" if k == s["norm"] else ""), size(a), size(b)) for k, (a, b) in s["summary"].items()],
        ),
        part="profondita",
    )


EDITS = [
    Edit(
        "il backward che dimentica il ramo diretto",
        change=(
            "        g = [a + b for a, b in zip(g, gu)] if residual else gu  # the direct branch adds g itself",
            "        g = gu",
        ),
        expect="La curva «con residuo» crolla come quella senza: dopo 50 strati il gradiente all'ingresso è "
        "quasi zero. È il «+ g» del ramo diretto a portare il gradiente intatto fino in fondo.",
        check=lambda before, after: after.state["residual"][0] < 1e-3 * before.state["residual"][0],
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con 50 strati senza residuo il gradiente all'ingresso crolla sotto 10⁻¹⁴; con il residuo resta sopra 1.",
        {"strati": 50, "norma": "nessuna", "scala": 0.5, "seme": 1},
        "profondita",
        lambda s: s["plain"][0] < 1e-14 and s["residual"][0] > 1,
        after="i primi strati non imparano",
    ),
    Experiment(
        "Con pre-norm, residuo e pesi a scala 3 il gradiente all'ingresso resta tra 1 e 2.000.",
        {"strati": 50, "norma": "pre", "scala": 3.0, "seme": 1},
        "profondita",
        lambda s: 1 < s["residual"][0] < 2000,
        after="al massimo fino a circa 2.000",
    ),
]
