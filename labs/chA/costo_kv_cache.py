"""Nell'attention ogni token confronta la sua query con la key di ogni altro
token: con n token sono n × n prodotti scalari, per ogni testa e per ogni
strato. Il conto cresce con il quadrato della lunghezza: con 4.000 token sono
16 milioni di confronti, con la maschera causale circa la metà, n(n + 1)/2
(con 4 token 1 + 2 + 3 + 4 = 10, come in «Query e key già pronte»). Prova le
lunghezze fino a 128.000 token e guarda la curva: è il motivo per cui una
finestra di contesto lunga costa tanto.

Poi c'è la generazione. Il modello scrive un token alla volta, e a ogni passo
il nuovo token deve guardare tutti quelli di prima. Senza una memoria, a
ogni passo si ricalcolano le key e i value di tutto il testo: per scrivere T
token dopo un prompt di n il lavoro è una somma che cresce con il quadrato di
T. Con la **KV cache** key e value dei token passati restano in memoria e a
ogni passo se ne calcola una coppia sola, quella del token nuovo. Scegli
quanti token generare e guarda il rapporto fra i due conti.

La memoria però si paga: per ogni token la cache tiene una key e un value (2)
per ogni testa di ogni strato. In Llama 2 7B sono 2 × 32 strati × 32 teste ×
128 numeri × 2 byte (bf16) = 524.288 byte, mezzo MiB per token: con la
finestra piena di 4.096 token fanno 2 GiB, per una sola conversazione. Premi
i pulsanti dei modelli noti: Llama 3 8B fa condividere ogni coppia di key e
value a 4 teste di query (grouped-query attention) e con 8 teste di key e
value scende a 128 KiB per token.
"""

from core.attention import comparisons
from core.kv_cache import kv_cache_bytes
from core.kv_cache import kv_vectors
from core.model_size import BYTES
from labs.kit import Case
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Marker
from labs.kit import Question
from labs.kit import Series
from labs.kit import Slider
from labs.kit import Wrong
from labs.kit import big
from labs.kit import data_size
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import plural
from labs.kit import presets
from labs.kit import significant
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag

TITLE = "Il costo dell'attention e la KV cache"
REF = "A.5"

LENGTHS = (4, 16, 128, 1000, 4000, 4096, 8192, 32_768, 128_000)
GENERATED = (1, 10, 100, 1000, 4000)
# name, layers, key/value heads, numbers per head, context window (tokens)
MODELS = (("Llama 2 7B", 32, 32, 128, 4096), ("Llama 3 8B", 32, 8, 128, 8192), ("Llama 2 70B", 80, 8, 128, 4096))

CONTROLS = [
    Choice("n", "Token nel contesto n", tuple((str(m), num(m)) for m in LENGTHS), "4000"),
    Choice("generati", "Token da generare T", tuple((str(t), num(t)) for t in GENERATED), "100"),
    Group(
        "Il modello",
        (
            Slider("strati", "Strati", 1, 96, 1, 32),
            Choice(
                "teste_kv", "Teste di key e value", tuple((str(h), str(h)) for h in (1, 2, 4, 8, 16, 32, 40, 64)), "32"
            ),
            Choice("d_testa", "Numeri per testa", tuple((str(d), str(d)) for d in (64, 96, 128, 256)), "128"),
            Choice(
                "precisione",
                "Precisione",
                (("fp32", "fp32: 4 byte"), ("bf16", "bf16: 2 byte"), ("int8", "int8: 1 byte")),
                "bf16",
            ),
        ),
    ),
]


def binary(n_bytes):
    """Memory in powers of 1024, as GPU memory is counted: 524.288 → «512 KiB»."""
    for power, unit in ((3, "GiB"), (2, "MiB"), (1, "KiB")):
        if n_bytes >= 1024**power:
            return f"{significant(n_bytes / 1024**power)} {unit}"
    return f"{num(n_bytes)}\u00a0byte"


def compute(p):
    """Il costo dell'attention su n token e la memoria della KV cache."""
    n, t = int(p["n"]), int(p["generati"])
    layers, heads, d_head, size = p["strati"], int(p["teste_kv"]), int(p["d_testa"]), BYTES[p["precisione"]]
    per_token = kv_cache_bytes(layers, heads, d_head, 1, size)
    without, with_cache = kv_vectors(n, t, cache=False), kv_vectors(n, t, cache=True)
    return {
        "n": n,
        "T": t,
        "layers": layers,
        "kv_heads": heads,
        "d_head": d_head,
        "bytes": size,
        "full": comparisons(n, causal=False),
        "causal": comparisons(n),
        "four": comparisons(4),
        "without": without,
        "with": with_cache,
        "ratio": without / with_cache,
        "per_token": per_token,
        "cache": per_token * (n + t),
        "models": [
            {
                "name": name,
                "per_token": kv_cache_bytes(L, h, d, 1, 2),
                "window": w,
                "at_window": kv_cache_bytes(L, h, d, w, 2),
                "layers": L,
                "kv_heads": h,
                "d_head": d,
            }
            for name, L, h, d, w in MODELS
        ],
    }


def chart(s):
    xs = [m for m in LENGTHS if m != 4096]
    t = s["T"]
    return line_chart(
        [
            Series("confronti senza maschera, n²", tuple((m, comparisons(m, False)) for m in xs), class_="s2"),
            Series(
                f"key e value per {num(t)} token, senza cache",
                tuple((m, kv_vectors(m, t, False)) for m in xs),
                class_="s1",
                dashed=True,
            ),
            Series(
                f"key e value per {num(t)} token, con la cache", tuple((m, kv_vectors(m, t)) for m in xs), class_="s3"
            ),
        ],
        markers=[Marker(s["n"], f"n = {num(s['n'])}")],
        x_log=True,
        y_log=True,
        x_label="token nel contesto n",
        y_label="conti per testa e strato",
        label="Il lavoro dell'attention al crescere del contesto, su scale logaritmiche",
        height=320,
    )


def view(s):
    n, t = s["n"], s["T"]
    per = (
        f"2 × {plural(s['layers'], 'strato', 'strati')} × {plural(s['kv_heads'], 'testa', 'teste')} × "
        f"{s['d_head']} numeri × {num(s['bytes'])}\u00a0byte"
    )
    rows = [
        [
            m["name"],
            f"{m['layers']} × {m['kv_heads']} × {m['d_head']}",
            binary(m["per_token"]),
            f"{num(m['window'])} token: {binary(m['at_window'])}",
        ]
        for m in s["models"]
    ]
    return panel(
        stats(
            stat("Confronti n × n, per testa e strato", big(s["full"]), tone="warn"),
            stat("Con la maschera, n(n + 1)/2", big(s["causal"])),
            stat("Con 4 token", f"1 + 2 + 3 + 4 = {s['four']}"),
        ),
        formula(
            f"con la maschera: n(n + 1)/2 = {num(n)} × {num(n + 1)} / 2 = {num(s['causal'])} confronti;"
            f" senza: n × n = {num(n)} × {num(n)} = {num(s['full'])}"
        ),
        chart(s),
        tag("h3", f"Generare {num(t)} token dopo {num(n)}"),
        formula(
            f"senza cache: Σ (n + t) per il passo t da 1 a {num(t)} = {num(t)} × {num(n)} + {num(t)} × {num(t + 1)} / 2"
            f" = {num(s['without'])} coppie di key e value"
        ),
        formula(f"con la cache: {num(n)} (il prompt, una volta) + {num(t)} (una per passo) = {num(s['with'])}"),
        stats(
            stat(
                "Senza cache il lavoro è",
                "lo stesso: con un solo token non c'è niente da riusare"
                if significant(s["ratio"]) == "1"
                else f"{significant(s['ratio'])} volte tanto",
                tone="ok",
            ),
            stat("L'ultimo token confronta comunque la sua query con", f"{num(n + t)} key"),
        ),
        tag("h3", "La memoria della cache"),
        formula(f"{per} = {num(s['per_token'])}\u00a0byte per token ({binary(s['per_token'])})"),
        stats(
            stat(f"Con {num(n + t)} token in memoria", f"{binary(s['cache'])} ({data_size(s['cache'])})", tone="warn")
        ),
        presets(
            "Modelli noti:",
            [
                (
                    m["name"],
                    {"strati": m["layers"], "teste_kv": m["kv_heads"], "d_testa": m["d_head"], "precisione": "bf16"},
                )
                for m in s["models"]
            ],
        ),
        table(["Modello (bf16)", "strati × teste KV × numeri", "Per token", "Finestra piena"], rows),
        title="Il prezzo di guardare tutti",
        part="costo-kv-cache",
    )


EDITS = [
    Edit(
        "una cache con le sole chiavi",
        change=(
            "    return 2 * layers * kv_heads * d_head * tokens * bytes_per_number",
            "    return layers * kv_heads * d_head * tokens * bytes_per_number",
        ),
        expect="La memoria della cache si dimezza: il 2 contava una chiave e un valore per token. Senza i valori, "
        "però, l'attention saprebbe dove guardare ma non che cosa prendere.",
        check=lambda before, after: after.state["cache"] * 2 == before.state["cache"],
    ),
]

LLAMA2 = {"strati": 32, "teste_kv": "32", "d_testa": "128", "precisione": "bf16"}
EXPERIMENTS = [
    Experiment(
        "Con 4.000 token e la maschera causale i confronti sono 8.002.000, circa la metà di 16 milioni.",
        {"n": "4000"},
        "costo-kv-cache",
        lambda s: s["causal"] == 8_002_000 and s["full"] == 16_000_000,
        after="una finestra di contesto lunga costa tanto",
    ),
    Experiment(
        "Genera 1.000 token dopo un prompt di 4.000: con la KV cache si calcolano centinaia di volte meno key e value.",
        {"n": "4000", "generati": "1000"},
        "costo-kv-cache",
        lambda s: 100 < s["ratio"] < 1000,
        after="il rapporto fra i due conti",
        predict=Question(
            "Un prompt di 4.000 token e 1.000 token da scrivere. Senza cache, quante coppie di key e value si "
            "calcolano rispetto a quelle con la cache?",
            ("Più o meno le stesse", "Circa il doppio", "Centinaia di volte di più"),
            2,
            "Con la cache si calcola una coppia per token: 4.000 + 1.000 = 5.000. Senza, ogni passo rifà tutto il "
            "testo fin lì, da 4.001 a 5.000 token: in tutto circa 4,5 milioni, novecento volte tanto.",
        ),
    ),
    Experiment(
        "Con le misure di Llama 2 7B la KV cache tiene mezzo MiB per token: 2 GiB per una finestra di 4.096 token.",
        {"n": "4096", "generati": "1", **LLAMA2},
        "costo-kv-cache",
        lambda s: s["per_token"] == 2**19 and binary(s["cache"]) == "2 GiB",
        after="scende a 128 KiB per token",
    ),
]

EXERCISES = [
    Exercise(
        kv_cache_bytes,
        task="Scrivi la memoria della KV cache in byte: per ogni token tenuto, in ogni strato e in ogni testa "
        "di key e value, la cache conserva una chiave e un valore di `d_head` numeri ciascuno, e ogni numero "
        "occupa `bytes_per_number` byte. Quando la tua funzione passa le verifiche, la memoria per token, la "
        "cache intera e la tabella dei modelli vengono da lei.",
        doc="I byte della cache KV: una chiave e un valore per ogni testa, ogni strato e ogni token tenuto.",
        hints=(
            "È una moltiplicazione sola: tutti i fattori insieme.",
            "Non dimenticare che per ogni token si tengono due vettori, la chiave e il valore: un fattore `2`.",
        ),
        cases=(
            Case((32, 32, 128, 4096, 2), "Llama 2 7B sulla sua finestra"),
            Case((32, 8, 128, 8192, 2), "Llama 3 8B: meno teste di key e value"),
            Case((80, 8, 128, 4096, 2), "Llama 2 70B"),
            Case((32, 32, 128, 1, 4), "un token in fp32"),
            Case((1, 1, 1, 1, 1), "tutto a 1"),
            Case((32, 32, 128, 0, 2), "nessun token"),
        ),
        random=lambda rng: (
            rng.randint(1, 96),
            rng.choice((1, 2, 4, 8, 16, 32, 40, 64)),
            rng.choice((64, 96, 128, 256)),
            rng.randint(0, 128_000),
            rng.choice((1, 2, 4)),
        ),
        count=10,
        tolerance=0.0,
        wrong=(
            Wrong(
                """
def kv_cache_bytes(layers, kv_heads, d_head, tokens, bytes_per_number):
    return layers * kv_heads * d_head * tokens * bytes_per_number
""",
                "Manca il 2: per ogni token la cache tiene una chiave e anche un valore, due vettori, non uno.",
            ),
            Wrong(
                """
def kv_cache_bytes(layers, kv_heads, d_head, tokens, bytes_per_number):
    return 2 * kv_heads * d_head * tokens * bytes_per_number
""",
                "Hai contato uno strato solo: ogni strato ha la sua attention, e quindi la sua cache. "
                "Moltiplica anche per layers.",
            ),
        ),
    ),
]
