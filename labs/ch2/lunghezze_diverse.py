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
bersaglio, una riga della matrice T dei bersagli (qui il vettore del token
che la segue), e il suo errore e, una riga della matrice E degli errori. Qui
T ed E non sono la temperatura e gli embedding di altre pagine: sono i
bersagli e gli errori. La loss L è la metà della somma dei quadrati degli
errori, L = ½ Σ e². Il gradiente di W è Xᵀ per gli errori, (2 × n)(n × 2) = 2 × 2: la **somma dei
suggerimenti** di tutte le righe, ognuno della forma di W. Le due frasi
stanno una accanto all'altra: quella lunga porta il doppio dei
suggerimenti, ma il gradiente resta 2 × 2. Clicca una riga di X per
seguirla in tutte e due.

In fondo le due frasi finiscono nello stesso **batch**, che vuole righe tutte
della stessa lunghezza: la corta si allunga con token di riempimento (PAD) e
una **maschera** di 1 e 0 dice quali righe sono vere. Spegni la maschera: le
righe di riempimento, che non dicono niente sulla lingua, si mettono a votare
nel gradiente.

Il laboratorio va per fasi, una alla volta: scegline una con i pulsanti delle
fasi, in cima alla vista; in cima resta, in piccolo, il risultato della fase prima.
"""

from core.attention import attention_weights
from core.linalg import transpose
from core.sequence_layer import errors
from core.sequence_layer import layer
from core.sequence_layer import row_suggestions
from core.sequence_layer import squared_loss
from core.sequence_layer import weight_gradient
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import Toggle
from labs.kit import callout
from labs.kit import equation
from labs.kit import formula
from labs.kit import matrix
from labs.kit import num
from labs.kit import panel
from labs.kit import phase_screen
from labs.kit import recap
from labs.kit import shape_label
from labs.kit import stage_buttons
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag
from labs.kit import vector

TITLE = "Frasi di lunghezze diverse"
REF = "2.5"

VECTORS = {
    "il": (1.0, 0.0),
    "gatto": (0.0, 1.0),
    "nero": (0.5, 0.5),
    "dorme": (1.0, 1.0),
    "sul": (-1.0, 0.5),
    "divano": (0.5, -1.0),
    ".": (0.0, -1.0),
    "PAD": (0.5, -0.5),
}
SHORT = ("il", "gatto", "dorme", ".")  # the last token is only a target
LONG = ("il", "gatto", "nero", "dorme", "sul", "divano", ".")
W = [[0.5, -1.0], [1.0, 0.5]]
LENGTH = len(LONG) - 1

STAGES = (
    ("forme", "1. Le forme: X · W"),
    ("attention", "2. L'attention, n × n"),
    ("gradiente", "3. Il gradiente di W"),
    ("batch", "4. Due frasi in un batch"),
)

# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "E": Symbol("gli errori: una riga per token, la previsione meno il bersaglio", "errori"),
    "e": Symbol("l'errore di una riga", "errore", "errori"),
    "T": Symbol("i bersagli: il vettore del token che segue, una riga per token", "bersagli"),
}

CONTROLS = [
    Choice("fase", "Che cosa guardare", STAGES, "forme"),  # chosen with the view's phase buttons (follow: hidden)
    Slider("riga", "Riga da seguire (o clicca una riga di X)", 1, LENGTH, 1, 3),
    Toggle("maschera", "Maschera del padding nel batch", True),
]


def sentence(words, length=None):
    """X (i token), T (i token successivi) e la maschera, allungati con il padding."""
    n = len(words) - 1
    length = length or n
    tokens = list(words[:-1]) + ["PAD"] * (length - n)
    targets = list(words[1:]) + ["PAD"] * (length - n)
    return {
        "tokens": tokens,
        "targets": targets,
        "X": [list(VECTORS[t]) for t in tokens],
        "T": [list(VECTORS[t]) for t in targets],
        "mask": [1] * n + [0] * (length - n),
    }


def add_matrices(A, B):
    """La somma di due matrici, cella per cella."""
    return [[a + b for a, b in zip(ra, rb)] for ra, rb in zip(A, B)]


def gradient_parts(s, mask=None):
    """Gli errori, il gradiente, il contributo di ogni riga e la loss di una frase."""
    return {
        "E": errors(s["X"], W, s["T"]),
        "G": weight_gradient(s["X"], W, s["T"], mask),
        "parts": row_suggestions(s["X"], W, s["T"], mask),
        "loss": squared_loss(s["X"], W, s["T"], mask),
    }


def alone(words):
    """Una frase da sola: le sue forme, la tabella di attention e il gradiente."""
    s = sentence(words)
    return s | {"n": len(s["X"]), "Y": layer(s["X"], W), "A": attention_weights(s["X"], s["X"]), **gradient_parts(s)}


def compute(p):
    """Le due frasi nel batch, con o senza maschera, e il gradiente sommato di W."""
    short, long_ = sentence(SHORT, LENGTH), sentence(LONG, LENGTH)
    on = p["maschera"]
    batch = [x | gradient_parts(x, x["mask"] if on else None) for x in (short, long_)]
    total = add_matrices(batch[0]["G"], batch[1]["G"])
    right = add_matrices(
        weight_gradient(short["X"], W, short["T"], short["mask"]), weight_gradient(long_["X"], W, long_["T"])
    )
    return {
        "stage": p["fase"],
        "row": p["riga"] - 1,
        "W": W,
        "sentences": [alone(SHORT), alone(LONG)],
        "masked": on,
        "batch": batch,
        "batch_G": total,
        "batch_G_right": right,
    }


def follow(s):
    """The phase is chosen with the view's phase buttons, one selector: the control stays hidden (it carries the
    phase in the URL). The mask is a matter of the batch: in the other stages it says so."""
    hidden = {"fase": Follow(hidden=True)}
    if s["stage"] != "batch":
        return hidden | {
            "maschera": Follow(disabled="Conta nella fase 4, quando le due frasi stanno nello stesso batch.")
        }
    return hidden


# ---------------------------------------------------------------- view


def side_by_side(s, draw):
    """The same stage for the short and the long sentence, side by side (one under the other on a phone)."""
    return tag(
        "div",
        *(
            tag(
                "section",
                tag("h3", f"{one['n']} token: «{' '.join(one['tokens'])}»"),
                *draw(one),
                class_="lab-lunghezze-diverse-case",
                data_n=one["n"],
            )
            for one in s["sentences"]
        ),
        class_="lab-lunghezze-diverse-pair",
    )


def picker(one):
    tok = one["tokens"]
    return lambda i: (f"riga={i + 1}", f"Segui la riga {i + 1}, «{tok[i]}»")


def rows_of(s, one):
    return [s["row"]] if s["row"] < one["n"] else []


def view_shapes(s):
    def draw(one):
        n, tok = one["n"], one["tokens"]
        return [
            equation(
                matrix(
                    one["X"],
                    label="X",
                    row_labels=tok,
                    highlight_rows=rows_of(s, one),
                    pick_row=picker(one),
                    part=f"X{n}",
                ),
                "·",
                matrix(W, label="W"),
                "=",
                matrix(one["Y"], label="X·W", row_labels=tok, highlight_rows=rows_of(s, one)),
            ),
            formula(f"{shape_label(n, 2)} · {shape_label(2, 2)} = {shape_label(n, 2)}"),
        ]

    return [
        side_by_side(s, draw),
        callout("W ha 4 pesi, gli stessi per 3 token e per 6: cambia solo il numero di righe di X e di X·W."),
    ]


def view_attention(s):
    def draw(one):
        n, tok = one["n"], one["tokens"]
        return [
            matrix(
                one["A"],
                label="Attention",
                row_labels=tok,
                col_labels=tok,
                heat=1.0,
                part=f"attention{n}",
                highlight_rows=rows_of(s, one),
            ),
            stats(stat("Caselle", f"{n} × {n} = {n * n}"), stat("Pesi da imparare nella tabella", "0")),
        ]

    return [
        recap(
            "Fase prima:",
            *(
                tag("span", f"X·W {shape_label(one['n'], 2)}", class_="lab-lunghezze-diverse-chip")
                for one in s["sentences"]
            ),
            tag("span", f"W sempre {shape_label(2, 2)}", class_="lab-lunghezze-diverse-chip"),
        ),
        side_by_side(s, draw),
        tag(
            "p",
            "Ogni casella viene dai vettori della frase: prodotto scalare tra due righe di X, diviso per √2, "
            "poi la softmax sulla riga. Le caselle sopra la diagonale valgono 0: un token non guarda avanti.",
        ),
    ]


def view_gradient(s):
    r = s["row"]

    def draw(one):
        n, tok = one["n"], one["tokens"]
        hl = rows_of(s, one)
        parts = []
        for i, part in enumerate(one["parts"]):
            parts += ["+"] * bool(i) + [
                matrix(
                    part,
                    label=tok[i],
                    shape=False,
                    highlight_cells=[(a, b) for a in range(2) for b in range(2)] if i in hl else (),
                )
            ]
        drawn = [
            equation(
                matrix(one["Y"], label="X·W", row_labels=tok, highlight_rows=hl),
                "−",
                matrix(one["T"], label="T", row_labels=one["targets"], highlight_rows=hl),
                "=",
                matrix(one["E"], label="E, gli errori", highlight_rows=hl),
            ),
            equation(
                matrix(transpose(one["X"]), label="Xᵀ", col_labels=tok, highlight_cols=hl),
                "·",
                matrix(one["E"], label="E", highlight_rows=hl),
                "=",
                matrix(one["G"], label="∂L/∂W", part=f"G{n}"),
            ),
            formula(
                f"{shape_label(2, n)} · {shape_label(n, 2)} = {shape_label(2, 2)};   loss L = ½ Σ e² = {num(one['loss'], 2)}"
            ),
            tag("p", f"La stessa ∂L/∂W come somma dei {n} suggerimenti, uno per riga:"),
            equation(*parts, "=", matrix(one["G"], label="∂L/∂W", shape=False)),
        ]
        if hl:
            x, e = one["X"][r], one["E"][r]
            drawn.append(
                equation(
                    vector(x, label=f"x «{tok[r]}»"),
                    "·",
                    vector(e, label="e", column=False),
                    "=",
                    matrix(one["parts"][r], label="suggerimento"),
                )
            )
        else:
            drawn.append(tag("p", f"La riga {r + 1} qui non c'è: la frase ha {n} righe."))
        return drawn

    return [
        recap(
            "Fase prima:",
            *(
                tag("span", f"attention {one['n']} × {one['n']}, 0 pesi", class_="lab-lunghezze-diverse-chip")
                for one in s["sentences"]
            ),
        ),
        tag(
            "p",
            "Il bersaglio di ogni riga è il vettore del token che la segue, l'errore è la differenza; "
            "il suggerimento di una riga è il suo vettore x in colonna per il suo errore e in riga.",
        ),
        side_by_side(s, draw),
        callout("Il doppio dei token, il doppio dei suggerimenti: il gradiente resta una tabella 2 × 2, come W."),
    ]


def view_batch(s):
    b0, b1 = s["batch"]
    r = s["row"]
    pad_rows = list(range(len(SHORT) - 1, LENGTH))
    G3, G6 = (one["G"] for one in s["sentences"])
    mask_note = (
        callout(
            "Con la maschera le righe PAD hanno peso 0: il loro suggerimento è la matrice nulla e il "
            "gradiente del batch è la somma di quelli delle due frasi vere.",
            tone="ok",
        )
        if s["masked"]
        else callout(
            "Senza maschera le righe PAD votano: suggerimenti che non vengono dalla lingua ma dal "
            "riempimento spostano il gradiente del batch. Con la maschera sarebbe quello a destra.",
            tone="warn",
        )
    )
    return [
        recap(
            "Fase prima:",
            tag("span", "∂L/∂W", class_="lab-lunghezze-diverse-chip"),
            matrix(G3, label="3 token", shape=False),
            matrix(G6, label="6 token", shape=False),
        ),
        tag(
            "p",
            f"Il batch è un tensore {shape_label(2, LENGTH, 2)}: la frase corta riceve "
            f"{LENGTH - len(SHORT) + 1} righe PAD, e la maschera dice quali righe sono vere.",
        ),
        equation(
            matrix(b0["X"], label="frase 1", row_labels=b0["tokens"], muted_rows=pad_rows, highlight_rows=[r]),
            vector(b0["mask"], label="maschera"),
            matrix(b1["X"], label="frase 2", row_labels=b1["tokens"], highlight_rows=[r]),
            vector(b1["mask"], label="maschera"),
        ),
        tag("p", "I suggerimenti della frase 1, riga per riga, comprese le righe PAD:"),
        equation(
            *[
                piece
                for i, m in enumerate(b0["parts"])
                for piece in (
                    ["+"] * bool(i)
                    + [
                        matrix(
                            m,
                            label=b0["tokens"][i],
                            shape=False,
                            muted_rows=(0, 1) if i in pad_rows and s["masked"] else (),
                            part="pad" if i in pad_rows else None,
                        )
                    ]
                )
            ]
        ),
        equation(
            matrix(b0["G"], label="∂L/∂W frase 1", shape=False),
            "+",
            matrix(b1["G"], label="∂L/∂W frase 2", shape=False),
            "=",
            matrix(s["batch_G"], label="∂L/∂W del batch", shape=False, part="batch-G"),
            *(() if s["masked"] else ("invece di", matrix(s["batch_G_right"], label="con la maschera", shape=False))),
        ),
        mask_note,
    ]


SCREENS = (view_shapes, view_attention, view_gradient, view_batch)  # one per stage, in the order of STAGES


def view(s):
    return panel(
        stage_buttons(STAGES, s["stage"]),
        *phase_screen(SCREENS, s, [key for key, _ in STAGES].index(s["stage"])),
        part="lunghezze",
        data_stage=s["stage"],
        data_masked="si" if s["masked"] else "no",
    )


EDITS = [
    Edit(
        "il gradiente che ignora la maschera",
        change=(
            "    masked = [[m * e for e in row] for m, row in zip(mask, errors(X, W, T))]",
            "    masked = errors(X, W, T)",
        ),
        expect="Anche con la maschera accesa le righe PAD della frase corta votano: il gradiente del batch "
        "cambia, e non è più quello che le due frasi darebbero da sole.",
        params={"fase": "batch"},
        check=lambda before, after: (
            before.state["batch_G"] == before.state["batch_G_right"]
            and after.state["batch_G"] != before.state["batch_G"]
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Nella fase attention la frase corta ha una tabella 3 × 3, la lunga 6 × 6: nessuna delle due aggiunge pesi.",
        {"fase": "attention"},
        "lunghezze",
        lambda s: [len(x["A"]) for x in s["sentences"]] == [3, 6] and len(s["W"]) == 2,
        after="niente di nuovo da",
    ),
    Experiment(
        "Spegni la maschera: il gradiente del batch cambia, perché le righe PAD votano anche loro.",
        {"fase": "batch", "maschera": False},
        "batch-G",
        lambda s: not s["masked"] and s["batch_G"] != s["batch_G_right"],
        after="Spegni la maschera",
    ),
]
