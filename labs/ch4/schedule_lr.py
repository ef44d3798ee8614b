"""Nel laboratorio 2.4 il learning rate η era un numero fisso. Nei training
veri cambia a ogni passo, seguendo un **programma** (schedule) deciso
prima di partire, per due ragioni opposte.

All'inizio i pesi sono casuali, i gradienti grandi e disordinati, e le
medie che Adam tiene per ogni peso non si sono ancora assestate: un passo
pieno subito può far esplodere la loss. Per questo η parte da zero e sale in
linea retta per qualche migliaio di passi: il **warm-up**. Alla fine serve
il contrario: con passi lunghi il modello continua a rimbalzare intorno al
fondo della valle, e solo accorciandoli si posa. Per questo η scende
lungo mezza onda di **coseno**, lentamente all'inizio, più in fretta a metà,
di nuovo piano verso il minimo.

I valori di partenza sono quelli di Llama 2: picco 3 × 10⁻⁴ raggiunto dopo
2.000 passi, poi discesa fino al 10 % del picco. Con batch da circa 4
milioni di token, 500.000 passi fanno i 2.000 miliardi di token del suo
pre-training. Trascina il punto sulla curva (o usa il cursore «Passo da
guardare») per leggere η in qualunque momento; il secondo grafico
ingrandisce i primi passi, dove il warm-up nel primo quasi non si vede.
Nelle formule t è il passo, W i passi di warm-up e T i passi di tutto il
training: qui W e T sono numeri di passi, non una matrice di pesi e la
temperatura come in altre pagine.

Prova a togliere il warm-up (0 passi): la curva parte subito dal picco, il
caso da cui il warm-up protegge. Porta il minimo a 0 e la discesa arriva
fino in fondo; accorcia il training e la stessa curva si comprime.
"""

from functools import lru_cache

from core.schedules import warmup_cosine_lr
from labs.kit import Case
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Handle
from labs.kit import Marker
from labs.kit import Question
from labs.kit import Series
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import Wrong
from labs.kit import big
from labs.kit import callout
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag

TITLE = "Warm-up e coseno"
REF = "4.2"

UNIT = 1e-4  # the charts count η in units of 10⁻⁴, so the ticks read 0,5 · 1 · 3 instead of 0,00030
BATCH_TOKENS = 4e6  # Llama 2: about 4 million tokens per step
POINTS = 240

# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "W": Symbol("i passi di warm-up", "warm-up"),
    "T": Symbol("i passi di tutto il training", "passi", "training"),
}

CONTROLS = [
    Group(
        "Lo schedule",
        (
            Slider("picco", "Picco di η (× 10⁻⁴)", 0.5, 10.0, 0.5, 3.0),
            Slider("warmup", "Passi di warm-up", 0, 20000, 500, 2000),
            Slider("totale", "Passi in tutto", 10000, 1000000, 10000, 500000),
            Slider("minimo", "η finale (% del picco)", 0, 50, 5, 10),
        ),
    ),
    Slider("passo", "Passo da guardare", 0, 1000000, 500, 100000, primary=True),
]


def compute(p):
    """Il learning rate di warm-up più coseno al passo scelto, e la curva intera."""
    peak, warmup, total, floor = p["picco"] * UNIT, min(p["warmup"], p["totale"]), p["totale"], p["minimo"] / 100
    step = min(p["passo"], total)
    lr = warmup_cosine_lr(step, peak, warmup, total, floor)
    return {
        "peak": peak,
        "warmup": warmup,
        "total": total,
        "floor": floor,
        "step": step,
        "asked": p["passo"],
        "lr": lr,
        "share": lr / peak,
        "phase": "warm-up" if step < warmup else "fine" if step >= total else "coseno",
        "tokens": step * BATCH_TOKENS,
        "total_tokens": total * BATCH_TOKENS,
        **curves(peak, warmup, total, floor),
    }


# The step to look at is the control a reader moves most, and it moves no curve: they are drawn once per schedule.
@lru_cache(maxsize=8)
def curves(peak, warmup, total, floor):
    """Le curve dello schedule: l'intera, lo zoom sui primi passi, i passi della tabella, come coppie (passo, η)."""

    def lr(t):
        return warmup_cosine_lr(t, peak, warmup, total, floor)

    steps = sorted({round(total * k / POINTS) for k in range(POINTS + 1)} | {warmup})
    zoom = min(max(3 * warmup, 5000), total)
    zoom_steps = sorted({round(zoom * k / 120) for k in range(121)} | {warmup})  # warmup ≤ 3·warmup, ≤ total
    checkpoints = sorted(
        {
            0,
            warmup // 2,
            warmup,
            warmup + (total - warmup) // 4,
            warmup + (total - warmup) // 2,
            warmup + 3 * (total - warmup) // 4,
            total,
        }
    )
    return {
        "at_warmup_end": lr(warmup),
        "final": lr(total),
        "curve": tuple((t, lr(t)) for t in steps),
        "zoom": zoom,
        "zoom_curve": tuple((t, lr(t)) for t in zoom_steps),
        "checkpoints": tuple((t, lr(t)) for t in checkpoints),
    }


def follow(s):
    """The step to look at and the warm-up stop at the end of the training."""
    return {"passo": Follow(max=s["total"]), "warmup": Follow(max=s["total"])}


def chart(s, curve, x_max, label, height):
    points = tuple((t, v / UNIT) for t, v in curve)
    step_in = s["step"] <= x_max
    handles = (
        [
            Handle(
                s["step"],
                s["lr"] / UNIT,
                x_name="passo",
                y_name=None,
                label="Passo da guardare: trascinalo lungo la curva",
                class_="s2",
                caption=f"η = {eta(s['lr'])}",
            )
        ]
        if step_in
        else []
    )
    markers = [
        Marker(s["warmup"], "fine del warm-up", class_="s3"),
        Marker(s["floor"] * s["peak"] / UNIT, f"η finale: {percent(s['floor'])} del picco", class_="s4", axis="y"),
    ]
    return line_chart(
        [
            Series("η con warm-up e coseno", points, class_="s1"),
            Series(
                "η costante al picco", ((0, s["peak"] / UNIT), (x_max, s["peak"] / UNIT)), class_="muted", dashed=True
            ),
        ],
        handles=handles,
        markers=markers,
        x_range=(0, x_max),
        y_range=(0, s["peak"] / UNIT * 1.15),
        x_label="passo",
        y_label="η × 10.000",  # the ticks: η in units of 10⁻⁴, said without an exponent's small glyph
        label=label,
        height=height,
    )


def eta(value):
    """A learning rate as every figure of the view writes it, with the same three decimals: 2,750 beside 3,000."""
    return f"{num(value / UNIT, 3, quantity='η')} × 10⁻⁴"


def view(s):
    phase = {
        "warm-up": f"Warm-up: η sale in linea retta, ed è al {percent(s['share'])} del picco.",
        "coseno": f"Discesa a coseno: η è al {percent(s['share'])} del picco.",
        "fine": "Training finito: η resta al suo valore finale.",
    }[s["phase"]]
    rows = [[num(t), eta(v), percent(v / s["peak"])] for t, v in s["checkpoints"]]
    return panel(
        stats(
            stat(f"η al passo {num(s['step'])}", eta(s["lr"])),
            stat("Fine del warm-up", eta(s["at_warmup_end"])),
            stat("Ultimo passo", eta(s["final"])),
            stat("Token visti fin qui", big(s["tokens"])),
        ),
        callout(phase, tone="ok" if s["phase"] == "coseno" else "info"),
        callout(f"Il training ha solo {num(s['total'])} passi: guardo l'ultimo.", tone="warn")
        if s["asked"] > s["total"]
        else None,
        callout("Il warm-up occupa tutto il training: la discesa a coseno non comincia mai.", tone="warn")
        if s["warmup"] >= s["total"]
        else None,
        callout(
            "Senza warm-up il primo passo è già al picco, con pesi ancora casuali: il momento in cui una loss "
            "rischia di esplodere.",
            tone="warn",
        )
        if s["warmup"] == 0
        else None,
        chart(s, s["curve"], s["total"], "Il learning rate lungo tutto il training", 300),
        tag("h3", f"I primi {num(s['zoom'])} passi, ingranditi"),
        chart(s, s["zoom_curve"], s["zoom"], "Il learning rate nei primi passi: il warm-up", 240),
        formula("η(t) = picco · t / W  se t < W"),
        formula("η(t) = η_min + (picco − η_min) · ½ · (1 + cos(π · (t − W) / (T − W)))  fino a t = T"),
        table(["Passo", "η", "quota del picco"], rows),
        tag(
            "p",
            f"Con batch da {big(BATCH_TOKENS)} di token, {num(s['total'])} passi sono "
            f"{big(s['total_tokens'])} di token.",
            class_="lab-step-counter",
        ),
        part="schedule-lr",
    )


EDITS = [
    Edit(
        "niente warm-up: il picco dal primo passo",
        change=("        return peak * step / warmup", "        return peak"),
        expect="Al passo 1.000 il learning rate è già il picco, 3·10⁻⁴, invece della metà: i primi "
        "aggiornamenti, con pesi ancora casuali, diventano i più grandi di tutto il training.",
        params={"passo": 1000},
        check=lambda before, after: abs(before.state["share"] - 0.5) < 1e-9 and abs(after.state["share"] - 1) < 1e-9,
    ),
]

LLAMA = {"picco": 3.0, "totale": 500000}
EXPERIMENTS = [
    Experiment(
        "Togli il warm-up: al passo 0 il learning rate è già al picco.",
        {**LLAMA, "warmup": 0, "passo": 0},
        "schedule-lr",
        lambda s: s["lr"] == s["peak"] and s["step"] == 0,
        after="Prova a togliere il warm-up",
        predict=Question(
            "Porta il warm-up a 0 passi. Quanto vale η al primissimo passo, quando i pesi sono ancora casuali?",
            ("Zero, come sempre alla partenza", "Metà del picco", "Già il picco, 3 × 10⁻⁴"),
            2,
            "Senza warm-up non c'è nessuna salita: il coseno parte dal suo punto più alto, quindi il primo passo "
            "usa già η pieno. È proprio il caso da cui il warm-up protegge, con gradienti grandi e disordinati.",
        ),
    ),
    Experiment(
        "Porta il minimo a 0: all'ultimo passo la discesa arriva fino a zero.",
        {**LLAMA, "warmup": 2000, "minimo": 0, "passo": 500000},
        "schedule-lr",
        lambda s: s["final"] == 0 and s["lr"] == 0,
        after="Prova a togliere il warm-up",
    ),
]

EXERCISES = [
    Exercise(
        warmup_cosine_lr,
        task="Scrivi lo schedule del learning rate: nei primi `warmup` passi η sale in linea retta da 0 al "
        "picco, poi scende lungo mezzo coseno fino a `floor · peak` al passo `total`, e da lì resta fermo. Se "
        "il warm-up dura quanto tutto l'allenamento non c'è posto per il coseno: alla fine η resta al picco. "
        "Quando la tua funzione passa le verifiche, le curve e la tabella dei passi vengono da lei.",
        hints=(
            "Nel warm-up, cioè con `step < warmup`, η vale `peak * step / warmup`.",
            "Nel coseno conta i passi da dopo il warm-up: `progress = (step - warmup) / (total - warmup)`, che "
            "va da 0 a 1, e η = `low + (peak - low) * 0.5 * (1 + math.cos(math.pi * progress))` con "
            "`low = floor * peak`.",
            "Da `total` in poi restituisci `low`, o `peak` se il warm-up arriva fino a `total`.",
        ),
        cases=(
            Case((0, 1.0, 100, 1000), "il primo passo del warm-up"),
            Case((50, 1.0, 100, 1000), "metà del warm-up"),
            Case((100, 1.0, 100, 1000), "la fine del warm-up: il picco"),
            Case((550, 1.0, 100, 1000), "metà del coseno"),
            Case((1000, 1.0, 100, 1000), "l'ultimo passo"),
            Case((2000, 1.0, 100, 1000), "oltre la fine"),
            Case((0, 1.0, 0, 1000), "nessun warm-up"),
            Case((550, 1.0, 100, 1000, 0.0), "un minimo zero"),
            Case((1000, 1.0, 1000, 1000), "un warm-up lungo quanto tutto"),
        ),
        random=lambda rng: (
            lambda total, warmup: (
                rng.randint(0, total + total // 10),
                rng.uniform(0.5, 2.0),
                warmup,
                total,
                rng.choice((0.0, 0.1, 0.2, 0.5)),
            )
        )(*(lambda t: (t, rng.randint(0, t // 5)))(rng.randint(1000, 100000))),
        count=12,
        tolerance=1e-12,
        wrong=(
            Wrong(
                """
def warmup_cosine_lr(step, peak, warmup, total, floor=0.1):
    warmup = min(warmup, total)
    if step < warmup:
        return peak * step / warmup
    if step >= total:
        return 0.0 if total > warmup else peak
    progress = (step - warmup) / (total - warmup)
    return peak * 0.5 * (1 + math.cos(math.pi * progress))
""",
                "Il coseno non scende fino a zero ma fino a floor · peak: il minimo è low = floor · peak, e "
                "la formula è low + (peak − low) · ½ · (1 + cos(π · progress)).",
            ),
            Wrong(
                """
def warmup_cosine_lr(step, peak, warmup, total, floor=0.1):
    warmup = min(warmup, total)
    low = floor * peak
    if step < warmup:
        return peak * step / warmup
    if step >= total:
        return low if total > warmup else peak
    progress = step / total
    return low + (peak - low) * 0.5 * (1 + math.cos(math.pi * progress))
""",
                "Il coseno parte dalla fine del warm-up, non dal passo 0: il progresso è "
                "(step − warmup) / (total − warmup), così alla fine del warm-up η è proprio il picco.",
            ),
            Wrong(
                """
def warmup_cosine_lr(step, peak, warmup, total, floor=0.1):
    warmup = min(warmup, total)
    low = floor * peak
    if step < warmup:
        return peak * step / warmup
    progress = (step - warmup) / (total - warmup)
    return low + (peak - low) * 0.5 * (1 + math.cos(math.pi * progress))
""",
                "Dopo l'ultimo passo il coseno torna a salire: da total in poi η deve restare fermo al minimo.",
            ),
        ),
    ),
]
