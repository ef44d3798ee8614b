"""Nel piano due frecce prese a caso possono formare qualunque angolo: a volte
puntano quasi nello stesso verso, a volte quasi in versi opposti. Con 4.096
numeri per freccia, quanti ne ha il vettore di un token in un modello da 7
miliardi di parametri, succede una cosa che nessun disegno lascia intuire:
due direzioni a caso sono quasi sempre **quasi perpendicolari**, con un
coseno vicinissimo a 0.

Il laboratorio lo verifica con un esperimento. Sceglie 40 direzioni a caso
nella dimensione **d** che indichi, calcola il coseno di ognuna delle 780
coppie e ne disegna l'**istogramma**: quante
coppie cadono in ogni fascia di valori. Il **seme** fissa i numeri casuali:
con lo stesso seme il risultato è sempre lo stesso, con un altro seme cambia
di poco.

Parti da d = 2: i coseni si ammucchiano verso −1 e +1, perché nel piano due
frecce finiscono spesso quasi allineate. Con d = 3 si spargono in modo
uniforme. Poi sali a 10, 100, 1.000 e 4.096 e guarda la campana stringersi
attorno allo 0; con lo **zoom** l'asse si adatta alla sua larghezza e se ne
vede la forma.

Quanto si stringe? La deviazione standard, cioè lo scarto tipico dalla media,
segue 1/√d: con d = 4.096 vale 1/64, circa 0,016. Il motivo è semplice: il
coseno tra due direzioni a caso si comporta come una sola coordinata di una
freccia lunga 1, e il quadrato di quella lunghezza, 1, si divide in media in
parti uguali tra le d coordinate. Per questo in uno spazio così grande c'è
posto per moltissime direzioni quasi indipendenti tra loro.

Come si sceglie una direzione a caso, senza preferirne nessuna? Si estrae
ogni coordinata da una distribuzione normale e si porta la freccia a
lunghezza 1. Con d = 4.096 vorrebbe dire 163.840 numeri casuali e 780
prodotti scalari di 4.096 termini a ogni clic: troppo lento per rispondere
subito. Il laboratorio usa allora un fatto della geometria: se si ruota
tutto lo spazio, nessun angolo cambia. Così può scegliere gli assi su
misura: la prima freccia sul primo asse, la seconda nel piano dei primi
due, la terza nei primi tre, e avanti così. Le coordinate sugli assi già
usati restano numeri normali; tutto il resto della freccia, che sporge
fuori da quegli assi, si riassume in un solo numero, la sua lunghezza,
estratta in un colpo dalla sua distribuzione (la radice di un «chi
quadro»). I coseni escono con la stessa identica distribuzione, ma con
d = 4.096 bastano 820 numeri casuali invece di 163.840, e ogni freccia ha
al massimo 40 coordinate.
"""

import math
from functools import lru_cache

from core.linalg import dot
from core.linalg import random_directions
from core.linalg import seeded_rng
from core.stats import bin_counts
from core.stats import fmean
from core.stats import pstdev
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Marker
from labs.kit import Series
from labs.kit import Slider
from labs.kit import Toggle
from labs.kit import callout
from labs.kit import formula
from labs.kit import histogram
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import plural
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag

TITLE = "Alte dimensioni"
REF = "9B.4"

DIMENSIONS = (2, 3, 10, 100, 1000, 4096)
DIRECTIONS = 40  # 780 pairs: enough for a smooth histogram
BINS = 40

CONTROLS = [
    Choice("d", "Dimensione d", tuple((str(d), num(d)) for d in DIMENSIONS), "3", primary=True),
    Slider("seme", "Seme dei numeri casuali", 1, 100, 1, 1),
    Toggle("zoom", "Zoom: asse da −5/√d a +5/√d", False),
]


@lru_cache(maxsize=16)
def pair_cosines(d, seed):
    """I coseni di ogni coppia tra DIRECTIONS direzioni a caso in d dimensioni.

    Written on axes that fit them (random_directions), the 40 directions
    need 820 random numbers and at most 40 coordinates each, whatever d,
    where d Gaussian coordinates each would need, at d = 4.096, 163.840
    numbers and 780 products of 4.096 terms. The zoom does not change
    them, and a reader goes back and forth between a few settings, so they
    are kept (a tuple, so no caller can change the kept copy)."""
    directions = random_directions(DIRECTIONS, d, seeded_rng(seed))
    # unit vectors: their dot product is the cosine (clamped against rounding)
    return tuple(max(-1.0, min(1.0, dot(u, v))) for i, u in enumerate(directions) for v in directions[:i])


@lru_cache(maxsize=16)
def cosine_summary(cosines):
    """Media, deviazione standard, quota quasi perpendicolare e angolo più stretto dei coseni.

    Kept for the last cosines: the zoom changes none of it."""
    return {
        "pairs": len(cosines),
        "mean": fmean(cosines),
        "std": pstdev(cosines),
        "near_perpendicular": sum(abs(c) < 0.1 for c in cosines) / len(cosines),
        "min_angle": math.degrees(math.acos(max(abs(c) for c in cosines))),
    }


def compute(p):
    """I coseni tra direzioni casuali in d dimensioni, con il loro istogramma."""
    d = int(p["d"])
    cosines = pair_cosines(d, p["seme"])
    summary = cosine_summary(tuple(cosines))
    reach = min(1.0, 5 / math.sqrt(d)) if p["zoom"] else 1.0
    counts = bin_counts(cosines, -reach, reach, BINS)
    return {
        "d": d,
        **summary,
        "theory": 1 / math.sqrt(d),
        "ratio": summary["std"] * math.sqrt(d),
        "counts": counts,
        "reach": reach,
        "outside": len(cosines) - sum(counts),
        "zoom": p["zoom"],
    }


def spread_chart(s):
    """The spread as d grows: the 1/√d curve and the measured point."""
    curve = [(2 * 2048 ** (k / 60), 1 / math.sqrt(2 * 2048 ** (k / 60))) for k in range(61)]
    choices = Series(
        "",
        tuple((d, 1 / math.sqrt(d)) for d in DIMENSIONS),
        class_="target",
        line=False,
        actions=tuple((f"d={d}", f"Mostra d = {num(d)}") for d in DIMENSIONS),
    )
    measured = Series(f"misurata con d = {num(s['d'])}", ((s["d"], s["std"]),), class_="s2", markers=True, line=False)
    return line_chart(
        [Series("1/√d", tuple(curve), class_="target"), choices, measured],
        label="Deviazione standard dei coseni al crescere di d, con la curva 1/√d",
        x_log=True,
        x_range=(1.5, 6000),
        y_range=(0, 0.8),
        x_ticks=DIMENSIONS,
        x_label="dimensione d (scala logaritmica)",
        y_label="deviazione standard",
        height=280,
    )


def view(s):
    d, m, sd = s["d"], s["mean"], s["std"]
    markers = [
        Marker(m, "media", class_="s2", dashed=False),
        Marker(m - sd, "media ± deviazione standard", class_="s2"),
        Marker(m + sd, "media ± deviazione standard", class_="s2"),
        Marker(-s["theory"], "± 1/√d", class_="s3"),
        Marker(s["theory"], "± 1/√d", class_="s3"),
    ]
    return panel(
        stats(
            stat("Dimensione d", num(d)),
            stat("Coppie", num(s["pairs"])),
            stat("Media dei coseni", num(m, 3)),
            stat("Deviazione standard", num(sd, 4)),
            stat("1/√d", num(s["theory"], 4)),
            stat(
                "Quasi perpendicolari (|cos| < 0,1)",
                percent(s["near_perpendicular"]),
                tone="ok" if s["near_perpendicular"] > 0.9 else None,
            ),
        ),
        histogram(
            counts=s["counts"],
            lo=-s["reach"],
            hi=s["reach"],
            markers=markers,
            bar_label="coppie",
            label=f"Istogramma dei coseni tra {num(s['pairs'])} coppie di direzioni a caso in {num(d)} dimensioni",
            x_label="coseno tra due direzioni a caso",
            y_label="coppie",
        ),
        formula(
            f"deviazione standard × √d = {num(sd, 4)} × {num(math.sqrt(d), 2)} = {num(s['ratio'], 3)}"
            f"   (se segue 1/√d, viene circa 1)"
        ),
        callout(
            f"Tutte le {num(s['pairs'])} coppie formano un angolo tra {num(s['min_angle'], 1)}° e "
            f"{num(180 - s['min_angle'], 1)}°"
            + (": nessuna è lontana dall'angolo retto." if s["min_angle"] > 80 else ".")
        ),
        callout(
            f"{plural(s['outside'], 'coppia ha', 'coppie hanno')} un coseno fuori dall'intervallo mostrato.",
            tone="warn",
        )
        if s["outside"]
        else None,
        tag("h3", "La larghezza al crescere di d"),
        spread_chart(s),
        tag("p", "Clicca un punto della curva per passare a quella dimensione.", class_="lab-step-counter"),
        part="coseni",
    )


EDITS = [
    Edit(
        "direzioni sempre in 3 dimensioni",
        change=('cosines = pair_cosines(d, p["seme"])', 'cosines = pair_cosines(3, p["seme"])'),
        expect="Con d = 4096 ma vettori di 3 numeri, l'istogramma resta largo come a d = 3: la deviazione "
        "standard non scende a 1/√d ≈ 0,016. Sono le tante dimensioni a rendere quasi perpendicolari "
        "due direzioni a caso.",
        params={"d": "4096"},
        check=lambda before, after: before.state["std"] < 0.03 and after.state["std"] > 0.3,
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con d = 2 i coseni si ammucchiano verso −1 e +1: le due fasce estreme sono le più piene.",
        {"d": "2", "seme": 1, "zoom": False},
        "coseni",
        lambda s: sorted(s["counts"])[-2:] == sorted([s["counts"][0], s["counts"][-1]]),
        after="Parti da d = 2",
    ),
    Experiment(
        "Con d = 4.096 tutte le 780 coppie sono quasi perpendicolari, con una deviazione standard di circa 0,016.",
        {"d": "4096", "seme": 1, "zoom": False},
        "coseni",
        lambda s: s["near_perpendicular"] == 1 and round(s["std"], 3) == 0.016,
        after="guarda la campana stringersi",
    ),
]
