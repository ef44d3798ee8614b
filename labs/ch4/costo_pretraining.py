r"""Quanto costa allenare un modello da zero? Il conto sta in una riga: per
ogni parametro e per ogni token del corpus servono circa **6 operazioni**,
2 nel forward pass (una moltiplicazione e una somma) e 4 nel backward pass.
Per un 7B allenato su 2.000 miliardi di token, come Llama 2: 6 × 7 × 10⁹ ×
2 × 10¹² ≈ 8 × 10²² operazioni.

$$C \approx 6\,N\,D = 6 \times 7 \cdot 10^{9} \times 2 \cdot 10^{12} \approx 8{,}4 \cdot 10^{22}$$

Nessuna GPU lavora sempre al massimo: aspetta i dati, si sincronizza con le
altre. Con un'A100 (312 mila miliardi di operazioni al secondo in bf16)
usata al 40 % servono circa 187.000 ore di GPU, vicine alle circa 184.000
dichiarate per Llama 2 7B. Cambia il numero di GPU e l'utilizzo e guarda
come si accorcia il calendario, non il conto.

Nel grafico ogni punto è una scelta di parametri N e token D. Lo studio
Chinchilla (2022) ha trovato che, a parità di calcolo, conviene circa **20
token per parametro**: è la retta. La linea tratteggiata unisce le scelte
che costano quanto la tua, e il punto verde è quella che Chinchilla
preferirebbe. Clicca i modelli noti: GPT-3 sta molto sotto la retta,
Llama 2 e Llama 3 molto sopra la retta, perché un modello piccolo allenato più a
lungo costa meno ogni volta che risponde.

Poi la memoria. Per allenare non bastano i pesi: servono i gradienti, una
copia master in fp32 e le due medie di Adam, m e v, circa **16 byte per
parametro**: per un 7B oltre 110 GB, più di una GPU da 80 GB prima ancora
delle attivazioni. **LoRA** congela i pesi e allena solo due matrici
sottili B·A per ogni matrice adattata, 2·d·r numeri invece di d² (il rango
basso del laboratorio 9B.11): scegli r e quali matrici adattare.
"""

from core.model_size import LLAMA2_7B
from core.model_size import TRAINING_BYTES
from core.model_size import chinchilla_optimum
from core.model_size import chinchilla_tokens
from core.model_size import gpu_hours
from core.model_size import gpus_needed
from core.model_size import lora_params
from core.model_size import parameter_counts
from core.model_size import training_bytes
from core.model_size import training_flops
from labs.kit import Bar
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Series
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import Toggle
from labs.kit import bars
from labs.kit import big
from labs.kit import callout
from labs.kit import data_size
from labs.kit import duration
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import presets
from labs.kit import sci
from labs.kit import share
from labs.kit import significant
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag
from labs.kit import the

TITLE = "Il costo del pre-training"
REF = "4.1"

SIZES = (0.125, 1, 7, 8, 13, 70, 175, 405)  # billions of parameters
CORPORA = (20, 300, 1400, 2000, 15000)  # billions of tokens
GPUS = {"a100": ("A100", 312e12), "h100": ("H100", 989e12)}  # peak dense bf16 operations per second
GPU_MEMORY = 80 * 2**30  # «80 GB» cards hold 80 GiB: 85,9 miliardi di byte
TARGETS = {
    "qv": ("W_q e W_v", ("q", "v")),
    "attn": ("le 4 dell'attention", ("q", "k", "v", "o")),
    "tutte": ("attention e MLP (7 matrici)", ("q", "k", "v", "o", "gate", "up", "down")),
}
KNOWN = (
    ("GPT-3", 175, 300),
    ("Chinchilla", 70, 1400),
    ("Llama 2 7B", 7, 2000),
    ("Llama 2 70B", 70, 2000),
    ("Llama 3 8B", 8, 15000),
    ("Llama 3 405B", 405, 15000),
)
# where each name sits beside its dot: Chinchilla and Llama 2 70B are a few pixels apart
SIDES = {
    "GPT-3": "e",
    "Chinchilla": "se",
    "Llama 2 7B": "w",
    "Llama 2 70B": "nw",
    "Llama 3 8B": "w",
    "Llama 3 405B": "w",
}


# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "m": Symbol("la media dei gradienti che Adam tiene per ogni peso", "medie", "adam"),
    "v": Symbol("la media dei quadrati dei gradienti che Adam tiene per ogni peso", "medie", "adam"),
}

CONTROLS = [
    Group(
        "Modello e dati",
        (
            Choice("n", "Parametri N", tuple((f"{x:g}", big(x * 1e9)) for x in SIZES), "7"),
            Choice("d", "Token D", tuple((f"{x:g}", big(x * 1e9)) for x in CORPORA), "2000"),
            Toggle("chinchilla", "Usa 20 token per parametro (Chinchilla)", False),
        ),
    ),
    Group(
        "Le GPU",
        (
            Choice(
                "gpu", "Scheda", (("a100", "A100: 312 TFLOPS in bf16"), ("h100", "H100: 989 TFLOPS in bf16")), "a100"
            ),
            Choice(
                "schede", "Quante", tuple((str(k), num(k)) for k in (1, 8, 64, 256, 1024, 2048, 4096, 16384)), "1024"
            ),
            Slider("utilizzo", "Utilizzo reale (%)", 30, 60, 1, 40),
        ),
    ),
    Group(
        "LoRA su Llama 2 7B",
        (
            Choice("r", "Rango r", tuple((str(k), str(k)) for k in (1, 2, 4, 8, 16, 32, 64, 128, 256)), "8"),
            Choice("matrici", "Matrici adattate", tuple((k, v[0]) for k, v in TARGETS.items()), "qv"),
        ),
    ),
]


def lora(r, target):
    """I numeri da allenare con LoRA su ogni blocco di Llama 2 7B, e la loro memoria."""
    m = LLAMA2_7B
    shapes = {
        "q": (m.d, m.d),
        "k": (m.d, m.d),
        "v": (m.d, m.d),
        "o": (m.d, m.d),
        "gate": (m.d, m.d_ff),
        "up": (m.d, m.d_ff),
        "down": (m.d_ff, m.d),
    }
    trained = m.layers * sum(lora_params(*shapes[k], r) for k in TARGETS[target][1])
    total = parameter_counts(m)["total"]
    # frozen weights only need their bf16 copy; the 16 bytes are paid by the adapters alone
    return {
        "trained": trained,
        "total": total,
        "share": trained / total,
        "square": lora_params(m.d, m.d, r),
        "full_square": m.d * m.d,
        "d": m.d,
        "memory": 2 * total + training_bytes(trained)["total"],
        "full_memory": training_bytes(total)["total"],
    }


def compute(p):
    """Il costo di un pre-training: operazioni 6·N·D, ore di GPU, memoria e LoRA."""
    n = float(p["n"]) * 1e9
    tokens = chinchilla_tokens(n) if p["chinchilla"] else float(p["d"]) * 1e9
    flops = training_flops(n, tokens)
    name, peak = GPUS[p["gpu"]]
    hours = gpu_hours(flops, peak, p["utilizzo"] / 100)
    memory = training_bytes(n)
    best_n, best_d = chinchilla_optimum(flops)
    return {
        **p,
        "N": n,
        "D": tokens,
        "per_param": tokens / n,
        "flops": flops,
        "best_N": best_n,
        "best_D": best_d,
        "gpu_name": name,
        "peak": peak,
        "gpu_hours": hours,
        "wall_hours": hours / int(p["schede"]),
        "memory": memory,
        "gpus_for_state": gpus_needed(memory["total"], GPU_MEMORY),
        "lora": lora(int(p["r"]), p["matrici"]),
    }


def follow(s):
    """With Chinchilla's rule the tokens follow from N: the «Token D» choice is not used."""
    if s["chinchilla"]:
        return {"d": Follow(disabled=f"Con la regola di Chinchilla i token sono 20 per parametro: D = {big(s['D'])}.")}
    return {}


def plane(s):
    xs = (1e8, 1e12)
    iso = tuple((x, s["flops"] / (6 * x)) for x in xs)  # same cost: D = C / (6N), slope −1 in log–log
    known = Series(
        "modelli noti (clicca)",
        tuple((n * 1e9, d * 1e9) for _, n, d in KNOWN),
        class_="target",
        line=False,
        actions=tuple((f"n={n:g};d={d:g};chinchilla=0", f"Scegli {name}") for name, n, d in KNOWN),
        labels=tuple((name, SIDES[name]) for name, _, _ in KNOWN),
    )
    return line_chart(
        [
            Series("20 token per parametro (Chinchilla)", tuple((x, 20 * x) for x in xs), class_="s3"),
            Series("stesso costo della tua scelta", iso, class_="muted", dashed=True),
            known,
            Series(
                "ottimo di Chinchilla a quel costo",
                ((s["best_N"], s["best_D"]),),
                class_="s3",
                markers=True,
                line=False,
            ),
            Series("la tua scelta", ((s["N"], s["D"]),), class_="s2", markers=True, line=False),
        ],
        x_log=True,
        y_log=True,
        x_range=xs,
        y_range=(1e9, 1e14),
        x_label="parametri N",
        y_label="token D",
        label="Parametri e token: la retta di Chinchilla, le linee di costo costante e i modelli noti",
        height=340,
    )


def view(s):
    mem, lo = s["memory"], s["lora"]
    names = {
        "weights": "pesi (bf16)",
        "grads": "gradienti (bf16)",
        "master": "copia master (fp32)",
        "adam_m": "Adam: media m (fp32)",
        "adam_v": "Adam: media v (fp32)",
    }
    state_bars = [
        Bar(f"{names[k]} · {b}\u00a0byte", mem[k] / mem["total"], text=data_size(mem[k]))
        for k, b in TRAINING_BYTES.items()
    ]
    ratio = s["per_param"] / 20
    lora_bars = [
        Bar("tutti i pesi", 1.0, text=data_size(lo["full_memory"])),
        Bar("con LoRA", lo["memory"] / lo["full_memory"], text=data_size(lo["memory"]), class_="s3"),
    ]
    return panel(
        formula(f"6 × N × D = 6 × {big(s['N'])} × {big(s['D'])} = {sci(s['flops'])} operazioni"),
        stats(
            stat("Operazioni", sci(s["flops"])),
            stat("Token per parametro", significant(s["per_param"])),
            stat(f"Ore di GPU {s['gpu_name']}", significant(s["gpu_hours"])),
            stat(f"Con {num(int(s['schede']))} GPU", duration(s["wall_hours"])),
        ),
        callout(
            f"{significant(s['per_param'])} token per parametro: "
            + (
                "esattamente la ricetta di Chinchilla."
                if abs(ratio - 1) < 0.01
                else f"{significant(ratio)} volte la ricetta di Chinchilla. Costa di più in training, ma il modello è "
                "più piccolo "
                "da usare."
                if ratio > 1
                else f"solo {the(share(ratio, 1 if ratio < 0.1 else 0))} della ricetta di Chinchilla: con lo stesso calcolo "
                "un modello più piccolo, "
                "allenato su più token, sarebbe andato meglio."
            ),
            tone="ok" if ratio >= 0.99 else "warn",
        ),
        plane(s),
        tag(
            "p",
            f"Con lo stesso calcolo la ricetta di Chinchilla sceglierebbe {big(s['best_N'])} di parametri e "
            f"{big(s['best_D'])} di token: il punto verde sulla linea tratteggiata.",
            class_="lab-step-counter",
        ),
        presets("Modelli noti:", [(name, {"n": f"{n:g}", "d": f"{d:g}", "chinchilla": 0}) for name, n, d in KNOWN]),
        tag("h3", "La memoria per allenare"),
        bars(state_bars, label="Byte per parametro durante il training, parte per parte", hi=0.25),
        stats(
            stat("Stato del training: 16\u00a0byte × N", data_size(mem["total"]), tone="warn"),
            stat("Solo i pesi in bf16", data_size(mem["weights"])),
            stat(f"GPU da 80 GB (80 GiB = {data_size(GPU_MEMORY)}) solo per lo stato", num(s["gpus_for_state"])),
        ),
        tag(
            "p",
            "Le attivazioni del forward pass, da conservare per il backward, si aggiungono a tutto questo.",
            class_="lab-step-counter",
        ),
        tag("h3", f"LoRA: allenare poco, su Llama 2 7B ({big(lo['total'])} di parametri)"),
        formula(
            f"ogni matrice {num(lo['d'])} × {num(lo['d'])}: 2 × d × r = {num(lo['square'])} numeri invece di "
            f"d² = {num(lo['full_square'])}"
        ),
        stats(
            stat("Parametri allenati", big(lo["trained"]), tone="ok"),
            stat("Quota del modello", percent(lo["share"], 3 if lo["share"] < 0.01 else 1)),
        ),
        bars(lora_bars, label="Memoria del fine-tuning: tutto il modello contro LoRA"),
        tag(
            "p",
            f"Con LoRA i {big(lo['total'])} di pesi restano fermi in bf16 (2\u00a0byte l'uno) e solo gli adattatori "
            "pagano i 16 byte.",
            class_="lab-step-counter",
        ),
        title="Il calcolo",
        part="costo-pretraining",
    )


EDITS = [
    Edit(
        "contare solo il forward: 2·N·D",
        change=("    return 6 * n * tokens", "    return 2 * n * tokens"),
        expect="Le operazioni e le ore di GPU si dividono per tre: 7 miliardi di parametri su 2.000 miliardi "
        "di token sembrano costare 2,8·10²² operazioni invece di 8,4·10²². Il backward costa il doppio "
        "del forward.",
        check=lambda before, after: abs(before.state["flops"] / after.state["flops"] - 3) < 1e-9,
    ),
]

LLAMA = {"n": "7", "d": "2000", "gpu": "a100", "utilizzo": 40}
EXPERIMENTS = [
    Experiment(
        "Quadruplica le GPU, fino a 4.096: il calendario si accorcia a un quarto, le ore di GPU restano circa 187.000.",
        {**LLAMA, "schede": "4096"},
        "costo-pretraining",
        lambda s: round(s["gpu_hours"], -3) == 187_000 and abs(s["wall_hours"] * 4096 - s["gpu_hours"]) < 1e-6,
        after="come si accorcia il calendario",
    ),
    Experiment(
        "Con LoRA di rango 8 sulle matrici q e v il 7B allena meno dello 0,1 % dei suoi pesi.",
        {"n": "7", "r": "8", "matrici": "qv"},
        "costo-pretraining",
        lambda s: s["lora"]["share"] < 0.001,
        after="scegli r e quali matrici adattare",
    ),
]
