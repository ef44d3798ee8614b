r"""Prima di entrare nell'attention e poi nella rete feed-forward, il vettore
di ogni token passa per una **normalizzazione**: i suoi numeri vengono
riportati a una scala standard, qualunque fosse quella di partenza. Conta
solo quel vettore: gli altri token e gli altri esempi del batch non
c'entrano.

La **LayerNorm** lavora in due mosse. Prima toglie la media, così i numeri
si dispongono attorno allo zero; poi divide per la deviazione standard, così
lo scarto tipico diventa 1. Con [2, 4, 6] la media è 4, resta [−2, 0, 2], la
deviazione standard è circa 1,63 e si arriva a circa [−1,22 ; 0 ; 1,22].
Alla fine due parametri appresi, una scala γ e uno spostamento β, permettono
al modello di allargare o spostare il risultato se gli serve.

$$\mathrm{LayerNorm}(x)_i = \gamma\,\frac{x_i - \mu}{\sqrt{\sigma^2 + \varepsilon}} + \beta$$

La **RMSNorm**, usata da LLaMA e da molti modelli recenti, salta la prima
mossa: divide e basta, per la radice della media dei quadrati (RMS). Con
[2, 4, 6] la media dei quadrati è 56/3, la radice circa 4,32, e il vettore
diventa circa [0,46 ; 0,93 ; 1,39]: tutti positivi come prima. Fa un
passaggio in meno sui numeri e non ha il parametro β.

$$\mathrm{RMSNorm}(x)_i = \gamma\,\frac{x_i}{\sqrt{\frac{1}{d}\sum_{j=1}^{d} x_j^2 + \varepsilon}}$$

Prova lo slider **aggiungi c**: somma lo stesso numero a ogni componente.
La LayerNorm non se ne accorge, perché la media si sposta di c e la
sottrazione lo cancella; la RMSNorm invece sì. Le barre tratteggiate
mostrano il risultato con c = 0. Poi prova a raddoppiare tutti i numeri
(c'è un pulsante): questa volta nessuna delle due cambia. E se metti tutti i numeri uguali,
la LayerNorm dà solo zeri (il piccolo ε sotto la radice evita di dividere
per zero).
"""

import math

from core.normalization import layer_norm
from core.normalization import rms
from core.normalization import rms_norm
from core.stats import fmean
from core.stats import pstdev
from labs.kit import Bar
from labs.kit import Case
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import Wrong
from labs.kit import bars
from labs.kit import callout
from labs.kit import num
from labs.kit import panel
from labs.kit import significant
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag

TITLE = "LayerNorm e RMSNorm"
REF = "A.1"

EPS = 1e-5  # as PyTorch's default: it only matters when all numbers are equal
DEFAULTS = (2.0, 4.0, 6.0, 8.0, -3.0, 1.0)
SUB = "₁₂₃₄₅₆"
LIMIT = 20.0  # wide enough to double the defaults: [2, 4, 6, 8, −3, 1] → [4, 8, 12, 16, −6, 2]

# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "c": Symbol("il numero sommato a ogni componente", "aggiung", "somma"),
}

CONTROLS = [
    Group(
        "Il vettore di un token",
        (
            Slider("n", "Quanti numeri", 3, 6, 1, 3),
            *(
                Slider(
                    f"x{i + 1}",
                    f"x{SUB[i]}" + (f" (con {i + 1} numeri o più)" if i >= 3 else ""),
                    -LIMIT,
                    LIMIT,
                    0.5,
                    v,
                )
                for i, v in enumerate(DEFAULTS)
            ),
            Slider("c", "Aggiungi c a ogni numero", -LIMIT, LIMIT, 0.5, 0.0),
        ),
    ),
    Group(
        "Parametri appresi",
        (
            Slider("gamma", "Scala γ", -2.0, 3.0, 0.1, 1.0),
            Slider("beta", "Spostamento β (solo LayerNorm)", -3.0, 3.0, 0.1, 0.0),
        ),
    ),
]


def compute(p):
    """LayerNorm e RMSNorm sullo stesso vettore, passo per passo."""
    base = [p[f"x{i + 1}"] for i in range(p["n"])]
    x = [v + p["c"] for v in base]
    n, g, b = len(x), p["gamma"], p["beta"]
    gains, biases = [g] * n, [b] * n
    ln, rn = layer_norm(x, EPS, gains, biases), rms_norm(x, EPS, gains)
    ln0, rn0 = layer_norm(base, EPS, gains, biases), rms_norm(base, EPS, gains)
    m = fmean(x)
    return {
        "n": n,
        "base": base,
        "x": x,
        "c": p["c"],
        "gamma": g,
        "beta": b,
        "mean": m,
        "centred": [v - m for v in x],
        "std": pstdev(x),
        "divisor": math.sqrt(pstdev(x) ** 2 + EPS),  # what LayerNorm divides by: never 0
        "unit": layer_norm(x, EPS),
        "layer": ln,
        "mean_square": fmean([v * v for v in x]),
        "rms": rms(x),
        "rms_divisor": rms(x, EPS),
        "rms_unit": rms_norm(x, EPS),
        "rms_out": rn,
        "layer_before": ln0,
        "rms_before": rn0,
        "layer_shift": max(abs(a - z) for a, z in zip(ln, ln0)),
        "rms_shift": max(abs(a - z) for a, z in zip(rn, rn0)),
    }


def follow(s):
    """The numbers beyond «Quanti numeri» are not in the vector: the first says so, once, the others are hidden."""
    left_out = range(s["n"], len(DEFAULTS))
    names = [f"x{SUB[i]}" for i in left_out]
    if not names:
        return {}
    them = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" e {names[-1]}"
    verb = "entra" if len(names) == 1 else "entrano"
    reason = f"Con {s['n']} numeri {them} non {verb} nel vettore: alza «Quanti numeri»."
    return {f"x{i + 1}": Follow(disabled=reason) if i == s["n"] else Follow(hidden=True) for i in left_out}


def doubled(s):
    """The data-set that doubles every number of the vector (and c), or None if one would leave the sliders."""
    values = {f"x{i + 1}": 2 * v for i, v in enumerate(s["base"])} | {"c": 2 * s["c"]}
    if any(abs(v) > LIMIT for v in values.values()):
        return None
    return ";".join(f"{name}={v:g}" for name, v in values.items())


def shift_note(s):
    """What adding c did to each norm, said from the numbers."""
    if s["c"] == 0 and s["gamma"] == 0:
        return callout(
            "Con γ = 0 la RMSNorm dà solo zeri e la LayerNorm solo β: rimetti γ diverso da 0 per vedere che cosa fanno."
        )
    if s["c"] == 0:
        return callout("Muovi «Aggiungi c»: la LayerNorm resterà ferma, la RMSNorm si sposterà.")
    text = (
        f"Hai aggiunto {num(s['c'], 1)} a ogni numero: la LayerNorm dà gli stessi valori di prima "
        f"(differenza massima {num(s['layer_shift'])})"
    )
    if s["rms_shift"] >= 0.005:
        return callout(f"{text}, la RMSNorm no (differenza massima {num(s['rms_shift'])}).", tone="ok")
    why = (
        "con γ = 0 la sua uscita è sempre zero"
        if s["gamma"] == 0
        else "i numeri sono tutti uguali e, divisi per la loro RMS, diventano tutti γ (o −γ, se sono negativi)"
    )
    return callout(f"{text}, e qui nemmeno la RMSNorm si muove: {why}.")


def row(values):
    return "[" + " ; ".join(num(v) for v in values) + "]"


def norm_bars(title, values, before, scale, cls):
    items = [
        Bar(f"x{SUB[i]}", v, class_=cls, before=None if before is None else before[i]) for i, v in enumerate(values)
    ]
    return tag(
        "div",
        tag("h4", title),
        bars(items, label=title, lo=-scale, hi=scale, before_label="con c = 0" if before else "", row_height=26),
    )


def view(s):
    shifted = s["c"] != 0
    # the input keeps its own scale; the two outputs share one, so they compare at a glance
    size = max(1.0, *(abs(v) for v in s["x"]))
    scale = max(2.0, *(abs(v) for key in ("layer", "rms_out", "layer_before", "rms_before") for v in s[key]))
    gb = f"· {num(s['gamma'], 1)} + {num(s['beta'], 1)}"
    return panel(
        stats(
            stat("Media μ", num(s["mean"])), stat("Deviazione standard σ", num(s["std"])), stat("RMS", num(s["rms"]))
        ),
        tag(
            "p",
            "Sotto le radici c'è anche ε = 0,00001, per non dividere mai per zero: con i numeri tutti uguali σ = 0, "
            "e si divide per √ε ≈ 0,0032.",
            class_="lab-step-counter",
        ),
        tag("h3", "LayerNorm, passo per passo"),
        table(
            ("Passo", "Conto", "Vettore"),
            [
                ("ingresso", "x", row(s["x"])),
                ("1. togli la media", f"x − {num(s['mean'])}", row(s["centred"])),
                ("2. dividi per √(σ² + ε)", f"÷ {significant(s['divisor'])}", row(s["unit"])),
                ("3. scala e sposta", f"{gb}", row(s["layer"])),
            ],
            quantities="rows",
        ),
        tag("h3", "RMSNorm, passo per passo"),
        table(
            ("Passo", "Conto", "Vettore"),
            [
                ("ingresso", "x", row(s["x"])),
                ("1. media dei quadrati", f"{num(s['mean_square'])} → radice {num(s['rms'])}", "—"),
                ("2. dividi per √(media + ε)", f"÷ {significant(s['rms_divisor'])}", row(s["rms_unit"])),
                ("3. scala", f"· {num(s['gamma'], 1)}", row(s["rms_out"])),
            ],
            quantities="rows",
        ),
        tag(
            "div",
            norm_bars("Ingresso", s["x"], None, size, "s1"),
            norm_bars("Dopo la LayerNorm", s["layer"], s["layer_before"] if shifted else None, scale, "s2"),
            norm_bars("Dopo la RMSNorm", s["rms_out"], s["rms_before"] if shifted else None, scale, "s3"),
            data_part="barre",
        ),
        shift_note(s),
        tag(
            "button",
            "Raddoppia tutti i numeri",
            type="button",
            class_="md-button",
            data_set=doubled(s),
            disabled=doubled(s) is None,
            title=None if doubled(s) else f"Qualche numero supererebbe {num(LIMIT, 0)}, il limite dei cursori",
        ),
        part="normalizzazione",
    )


EDITS = [
    Edit(
        "LayerNorm senza togliere la media",
        change=(
            "    return [g * (v - m) / s + b for v, g, b in zip(x, gain, bias)]",
            "    return [g * v / s + b for v, g, b in zip(x, gain, bias)]",
        ),
        expect="Spostando tutti i numeri di +10, l'uscita di LayerNorm ora cambia: togliere la media è ciò che "
        "la rende indifferente a uno spostamento comune, che RMSNorm invece sente.",
        params={"c": 10},
        check=lambda before, after: before.state["layer_shift"] < 1e-6 and after.state["layer_shift"] > 0.5,
    ),
]

EXPERIMENTS = [
    Experiment(
        "Aggiungi c = 10 a [2, 4, 6]: la LayerNorm dà ancora [−1,22 ; 0 ; 1,22], la RMSNorm invece cambia.",
        {"n": 3, "x1": 2.0, "x2": 4.0, "x3": 6.0, "c": 10.0, "gamma": 1.0, "beta": 0.0},
        "barre",
        lambda s: s["layer_shift"] < 1e-9 and s["rms_shift"] > 0.1,
        after="la RMSNorm invece sì",
    ),
    Experiment(
        "Metti tutti i numeri uguali a 5: la LayerNorm dà solo zeri.",
        {"n": 3, "x1": 5.0, "x2": 5.0, "x3": 5.0, "c": 0.0, "gamma": 1.0, "beta": 0.0},
        "barre",
        lambda s: s["layer"] == [0.0, 0.0, 0.0],
        after="evita di dividere",
    ),
]

EXERCISES = [
    Exercise(
        layer_norm,
        task="Scrivi la LayerNorm di un vettore: togli a ogni numero la media, dividi per la radice della "
        "varianza più ε, poi moltiplica per il gain e aggiungi il bias, elemento per elemento. La varianza è "
        "la media dei quadrati degli scarti, divisa per n. Se gain e bias mancano valgono 1 e 0. Quando la tua "
        "funzione passa le verifiche, le barre della LayerNorm vengono da lei.",
        hints=(
            "La media è `m = sum(x) / len(x)`; la varianza `sum((v - m) ** 2 for v in x) / len(x)`.",
            "Aggiungi `eps` alla varianza prima della radice: `s = math.sqrt(var + eps)`. Senza, un vettore di "
            "numeri tutti uguali darebbe una divisione per zero.",
            "Per gain e bias assenti: `gain = gain or [1.0] * len(x)`, e lo stesso per bias con `0.0`.",
        ),
        cases=(
            Case(([2.0, 2.0, 2.0],), "numeri tutti uguali: varianza zero"),
            Case(([1.0, 2.0, 3.0],), "tre numeri"),
            Case(([2.0, 4.0, 6.0, 8.0, -3.0, 1.0], 1e-5, [1.5] * 6, [0.5] * 6), "con gain e bias"),
            Case(([1000.0, 1001.0, 1002.0],), "numeri grandi, stessi scarti"),
            Case(([5.0],), "un numero solo"),
            Case(([0.001, -0.002, 0.003], 0.0), "numeri piccoli e nessun ε"),
        ),
        random=lambda rng: (lambda n, g, b: ([rng.uniform(-20, 20) for _ in range(n)], 1e-5, [g] * n, [b] * n))(
            rng.randint(2, 8), rng.uniform(-3, 3), rng.uniform(-3, 3)
        ),
        count=14,
        tolerance=1e-9,
        wrong=(
            Wrong(
                """
def layer_norm(x, eps=1e-5, gain=None, bias=None):
    m = sum(x) / len(x)
    s = math.sqrt(sum((v - m) ** 2 for v in x) / len(x))
    gain = gain or [1.0] * len(x)
    bias = bias or [0.0] * len(x)
    return [g * (v - m) / s + b for v, g, b in zip(x, gain, bias)]
""",
                "Manca ε: con numeri tutti uguali la varianza è zero e si divide per zero. Si divide per "
                "√(varianza + ε), e ε sposta di poco anche gli altri risultati.",
            ),
            Wrong(
                """
def layer_norm(x, eps=1e-5, gain=None, bias=None):
    m = sum(x) / len(x)
    s = math.sqrt(sum((v - m) ** 2 for v in x) / len(x) + eps)
    gain = gain or [1.0] * len(x)
    bias = bias or [0.0] * len(x)
    return [g * v / s + b for v, g, b in zip(x, gain, bias)]
""",
                "Hai diviso per la deviazione standard senza togliere la media: ogni numero va prima centrato, "
                "v − media, altrimenti un vettore di numeri uguali non diventa zero.",
            ),
            Wrong(
                """
def layer_norm(x, eps=1e-5, gain=None, bias=None):
    m = sum(x) / len(x)
    s = math.sqrt(sum((v - m) ** 2 for v in x) / (len(x) - 1) + eps)
    gain = gain or [1.0] * len(x)
    bias = bias or [0.0] * len(x)
    return [g * (v - m) / s + b for v, g, b in zip(x, gain, bias)]
""",
                "La varianza della LayerNorm divide per n, non per n − 1: è la varianza di questi numeri, non "
                "una stima per un campione.",
            ),
        ),
    ),
]
