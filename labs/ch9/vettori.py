"""Per il computer un vettore è soltanto una lista ordinata di numeri, come
[2 ; 1]. Con due numeri però lo possiamo anche disegnare, in due modi: come
un **punto** del piano (2 passi verso destra, 1 verso l'alto) oppure come
una **freccia** che parte dall'origine e finisce su quel punto. Sono tre
letture della stessa cosa, e nei capitoli sul modello si passa dall'una
all'altra di continuo.

**Somma.** Si sommano le due liste posizione per posizione: il primo numero
con il primo, il secondo con il secondo. Sul disegno vuol dire mettere le
frecce in fila: la coda di b va sulla punta di a, e la somma è la freccia
che va dall'origine all'ultima punta. Se metti in fila prima b e poi a
arrivi nello stesso punto: è il parallelogramma tratteggiato.

**Per un numero.** Moltiplicare un vettore per un numero k (uno
*scalare*) vuol dire moltiplicare ogni suo elemento per k. La freccia resta
sulla stessa retta: con k più grande di 1 si allunga, tra 0 e 1 si
accorcia, con k negativo si gira dall'altra parte.

Trascina le punte delle frecce a e b (o usa i cursori) e guarda come
cambiano i conti. Prova k = −1, k = 0,5 e k = 0.
"""

from core.linalg import add
from core.linalg import scale
from labs.kit import Arrow
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Guide
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import callout
from labs.kit import cell_text
from labs.kit import columns
from labs.kit import formula
from labs.kit import panel
from labs.kit import plane
from labs.kit import tag
from labs.kit import term
from labs.kit import vector_text

TITLE = "Vettori"
REF = "9B.1"


def coordinate(name, label, default):
    return Slider(name, label, -3.0, 3.0, 0.5, default)


# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "k": Symbol("il numero che moltiplica un vettore (uno scalare)", "scalare", "numero"),
}

CONTROLS = [
    Group(
        "Vettore a (trascina la punta blu)",
        (coordinate("ax", "a₁, passi a destra", 2.0), coordinate("ay", "a₂, passi in su", 1.0)),
    ),
    Group(
        "Vettore b (trascina la punta arancione)",
        (coordinate("bx", "b₁, passi a destra", -1.0), coordinate("by", "b₂, passi in su", 1.5)),
    ),
    Group("Moltiplicare b per un numero", (Slider("k", "Lo scalare k", -2.0, 2.0, 0.1, 2.0),)),
]

# Every result stays within ±6 with these slider ranges. The two planes differ
# a little because the runtime finds a plane again by its ranges.
SUM_RANGE, SCALE_RANGE = (-6.5, 6.5), (-6.4, 6.4)


def compute(p):
    """La somma di due vettori e un vettore moltiplicato per un numero."""
    a, b, k = [p["ax"], p["ay"]], [p["bx"], p["by"]], p["k"]
    if k < 0:
        effect = "si gira dall'altra parte" + (" e si allunga" if k < -1 else " e si accorcia" if k > -1 else "")
    elif k == 0:
        effect = "si riduce a un punto: il vettore nullo [0 ; 0]"
    elif k == 1:
        effect = "resta com'è"
    else:
        effect = "si allunga" if k > 1 else "si accorcia"
    return {"a": a, "b": b, "k": k, "sum": add(a, b), "scaled": scale(k, b), "effect": effect}


def elementwise(x, y, op):
    return "[" + " ; ".join(f"{term(u)} {op} {term(v)}" for u, v in zip(x, y)) + "]"


def walk(steps, forward, back):
    """«2 passi a destra», «1 passo in giù», «0 passi in su»."""
    count = cell_text(abs(float(steps)))
    return f"{count} {'passo' if count == '1' else 'passi'} {forward if steps >= 0 else back}"


def view(s):
    a, b, k, total, scaled = s["a"], s["b"], s["k"], s["sum"], s["scaled"]
    ks = cell_text(float(k))
    sum_plane = plane(
        [
            Guide(b, total),
            Arrow(b, label="b", style="b", drag=("bx", "by")),
            Arrow(total, start=a, style="b", dashed=True),
            Arrow(total, label="a + b", style="result"),
            Arrow(a, label="a", drag=("ax", "ay")),
        ],
        SUM_RANGE,
        SUM_RANGE,
        label=f"a = {vector_text(a)}, b = {vector_text(b)} e la loro somma {vector_text(total)}",
    )
    reach = [12 * x for x in b]
    scale_plane = plane(
        [
            Guide([-x for x in reach], reach),
            Arrow(scaled, label=f"{ks}·b", style="result"),
            Arrow(b, label="b", style="b", drag=("bx", "by")),
        ],
        SCALE_RANGE,
        SCALE_RANGE,
        label=f"b = {vector_text(b)} e {ks}·b = {vector_text(scaled)}",
    )
    sum_panel = panel(
        sum_plane,
        formula(f"a + b = {vector_text(a)} + {vector_text(b)} = {elementwise(a, b, '+')} = {vector_text(total)}"),
        tag(
            "p",
            f"Come lista, a è {vector_text(a)}; come punto, {walk(a[0], 'a destra', 'a sinistra')} e "
            f"{walk(a[1], 'in su', 'in giù')}; come freccia, va dall'origine a quel punto.",
        ),
        title="Somma: frecce in fila",
        part="somma",
    )
    scale_panel = panel(
        scale_plane,
        formula(f"{ks} · b = {term(k)} · {vector_text(b)} = {elementwise([k, k], b, '·')} = {vector_text(scaled)}"),
        callout(f"Con k = {ks} la freccia {s['effect']}."),
        title="Per un numero: stessa retta",
        part="scala",
    )
    return columns(sum_panel, scale_panel)


EDITS = [
    Edit(
        "moltiplicare per k sommando k",
        change=("    return [k * x for x in a]", "    return [k + x for x in a]"),
        expect="Con k = 2, [−1 ; 1,5] diventa [1 ; 3,5] invece di [−2 ; 3]: la freccia non resta sulla retta "
        "di b, quindi sommare un numero non è scalare.",
        check=lambda before, after: before.state["scaled"] == [-2.0, 3.0] and after.state["scaled"] == [1.0, 3.5],
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con a = [2 ; 1] e b = [−1 ; 1,5] la somma arriva in [1 ; 2,5], in qualunque ordine le metti in fila.",
        {"ax": 2.0, "ay": 1.0, "bx": -1.0, "by": 1.5},
        "somma",
        lambda s: s["sum"] == [1.0, 2.5],
        after="è il parallelogramma tratteggiato",
    ),
    Experiment(
        "Con k = −1 la freccia b si gira dall'altra parte: [−1 ; 1,5] diventa [1 ; −1,5].",
        {"bx": -1.0, "by": 1.5, "k": -1.0},
        "scala",
        lambda s: s["scaled"] == [1.0, -1.5],
        after="Prova k = −1",
    ),
    Experiment(
        "Con k = 0 la freccia b si riduce all'origine, il vettore [0 ; 0].",
        {"bx": -1.0, "by": 1.5, "k": 0.0},
        "scala",
        lambda s: s["scaled"] == [0.0, 0.0],
        after="Prova k = −1",
    ),
]
