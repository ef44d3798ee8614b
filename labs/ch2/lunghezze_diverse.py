"""Una rete ha un numero fisso di ingressi, eppure legge frasi di 3 token e
di 300. Il trucco è che gli ingressi non contano i token: contano i numeri
di **un** vettore. Qui ogni token ha un vettore di 2 numeri, e la frase entra
come una matrice X con una riga per token: 3 × 2 per la frase corta,
6 × 2 per quella lunga. Lo strato fa X·W con una W di 2 × 2, la stessa per
tutte e due: (n × 2)(2 × 2) = n × 2, qualunque sia n.

L'unica cosa che cresce con la frase è la tabella dell'**attention**, n × n,
una casella per ogni coppia di token. Ma non contiene pesi: si ricalcola ogni
volta dai vettori della frase (prodotti scalari tra le righe, maschera
causale, softmax). Più token, tabella più grande, niente di nuovo da
imparare.

Anche il training non si accorge della lunghezza. Ogni riga ha il suo
bersaglio (qui il vettore del token che la segue) e il suo errore; il
gradiente di W è Xᵀ per gli errori, (2 × n)(n × 2) = 2 × 2: la **somma dei
suggerimenti** di tutte le righe, ognuno della forma di W. Clicca una riga
di X per vedere il suo suggerimento, e passa dalla frase corta alla lunga:
i suggerimenti raddoppiano, il gradiente resta 2 × 2.

In fondo le due frasi finiscono nello stesso **batch**, che vuole righe tutte
della stessa lunghezza: la corta si allunga con token di riempimento (PAD) e
una **maschera** di 1 e 0 dice quali righe sono vere. Spegni la maschera: le
righe di riempimento, che non dicono niente sulla lingua, si mettono a votare
nel gradiente.
"""

from core.attention import attention_weights
from core.linalg import transpose
from core.sequence_layer import errors, layer, row_suggestions, squared_loss, weight_gradient
from labs.kit import (Choice, Slider, Toggle, callout, equation, formula, matrix, num, shape_label, stat, stats,
                      tag, vector)

TITLE = "Frasi di lunghezze diverse"
REF = "2.5"

VECTORS = {"il": (1.0, 0.0), "gatto": (0.0, 1.0), "nero": (0.5, 0.5), "dorme": (1.0, 1.0), "sul": (-1.0, 0.5),
           "divano": (0.5, -1.0), ".": (0.0, -1.0), "PAD": (0.5, -0.5)}
SHORT = ("il", "gatto", "dorme", ".")  # the last token is only a target
LONG = ("il", "gatto", "nero", "dorme", "sul", "divano", ".")
W = [[0.5, -1.0], [1.0, 0.5]]
LENGTH = len(LONG) - 1

CONTROLS = [
    Choice("frase", "La frase", (("3", "«il gatto dorme»: 3 token"),
                                  ("6", "«il gatto nero dorme sul divano»: 6 token")), "3"),
    Slider("riga", "Riga da seguire (o clicca una riga di X)", 1, LENGTH, 1, 3),
    Toggle("maschera", "Maschera del padding nel batch", True),
]


def sentence(words, length=None):
    """X (the tokens), T (the next tokens) and the mask, padded to length."""
    n = len(words) - 1
    length = length or n
    tokens = list(words[:-1]) + ["PAD"] * (length - n)
    targets = list(words[1:]) + ["PAD"] * (length - n)
    return {"tokens": tokens, "targets": targets, "X": [list(VECTORS[t]) for t in tokens],
            "T": [list(VECTORS[t]) for t in targets], "mask": [1] * n + [0] * (length - n)}


def add_matrices(A, B):
    return [[a + b for a, b in zip(ra, rb)] for ra, rb in zip(A, B)]


def gradient_parts(s, mask=None):
    return {"E": errors(s["X"], W, s["T"]), "G": weight_gradient(s["X"], W, s["T"], mask),
            "parts": row_suggestions(s["X"], W, s["T"], mask), "loss": squared_loss(s["X"], W, s["T"], mask)}


def compute(p):
    words = SHORT if p["frase"] == "3" else LONG
    s = sentence(words)
    n = len(s["X"])
    s |= {"n": n, "row": min(p["riga"], n) - 1, "W": W, "Y": layer(s["X"], W),
          "A": attention_weights(s["X"], s["X"]), **gradient_parts(s)}
    short, long_ = sentence(SHORT, LENGTH), sentence(LONG, LENGTH)
    on = p["maschera"]
    batch = [x | gradient_parts(x, x["mask"] if on else None) for x in (short, long_)]
    total = add_matrices(batch[0]["G"], batch[1]["G"])
    right = add_matrices(weight_gradient(short["X"], W, short["T"], short["mask"]),
                         weight_gradient(long_["X"], W, long_["T"]))
    return s | {"masked": on, "batch": batch, "batch_G": total, "batch_G_right": right}


def view(s):
    n, r, tok = s["n"], s["row"], s["tokens"]
    pick = lambda i, j: (f"riga={i + 1}", f"Segui la riga di «{tok[i]}»")  # noqa: E731
    shapes = equation(matrix(s["X"], label="X", row_labels=tok, highlight_rows=[r], clickable=pick, part="X"), "·",
                      matrix(W, label="W"), "=", matrix(s["Y"], label="X·W", row_labels=tok, highlight_rows=[r]))
    att = matrix(s["A"], label="Attention", row_labels=tok, col_labels=tok, heat=1.0, part="attention",
                 caption="Ogni riga: quanto quel token guarda i precedenti (somma 1).")
    grad = equation(matrix(transpose(s["X"]), label="Xᵀ", col_labels=tok, highlight_cols=[r]), "·",
                    matrix(s["E"], label="E", row_labels=[f"{a} → {b}" for a, b in zip(tok, s["targets"])],
                           highlight_rows=[r]), "=", matrix(s["G"], label="∂L/∂W", part="G"))
    parts = []
    for i, part in enumerate(s["parts"]):
        parts += ["+"] * bool(i) + [matrix(part, label=tok[i], shape=False, highlight_cells=[
            (a, b) for a in range(2) for b in range(2)] if i == r else ())]
    x, e = s["X"][r], s["E"][r]
    b0, b1 = s["batch"]
    pad_rows = list(range(len(SHORT) - 1, LENGTH))
    mask_note = (callout("Con la maschera le righe PAD hanno peso 0: il loro suggerimento è la matrice nulla e il "
                         "gradiente del batch è la somma di quelli delle due frasi vere.", tone="ok")
                 if s["masked"] else
                 callout("Senza maschera le righe PAD votano: suggerimenti che non vengono dalla lingua ma dal "
                         "riempimento spostano il gradiente del batch. Con la maschera sarebbe quello a destra.",
                         tone="warn"))
    return tag(
        "div",
        tag("h3", "1. La frase è una matrice, W è sempre la stessa"), shapes,
        formula(f"{shape_label(n, 2)} · {shape_label(2, 2)} = {shape_label(n, 2)}: W ha 4 pesi, con 3 token come "
                "con 6"),
        tag("h3", f"2. L'attention: una tabella {n} × {n} senza pesi"), att,
        stats(stat("Caselle della tabella", f"{n} × {n} = {n * n}"), stat("Pesi da imparare nella tabella", "0")),
        tag("p", "Ogni casella viene dai vettori della frase: prodotto scalare tra due righe di X, diviso per √2, "
                 "poi la softmax sulla riga. Le caselle sopra la diagonale valgono 0: un token non guarda avanti."),
        tag("h3", "3. Il gradiente di W: un suggerimento per riga"),
        tag("p", "Il bersaglio di ogni riga è il vettore del token che la segue. L'errore è la differenza."),
        equation(matrix(s["Y"], label="X·W", row_labels=tok, highlight_rows=[r]), "−",
                 matrix(s["T"], label="T", row_labels=s["targets"], highlight_rows=[r]), "=",
                 matrix(s["E"], label="E", highlight_rows=[r])),
        grad,
        formula(f"{shape_label(2, n)} · {shape_label(n, 2)} = {shape_label(2, 2)};   L = ½ Σ ‖xᵢW − tᵢ‖² = "
                f"{num(s['loss'], 2)}"),
        equation(*parts, "=", matrix(s["G"], label="∂L/∂W", shape=False)),
        tag("p", f"Il suggerimento della riga «{tok[r]}» è il suo vettore in colonna per il suo errore in riga: "
                 "una tabella 2 × 2, come W."),
        equation(vector(x, label=f"x «{tok[r]}»"), "·", vector(e, label="e", column=False), "=",
                 matrix(s["parts"][r], label="suggerimento")),
        tag("h3", "4. Due frasi nello stesso batch"),
        tag("p", f"Il batch è un tensore {shape_label(2, LENGTH, 2)}: la frase corta riceve "
                 f"{LENGTH - len(SHORT) + 1} righe PAD, e la maschera dice quali righe sono vere."),
        equation(matrix(b0["X"], label="frase 1", row_labels=b0["tokens"], muted_rows=pad_rows),
                 vector(b0["mask"], label="maschera"),
                 matrix(b1["X"], label="frase 2", row_labels=b1["tokens"]), vector(b1["mask"], label="maschera")),
        tag("p", "I suggerimenti della frase 1, riga per riga, comprese le righe PAD:"),
        equation(*[piece for i, m in enumerate(b0["parts"]) for piece in (["+"] * bool(i) + [
            matrix(m, label=b0["tokens"][i], shape=False, muted_rows=(0, 1) if i in pad_rows and s["masked"] else (),
                   part="pad" if i in pad_rows else None)])]),
        equation(matrix(b0["G"], label="∂L/∂W frase 1", shape=False), "+",
                 matrix(b1["G"], label="∂L/∂W frase 2", shape=False), "=",
                 matrix(s["batch_G"], label="∂L/∂W del batch", shape=False, part="batch-G"),
                 *(() if s["masked"] else ("invece di", matrix(s["batch_G_right"], label="con la maschera",
                                                               shape=False)))),
        mask_note, class_="lab-panel", data_part="lunghezze", data_n=n, data_masked="si" if s["masked"] else "no",
    )

