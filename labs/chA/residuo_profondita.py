"""Perché i blocchi di un transformer sommano l'ingresso all'uscita, invece di
passare avanti solo l'uscita? Qui non lo raccontiamo: lo misuriamo. Una pila
di **L strati**, ognuno una piccola rete con 8 numeri in ingresso e 8 in
uscita (pesi estratti a caso, fissati dal **seme**), riceve un vettore e
alla fine somma i suoi 8 numeri in un'uscita y.

Poi facciamo quello che fa l'addestramento: calcoliamo con la regola della
catena quanto y cambia se tocchiamo il vettore a ogni profondità, cioè la
lunghezza del gradiente ∂y/∂h. Il grafico la mostra strato per strato, dalla
fine (a destra) fino all'ingresso (a sinistra), su scala logaritmica: ogni
tacca è un fattore 10.

**Senza residuo** (h ← f(h)) il gradiente attraversa uno strato dopo l'altro
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
come nel transformer originale). Con pre-norm e residuo il gradiente resta
in una fascia ragionevole per ogni seme e ogni scala; senza residuo dipende
dai pesi. La tabella sotto il grafico riassume tutti e sei i casi.
"""

import math

from core.deep_stack import draw, gradient_sizes
from labs.kit import Choice, Series, Slider, callout, formula, line_chart, num, sci, stat, stats, table, tag

TITLE = "Residui e profondità: un esperimento"
REF = "A.2"

FLOOR, CEILING = 1e-30, 1e30  # beyond these a gradient is drawn at the edge (the text says so)
NORMS = (("nessuna", "Nessuna"), ("pre", "Pre-norm"), ("post", "Post-norm"))
RULES = {"nessuna": ("tanh(W·h)", "h + tanh(W·h)"), "pre": ("tanh(W·norm(h))", "h + tanh(W·norm(h))"),
         "post": ("norm(tanh(W·h))", "norm(h + tanh(W·h))")}

CONTROLS = [
    Slider("strati", "Strati L", 1, 50, 1, 50),
    Choice("norma", "Normalizzazione", NORMS, "nessuna"),
    Slider("scala", "Scala dei pesi σ", 0.2, 3.0, 0.1, 0.5),
    Slider("seme", "Seme dei pesi", 1, 20, 1, 1),
]


def clamp(v):
    return min(CEILING, max(FLOOR, v)) if math.isfinite(v) else CEILING


def compute(p):
    x, weights = draw(p["seme"], p["strati"], p["scala"])
    curves = {res: gradient_sizes(x, weights, res, p["norma"]) for res in (False, True)}
    summary = {norm: [curves[res][0] if norm == p["norma"] else gradient_sizes(x, weights, res, norm)[0]
                      for res in (False, True)] for norm, _ in NORMS}
    capped = any(not FLOOR <= v <= CEILING for c in curves.values() for v in c)
    plain, residual = clamp(curves[False][0]), clamp(curves[True][0])
    return {"layers": p["strati"], "norm": p["norma"], "sigma": p["scala"],
            "plain": [clamp(v) for v in curves[False]], "residual": [clamp(v) for v in curves[True]],
            "summary": {k: [clamp(v) for v in pair] for k, pair in summary.items()}, "capped": capped,
            "orders": math.log10(residual / plain)}


def size(v):
    """A plain number when it reads easily, a power of ten when it does not."""
    return num(v, 2) if 0.01 <= v < 1000 else sci(v)


def verdict(s):
    """Judge each stack on its own: the gradient at the input is healthy between 0,01 and 1.000."""
    plain, res = s["plain"][0], s["residual"][0]
    ratio = f"All'ingresso il gradiente senza residuo è {size(plain / res)} volte quello con residuo"
    if res > 1e3:
        return callout(f"Con il residuo il gradiente all'ingresso vale {size(res)}: senza normalizzazione la somma "
                       "accumula e il gradiente cresce a ogni strato. Prova pre-norm.", tone="warn")
    if plain < 0.01:
        return callout(f"{ratio}: " + ("i primi strati non ricevono quasi niente." if plain < 1e-6 else
                                       "i primi strati ricevono un segnale molto più debole."), tone="warn")
    if plain > 1e3:
        return callout(f"{ratio}: senza residuo il gradiente è esploso.", tone="warn")
    return callout(f"{ratio}: qui tutti e due arrivano all'ingresso in buona salute.")


def view(s):
    plain, res = s["plain"], s["residual"]
    ys = plain + res
    lo, hi = math.floor(math.log10(min(0.1, *ys))), math.ceil(math.log10(max(10.0, *ys)))
    every = max(1, math.ceil((hi - lo) / 7))  # at most about eight labelled decades
    chart = line_chart([Series("senza residuo", tuple(enumerate(plain)), class_="s2", markers=s["layers"] < 12),
                        Series("con residuo", tuple(enumerate(res)), class_="s1", markers=s["layers"] < 12)],
                       label="Lunghezza del gradiente a ogni profondità, con e senza residuo", y_log=True,
                       x_range=(0, max(1, s["layers"])), y_range=(10.0 ** lo, 10.0 ** hi),
                       y_ticks=[10.0 ** k for k in range(hi, lo - 1, -every)],
                       x_label="strato (0 = ingresso)", y_label="‖∂y/∂h‖ (scala logaritmica)", height=300)
    names = dict(NORMS)
    return tag(
        "div",
        formula(f"senza residuo: h ← {RULES[s['norm']][0]}"), formula(f"con residuo: h ← {RULES[s['norm']][1]}"),
        stats(stat("Strati", num(s["layers"])),
              stat("‖∂y/∂x‖ senza residuo", size(plain[0]), tone="warn" if not 0.01 < plain[0] < 1e3 else None),
              stat("‖∂y/∂x‖ con residuo", size(res[0]), tone="ok" if 0.01 < res[0] < 1e3 else "warn")),
        chart,
        verdict(s),
        callout("Alcuni valori escono da 10⁻³⁰ … 10³⁰: li disegniamo sul bordo.", tone="warn")
        if s["capped"] else None,
        tag("h3", f"Il gradiente che arriva all'ingresso, con {num(s['layers'])} strati"),
        table(("Normalizzazione", "Senza residuo", "Con residuo"),
              [(names[k] + (" ◀" if k == s["norm"] else ""), size(a), size(b))
               for k, (a, b) in s["summary"].items()]),
        class_="lab-panel", data_part="profondita",
    )
