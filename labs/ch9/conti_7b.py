"""Un modello «da 7 miliardi» è un elenco di matrici, e le loro forme
dipendono da pochissimi numeri: la larghezza d dei vettori, quanti blocchi
ci sono, quanti token ha il vocabolario e quanto si allarga l'MLP. Per
Llama 2 7B sono d = 4.096, 32 blocchi, 32.000 token e 11.008. Da qui in
giù il conto si fa con moltiplicazioni da scuola media.

La tabella degli embedding ha una riga per token: 32.000 × 4.096, circa
131 milioni di numeri. Ogni blocco ha quattro matrici d × d nell'attention
(query, chiavi, valori e uscita) e tre matrici d × 11.008 nell'MLP SwiGLU
(due che allargano, una delle quali fa da cancello, e una che restringe),
più due piccoli vettori di normalizzazione. In fondo c'è la testa di
uscita, un'altra matrice 32.000 × 4.096. Sommando tutto si arriva a circa
**6,74 miliardi**: in bf16, due byte per numero, sono circa 14 GB.

Guarda le barre: quasi due terzi dei parametri stanno negli MLP. Non è un
caso: nel blocco classico l'MLP allarga a 4d con due matrici (8d² numeri)
contro le quattro d × d dell'attention (4d²); con tre matrici, SwiGLU usa
un allargamento di circa 8/3 di d proprio per restare sugli stessi 8d².

Prova i pulsanti. **Llama 3 8B** ha un vocabolario quattro volte più
grande, e embedding più testa superano il miliardo; in più le sue chiavi e
i suoi valori sono condivisi da gruppi di teste (GQA), così l'attention
dimagrisce e l'MLP sale a quattro quinti del blocco. **GPT-2 small** usa
la tabella degli embedding anche come testa e ha una tabella di posizioni
imparate; nel **modello piccolo** embedding e testa pesano più di tutti i
blocchi insieme. Poi muovi d: l'attention cresce con d² (l'MLP pure, se
allarghi d_ff insieme a d), il vocabolario solo con d.
"""

from core.model_size import BYTES
from core.model_size import Decoder
from core.model_size import attention_params
from core.model_size import kv_width
from core.model_size import mlp_params
from core.model_size import mlp_share
from core.model_size import parameter_counts
from core.model_size import training_bytes
from core.model_size import weight_bytes
from labs.kit import Bar
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Slider
from labs.kit import Toggle
from labs.kit import bars
from labs.kit import big
from labs.kit import callout
from labs.kit import data_size
from labs.kit import formula
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import plural
from labs.kit import presets
from labs.kit import share
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag
from labs.kit import the

TITLE = "I conti di un 7B"
REF = "9F"

HEAD_DIM = 128  # numbers per attention head in the Llama family: it fixes how many heads a d has
VOCABS = (8_000, 32_000, 50_257, 128_256, 256_000)
FAMILIES = (("llama", "Llama: SwiGLU, RMSNorm, RoPE"), ("gpt2", "GPT-2: MLP a 2 matrici, LayerNorm e bias"))

CONTROLS = [
    Group(
        "Le misure",
        (
            Slider("d", "d: numeri per vettore", 256, 8192, 128, 4096),
            Slider("blocchi", "Blocchi", 1, 96, 1, 32),
            Choice("vocab", "Token nel vocabolario", tuple((str(v), num(v)) for v in VOCABS), "32000"),
            Slider("d_ff", "Larghezza interna dell'MLP", 256, 32768, 256, 11008),
        ),
    ),
    Group(
        "L'architettura",
        (
            Choice("famiglia", "Famiglia", FAMILIES, "llama"),
            Choice(
                "kv",
                "Teste per chiavi e valori",
                (("tutte", "una per ogni query"), ("8", "8 condivise (GQA)")),
                "tutte",
            ),
            Toggle("condivisa", "Testa di uscita = tabella degli embedding", False),
        ),
    ),
]

PRESETS = (
    ("Llama 2 7B", dict(d=4096, blocchi=32, vocab=32000, d_ff=11008, famiglia="llama", kv="tutte", condivisa=0)),
    ("Llama 2 13B", dict(d=5120, blocchi=40, vocab=32000, d_ff=13824, famiglia="llama", kv="tutte", condivisa=0)),
    ("Llama 3 8B", dict(d=4096, blocchi=32, vocab=128256, d_ff=14336, famiglia="llama", kv="8", condivisa=0)),
    ("GPT-2 small", dict(d=768, blocchi=12, vocab=50257, d_ff=3072, famiglia="gpt2", kv="tutte", condivisa=1)),
    ("Piccolo", dict(d=512, blocchi=8, vocab=32000, d_ff=1536, famiglia="llama", kv="tutte", condivisa=0)),
)
PARTS = (
    ("embedding", "Embedding"),
    ("positions", "Posizioni"),
    ("attention", "Attention"),
    ("mlp", "MLP"),
    ("norms", "Normalizzazioni"),
    ("head", "Testa di uscita"),
)


def model(p):
    """Il Decoder descritto dai comandi (Llama 2 o GPT-2)."""
    heads = p["d"] // HEAD_DIM
    gpt2 = p["famiglia"] == "gpt2"
    return Decoder(
        vocab=int(p["vocab"]),
        d=p["d"],
        layers=p["blocchi"],
        d_ff=p["d_ff"],
        heads=heads,
        kv_heads=None if p["kv"] == "tutte" else min(8, heads),
        tied=p["condivisa"],
        mlp="gelu" if gpt2 else "swiglu",
        norm="layernorm" if gpt2 else "rmsnorm",
        bias=gpt2,
        context=1024 if gpt2 else 0,
    )


def compute(p):
    """I parametri del modello scelto, parte per parte, e la memoria che occupano."""
    m = model(p)
    c = parameter_counts(m)
    return {
        **p,
        "heads": m.heads,
        "kv_heads": m.kv_heads or m.heads,
        "counts": c,
        "shares": {k: c[k] / c["total"] for k, _ in PARTS},
        "mlp_share": mlp_share(m),
        "block": {"attention": attention_params(m), "mlp": mlp_params(m), "kv": kv_width(m)},
        "ratio": m.d_ff / m.d,
        "memory": {k: weight_bytes(c["total"], k) for k in BYTES},
        "training": training_bytes(c["total"])["total"],
    }


def follow(s):
    """GQA needs more than 8 query heads: with fewer there is nothing to share."""
    if s["heads"] <= 8:
        return {
            "kv": Follow(
                disabled=f"Con d = {num(s['d'])} le teste sono {s['heads']}: con 8 gruppi di chiavi e "
                "valori non c'è niente da condividere (servono più di 8 teste, d > 1.024)."
            )
        }
    return {}


def formulas(s):
    d, L, V, f, gpt2 = s["d"], s["blocchi"], int(s["vocab"]), s["d_ff"], s["famiglia"] == "gpt2"
    kv = s["block"]["kv"]
    attention = f"{L} × 4 × {num(d)}²" if kv == d else f"{L} × (2 × {num(d)}² + 2 × {num(d)} × {num(kv)})"
    mlp = f"{L} × {2 if gpt2 else 3} × {num(d)} × {num(f)}"
    norm = f"(2 × {L} + 1) × {'2 × ' if gpt2 else ''}{num(d)}"
    return {
        "embedding": f"{num(V)} × {num(d)}",
        "positions": f"1.024 × {num(d)}",
        "attention": attention + (" + bias" if gpt2 else ""),
        "mlp": mlp + (" + bias" if gpt2 else ""),
        "norms": norm,
        "head": "la stessa dell'embedding" if s["condivisa"] else f"{num(V)} × {num(d)}",
    }


def inside_block(s):
    """The block's attention and MLP, written with the same numbers that give «MLP nel blocco»."""
    d, f, b = s["d"], s["d_ff"], s["block"]
    gpt2 = s["famiglia"] == "gpt2"
    bias = " + bias" if gpt2 else ""
    if b["kv"] == d:
        attention = f"attention 4 × d²{bias} = 4 × {num(d)}²{bias}"
    else:  # grouped-query attention: keys and values are d × d_kv
        attention = f"attention 2 × d² + 2 × d × d_kv{bias} = 2 × {num(d)}² + 2 × {num(d)} × {num(b['kv'])}{bias}"
    mlp = (
        f"MLP 2 × d × d_ff{bias} = 2 × {num(d)} × {num(f)}{bias}"
        if gpt2
        else f"MLP 3 × d × d_ff (SwiGLU) = 3 × {num(d)} × {num(f)}"
    )
    return (
        formula(f"{attention} = {num(b['attention'])}"),
        formula(f"{mlp} = {num(b['mlp'])}"),
        formula(
            f"quota dell'MLP = {num(b['mlp'])} / ({num(b['attention'])} + {num(b['mlp'])}) = {percent(s['mlp_share'])}"
        ),
    )


def view(s):
    c, sh = s["counts"], s["shares"]
    shown = [(k, name) for k, name in PARTS if c[k] or k == "head"]
    rows = [
        Bar(
            name,
            sh[k],
            text="= embedding" if k == "head" and s["condivisa"] else f"{big(c[k])} · {share(sh[k])}",
            class_="s2" if k == "mlp" else "s1",
            highlight=k == "mlp",
        )
        for k, name in shown
    ]
    recipe = table(
        ["Parte", "Conto", "Numeri"],
        [[name, formulas(s)[k], num(c[k])] for k, name in shown]
        + [[tag("strong", "Totale"), "", tag("strong", num(c["total"]))]],
    )
    memory = [
        Bar(
            k,
            s["memory"][k] / s["memory"]["fp32"],
            text=data_size(s["memory"][k]),
            class_="s3" if k == "bf16" else "s1",
            highlight=k == "bf16",
        )
        for k in BYTES
    ]
    embed = (c["embedding"] + c["head"]) / c["total"]
    bf16 = s["memory"]["bf16"]
    nominal = round(c["total"] / 1e9)  # a «7B» is named after its billions, rounded
    return panel(
        presets("Modelli:", PRESETS),
        stats(
            stat("Parametri", big(c["total"])),
            stat("Pesi in bf16", data_size(s["memory"]["bf16"])),
            stat("Parametri per blocco", big(c["per_block"])),
            stat("MLP nel blocco", percent(s["mlp_share"]), tone="ok"),
        ),
        tag("h3", "Dove stanno i parametri"),
        bars(rows, label="Quota dei parametri per parte del modello", hi=1.0),
        recipe,
        callout(
            f"La tabella dei token ({'una, anche testa' if s['condivisa'] else 'embedding e testa'}) è "
            f"{the(percent(embed))} del totale: in un modello piccolo pesa quanto i blocchi, in uno grande "
            "diventa una piccola parte.",
            tone="warn",
        )
        if embed > 0.2
        else None,
        tag("h3", "Dentro un blocco: attention contro MLP"),
        *inside_block(s),
        formula(
            f"d_ff / d = {num(s['ratio'])}   (classico: 4 con 2 matrici; SwiGLU: 8/3 ≈ 2,67 con 3 matrici; "
            "entrambi fanno 8·d²)"
        ),
        tag("h3", "Quanto occupano i pesi"),
        bars(memory, label="Memoria dei pesi per precisione", hi=1.0),
        formula(
            f"in bf16: {num(c['total'])} × 2\u00a0byte = {data_size(bf16)}"
            + (
                f"   (col numero tondo del nome, {plural(nominal, 'miliardo', 'miliardi')} × 2\u00a0byte = "
                f"{num(2 * nominal)}\u00a0GB)"
                if nominal
                else ""
            )
        ),
        tag(
            "p",
            f"fp32 = 4\u00a0byte per numero, bf16 = 2, int8 = 1, int4 = mezzo byte. Per allenarlo ne servono "
            f"circa 16 per parametro: {data_size(s['training'])}, prima ancora delle attivazioni "
            "(i conti del training sono nel laboratorio 4.1).",
            class_="lab-step-counter",
        ),
        part="conti-7b",
    )


EDITS = [
    Edit(
        "un MLP con due matrici invece delle tre di SwiGLU",
        change=('    widening = 2 if m.mlp == "swiglu" else 1', "    widening = 1"),
        expect="Senza la matrice del «cancello» ogni blocco perde 4.096 × 11.008 numeri: il totale scende da "
        "circa 6,7 a circa 5,3 miliardi. Per questo Llama porta d_ff a 11.008 invece di 4 × 4.096.",
        check=lambda before, after: (
            6.7e9 < before.state["counts"]["total"] < 6.8e9 and 5.2e9 < after.state["counts"]["total"] < 5.4e9
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con Llama 2 7B quasi due terzi dei parametri stanno negli MLP.",
        dict(PRESETS)["Llama 2 7B"],
        "conti-7b",
        lambda s: 0.6 < s["shares"]["mlp"] < 2 / 3,
        after="quasi due terzi dei parametri stanno negli MLP",
    ),
    Experiment(
        "Con Llama 3 8B embedding e testa superano insieme il miliardo di parametri.",
        dict(PRESETS)["Llama 3 8B"],
        "conti-7b",
        lambda s: s["counts"]["embedding"] + s["counts"]["head"] > 1e9,
        after="embedding più testa superano il",
    ),
]
