"""Una ReLU da sola è una retta con un gomito: vale 0 fino a un punto e poi
sale. Spostata e moltiplicata per un numero, s·ReLU(x − e), mette una piega
nel punto e e da lì cambia la pendenza di s. Sommando alcune di queste pieghe
a una retta di partenza si ottiene una **linea spezzata**:

    f(x) = c + s₀·x + s₁·ReLU(x − e₁) + s₂·ReLU(x − e₂) + …

f è la funzione della spezzata: a ogni ingresso x dà un'altezza.

Costruiscine una a mano. Scegli la curva da imitare, poi **trascina i punti**
della tua spezzata sul grafico, o usa i cursori: i due estremi salgono e
scendono, i gomiti si spostano anche di lato. Con «Gomiti in uso» decidi
quanti usarne, fino a 5. La spezzata è scritta anche come somma di
termini ReLU; l'**errore quadratico medio** dice quanto è lontana dalla curva
(la media dei quadrati delle differenze, su 201 punti tra −1 e 1).

Il **fit automatico** fa lo stesso lavoro al posto tuo: mette i gomiti a
distanze uguali e sceglie c, s₀ e le pendenze che rendono l'errore più
piccolo possibile (il metodo dei minimi quadrati). Aumenta i suoi gomiti da
1 a 20 e segui l'errore nel secondo grafico, in scala logaritmica: ogni tacca
verso il basso vuol dire un errore dieci volte più piccolo.

È l'idea del teorema di approssimazione universale: con abbastanza pieghe si
segue qualsiasi curva continua su un intervallo, bene quanto si vuole. In una
rete, ogni neurone nascosto con la ReLU porta il suo gomito.
"""

import math
from functools import cache

from core.fitting import broken_line
from core.fitting import even_elbows
from core.fitting import fit_broken_line
from core.fitting import from_points
from core.fitting import grid
from core.fitting import mse
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Handle
from labs.kit import Marker
from labs.kit import Series
from labs.kit import Slider
from labs.kit import Toggle
from labs.kit import callout
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import plural
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag

TITLE = "Tante pieghe, una curva"
REF = "9B.10"

TARGETS = {
    "seno": ("seno", "sin(πx)", lambda x: math.sin(math.pi * x)),
    "parabola": ("parabola", "x²", lambda x: x * x),
    "assoluto": ("valore assoluto", "|x|", abs),
    "gradino": ("gradino morbido", "tanh(5x)", lambda x: math.tanh(5 * x)),
}
HAND = 5
START = ((-0.5, -1.0), (0.5, 1.0), (-0.8, -0.6), (0.8, 0.6), (0.0, 0.0))  # a rough sine, two elbows at a time
MAX_FIT = 20
XS = grid(-1.0, 1.0, 201)
EXACT = 1e-12  # an error this small is rounding: the fit is exact
NOTES = {
    "assoluto": "Con un numero dispari di gomiti equidistanti, uno cade proprio in x = 0, dove |x| si piega: lì il "
    "fit è esatto, con errore zero. Con un numero pari nessun gomito cade sulla piega.",
    "gradino": "Con pochi gomiti conta molto dove cadono rispetto al gradino: per questo all'inizio l'errore non "
    "scende in modo regolare, ma a scatti.",
}

CONTROLS = [
    Choice("bersaglio", "Curva da imitare", tuple((k, f"{v[0]}: {v[1]}") for k, v in TARGETS.items()), "seno"),
    Group(
        "La tua spezzata",
        (
            Slider("gomiti", "Gomiti in uso", 0, HAND, 1, 2),
            Slider("inizio", "Altezza in x = −1", -1.5, 1.5, 0.05, 0.0),
            Slider("fine", "Altezza in x = 1", -1.5, 1.5, 0.05, 0.0),
            Toggle("termini", "Mostra i singoli termini", False),
        ),
    ),
    *(
        Group(
            f"Gomito {i}",
            (Slider(f"e{i}", "Posizione", -0.95, 0.95, 0.05, e), Slider(f"h{i}", "Altezza", -1.5, 1.5, 0.05, h)),
        )
        for i, (e, h) in enumerate(START, 1)
    ),
    Group("Fit automatico", (Slider("automatici", "Gomiti equidistanti", 1, MAX_FIT, 1, 5),)),
]


@cache
def automatic_fits(name):
    """Le curve dei minimi quadrati con da 1 a 20 gomiti equidistanti, per il bersaglio scelto.

    The least-squares fits with 1 … 20 even elbows. They depend on the target only, so dragging a
    hand-made elbow does not redo them. fit_broken_line solves each as a broken line (one pass over the grid),
    and its error is read on the broken line through its corners: 20 fits in about 3 ms, not the 42 of a
    QR per fit and a ReLU sum at every point of the grid.
    """
    target = [TARGETS[name][2](x) for x in XS]
    fits = []
    for n in range(1, MAX_FIT + 1):
        at = even_elbows(-1.0, 1.0, n)
        corners = [-1.0, *at, 1.0]
        heights = fit_broken_line(XS, target, corners)  # the least squares give the fit's height at each corner
        c, s0, _, slopes = from_points(list(zip(corners, heights)))
        fits.append(
            {
                "n": n,
                "c": c,
                "s0": s0,
                "elbows": at,
                "slopes": slopes,
                "mse": mse(broken_line(XS, corners, heights), target),
                "knots": list(zip(corners, heights)),
            }
        )
    return target, fits


def compute(p):
    """La curva a gomiti costruita a mano e quelle trovate in automatico, con il loro errore."""
    target, fits = automatic_fits(p["bersaglio"])
    used, clashes = [], []
    for i in range(1, p["gomiti"] + 1):
        e, h = p[f"e{i}"], p[f"h{i}"]
        # two elbows in one place would make a jump, which no sum of ReLUs can draw
        (clashes if any(abs(e - u[0]) < 1e-9 for u in used) else used).append((e, h, i))
    knots = [(-1.0, p["inizio"]), *sorted((e, h) for e, h, _ in used), (1.0, p["fine"])]
    c, s0, elbows, slopes = from_points(knots)
    return {
        "target": p["bersaglio"],
        "curve": target[::2],
        "terms": p["termini"],
        "clashes": [i for *_, i in clashes],
        "in_use": p["gomiti"],
        "hand": {
            "c": c,
            "s0": s0,
            "elbows": elbows,
            "slopes": slopes,
            "knots": knots,
            "handles": used,
            "mse": mse(broken_line(XS, *zip(*knots)), target),
        },
        "fit": dict(fits[p["automatici"] - 1]),
        "errors": [f["mse"] for f in fits],
    }


def follow(s):
    """The elbows beyond «Gomiti in uso» are not drawn: their sliders say so."""
    n = s["in_use"]
    used = "Nessun gomito in uso" if n == 0 else "In uso c'è 1 gomito" if n == 1 else f"In uso ci sono {n} gomiti"
    reason = f"{used}: alza «Gomiti in uso»."
    return {f"{axis}{i}": Follow(disabled=reason) for i in range(n + 1, HAND + 1) for axis in ("e", "h")}


def small(x):
    """An error with three significant digits, however small."""
    if x <= EXACT:
        return "0"
    return num(x, min(14, max(3, 2 - math.floor(math.log10(x)))))


def terms(f):
    """c + s₀·x + s₁·ReLU(x − e₁) + … written out with the numbers."""

    def plus(value):  # the sign as it will be read, so a tiny −0,001 is not «− 0,00»
        return f"{'−' if num(value).startswith('−') else '+'} {num(abs(value))}"

    text = f"{num(f['c'])} {plus(f['s0'])}·x"
    for e, s in zip(f["elbows"], f["slopes"]):
        text += f" {plus(s)}·ReLU(x {plus(-e)})" if num(e) != "0,00" else f" {plus(s)}·ReLU(x)"
    return text


def main_chart(s):
    name, formula_text, _ = TARGETS[s["target"]]
    hand, fit = s["hand"], s["fit"]
    series = []
    if s["terms"]:
        pieces = [((-1.0, hand["c"] - hand["s0"]), (1.0, hand["c"] + hand["s0"]))]
        pieces += [((-1.0, 0.0), (e, 0.0), (1.0, sl * (1 - e))) for e, sl in zip(hand["elbows"], hand["slopes"])]
        series += [
            Series("termini (la loro somma è la spezzata)" if k == 0 else "", piece, class_="muted")
            for k, piece in enumerate(pieces)
        ]
    series += [
        Series(f"{name}: {formula_text}", tuple(zip(XS[::2], s["curve"])), class_="target"),
        Series(
            f"fit automatico, {plural(fit['n'], 'gomito', 'gomiti')}", tuple(fit["knots"]), class_="s2", dashed=True
        ),
        Series("la tua spezzata", tuple(hand["knots"]), class_="s1"),
    ]
    handles = [
        Handle(
            -1.0, hand["knots"][0][1], x_name=None, y_name="inizio", label="Estremo sinistro: trascina in su o in giù"
        ),
        Handle(1.0, hand["knots"][-1][1], x_name=None, y_name="fine", label="Estremo destro: trascina in su o in giù"),
    ]
    handles += [
        Handle(e, h, x_name=f"e{i}", y_name=f"h{i}", label=f"Gomito {i}: trascinalo", caption=str(i))
        for e, h, i in hand["handles"]
    ]
    return line_chart(
        series,
        handles=handles,
        x_range=(-1, 1),
        y_range=(-1.5, 1.5),
        x_label="x",
        y_label="f(x)",
        label=f"La tua spezzata, il fit automatico e la curva {name}",
        height=360,
    )


def error_chart(s):
    errors, hand = s["errors"], s["hand"]["mse"]
    shown = [e for e in (*errors, hand) if e > EXACT]
    low, high = math.floor(math.log10(min(shown))), math.ceil(math.log10(max(shown)))
    high = max(high, low + 1)
    ticks = [10.0**k for k in range(low, high + 1)]
    if min(*errors, hand) <= EXACT:  # an exact fit gets a row of its own under the log scale
        low -= 1
        ticks.insert(0, (10.0**low, "0"))
    bottom = 10.0**low
    exact = [n for n, e in enumerate(errors, 1) if e <= EXACT]
    fit = Series(
        "fit automatico",
        tuple((n, None if n in exact else e) for n, e in enumerate(errors, 1)),
        class_="s2",
        markers=True,
        actions=tuple((f"automatici={n}", f"Fit con {plural(n, 'gomito', 'gomiti')}") for n in range(1, MAX_FIT + 1)),
    )
    zero = Series(
        "fit esatto (errore zero)",
        tuple((n, bottom) for n in exact),
        class_="s3",
        line=False,
        actions=tuple((f"automatici={n}", f"Fit esatto con {plural(n, 'gomito', 'gomiti')}") for n in exact),
    )
    return line_chart(
        [fit, zero] if exact else [fit],
        markers=[
            Marker(max(hand, bottom), "la tua spezzata", class_="s1", axis="y"),
            Marker(s["fit"]["n"], "gomiti del fit mostrato", class_="muted"),
        ],
        x_range=(0.5, MAX_FIT + 0.5),
        y_range=(bottom, 10.0**high),
        y_log=True,
        y_ticks=ticks,
        x_ticks=(1, 5, 10, 15, 20),
        x_label="gomiti equidistanti",
        y_label="errore (MSE)",
        height=280,
        label="Errore quadratico medio del fit automatico da 1 a 20 gomiti",
    )


def view(s):
    hand, fit = s["hand"], s["fit"]
    notes = [
        callout(f"Il gomito {i} sta nello stesso punto di un altro: conta una volta sola.", tone="warn")
        for i in s["clashes"]
    ]
    if hand["mse"] <= fit["mse"]:
        notes.append(
            callout(
                f"La tua spezzata fa meglio del fit automatico con {plural(fit['n'], 'gomito', 'gomiti')}.", tone="ok"
            )
        )
    if s["target"] in NOTES:
        notes.append(callout(NOTES[s["target"]]))
    return panel(
        main_chart(s),
        formula("la tua spezzata: f(x) = ", terms(hand)),
        formula(f"fit automatico ({plural(fit['n'], 'gomito', 'gomiti')}): f(x) = ", terms(fit))
        if fit["n"] <= 6
        else tag(
            "details",
            tag("summary", f"La formula del fit automatico con {plural(fit['n'], 'gomito', 'gomiti')}"),
            formula("f(x) = ", terms(fit)),
        ),
        stats(
            stat("Errore della tua spezzata (MSE)", small(hand["mse"]), tone="ok" if hand["mse"] < 0.01 else None),
            stat(f"Errore del fit con {plural(fit['n'], 'gomito', 'gomiti')}", small(fit["mse"])),
        ),
        *notes,
        tag("h3", "Più gomiti, meno errore"),
        error_chart(s),
        tag("p", "Clicca un punto per vedere quel fit nel grafico della spezzata.", class_="lab-step-counter"),
        part="pieghe",
    )


EDITS = [
    Edit(
        "gradini al posto dei segmenti",
        change=("        out.append((1 - t) * heights[j] + t * heights[j + 1])", "        out.append(heights[j])"),
        expect="Tra un nodo e l'altro la curva resta all'altezza del nodo di sinistra invece di scendere o salire "
        "in linea retta: l'errore della curva fatta a mano cresce. Sono i segmenti inclinati a seguire "
        "il bersaglio.",
        check=lambda before, after: after.state["hand"]["mse"] > before.state["hand"]["mse"] + 0.01,
    ),
]

EXPERIMENTS = [
    Experiment(
        "Porta il fit automatico a 20 gomiti: sul seno l'errore scende sotto 0,00001.",
        {"bersaglio": "seno", "automatici": 20},
        "pieghe",
        lambda s: s["fit"]["n"] == 20 and s["fit"]["mse"] < 1e-5,
        after="un errore dieci volte più piccolo",
    ),
    Experiment(
        "Imita il valore assoluto con il fit: basta un gomito, in 0, e l'errore è praticamente zero.",
        {"bersaglio": "assoluto", "automatici": 1},
        "pieghe",
        lambda s: s["fit"]["n"] == 1 and s["fit"]["mse"] < 1e-20,
        after="porta il suo gomito",
    ),
]
