"""Due strati lineari in fila non valgono più di uno. Applicare W₁ e poi W₂
a un vettore x dà esattamente quello che dà la sola matrice W₂W₁, il loro
prodotto: W₂(W₁x) = (W₂W₁)x, per qualunque x. Dieci strati soltanto
lineari si riducono a uno, e la profondità non aggiunge niente: le rette
restano rette.

Qui W₁ = [[1, 2], [0, 1]] e W₂ = [[1, 0], [−1, 1]]. Spegni la ReLU e muovi
x dove vuoi: il percorso «Due strati» e quello di «Una matrice sola:
W₂W₁» arrivano sempre allo stesso punto. Otto pesi lavorano come
quattro.

Ora accendi la **ReLU** tra i due strati: lascia passare i numeri positivi
e porta a zero quelli negativi. Con x = [1; −1] il primo strato dà
[−1; −1], la ReLU lo schiaccia a [0; 0] e il secondo strato non può che
dare [0; 0], mentre la matrice unica direbbe [−1; 0]. La piega ha impedito
alle due matrici di fondersi.

Attenzione però: la ReLU cambia qualcosa solo quando W₁x ha qualche numero
negativo. Prova x = [1; 1]: W₁x = [3; 1] è tutto positivo, la ReLU non
tocca niente e i due percorsi tornano a coincidere. Una rete con la ReLU è
lineare a pezzi: ogni gomito è un posto dove il comportamento cambia.
"""

from core.activations import relu
from core.linalg import matmul
from core.linalg import matvec
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Slider
from labs.kit import Toggle
from labs.kit import callout
from labs.kit import columns
from labs.kit import equation
from labs.kit import matrix
from labs.kit import num
from labs.kit import panel
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag
from labs.kit import vector

TITLE = "Il collasso e la piega"
REF = "9B.9"

W1 = [[1, 2], [0, 1]]
W2 = [[1, 0], [-1, 1]]

CONTROLS = [
    Group(
        "Il vettore d'ingresso x",
        (
            Slider("x1", "x₁", -3.0, 3.0, 0.5, 1.0),
            Slider("x2", "x₂", -3.0, 3.0, 0.5, -1.0),
        ),
    ),
    Toggle("relu", "ReLU tra i due strati", True),
]


def compute(p):
    """Due strati con o senza ReLU, confrontati con la sola matrice W₂·W₁."""
    x = [p["x1"], p["x2"]]
    h = matvec(W1, x)
    a = [relu(v) for v in h] if p["relu"] else h
    two_layers = matvec(W2, a)
    W = matmul(W2, W1)
    one_matrix = matvec(W, x)
    return {
        "x": x,
        "relu": p["relu"],
        "W1": W1,
        "W2": W2,
        "W": W,
        "h": h,
        "a": a,
        "two_layers": two_layers,
        "one_matrix": one_matrix,
        "zeroed": [k for k, v in enumerate(h) if p["relu"] and v < 0],
        "agree": all(abs(u - v) < 1e-12 for u, v in zip(two_layers, one_matrix)),
    }


def vec(values, label, **kw):
    return vector(values, label=label, digits=1, **kw)


def text(v):
    return "[" + "; ".join(num(x, 1).removesuffix(",0") for x in v) + "]"


def view(s):
    x, zeroed = s["x"], s["zeroed"]
    layers = [equation(matrix(s["W1"], label="W₁"), "·", vec(x, "x"), "=", vec(s["h"], "W₁x", highlight=zeroed))]
    if s["relu"]:
        layers.append(
            equation("ReLU", vec(s["h"], "W₁x", highlight=zeroed), "=", vec(s["a"], "ReLU(W₁x)", highlight=zeroed))
        )
    middle = "ReLU(W₁x)" if s["relu"] else "W₁x"
    layers.append(
        equation(
            matrix(s["W2"], label="W₂"),
            "·",
            vec(s["a"], middle),
            "=",
            vec(s["two_layers"], "uscita", emphasize=True, part="due-strati"),
        )
    )
    single = [
        equation(matrix(s["W2"], label="W₂"), "·", matrix(s["W1"], label="W₁"), "=", matrix(s["W"], label="W₂W₁")),
        equation(
            matrix(s["W"], label="W₂W₁"),
            "·",
            vec(x, "x"),
            "=",
            vec(s["one_matrix"], "uscita", emphasize=True, part="una-matrice"),
        ),
    ]
    if s["agree"]:
        why = (
            "Senza piega i due strati collassano in uno."
            if not s["relu"]
            else f"La ReLU qui non tocca niente, perché W₁x = {text(s['h'])} non ha numeri negativi."
        )
        verdict = callout(f"Stesso risultato, {text(s['two_layers'])}, per le due strade. {why}", tone="ok")
    else:
        verdict = callout(
            f"Risultati diversi: {text(s['two_layers'])} con due strati, {text(s['one_matrix'])} "
            f"con la matrice unica. La ReLU ha trasformato W₁x = {text(s['h'])} in "
            f"{text(s['a'])}, e la catena non è più un'unica matrice.",
            tone="warn",
        )
    return tag(
        "div",
        columns(
            panel(*layers, title="Due strati" + (" con la ReLU in mezzo" if s["relu"] else " in fila")),
            panel(*single, title="Una matrice sola: W₂W₁"),
        ),
        verdict,
        stats(
            stat("Pesi dei due strati", "8"),
            stat("Pesi della matrice unica", "4"),
            stat("Le due strade", "coincidono" if s["agree"] else "divergono", tone="ok" if s["agree"] else "warn"),
        ),
        data_agree="si" if s["agree"] else "no",
    )


EDITS = [
    Edit(
        "un'attivazione lineare al posto della ReLU",
        change=("    return x if x > 0 else 0.0", "    return 2 * x"),
        expect="Con 2·x al posto della ReLU i due strati tornano una matrice sola: il risultato è esattamente "
        "il doppio di W₂W₁·x, per ogni x. Nessuna funzione lineare fa la piega.",
        check=lambda before, after: (
            before.state["two_layers"] != before.state["one_matrix"]
            and after.state["two_layers"] == [2 * v for v in after.state["one_matrix"]]
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Spegni la ReLU: con x = [1; −1] i due percorsi arrivano insieme in [−1; 0].",
        {"x1": 1.0, "x2": -1.0, "relu": False},
        "due-strati",
        lambda s: s["agree"] and s["two_layers"] == s["one_matrix"] == [-1.0, 0.0],
        after="Otto pesi lavorano come",
    ),
    Experiment(
        "Con la ReLU accesa e x = [1; 1] nessun numero viene portato a zero e i due percorsi coincidono.",
        {"x1": 1.0, "x2": 1.0, "relu": True},
        "due-strati",
        lambda s: s["agree"] and s["zeroed"] == [],
        after="tornano a coincidere",
    ),
]
