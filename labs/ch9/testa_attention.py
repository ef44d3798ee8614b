r"""Una testa di attention intera, a partire dai vettori dei token. La frase «il gatto
dorme» entra come una matrice **X** con una riga per token e quattro numeri
per riga, uno per caratteristica (articolo, nome, verbo, vivente). La testa
possiede tre matrici di pesi 4 × 2, **W_q**, **W_k** e **W_v**: moltiplicando
X per ciascuna si ottengono le query («che cosa cerco»), le key («che cosa
offro») e i value («che cosa passo»), tre matrici 3 × 2, ancora una riga per
token.

Il resto è il conto di «Query e key già pronte»: Q Kᵀ confronta ogni query
con ogni key (3 × 3), si divide per √2 perché query e key hanno 2 numeri, la
maschera causale nasconde i token che vengono dopo, la softmax trasforma
ogni riga in pesi che sommano a 1. Infine **O = A V**: la riga di un token è
la media dei value pesata dalla sua riga di A. Accanto a ogni prodotto sono
scritte le shape, e in nessun punto compare una dimensione misteriosa.

$$Q = X W_q,\quad K = X W_k,\quad V = X W_v,\qquad O = \mathrm{softmax}\!\left(\frac{Q K^{\top}}{\sqrt{d_k}} + M\right) V$$

Segui la riga di «dorme»: la sua query cerca un soggetto e trova «gatto»,
che prende 0,78 del peso; a «il» resta 0,06, a «dorme» stesso 0,15. Il suo
nuovo vettore porta così l'informazione del suo soggetto. Clicca una riga
di una tabella per seguire un altro token, e prova a indebolire la domanda
del verbo con il cursore: a 0 la query di «dorme» non cerca più niente e i
pesi diventano uguali.

Togli la maschera e guarda le prime due righe: senza maschera (come in
BERT) anche «il» e «gatto» possono guardare avanti. Accendi poi la seconda
testa: con altri pesi cerca il verbo, cioè guarda in un altro modo la stessa
frase (con la maschera il verbo lo vede solo «dorme»). Le uscite delle due teste, messe una accanto all'altra, tornano a 4
numeri per token.

Il conto va per fasi, una alla volta (i pulsanti delle fasi, o «Che
cosa guardare»): ogni fase mostra un prodotto con le sue shape e riporta
all'inizio, in piccolo, quello che arriva dalla fase prima.
"""

from core.attention import causal_mask
from core.attention import comparisons
from core.attention import concat_columns
from core.attention import head
from core.attention import is_visible
from core.linalg import transpose
from labs.kit import Bar
from labs.kit import Case
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Slider
from labs.kit import Toggle
from labs.kit import Wrong
from labs.kit import bars
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
from labs.kit import vector_text

TITLE = "Un'intera testa di attention"
REF = "9D.2"

TOKENS = ("il", "gatto", "dorme")
FEATURES = ("articolo", "nome", "verbo", "vivente")
# «dorme» is a verb and something living beings do, hence «vivente» 0.5.
X = [[1, 0, 0, 0], [0, 1, 0, 1], [0, 0, 1, 0.5]]
# The design of the seed figure. The verb's query is [2 ; 0] (it looks for a
# subject); the keys' first column gives gatto 1.5 + 0.3 = 1.8, dorme
# 0.5 + 0.5 · 0.3 = 0.65, il 0. So the row of «dorme» in Q Kᵀ is [0 ; 3,6 ; 1,3]:
# gatto beats il by 3.6 and dorme by 2.3, ÷ √2 → e^2.55 ≈ 12.7 and e^1.63 ≈ 5.1
# times more weight: 0.0615, 0.7843, 0.1542 → 0.06, 0.78, 0.15.
W_K = [[0, 1.5], [1.5, 0], [0.5, 0], [0.3, 0]]
W_V = [[0.5, 0], [1, 0], [0, 1], [0, 0]]
# A second head looks for the verb: everyone asks «what happens?».
HEAD2 = ([[1, 0], [1, 0], [1, 0], [0, 0]], [[0, 0], [0, 0], [2, 0], [0, 0]], [[0, 0], [0, 0], [1, 0], [0, 1]])
QK_NAMES, V_NAMES, V2_NAMES = ("1", "2"), ("chi", "azione"), ("azione", "vivente")
BIG = 4000  # a long context, to see what the count becomes

STAGES = (
    ("pesi", "1. X e i pesi"),
    ("qkv", "2. Q, K, V"),
    ("punteggi", "3. Q Kᵀ"),
    ("maschera", "4. ÷ √2 e maschera"),
    ("softmax", "5. Softmax: A"),
    ("uscite", "6. O = A V"),
)

CONTROLS = [
    Choice("fase", "Che cosa guardare", STAGES, "pesi", primary=True),
    Choice("riga", "Token da seguire", tuple((str(i + 1), f"«{t}»") for i, t in enumerate(TOKENS)), "3"),
    Toggle("maschera", "Maschera causale (GPT)", True, help="Spenta: ogni token vede anche quelli dopo (BERT)"),
    Slider("domanda", "Quanto il verbo cerca un soggetto", 0.0, 4.0, 0.5, 2.0, help="La casella (verbo, 1) di W_q"),
    Toggle("due_teste", "Aggiungi una seconda testa", False),
]


def compute(p):
    """Una testa di attention su «il gatto dorme», con ogni matrice intermedia."""
    causal, row = p["maschera"], int(p["riga"]) - 1
    W_q = [[1, 0], [0, 1], [p["domanda"], 0], [0, 0]]
    h = head(X, W_q, W_K, W_V, causal)
    n = len(TOKENS)
    state = {
        "stage": p["fase"],
        "tokens": list(TOKENS),
        "row": row,
        "causal": causal,
        "X": X,
        "W_q": W_q,
        "W_k": W_K,
        "W_v": W_V,
        **h,
        "Kt": transpose(h["K"]),
        "masked": [
            [s if is_visible(i, j, causal) else None for j, s in enumerate(r)] for i, r in enumerate(h["scaled"])
        ],
        "sums": [sum(r) for r in h["A"]],
        "comparisons": comparisons(n, causal),
        "big": comparisons(BIG, causal),
        "second": None,
    }
    if p["due_teste"]:
        h2 = head(X, *HEAD2, causal)
        state["second"] = {"A": h2["A"], "O": h2["O"], "concat": concat_columns(h["O"], h2["O"])}
    return state


def pair(v):
    """[0,5 ; 0] that never breaks across lines."""
    return vector_text(v).replace(" ", "\u00a0")


LATER = (  # control, the stage from which it acts, what the reader will do there
    ("maschera", 3, "togliere la maschera causale"),
    ("due_teste", 5, "accendere una seconda testa"),
)


def follow(s):
    """The mask acts from stage 4, the second head in the last one: before, they are hidden, and the view
    says when they come (a disabled checkbox looked broken)."""
    stage = [key for key, _ in STAGES].index(s["stage"])
    return {name: Follow(hidden=True) for name, start, _ in LATER if stage < start}


def coming(stage):
    """The line that names the controls still hidden at this stage and the stage that shows them."""
    at = [key for key, _ in STAGES].index(stage)
    later = [f"nella fase {start + 1} potrai {what}" for _, start, what in LATER if at < start]
    if not later:
        return None
    text = " e ".join(later)
    return tag("p", text[0].upper() + text[1:] + ".", class_="lab-step-counter", data_coming="")


def names_of(s):
    return [f"«{t}»" for t in s["tokens"]]


def pick_of(s):
    return lambda i: (f"riga={i + 1}", f"Segui la riga di «{s['tokens'][i]}»")


def mx(s, values, label, cols=None, **kw):
    """A matrix with a row per token, the followed row highlighted; a click in a row follows it."""
    return matrix(
        values,
        label=label,
        row_labels=names_of(s),
        col_labels=cols,
        highlight_rows=[s["row"]],
        pick_row=pick_of(s),
        **kw,
    )


def small(values, label):
    return matrix(values, label=label)  # only the numbers: the names are in the big matrices below


def weights_heat(s, values, label, part):
    # no row highlight here: it would cover the colours of the weights
    names = names_of(s)
    return matrix(values, label=label, row_labels=names, col_labels=names, pick_row=pick_of(s), heat=1.0, part=part)


def shapes(a, b):
    return formula(f"{shape_label(*a)} · {shape_label(*b)} = {shape_label(a[0], b[1])}")


def masked_scores(s):
    return [["−∞" if v is None else v for v in row] for row in s["masked"]]


def screen_weights(s):
    return [
        tag("p", "La frase come matrice, una riga per token, e i tre pesi della testa."),
        mx(s, s["X"], "X", FEATURES, part="X"),
        equation(
            *(
                matrix(W, label=name, row_labels=FEATURES, col_labels=cols, part=name)
                for W, name, cols in (
                    (s["W_q"], "W_q", QK_NAMES),
                    (s["W_k"], "W_k", QK_NAMES),
                    (s["W_v"], "W_v", V_NAMES),
                )
            )
        ),
    ]


def screen_qkv(s):
    n = len(s["tokens"])
    return [
        recap("Dalla fase prima:", small(s["X"], "X")),
        tag("p", "Query, key e value: X per ciascuno dei tre pesi."),
        shapes((n, 4), (4, 2)),
        equation(
            mx(s, s["Q"], "Q = X·W_q", QK_NAMES, part="Q"),
            mx(s, s["K"], "K = X·W_k", QK_NAMES, part="K"),
            mx(s, s["V"], "V = X·W_v", V_NAMES, part="V"),
        ),
    ]


def screen_scores(s):
    r, n, names = s["row"], len(s["tokens"]), names_of(s)
    return [
        recap("Dalla fase prima:", small(s["Q"], "Q"), small(s["K"], "K")),
        tag("p", "Ogni query contro ogni key: un prodotto scalare per casella."),
        shapes((n, 2), (2, n)),
        equation(
            mx(s, s["Q"], "Q"),
            "·",
            matrix(s["Kt"], label="Kᵀ", col_labels=names),
            "=",
            mx(s, s["scores"], "Q Kᵀ", names, highlight_cells=[(r, j) for j in range(n)], part="scores"),
        ),
        stats(
            stat(
                "Confronti (prodotti scalari) qui",
                f"1 + 2 + 3 = {num(s['comparisons'])}" if s["causal"] else f"3 × 3 = {num(s['comparisons'])}",
            ),
            stat(
                f"Con n = {num(BIG)} token, {'con' if s['causal'] else 'senza'} maschera, per testa e per strato",
                f"1 + 2 + … + {num(BIG)} = {num(s['big'])}"
                if s["causal"]
                else f"{num(BIG)} × {num(BIG)} = {num(s['big'])}",
                tone="warn",
            ),
        ),
    ]


def screen_mask(s):
    n = len(s["tokens"])
    hidden = [(i, j) for i in range(n) for j in range(n) if s["masked"][i][j] is None]
    return [
        recap("Dalla fase prima:", small(s["scores"], "Q Kᵀ")),
        tag(
            "p",
            "Diviso per √2, perché query e key hanno 2 numeri"
            + ("; la maschera nasconde i token che vengono dopo." if s["causal"] else ", senza maschera."),
        ),
        mx(
            s,
            masked_scores(s),
            "Q Kᵀ / √2",
            names_of(s),
            part="masked",
            caption="−∞: un token che viene dopo, da non guardare" if hidden else None,
        ),
    ]


def screen_softmax(s):
    names, weights = names_of(s), s["A"][s["row"]]
    me = names[s["row"]]
    return [
        recap("Dalla fase prima:", small(masked_scores(s), "Q Kᵀ / √2")),
        tag("p", "La softmax riga per riga: i pesi A, che su ogni riga sommano a 1."),
        equation(
            weights_heat(s, s["A"], "A", part="A"),
            "somme delle righe →",
            matrix([[x] for x in s["sums"]], label="somma", shape=False),
        ),
        tag("p", tag("strong", f"Dove guarda {me}"), ": i pesi della sua riga di A."),
        bars(
            [Bar(name, a, text=num(a), highlight=a == max(weights), class_="s1") for name, a in zip(names, weights)],
            label=f"Dove guarda {me}",
            part="pesi",
        ),
    ]


def screen_outputs(s):
    r, n = s["row"], len(s["tokens"])
    terms = " + ".join(f"{num(a)} × {pair(v)}" for a, v in zip(s["A"][r], s["V"]))
    sub = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    parts = [
        recap("Dalla fase prima:", small(s["A"], "A"), small(s["V"], "V")),
        tag("p", "Le uscite: ogni riga di O è la media dei value pesata dalla riga di A."),
        shapes((n, n), (n, 2)),
        equation(mx(s, s["A"], "A"), "·", mx(s, s["V"], "V", V_NAMES), "=", mx(s, s["O"], "O", V_NAMES, part="O")),
        formula(
            f"O{r + 1} = ".translate(sub),
            " + ".join(f"a{r + 1}{j + 1}V{j + 1}".translate(sub) for j in range(n)),
            f" = {terms} = {pair(s['O'][r])}",
        ),
    ]  # formula() writes ≈ where the rounding shows
    if s["second"]:
        two = s["second"]
        parts += [
            tag("h3", "Una seconda testa: cerca il verbo"),
            equation(weights_heat(s, two["A"], "A²", part="A2"), mx(s, two["O"], "O²", V2_NAMES)),
            formula(f"[O¹ | O²]: {shape_label(n, 2)} accanto a {shape_label(n, 2)} = {shape_label(n, 4)}"),
            mx(s, two["concat"], "[O¹ | O²]", V_NAMES + V2_NAMES, part="concat"),
        ]
    return parts


SCREENS = (screen_weights, screen_qkv, screen_scores, screen_mask, screen_softmax, screen_outputs)  # as STAGES


def view(s):
    stage = s["stage"]
    parts = [*phase_screen(SCREENS, s, [key for key, _ in STAGES].index(stage))]
    if not s["causal"] and stage in ("maschera", "softmax", "uscite"):
        parts.append(
            callout(
                "Senza maschera anche le prime righe guardano avanti: va bene per capire un testo "
                "(BERT), non per generarlo, dove il futuro non c'è ancora.",
                tone="warn",
            )
        )
    return panel(stage_buttons(STAGES, stage), coming(stage), *parts, part="testa", data_row=s["row"], data_stage=stage)


EDITS = [
    Edit(
        "i punteggi senza dividere per √d",
        change=(
            "    return [[s / math.sqrt(d_k) for s in row] for row in dot_scores(Q, K)]",
            "    return dot_scores(Q, K)",
        ),
        expect="Senza la divisione per √2 i punteggi restano più distanti tra loro e la softmax più netta: "
        "nella riga di «dorme» il peso di «gatto» sale e quello degli altri scende.",
        params={"fase": "softmax"},
        check=lambda before, after: after.state["A"][2][1] > before.state["A"][2][1] + 0.05,
    ),
]

EXPERIMENTS = [
    Experiment(
        "Nella fase softmax la riga di «dorme» dà 0,78 del peso a «gatto», 0,06 a «il» e 0,15 a sé stesso.",
        {"fase": "softmax", "riga": "3", "maschera": True, "domanda": 2.0},
        "A",
        lambda s: [round(a, 2) for a in s["A"][2]] == [0.06, 0.78, 0.15],
        after="l'informazione del suo soggetto",
    ),
    Experiment(
        "Porta la domanda del verbo a 0: i tre pesi della riga di «dorme» diventano uguali, un terzo ciascuno.",
        {"fase": "softmax", "riga": "3", "maschera": True, "domanda": 0.0},
        "A",
        lambda s: all(abs(a - 1 / 3) < 1e-12 for a in s["A"][2]),
        after="l'informazione del suo soggetto",
    ),
    Experiment(
        "Accendi la seconda testa nella fase delle uscite: le due teste affiancate tornano a 4 numeri per token.",
        {"fase": "uscite", "due_teste": True},
        "concat",
        lambda s: all(len(row) == 4 for row in s["second"]["concat"]),
        after="tornano a 4",
    ),
]

EXERCISES = [
    Exercise(
        causal_mask,
        task="Scrivi la maschera causale per n token: una tabella n × n in cui la riga i dice che cosa può "
        "guardare il token i. Le celle sulla diagonale e a sinistra (i token già letti e sé stesso) valgono 0, "
        "quelle a destra (il futuro) valgono −∞, così la softmax dà loro peso zero. Quando la tua funzione "
        "passa le verifiche, i pesi dell'attention con la maschera accesa vengono da lei.",
        hints=(
            "Due cicli annidati: la riga `i` e, dentro, la colonna `j`, tutte e due in `range(n)`.",
            "Il token `i` vede il token `j` quando `j <= i`: lì metti `0.0`.",
            "Per il futuro usa `MASKED`, che vale `float('-inf')`.",
        ),
        cases=(
            Case((3,), "tre token"),
            Case((1,), "un token solo"),
            Case((4,), "quattro token"),
            Case((2,), "due token"),
            Case((0,), "nessun token"),
        ),
        random=lambda rng: (rng.randint(5, 8),),
        count=3,
        tolerance=0.0,
        wrong=(
            Wrong(
                """
def causal_mask(n):
    return [[0.0 if j >= i else MASKED for j in range(n)] for i in range(n)]
""",
                "Questa maschera lascia entrare il futuro e nasconde il passato: è la trasposta. Il token i "
                "deve vedere i token j con j ≤ i, cioè la diagonale e quello che sta a sinistra.",
            ),
            Wrong(
                """
def causal_mask(n):
    return [[0.0 if j < i else MASKED for j in range(n)] for i in range(n)]
""",
                "Hai nascosto anche la diagonale: un token può guardare sé stesso. Il primo token, poi, non "
                "vedrebbe niente e la sua softmax non avrebbe senso.",
            ),
            Wrong(
                """
def causal_mask(n):
    return [[0.0] * n for _ in range(n)]
""",
                "Una tabella di soli zeri non nasconde niente: ogni token vedrebbe anche quelli dopo. Sopra la "
                "diagonale ci vuole −∞.",
            ),
        ),
    ),
]
