"""Nessuno dice al modello che «gatto» e «cane» si somigliano. Questo laboratorio
lo scopre da solo, con un training vero su otto frasi. Ogni token ha un vettore
di 8 numeri, all'inizio tirati a caso; il modello usa il vettore del token
attuale per dare un punteggio a ogni possibile token successivo, e la
discesa del gradiente corregge i vettori perché la previsione migliori.

Nel corpus «gatto» e «cane» sono seguiti dalle stesse parole (mangia, beve,
dorme); «divano» e «letto» anche (il punto); «mangia» e «beve» pure
(«il» o «la»). Token seguiti dalle stesse cose ricevono correzioni simili, e
passo dopo passo i loro vettori si avvicinano. È il contesto a fare il
significato.

Premi **Play** e guarda il piano: gli 8 numeri di ogni vettore sono
proiettati sulle due direzioni in cui, a quel passo, i vettori sono più
sparsi (PCA). All'inizio i punti sono sparsi a caso; poi si raccolgono a
gruppi. [Il coseno](#vista-coseno) tra le coppie scelte parte da un valore qualunque e
sale verso 1 per gatto e cane, mentre gatto e divano restano lontani.
Anche la loss scende, fino quasi al minimo possibile per questo corpus.

Cambia il seme: i vettori iniziali sono altri, il disegno finale è diverso,
ma le coppie si ritrovano vicine lo stesso. In un modello vero i numeri
sono centinaia e le frasi miliardi, ma il meccanismo è questo.
"""

from functools import lru_cache

from core.bigram import best_loss
from core.bigram import build_vocab
from core.bigram import encode
from core.bigram import make_pairs
from core.bigram import tokenize
from core.descent import sgd_update
from core.embedding_training import initial_tables
from core.embedding_training import loss_and_gradients
from core.embedding_training import pair_counts
from core.embedding_training import similarity
from core.embedding_training import train_embeddings
from core.pca import orient
from core.pca import principal_directions
from core.pca import project
from core.pca import total_variance
from labs.ch2._embedding_cornici import FRAMES
from labs.kit import Choice
from labs.kit import Curve
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Guide
from labs.kit import Marker
from labs.kit import Point
from labs.kit import Series
from labs.kit import Slider
from labs.kit import Steps
from labs.kit import callout
from labs.kit import formula
from labs.kit import label_sides
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import plane
from labs.kit import plural
from labs.kit import stat
from labs.kit import stats
from labs.kit import step_machine
from labs.kit import tag

TITLE = "Embedding che si avvicinano"
REF = "2.6"

CORPUS = """il gatto mangia il pesce .
il cane mangia la carne .
il gatto beve la panna .
il cane beve il latte .
il gatto dorme sul divano .
il cane dorme sul letto .
il gatto dorme sul letto .
il cane dorme sul divano ."""
DIM, STEPS, ETA = 8, 60, 2.0
FRAMES_MODULE = "labs.ch2._embedding_cornici"  # the frames of the slider's seeds, kept (see frame())
PAIRS = (("gatto", "cane", "s1"), ("divano", "letto", "s2"), ("mangia", "beve", "s3"), ("gatto", "divano", "s4"))
# one colour per group of tokens that share their contexts
GROUPS = {
    "gatto": "a",
    "cane": "a",
    "divano": "b",
    "letto": "b",
    "mangia": "c",
    "beve": "c",
    "dorme": "c",
    "pesce": "result",
    "carne": "result",
    "panna": "result",
    "latte": "result",
}
WIDTH = 520

TOKENS = tokenize(CORPUS)
VOCAB = build_vocab(TOKENS)
IDS = encode(TOKENS, VOCAB)
COUNTS = pair_counts(IDS, len(VOCAB))
BEST = best_loss(make_pairs(IDS))

CONTROLS = [
    Steps(max=STEPS, label="Passo", curve=Curve("losses", "loss", points=STEPS + 1)),
    Choice(
        "coppia", "Coppia da seguire sul piano", tuple((f"{a}-{b}", f"{a} e {b}") for a, b, _ in PAIRS), "gatto-cane"
    ),
    Slider("seme", "Seme dei vettori iniziali", 0, 9, 1, 0),
]


def cosines(E):
    """Il coseno tra i vettori di ogni coppia di parole osservata."""
    return {f"{a}-{b}": similarity(E, VOCAB.index(a), VOCAB.index(b)) for a, b, _ in PAIRS}


def frame(seed):
    """La cornice del piano per un seme: le direzioni principali dell'ultimo passo e la scala.

    The frame comes from the whole run: the principal directions of the
    last step orient every step's (so the cloud never mirrors itself) and
    the reach of the first and last clouds fixes the plane's scale (so it
    never zooms while the reader steps). Training the whole run costs
    about 20 ms, so the frames of the slider's seeds are kept in
    _embedding_cornici.py (a test computes them again and compares;
    python -m labs.ch2.embedding_vicini writes them)."""
    tables, _ = train_embeddings(IDS, len(VOCAB), DIM, STEPS, ETA, seed)
    final, _ = principal_directions(tables[-1])
    ends = [project(tables[0], orient(principal_directions(tables[0])[0], final)), project(tables[-1], final)]
    return {"final": final, "reach": max(abs(c) for pts in ends for pt in pts for c in pt)}


def start(p):
    """Le tabelle al passo 0 con la loro loss e i gradienti, e la cornice del piano."""
    E_in, E_out = initial_tables(len(VOCAB), DIM, p["seme"])
    loss, G_in, G_out = loss_and_gradients(E_in, E_out, COUNTS)
    return {
        "E_in": E_in,
        "E_out": E_out,
        "G_in": G_in,
        "G_out": G_out,
        "losses": [loss],
        "curves": {k: [c] for k, c in cosines(E_in).items()},
        **(FRAMES.get(p["seme"]) or frame(p["seme"])),
    }


def advance(m, p):
    """Un passo di discesa del gradiente, poi la loss e i gradienti delle nuove tabelle."""
    E_in, E_out = sgd_update(m["E_in"], m["G_in"], ETA), sgd_update(m["E_out"], m["G_out"], ETA)
    loss, G_in, G_out = loss_and_gradients(E_in, E_out, COUNTS)
    return {
        **m,
        "E_in": E_in,
        "E_out": E_out,
        "G_in": G_in,
        "G_out": G_out,
        "losses": m["losses"] + [loss],
        "curves": {k: m["curves"][k] + [c] for k, c in cosines(E_in).items()},
    }


# The pair to follow changes only what is drawn: the same step finds its projection made.
@lru_cache(maxsize=8)
def projection(E, final):
    """I vettori sulle due direzioni principali (girate come alla fine) e la quota di varianza che spiegano."""
    directions, variances = principal_directions(E)
    return project(E, orient(directions, final)), sum(variances) / total_variance(E)


def present(m, p):
    """I vettori del passo proiettati sulle due direzioni principali, con le curve fin qui."""
    points, explained = projection(tuple(map(tuple, m["E_in"])), tuple(map(tuple, m["final"])))
    a, b = p["coppia"].split("-")
    return {
        "step": p["passo"],
        "vocab": VOCAB,
        "points": [list(pt) for pt in points],
        "reach": max(m["reach"], max(abs(c) for pt in points for c in pt)),
        "losses": list(m["losses"]),
        "best": BEST,
        "curves": {k: list(v) for k, v in m["curves"].items()},
        "pair": [a, b],
        "seed": p["seme"],
        "explained": explained,
    }


compute = step_machine(start, advance, present, view_only=("coppia",))


def view(s):
    at, vocab, pts = s["step"], s["vocab"], s["points"]
    a, b = s["pair"]
    r = max(1.0, round(s["reach"] * 1.15 + 0.5))
    sides = label_sides(pts, ["«.»" if t == "." else t for t in vocab], (-r, r), (-r, r), WIDTH)
    items = [Guide(tuple(pts[vocab.index(a)]), tuple(pts[vocab.index(b)]), style="d")]
    items += [
        Point(tuple(xy), "«.»" if t == "." else t, style=GROUPS.get(t, "muted"), label_at=side)
        for t, xy, side in zip(vocab, pts, sides)
    ]
    picture = plane(
        items,
        (-r, r),
        (-r, r),
        width=WIDTH,
        grid=max(1.0, r // 4 * 1.0),
        label=f"I vettori dei token proiettati su due dimensioni, al passo {at} (seme {s['seed']})",
    )
    here = Marker(at, f"passo {at}", class_="muted", dashed=True)
    # the curves so far on axes fixed for the whole run: they grow, they never show the future
    cos_chart = line_chart(
        [
            Series(f"{u} – {v}", tuple(enumerate(s["curves"][f"{u}-{v}"])), class_=c, dashed=c == "s4", markers=at == 0)
            for u, v, c in PAIRS
        ],
        markers=[here],
        x_range=(0, STEPS),
        y_range=(-1, 1),
        x_label="passo di training",
        y_label="coseno",
        height=260,
        label="Il coseno tra le coppie, passo dopo passo",
    )
    loss_chart = line_chart(
        [Series("loss", tuple(enumerate(s["losses"])), markers=at == 0)],
        markers=[here, Marker(s["best"], "minimo possibile", class_="s3", axis="y")],
        x_range=(0, STEPS),
        y_range=(0, max(s["losses"]) * 1.05),
        x_label="passo di training",
        y_label="loss",
        height=200,
        label="La loss durante il training",
    )
    cos_now = s["curves"][f"{a}-{b}"][at]
    cat_dog, cat_sofa = s["curves"]["gatto-cane"], s["curves"]["gatto-divano"]
    if at == 0:
        trend = (
            f"cos(gatto, cane) all'inizio: {num(cat_dog[0], 2)};   cos(gatto, divano) all'inizio: {num(cat_sofa[0], 2)}"
        )
    else:
        trend = (
            f"cos(gatto, cane): {num(cat_dog[0], 2)} all'inizio → {num(cat_dog[at], 2)} dopo "
            f"{plural(at, 'passo', 'passi')};   cos(gatto, divano): {num(cat_sofa[0], 2)} → "
            f"{num(cat_sofa[at], 2)}"
        )
    return panel(
        picture,
        tag(
            "p",
            f"Il piano mostra il {num(100 * s['explained'], 0)} % della varianza dei vettori di questo passo: "
            "è un'ombra degli 8 numeri, e due punti vicini qui possono essere più lontani nello spazio vero. "
            "Il coseno, nel grafico e nei numeri, è calcolato sugli 8 numeri.",
            class_="lab-embedding-vicini-note",
        ),
        stats(
            stat(f"cos({a}, {b}) al passo {at}", num(cos_now, 2)),
            stat("Loss", num(s["losses"][at], 3)),
            stat("Minimo possibile", num(s["best"], 3)),
        ),
        formula(trend),
        tag("div", cos_chart, id="vista-coseno"),
        loss_chart,  # the prose links to the cosine
        callout(
            "Nessuna regola dice che gatto e cane si somigliano: i loro vettori si avvicinano perché nel corpus "
            "sono seguiti dalle stesse parole, quindi il gradiente li corregge nello stesso modo."
        ),
        part="embedding",
        data_step=at,
    )


EDITS = [
    Edit(
        "il passo in salita",
        change=(
            'sgd_update(m["E_in"], m["G_in"], ETA), sgd_update(m["E_out"], m["G_out"], ETA)',
            'sgd_update(m["E_in"], m["G_in"], -ETA), sgd_update(m["E_out"], m["G_out"], -ETA)',
        ),
        expect="Con il passo nel verso del gradiente la loss sale invece di scendere e in 40 passi i vettori "
        "scappano verso numeri enormi: è il segno meno di w ← w − η·gradiente a far imparare la tabella.",
        params={"passo": 40},
        check=lambda before, after: (
            before.state["losses"][-1] < before.state["losses"][0]
            and after.state["losses"][-1] > after.state["losses"][0]
            and after.state["reach"] > 1000 > before.state["reach"]
        ),
    ),
]


def write_frames():
    """Scrive di nuovo _embedding_cornici.py con la cornice di ogni seme dello slider."""
    import pprint
    import sys

    frames = {seed: frame(seed) for seed in range(CONTROLS[2].min, CONTROLS[2].max + 1)}
    path = sys.modules[FRAMES_MODULE].__file__
    with open(path, encoding="utf-8") as source:
        head = source.read().partition("FRAMES = ")[0]
    with open(path, "w", encoding="utf-8") as out:
        out.write(head + "FRAMES = " + pprint.pformat(frames, width=110, compact=True) + "\n")
    return path


if __name__ == "__main__":  # python -m labs.ch2.embedding_vicini
    print(f"cornici scritte in {write_frames()}")

EXPERIMENTS = [
    Experiment(
        "Al passo 60 il coseno tra gatto e cane supera 0,9, mentre gatto e divano restano sotto lo zero.",
        {"passo": 60, "seme": 0, "coppia": "gatto-cane"},
        "vista-coseno",
        lambda s: s["curves"]["gatto-cane"][-1] > 0.9 and s["curves"]["gatto-divano"][-1] < 0,
        after="gatto e divano restano lontani",
    ),
    Experiment(
        "Con il seme 3 gatto e cane partono con un coseno negativo, ma al passo 60 si ritrovano vicini.",
        {"passo": 60, "seme": 3, "coppia": "gatto-cane"},
        "vista-coseno",
        lambda s: s["curves"]["gatto-cane"][0] < 0 < 0.85 < s["curves"]["gatto-cane"][-1],
        after="Cambia il seme",
    ),
]
