"""Il primo modello neurale di linguaggio guarda una **finestra fissa**: gli
ultimi n token, sempre quelli. Qui n = 2 e il vocabolario ha 5 token, ognuno
con un vettore di 2 numeri: «il» è [1, 0], «gatto» [0, 1]. Per dare alla
rete il contesto «il gatto» i due vettori si **mettono in fila**: [1, 0, 0, 1].
Non si sommano: la somma [1, 1] sarebbe la stessa per «gatto il», e l'ordine
andrebbe perso.

Poi due strati. W₁ (3 × 4) ha una riga per neurone e una colonna per ognuno
dei 4 numeri in ingresso: h = ReLU(W₁x). W₂ (5 × 3) dà un punteggio a ogni
token del vocabolario; la softmax li trasforma in probabilità. I pesi non li
ha scelti nessuno: sono il risultato di un training vero (discesa del
gradiente sulla cross-entropy, 100 passi, seme fisso) sui cinque esempi del
testo «il gatto dorme, il cane mangia», poi arrotondati a una cifra
decimale perché si possano leggere.

Scegli un contesto (o clicca uno dei cinque esempi) e segui il conto numero
per numero. Guarda le colonne di W₁: le prime due leggono solo il primo
token, le ultime due solo il secondo. La rete impara due volte che cosa vuol
dire «il», una per posizione.

Infine il limite. Una finestra di 3 token vorrebbe 6 colonne: un'altra
rete, da allenare da capo. E con numeri da modello vero esplode: 100 token
di contesto con vettori da 768 numeri fanno 76.800 ingressi, e un primo
strato di 512 neuroni avrebbe già quasi 40 milioni di pesi. Muovi i cursori
in fondo per vederlo.
"""

from functools import cache

from core.linalg import add
from core.window_net import concat
from core.window_net import first_layer_size
from core.window_net import rounded
from core.window_net import train_window_net
from core.window_net import window_forward
from core.window_net import window_loss
from labs.kit import Bar
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Slider
from labs.kit import bars
from labs.kit import big
from labs.kit import callout
from labs.kit import equation
from labs.kit import factor
from labs.kit import formula
from labs.kit import matrix
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import presets
from labs.kit import shape_label
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag
from labs.kit import vector
from labs.kit.italian import shares

TITLE = "La rete a finestra fissa, numero per numero"
REF = "1.3"

VOCAB = ("il", "gatto", "cane", "dorme", "mangia")
VECTORS = {"il": (1, 0), "gatto": (0, 1), "cane": (1, 1), "dorme": (-1, 0), "mangia": (-1, 1)}
# the five windows of the text «il gatto dorme il cane mangia» read in a loop
EXAMPLES = (
    ("il", "gatto", "dorme"),
    ("gatto", "dorme", "il"),
    ("dorme", "il", "cane"),
    ("il", "cane", "mangia"),
    ("cane", "mangia", "il"),
)
HIDDEN, SEED, STEPS, ETA = 3, 0, 100, 0.5

CONTROLS = [
    Choice(
        "contesto",
        "Il contesto (i due token della finestra)",
        tuple((f"{a}-{b}", f"«{a} {b}» → ?") for a, b, _ in EXAMPLES),
        "il-gatto",
    ),
    Group(
        "Perché la finestra non si allarga",
        (
            Slider("n", "Token nel contesto, n", 1, 2000, 1, 100),
            Slider("d", "Numeri per vettore, d", 2, 4096, 2, 768),
            Slider("neuroni", "Neuroni del primo strato", 1, 4096, 1, 512),
        ),
    ),
]


def training_set():
    """I cinque esempi di training: i due vettori concatenati e l'indice della parola giusta."""
    return [(concat([VECTORS[a], VECTORS[b]]), VOCAB.index(c)) for a, b, c in EXAMPLES]


@cache
def trained_weights():
    """W₁ e W₂ dopo il training, arrotondati a un decimale (calcolati una volta sola)."""
    W1, W2 = train_window_net(training_set(), HIDDEN, len(VOCAB), seed=SEED, steps=STEPS, eta=ETA)
    return rounded(W1), rounded(W2)


def listed(v):
    return "[" + ", ".join(num(t) for t in v) + "]"


def compute(p):
    """La rete a finestra sul contesto scelto, i cinque esempi e la taglia del primo strato."""
    W1, W2 = trained_weights()
    a, b = p["contesto"].split("-")
    target = next(c for x, y, c in EXAMPLES if (x, y) == (a, b))
    x = concat([VECTORS[a], VECTORS[b]])
    f = window_forward(W1, W2, x)
    examples = []
    for (u, v, c), (xe, t) in zip(EXAMPLES, training_set()):
        probs = window_forward(W1, W2, xe)["probs"]
        best = max(range(len(VOCAB)), key=probs.__getitem__)
        examples.append({"context": [u, v], "target": c, "p_target": probs[t], "predicted": VOCAB[best]})
    start = train_window_net(training_set(), HIDDEN, len(VOCAB), seed=SEED, steps=0)
    inputs, weights = first_layer_size(p["n"], p["d"], p["neuroni"])
    return {
        "a": a,
        "b": b,
        "target": target,
        "va": list(VECTORS[a]),
        "vb": list(VECTORS[b]),
        "x": x,
        "sum": add(VECTORS[a], VECTORS[b]),
        "swapped": concat([VECTORS[b], VECTORS[a]]),
        "W1": W1,
        "W2": W2,
        **f,
        "predicted": VOCAB[max(range(len(VOCAB)), key=f["probs"].__getitem__)],
        "examples": examples,
        "loss_start": window_loss(*start, training_set()),
        "loss_end": window_loss(W1, W2, training_set()),
        "n": p["n"],
        "d": p["d"],
        "neurons": p["neuroni"],
        "inputs": inputs,
        "weights": weights,
    }


def view(s):
    a, b, x = s["a"], s["b"], s["x"]
    cols = [f"{a}₁", f"{a}₂", f"{b}₁", f"{b}₂"]
    chips = presets("Esempi:", [(f"{u} {v} → {c}", {"contesto": f"{u}-{v}"}) for u, v, c in EXAMPLES])
    join_ = equation(
        vector(s["va"], label=f"«{a}»", column=False),
        "e",
        vector(s["vb"], label=f"«{b}»", column=False),
        "→",
        vector(x, label="x, i vettori in fila", column=False, emphasize=True),
    )
    order = callout(
        f"Sommati darebbero {listed(s['sum'])}, esattamente come «{b} {a}»: chi viene prima si perde. "
        f"In fila invece «{a} {b}» è {listed(x)} e «{b} {a}» è {listed(s['swapped'])}: due ingressi "
        "diversi."
    )
    j = max(range(len(s["h"])), key=s["h"].__getitem__)
    terms = " + ".join(f"{factor(w, 1)}·{factor(xi, 0)}" for w, xi in zip(s["W1"][j], x))
    layer1 = equation(
        matrix(
            s["W1"],
            label="W₁",
            col_labels=cols,
            row_labels=["n₁", "n₂", "n₃"],
            heat=True,
            highlight_rows=[j],
            trim=False,
            digits=1,
        ),
        "·",
        vector(x, label="x"),
        "=",
        vector(s["z"], label="W₁x", digits=1),
        "ReLU",
        vector(s["h"], label="h", emphasize=True, digits=1),
    )
    layer2 = equation(
        matrix(
            s["W2"], label="W₂", row_labels=list(VOCAB), col_labels=["n₁", "n₂", "n₃"], heat=True, trim=False, digits=1
        ),
        "·",
        vector(s["h"], label="h", digits=1),
        "=",
        vector(s["scores"], labels=list(VOCAB), label="punteggi", digits=2),
    )
    probs = bars(
        [
            Bar(t, p, text=shown, class_="s3" if t == s["target"] else "s1", highlight=t == s["predicted"])
            for t, p, shown in zip(VOCAB, s["probs"], shares(s["probs"], 1))
        ],
        label="Probabilità del token successivo",
        part="probabilita",
    )
    right = s["predicted"] == s["target"]
    rows = [
        [f"{u} {v}", c, percent(e["p_target"], 1), e["predicted"]]
        for e in s["examples"]
        for (u, v), c in [(e["context"], e["target"])]
    ]
    inputs, weights = s["inputs"], s["weights"]
    return panel(
        chips,
        tag("h3", "1. Il contesto diventa un vettore solo"),
        join_,
        order,
        tag("h3", "2. Primo strato: h = ReLU(W₁x)"),
        layer1,
        formula(f"neurone n{'₁₂₃'[j]}: {terms} = {num(s['z'][j], 1)} → ReLU → {num(s['h'][j], 1)}"),
        tag(
            "p",
            f"Le colonne {cols[0]}, {cols[1]} leggono solo il primo token, {cols[2]}, {cols[3]} solo il "
            "secondo. Dove W₁x è negativo la ReLU scrive 0: quel neurone tace.",
        ),
        tag("h3", "3. Punteggi e probabilità: W₂h, poi softmax"),
        layer2,
        probs,
        callout(
            f"Previsione: «{s['predicted']}». Nel testo dopo «{a} {b}» viene «{s['target']}»"
            + (": giusto." if right else ": sbagliato."),
            tone="ok" if right else "warn",
        ),
        tag("h3", "I pesi vengono dal training"),
        stats(
            stat("Pesi in tutto", "3 × 4 + 5 × 3 = 27"),
            stat("Loss sui 5 esempi, all'inizio", num(s["loss_start"], 2)),
            stat(f"Dopo {STEPS} passi (pesi arrotondati)", num(s["loss_end"], 3), tone="ok"),
        ),
        table(["Contesto", "Nel testo segue", "Probabilità data", "La rete prevede"], rows),
        tag("h3", "Perché la concatenazione non scala", id="vista-limite"),
        formula(
            f"ingressi = n × d = {num(s['n'])} × {num(s['d'])} = {num(inputs)};   pesi di W₁ = neuroni × "
            f"ingressi = {num(s['neurons'])} × {num(inputs)} = {num(weights)}"
        ),
        stats(
            stat("Ingressi del primo strato", num(inputs)),
            stat("W₁", shape_label(s["neurons"], inputs)),
            stat(
                "Pesi solo in W₁",
                f"circa {big(weights, 2)}" if weights >= 1e6 else num(weights),
                tone="warn" if weights >= 1e6 else None,
            ),
        ),
        callout(
            "Con una finestra di 3 token da 2 numeri W₁ diventerebbe 3 × 6: sei colonne invece di quattro. "
            "I pesi allenati qui non servirebbero più: è un'altra rete, da allenare da capo. Per questo il "
            "transformer non mette in fila i vettori: tiene una riga per token e fa passare ogni riga per gli "
            "stessi pesi."
        ),
        part="finestra",
        data_prediction=s["predicted"],
    )


EDITS = [
    Edit(
        "le due parole in ordine inverso",
        change=("    x = concat([VECTORS[a], VECTORS[b]])", "    x = concat([VECTORS[b], VECTORS[a]])"),
        expect="«gatto il» invece di «il gatto»: gli stessi numeri in un altro ordine, e la previsione cambia. "
        "Concatenare tiene il posto di ogni parola nella finestra.",
        check=lambda before, after: after.state["probs"] != before.state["probs"],
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con il contesto «il cane» la rete dà a «mangia» più del 95 % della probabilità.",
        {"contesto": "il-cane"},
        "probabilita",
        lambda s: s["predicted"] == "mangia" and max(s["probs"]) > 0.95,
        after="una per posizione",
    ),
    Experiment(
        "Con 2.000 token di contesto e vettori da 4.096 numeri, W₁ con 512 neuroni ha più di 4 miliardi di pesi.",
        {"n": 2000, "d": 4096, "neuroni": 512},
        "vista-limite",
        lambda s: s["inputs"] == 8_192_000 and s["weights"] > 4e9,
        after="Muovi i cursori",
    ),
]
