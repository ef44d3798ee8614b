r"""Per far scendere un errore bisogna prima misurarlo con un numero. Il
modello ha diviso la sua fiducia tra tutti i token possibili; la
**cross-entropy** guarda soltanto la quota toccata al token giusto, p, e ne
prende il logaritmo (naturale) cambiato di segno:

$$L = -\log p$$

Se il modello dava il 100 % al token giusto, la loss è 0. Quando p cala la
loss cresce, e sempre più in fretta: ogni volta che p si dimezza la loss
aumenta della stessa quantità, log 2 ≈ 0,69. Così un errore grossolano costa
molto più di un errore piccolo. Come si siano spartiti il resto gli altri
token non importa: conta solo quanto ne è rimasto al token giusto.

Muovi il cursore o **trascina il punto** lungo la curva. I quattro punti
segnati sono gli esempi della guida (cliccali per andarci): 100 % dà 0,
50 % dà 0,69, 12 % dà 2,12, 1 % dà 4,6. Poi spingi p verso 0,001 e guarda
la curva impennarsi.

Accanto alla loss c'è la **perplexity**, e^loss: il numero di Nepero
e ≈ 2,718 elevato alla loss. Dato che
e^(−log p) = 1/p, è il numero di candidati ugualmente probabili tra cui il
modello sembra indeciso: con p = 12 % la loss vale 2,12 e la perplexity 8,3,
come tirare a indovinare tra circa otto token. In un training vero si guarda
la media su moltissimi token; un buon modello non scende a zero ma si ferma
intorno a 2, perché il testo stesso è incerto.
"""

import math

from core.losses import cross_entropy
from core.losses import perplexity
from labs.kit import Case
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Handle
from labs.kit import Marker
from labs.kit import Series
from labs.kit import Slider
from labs.kit import Wrong
from labs.kit import callout
from labs.kit import cell_text
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag

TITLE = "La loss"
REF = "2.1"

P_MIN = 0.001  # −log 0 is infinite: the slider stops just before
SEEDS = (1.0, 0.5, 0.12, 0.01)  # the guide's examples
CURVE = tuple(
    (p, cross_entropy(p)) for p in sorted({*(P_MIN * 1.07**k for k in range(103)), *(k / 50 for k in range(1, 51))})
)

TICKS = (0, 0.12, 0.25, 0.5, 0.75, 1)

CONTROLS = [Slider("p", "Probabilità data al token giusto", P_MIN, 1.0, 0.001, 0.12, primary=True)]


def compute(params):
    """La loss −log p e la perplessità per la probabilità scelta e per i valori della guida."""
    p = params["p"]
    loss = cross_entropy(p)
    return {
        "p": p,
        "loss": loss,
        "perplexity": perplexity(loss),
        "halved": cross_entropy(p / 2),  # half the probability: always log 2 more
        "seeds": [{"p": s, "loss": cross_entropy(s), "perplexity": perplexity(cross_entropy(s))} for s in SEEDS],
    }


def share(p):
    """A probability as a percentage, with a second decimal only when it is tiny."""
    return percent(p, 1 if p >= 0.01 else 2)


def many(x, digits=1):
    """A perplexity: decimals only while they still say something."""
    return num(x, digits if x < 100 else 0)


def candidates(ppl):
    """How the perplexity reads: «circa 8 candidati»."""
    n = round(ppl)
    if n <= 1:
        return "come avere un solo candidato, senza alcun dubbio"
    return f"come scegliere tra circa {num(n)} candidati"


def chart(s):
    guide = Series(
        "esempi della guida",
        tuple((r["p"], r["loss"]) for r in s["seeds"]),
        class_="s2",
        line=False,
        actions=tuple((f"p={r['p']:g}", f"Porta p a {percent(r['p'])}") for r in s["seeds"]),
    )
    handle = Handle(
        s["p"],
        s["loss"],
        x_name="p",
        y_name=None,
        label=f"Probabilità del token giusto: {share(s['p'])}",
        caption=f"loss {num(s['loss'])}",
    )
    return line_chart(
        [Series("loss = −log p", CURVE, class_="s1"), guide],
        handles=[handle],
        markers=[Marker(s["loss"], axis="y", class_="muted"), Marker(s["p"], class_="muted")],
        x_range=(0, 1),
        y_range=(0, 8),
        x_ticks=tuple((t, percent(t)) for t in TICKS),
        x_label="probabilità data al token giusto (p)",
        y_label="loss",
        height=340,
        label=f"La curva della loss −log p; il punto scelto è p = {share(s['p'])}",
    )


def view(s):
    p, loss, ppl = s["p"], s["loss"], s["perplexity"]
    rows = [[percent(r["p"]), num(r["loss"]), many(r["perplexity"])] for r in s["seeds"]]
    return panel(
        stats(stat("Probabilità del token giusto", share(p)), stat("Loss", num(loss)), stat("Perplexity", many(ppl))),
        callout(f"Perplexity {many(ppl)}: {candidates(ppl)}."),
        chart(s),
        formula(f"loss = −log({cell_text(p, 3)}) = {num(loss)}"),
        formula(f"perplexity = e^{num(loss)} = 1/{cell_text(p, 3)} = {many(ppl)}"),
        callout(
            f"Dimezza la probabilità, da {share(p)} a {share(p / 2)}: la loss passa da {num(loss)} "
            f"a {num(s['halved'])}, cioè {num(math.log(2))} in più. Succede a qualunque altezza della curva."
        ),
        tag("h3", "Gli esempi della guida"),
        table(["p", "loss = −log p", "perplexity = 1/p"], rows),
        part="loss",
    )


EDITS = [
    Edit(
        "la loss come 1 − p invece di −log p",
        change=("    return -math.log(p_correct)", "    return 1 - p_correct"),
        expect="Con p = 0,01 la loss scende da 4,6 a 0,99: sbagliare con sicurezza costa quasi quanto "
        "sbagliare di poco, e la curva non sale più verso l'infinito vicino a p = 0.",
        params={"p": 0.01},
        check=lambda before, after: before.state["loss"] > 4.6 and after.state["loss"] < 1,
    ),
]

EXPERIMENTS = [
    Experiment(
        "Porta p a 0,001: la loss sale a 6,91, la curva si impenna.",
        {"p": 0.001},
        "loss",
        lambda s: round(s["loss"], 2) == 6.91,
        after="guarda la curva impennarsi",
    ),
    Experiment(
        "Con p = 50 % la loss vale 0,69 e la perplexity 2: come tirare a indovinare tra due token.",
        {"p": 0.5},
        "loss",
        lambda s: round(s["loss"], 2) == 0.69 and round(s["perplexity"], 9) == 2,
        after="come tirare a indovinare",
    ),
]

EXERCISES = [
    Exercise(
        cross_entropy,
        task="Scrivi la cross-entropy di una previsione: dalla probabilità che il modello ha dato al token giusto "
        "ricava la loss −log p, con il logaritmo naturale. Una probabilità fuori da (0, 1] non ha senso: "
        "rifiutala con un errore. Quando la tua funzione passa le verifiche, la curva della loss e i numeri "
        "della tabella vengono da lei.",
        doc="La loss −log p della probabilità p data al token giusto (p in (0, 1], altrimenti un errore).",
        hints=(
            "Il logaritmo naturale è `math.log`: `math.log(0.5)` vale circa −0,69.",
            "Il logaritmo di un numero tra 0 e 1 è negativo: cambiagli il segno, così la loss è positiva.",
            "Prima di tutto controlla l'intervallo: `if not 0 < p_correct <= 1: raise ValueError(...)`.",
        ),
        cases=(
            Case((0.5,), "metà della probabilità"),
            Case((0.12,), "il valore di partenza del laboratorio"),
            Case((1.0,), "certezza sul token giusto: nessuna loss"),
            Case((1e-300,), "una probabilità minuscola"),
            Case((0.0,), "probabilità zero: va rifiutata"),
            Case((1.5,), "più di 1: va rifiutata"),
            Case((-0.2,), "negativa: va rifiutata"),
        ),
        random=lambda rng: (rng.uniform(0.001, 1.0),),
        count=13,
        tolerance=1e-9,
        wrong=(
            Wrong(
                """
def cross_entropy(p_correct):
    if not 0 < p_correct <= 1:
        raise ValueError("la probabilità deve stare in (0, 1]")
    return math.log(p_correct)
""",
                "Manca il segno meno: il logaritmo di una probabilità è negativo, mentre la loss deve crescere "
                "quando p scende. Restituisci −log p.",
            ),
            Wrong(
                """
def cross_entropy(p_correct):
    if not 0 < p_correct <= 1:
        raise ValueError("la probabilità deve stare in (0, 1]")
    return -math.log10(p_correct)
""",
                "Il logaritmo della loss è quello naturale, in base e (math.log): con p = 0,5 la loss vale "
                "0,69, non 0,30.",
            ),
            Wrong(
                """
def cross_entropy(p_correct):
    return -math.log(p_correct)
""",
                "Una probabilità maggiore di 1 non esiste, ma qui dà una loss negativa senza protestare: "
                "controlla che p stia in (0, 1] e altrimenti solleva un errore.",
            ),
        ),
    ),
]
