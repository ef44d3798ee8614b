"""Nessuno dice al modello che «gatto» e «cane» si somigliano. Qui sotto lo
scopre da solo, con un training vero su otto frasi. Ogni token ha un vettore
di 8 numeri, all'inizio tirati a caso; il modello usa il vettore del token
attuale per dare un punteggio a ogni possibile token successivo, e la
discesa del gradiente corregge i vettori perché la previsione migliori.

Nel corpus «gatto» e «cane» sono seguiti dalle stesse parole (mangia, beve,
dorme); «divano» e «letto» anche (il punto); «mangia» e «beve» pure
(«il» o «la»). Token seguiti dalle stesse cose ricevono correzioni simili, e
step dopo step i loro vettori si avvicinano. È il contesto a fare il
significato.

Premi **Play** e guarda il piano: gli 8 numeri di ogni vettore sono
proiettati sulle due direzioni in cui, a quello step, i vettori sono più
sparsi (PCA). All'inizio i punti sono sparsi a caso; poi si raccolgono a
gruppi. Sotto, il coseno tra le coppie scelte: parte da un valore qualunque e
sale verso 1 per gatto e cane, mentre gatto e divano restano lontani.
Anche la loss scende, fino quasi al minimo possibile per questo corpus.

Cambia il seme: i vettori iniziali sono altri, il disegno finale è diverso,
ma le coppie si ritrovano vicine lo stesso. In un modello vero i numeri
sono centinaia e le frasi miliardi, ma il meccanismo è questo.
"""

from core.bigram import best_loss, build_vocab, encode, make_pairs, tokenize
from core.embedding_training import similarity, train
from core.pca import orient, principal_directions, project, total_variance
from labs.kit import (Choice, Guide, Marker, Point, Series, Slider, Steps, callout, formula, label_sides, line_chart,
                      num, plane, stat, stats, tag)

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
PAIRS = (("gatto", "cane", "s1"), ("divano", "letto", "s2"), ("mangia", "beve", "s3"), ("gatto", "divano", "s4"))
# one colour per group of tokens that share their contexts
GROUPS = {"gatto": "a", "cane": "a", "divano": "b", "letto": "b", "mangia": "c", "beve": "c", "dorme": "c",
          "pesce": "result", "carne": "result", "panna": "result", "latte": "result"}
WIDTH = 520

CONTROLS = [
    Steps(max=STEPS, label="Step di training"),
    Choice("coppia", "Coppia da seguire sul piano", tuple((f"{a}-{b}", f"{a} e {b}") for a, b, _ in PAIRS),
           "gatto-cane"),
    Slider("seme", "Seme dei vettori iniziali", 0, 9, 1, 0),
]


def compute(p):
    tokens = tokenize(CORPUS)
    vocab = build_vocab(tokens)
    ids = encode(tokens, vocab)
    tables, losses = train(ids, len(vocab), DIM, STEPS, ETA, p["seme"])
    at = p["passo"]
    final, _ = principal_directions(tables[-1])
    directions, variances = principal_directions(tables[at])
    directions = orient(directions, final)  # so the cloud does not mirror itself from one step to the next
    points = project(tables[at], directions)
    ends = [project(E, d) for E, d in ((tables[0], orient(principal_directions(tables[0])[0], final)),
                                        (tables[-1], final))]
    reach = max(abs(c) for pts in ends + [points] for pt in pts for c in pt)
    index = vocab.index
    curves = {f"{a}-{b}": [similarity(E, index(a), index(b)) for E in tables] for a, b, _ in PAIRS}
    a, b = p["coppia"].split("-")
    return {"step": at, "vocab": vocab, "points": points, "reach": reach, "losses": losses,
            "best": best_loss(make_pairs(ids)), "curves": curves, "pair": [a, b], "seed": p["seme"],
            "explained": sum(variances) / total_variance(tables[at])}


def view(s):
    at, vocab, pts = s["step"], s["vocab"], s["points"]
    a, b = s["pair"]
    r = max(1.0, round(s["reach"] * 1.15 + 0.5))
    sides = label_sides(pts, ["«.»" if t == "." else t for t in vocab], (-r, r), (-r, r), WIDTH)
    items = [Guide(tuple(pts[vocab.index(a)]), tuple(pts[vocab.index(b)]), style="d")]
    items += [Point(tuple(xy), "«.»" if t == "." else t, style=GROUPS.get(t, "muted"), label_at=side)
              for t, xy, side in zip(vocab, pts, sides)]
    picture = plane(items, (-r, r), (-r, r), width=WIDTH, grid=max(1.0, r // 4 * 1.0),
                    label=f"I vettori dei token proiettati su due dimensioni, allo step {at}")
    xs = range(STEPS + 1)
    here = Marker(at, f"step {at}", class_="muted", dashed=True)
    cos_chart = line_chart([Series(f"{u} – {v}", tuple(zip(xs, s["curves"][f"{u}-{v}"])), class_=c,
                                   dashed=c == "s4") for u, v, c in PAIRS],
                           markers=[here], x_range=(0, STEPS), y_range=(-1, 1), x_label="step di training",
                           y_label="coseno", height=260, label="Il coseno tra le coppie, step dopo step")
    loss_chart = line_chart([Series("loss", tuple(zip(xs, s["losses"])))],
                            markers=[here, Marker(s["best"], "minimo possibile", class_="s3", axis="y")],
                            x_range=(0, STEPS), y_range=(0, max(s["losses"]) * 1.05), x_label="step di training",
                            y_label="loss", height=200, label="La loss durante il training")
    cos_now = s["curves"][f"{a}-{b}"][at]
    start, end = s["curves"]["gatto-cane"][0], s["curves"]["gatto-cane"][-1]
    return tag(
        "div",
        tag("p", f"Step {at} di {STEPS} · seme {s['seed']}", class_="lab-step-counter"),
        picture,
        tag("p", f"Il piano mostra il {num(100 * s['explained'], 0)} % della varianza dei vettori di questo step: "
                 "è un'ombra degli 8 numeri, e due punti vicini qui possono essere più lontani nello spazio vero. "
                 "Il coseno sotto è calcolato sugli 8 numeri.", class_="lab-ev-note"),
        stats(stat(f"cos({a}, {b}) allo step {at}", num(cos_now, 2)),
              stat("Loss", num(s["losses"][at], 3)), stat("Minimo possibile", num(s["best"], 3))),
        formula(f"cos(gatto, cane): {num(start, 2)} all'inizio → {num(end, 2)} dopo {STEPS} step;   "
                f"cos(gatto, divano): {num(s['curves']['gatto-divano'][-1], 2)} alla fine"),
        cos_chart, loss_chart,
        callout("Nessuna regola dice che gatto e cane si somigliano: i loro vettori si avvicinano perché nel corpus "
                "sono seguiti dalle stesse parole, quindi il gradiente li corregge nello stesso modo."),
        class_="lab-panel", data_part="embedding", data_step=at,
    )
