"""In questo laboratorio le query e le key sono già pronte: ognuno dei
quattro token di «il gatto nero dorme» ha una query q di 2 numeri («che
cosa cerco») e una key k di 2 numeri («che cosa offro»). Da dove vengono lo mostra
il laboratorio «Un'intera testa di attention»; qui conta che cosa se ne fa.

Ogni query si confronta con ogni key con un prodotto scalare: è la tabella
**Q Kᵀ**, una riga per chi guarda e una colonna per chi è guardato. I
punteggi si dividono per √d, qui √2, così restano su una scala che non
dipende da quanto sono lunghi i vettori. Poi la **maschera causale** cancella
le caselle sopra la diagonale, cioè i token che vengono dopo: in un modello
come GPT un token non può guardare il futuro, che durante la generazione non
esiste ancora. Infine la softmax, riga per riga, trasforma i punteggi in
pesi positivi che sommano a 1: la tabella A. Ogni punteggio z diventa e^z,
con e ≈ 2,718, diviso per la somma della sua riga.

Clicca una riga (o scegli il token) per vedere da dove nasce: nel piano la
sua query e le key che può guardare, e il conto della softmax. Cambia
caso: le stesse regole danno una testa che cerca il soggetto, una che guarda
il token precedente, una che guarda se stessa. Allunga le query e i pesi si
concentrano, come con una temperatura bassa; portale a zero e diventano
tutti uguali.

Conta anche i confronti: con la maschera il primo token ne fa 1, il secondo
2, il quarto 4, in tutto 1 + 2 + 3 + 4 = 10. Senza maschera (come in BERT)
sono 4 × 4 = 16. Raddoppiando la frase i confronti quadruplicano: è il
prezzo dell'attention.
"""

from core.attention import MASKED
from core.attention import comparisons
from core.attention import dot_scores
from core.attention import is_visible
from core.attention import softmax_rows
from labs.kit import Arrow
from labs.kit import Bar
from labs.kit import Case
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Slider
from labs.kit import Toggle
from labs.kit import Wrong
from labs.kit import bars
from labs.kit import cell_text
from labs.kit import columns
from labs.kit import equation
from labs.kit import formula
from labs.kit import matrix
from labs.kit import num
from labs.kit import panel
from labs.kit import plane
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag

TITLE = "Query e key già pronte"
REF = "9D.1"

TOKENS = ("il", "gatto", "nero", "dorme")
# Keys in the «subject» case: the article points up, the noun right, the
# adjective between them, the verb down; each query points where it looks.
KEYS = [[0, 2], [2, 0.5], [1, 1], [0.5, -1.5]]
SQUARE = [[2, 0], [0, 2], [-2, 0], [0, -2]]  # four keys a quarter turn apart
# queries shorter than the keys, so that a query on a key's line keeps its own label
CASES = {
    "soggetto": ("Il verbo cerca il soggetto", [[0, 1], [0.5, 1.5], [1.5, 0.5], [2, -0.5]], KEYS),
    "precedente": ("Ognuno guarda il token prima", [[1.5, 0], [1.5, 0], [0, 1.5], [-1.5, 0]], SQUARE),
    "se_stesso": ("Ognuno guarda se stesso", [[1.5, 0], [0, 1.5], [-1.5, 0], [0, -1.5]], SQUARE),
    "nessuna": ("Nessuna preferenza (query nulle)", [[0, 0]] * 4, KEYS),
}
LENGTHS = (4, 100, 1000, 4000)

CONTROLS = [
    Choice("riga", "Token che guarda", tuple((str(i + 1), f"«{t}»") for i, t in enumerate(TOKENS)), "4"),
    Choice("caso", "Query e key", tuple((k, v[0]) for k, v in CASES.items()), "soggetto"),
    Slider("lunghezza", "Allunga le query", 0.0, 3.0, 0.25, 1.0, help="Ogni query moltiplicata per questo numero"),
    Toggle("maschera", "Maschera causale (GPT)", True, help="Spenta: ogni token vede anche quelli dopo (BERT)"),
    Toggle("scala", "Dividi per √d", True),
]


def compute(p):
    """Dalle query e dalle chiavi date: i punteggi, la divisione per √d, la maschera e la softmax."""
    _, Q, K = CASES[p["caso"]]
    Q = [[p["lunghezza"] * x for x in q] for q in Q]
    causal, row, n = p["maschera"], int(p["riga"]) - 1, len(TOKENS)
    raw = dot_scores(Q, K)
    divisor = len(K[0]) ** 0.5 if p["scala"] else 1.0
    scaled = [[s / divisor for s in r] for r in raw]
    A = softmax_rows(
        [[s if is_visible(i, j, causal) else MASKED for j, s in enumerate(r)] for i, r in enumerate(scaled)]
    )
    return {
        "tokens": list(TOKENS),
        "row": row,
        "causal": causal,
        "divide": p["scala"],
        "Q": Q,
        "K": K,
        "raw": raw,
        "masked": [[s if is_visible(i, j, causal) else None for j, s in enumerate(r)] for i, r in enumerate(scaled)],
        "A": A,
        "sums": [sum(r) for r in A],
        "comparisons": comparisons(n, causal),
        "per_row": [i + 1 if causal else n for i in range(n)],
        "costs": [[m, comparisons(m, True), comparisons(m, False)] for m in LENGTHS],
    }


def view(s):
    tokens, r, n = s["tokens"], s["row"], len(s["tokens"])
    names = [f"«{t}»" for t in tokens]
    sees = [j for j in range(n) if s["masked"][r][j] is not None]

    def pick(i):
        return f"riga={i + 1}", f"Guarda dalla parte di «{tokens[i]}»"

    def mx(values, label, cols, **kw):
        return matrix(values, label=label, row_labels=names, col_labels=cols, highlight_rows=[r], pick_row=pick, **kw)

    reach = max(2.5, *(abs(x) for v in s["Q"] + s["K"] for x in v)) + 0.5
    arrows = [
        Arrow(k, label=f"k {t}", style="b" if j in sees else "muted", dashed=j not in sees)
        for j, (k, t) in enumerate(zip(s["K"], tokens))
    ]
    arrows.append(Arrow(s["Q"][r], label=f"q {tokens[r]}", style="a"))
    picture = plane(
        arrows,
        (-reach, reach),
        (-reach, reach),
        width=320,
        small=True,
        grid=1.0,
        ticks=1.0 if reach < 4 else 2.0,
        label=f"La query di «{tokens[r]}» e le key dei token, frecce nel piano",
    )
    hidden = "−∞"
    scores = [[hidden if v is None else v for v in row] for row in s["masked"]]
    step = "÷ √2" if s["divide"] else "(senza ÷ √2)"
    visible = [(j, s["masked"][r][j]) for j in sees]
    exps = " + ".join(f"e^{cell_text(v)}" for _, v in visible)
    top = max(sees, key=lambda j: s["A"][r][j])
    return panel(
        columns(
            panel(
                equation(mx(s["Q"], "Q", ("1", "2"), part="Q"), mx(s["K"], "K", ("1", "2"), part="K")),
                title="Le query e le key",
            ),
            panel(picture, title=f"Nel piano, da «{tokens[r]}»"),
        ),
        tag("h3", "Punteggi, maschera, pesi"),
        equation(
            mx(s["raw"], "Q Kᵀ", names, part="scores"),
            step,
            mx(scores, "con la maschera" if s["causal"] else "senza maschera", names, part="masked"),
            "softmax per riga",
            matrix(s["A"], label="A", row_labels=names, col_labels=names, heat=1.0, pick_row=pick, part="A", digits=3),
            matrix([[x] for x in s["sums"]], label="somma", shape=False, part="sums"),
        ),
        formula(
            f"peso di «{tokens[top]}» per «{tokens[r]}» = e^{cell_text(s['masked'][r][top])} / ({exps}) = "
            f"{num(s['A'][r][top], 3)}"
        ),
        tag("p", tag("strong", f"Dove guarda «{tokens[r]}»"), ": i pesi dei token che può vedere."),
        bars(
            [Bar(names[j], s["A"][r][j], highlight=j == top) for j in sees],
            label=f"Dove guarda «{tokens[r]}»",
            part="pesi",
            digits=3,
        ),
        stats(
            stat(
                "Confronti con la maschera",
                " + ".join(map(str, range(1, n + 1))) + f" = {comparisons(n)}",
                tone="ok" if s["causal"] else None,
            ),
            stat("Senza maschera", f"{n} × {n} = {n * n}", tone=None if s["causal"] else "warn"),
        ),
        tag("h3", "Quanto cresce il lavoro"),
        table(
            ["Token nella frase", "Confronti con la maschera", "Senza maschera"],
            [[num(m), num(c), num(f)] for m, c, f in s["costs"]],
        ),
        part="attention-qk",
        data_row=r,
    )


EDITS = [
    Edit(
        "un token che non guarda sé stesso",
        change=("    return j <= i or not causal", "    return j < i or not causal"),
        expect="Il primo token non ha più nessuno da guardare: la sua riga è tutta −∞ e la softmax si ferma "
        "con «una riga tutta mascherata non ha pesi». Per questo la diagonale resta visibile.",
        check=lambda before, after: before.error is None and "mascherata" in after.error,
    ),
]

EXPERIMENTS = [
    Experiment(
        "Porta a zero la lunghezza delle query: nella riga di «dorme» i quattro pesi diventano tutti 0,25.",
        {"riga": "4", "caso": "soggetto", "lunghezza": 0.0, "maschera": True},
        "A",
        lambda s: s["A"][3] == [0.25] * 4,
        after="diventano tutti uguali",
    ),
    Experiment(
        "Togli la maschera: i confronti passano da 10 a 16, come in BERT.",
        {"maschera": False},
        "masked",
        lambda s: not s["causal"] and s["comparisons"] == 16,
        after="il prezzo dell'attention",
    ),
]

EXERCISES = [
    Exercise(
        dot_scores,
        task="Scrivi i punteggi dell'attention: la cella (i, j) è il prodotto scalare della query i con la "
        "chiave j, cioè la tabella Q·Kᵀ, con una riga per query e una colonna per chiave. Quando la tua "
        "funzione passa le verifiche, i punteggi grezzi e da lì i pesi della softmax vengono da lei.",
        hints=(
            "Il risultato ha una riga per ogni query e, in ogni riga, un numero per ogni chiave.",
            "Ogni numero è `dot(q, k)`: `[[dot(q, k) for k in K] for q in Q]`.",
            "Con le funzioni che qui puoi chiamare è anche `matmul(Q, transpose(K))`: la trasposta mette le "
            "chiavi in colonna.",
        ),
        cases=(
            Case(([[0.0, 1.0], [2.0, -0.5]], [[0.0, 2.0], [2.0, 0.5]]), "due query e due chiavi"),
            Case(
                ([[0.0, 1.0], [0.5, 1.5], [1.5, 0.5], [2.0, -0.5]], [[0, 2], [2, 0.5], [1, 1], [0.5, -1.5]]),
                "le query e le chiavi del laboratorio",
            ),
            Case(([[1.0, 0.0, 2.0]], [[1.0, 1.0, 1.0], [0.0, 3.0, 0.0]]), "una query, due chiavi in tre dimensioni"),
            Case(([[0.0, 0.0], [0.0, 0.0]], [[1.0, 2.0], [3.0, 4.0]]), "query nulle"),
            Case(([[1.0, 2.0]], [[1.0, 2.0, 3.0]]), "query e chiavi di lunghezza diversa: va rifiutato"),
        ),
        random=lambda rng: (
            lambda n, m, d: (
                [[round(rng.uniform(-2, 2), 1) for _ in range(d)] for _ in range(n)],
                [[round(rng.uniform(-2, 2), 1) for _ in range(d)] for _ in range(m)],
            )
        )(rng.randint(1, 5), rng.randint(1, 5), rng.randint(1, 4)),
        count=15,
        tolerance=1e-9,
        wrong=(
            Wrong(
                """
def dot_scores(Q, K):
    return [[dot(q, k) for q in Q] for k in K]
""",
                "La tabella è trasposta: hai messo una riga per chiave. Nella riga i ci sono i punteggi della "
                "query i con tutte le chiavi, così la softmax di una riga dice dove guarda quel token.",
            ),
            Wrong(
                """
def dot_scores(Q, K):
    return matmul(Q, K)
""",
                "K va trasposta: Q·K moltiplica le righe di Q per le colonne di K, che non sono chiavi. Le chiavi "
                "devono stare in colonna, Q·Kᵀ.",
            ),
        ),
    ),
]
