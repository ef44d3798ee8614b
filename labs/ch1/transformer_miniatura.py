"""Un transformer completo, ridotto all'osso: un vocabolario di 12 parole,
vettori di 8 numeri con un nome e **un solo blocco**, con i pesi scelti a
mano perché ogni numero si possa leggere. **Clicca una parola** della frase
per vedere che cosa prevede il modello in quel punto e **aggiungi il token
previsto** per fargli scrivere la frase, una parola alla volta.

## Per saperne di più

I conti sono quelli di un modello vero, con un blocco fatto di attention
più un MLP di 7 neuroni, divisi nei **cinque passi** che ogni LLM ripete per
ogni token:

1. **Token → ID**: ogni parola diventa il suo numero nel vocabolario.
2. **Embedding**: ogni ID diventa la sua riga della tabella E, 8 numeri.
3. **Attention**: il token scelto costruisce una domanda, la confronta con
   ogni token che ha prima (sé stesso compreso), trasforma i punteggi in pesi
   con la softmax e prende la **media pesata** dei vettori.
4. **MLP**: sette regole del tipo «se c'è X ma non Y, aggiungi Z» leggono il
   nuovo vettore; ciascuna si accende più o meno, e quello che aggiunge si
   somma al vettore (uscita = ingresso + contributo).
5. **Punteggi e probabilità**: il vettore finale si confronta con ogni riga
   di E con un prodotto scalare, e la softmax trasforma i 12 punteggi in
   probabilità per il token successivo.

Qui ciascuna delle 8 dimensioni ha un **nome** (animale, dormire, mangiare,
luogo, preposizione, fine, articolo, cibo). In un modello vero i numeri per token sono
migliaia (4.096 in Llama 2 7B), nessuno ha un nome, i blocchi sono decine e
i pesi li trova il training. Il calcolo, però, è lo stesso. Per restare
leggibile il modello semplifica anche altro: i vettori dei token fanno da
chiavi e da valori senza matrici proprie, i punteggi non vengono divisi per
√d e non c'è la posizione (ogni token sa chi viene prima di lui, ma non in
che ordine).

Il token scelto (una parola cliccata, o il cursore) vede soltanto sé stesso
e quelli prima di lui. Con «il gatto nero dorme sul», «sul» va a
cercare il verbo e se lo porta nel suo vettore: per questo alla fine
vincono «divano» e «letto», posti in cui si dorme, e non «tappeto». Prova
«il cane nero mangia sul»: il verbo trovato ora è «mangia», con lo stesso
peso, una regola dell'MLP toglie «dormire» al vettore e in testa passa il
tappeto. È il verbo a decidere il posto.

Per vederlo senza cambiare frase, usa l'**esperimento**: **togli una
parola** dall'attention (il token scelto fa come se non ci fosse) oppure
**spegni l'attention** del tutto, e il token tiene solo il suo vettore. Le
barre tratteggiate mostrano le probabilità di prima. Togli «dorme»: il
letto scende sotto il tappeto, e resta in testa il divano solo perché
«sul» ha già un po' di «dormire» suo.

**Aggiungi il token previsto** e la frase si allunga di una parola, che
rientra nel modello dal passo 1: è la generazione autoregressiva, un token
alla volta fino al punto finale. Con la scelta **greedy** si prende sempre il
token più probabile, e la frase è sempre la stessa. Con il
**campionamento** il token si estrae a caso secondo le probabilità, dopo
averle divise per la **temperatura**: bassa le rende più appuntite, alta più
piatte. Il seme fissa i numeri casuali, così lo stesso seme dà sempre la
stessa frase. L'esperimento riguarda solo la previsione del token scelto:
la generazione usa sempre il modello intero.
"""

import random
from functools import lru_cache

from core.mini_transformer import mini_forward, mini_generate
from core.sampling import greedy
from core.softmax import softmax
from labs.kit import (
    Bar,
    Choice,
    Edit,
    Experiment,
    Follow,
    Group,
    Slider,
    Text,
    bars,
    callout,
    cell_text,
    equation,
    fold,
    formula,
    frozen,
    matrix,
    num,
    opened,
    percent,
    plural,
    quoted,
    read_words,
    stat,
    stats,
    table,
    tag,
    token_chips,
    vector,
)
from labs.kit.arithmetic import columns_add_up, settle
from labs.kit.italian import shares

TITLE = "Il transformer in miniatura"
REF = "1.4"
FOLDS = ("tabella-e", "matrice-wq")  # the two tables of weights, for reference: drawn only while open

# ---------------------------------------------------------------- the weights, written by hand
#
# How they were chosen. The guide's figures fix «sul» and the attention of
# «sul»: after the average, preposizione = 0.65 = (weight of «sul») × 1 and
# luogo = 0.39 = 0.65 × 0.6, so «sul» is [dormire 0.3, luogo 0.6,
# preposizione 1]; dormire 0.48 = 0.28 × 1 («dorme») + 0.65 × 0.3. Weights
# 2 % / 28 % / 65 % need scores 0 for il, gatto, nero (the query of «sul» has
# nothing they have), about 2.5 for «dorme» (ln 0.28/0.02 ≈ 2.6) and 0.83
# more for «sul» (ln 0.65/0.28); only a narrow band of pairs rounds to all six
# figures at once. With W_q = 3 on the diagonal («every token looks for its
# own features»),
# the row «preposizione» [dormire 1.6, preposizione 1.5] gives the query of
# «sul» [dormire 2.5, luogo 1.8, preposizione 1.5]: scores 0, 0, 0, 2.5,
# 3.33, hence 2.3 %, 2.3 %, 2.3 %, 28.3 %, 64.8 %. The MLP rules were then
# tuned so that every position of the sample sentences predicts a word that
# makes sense, and «divano» beats «letto» beats «tappeto» after «dorme sul».
#
# The verb decides the place. The same row «preposizione» also looks for
# «mangiare» (2.5, as much as for «dormire»): no token of the guide's sentence
# has it, so its figures do not move, but after «mangia sul» the verb gets
# the same 28 %. Rule 7 («se mangiare, senza animale») then takes «dormire»
# away, and since divano − tappeto = 0.8 × dormire in the final scores,
# «tappeto» goes on top. Rule 6 is kept off at a preposition, so it does not
# push an article there.

DIMS = ("animale", "dormire", "mangiare", "luogo", "preposizione", "fine", "articolo", "cibo")
VOCAB = (".", "il", "gatto", "cane", "nero", "dorme", "mangia", "sul", "divano", "letto", "pesce", "tappeto")
END = 0  # «.» ends the sentence: its only feature is «fine»

FEATURES = {  # the row of E of each token; the dimensions not listed are 0
    ".": {"fine": 1},
    "il": {"articolo": 1},
    "gatto": {"animale": 1},
    "cane": {"animale": 1},  # the same vector as «gatto»: for this model they are the same thing
    "nero": {"animale": 0.5},  # no colour among the 8 names: it only says «goes with an animal»
    "dorme": {"dormire": 1},
    "mangia": {"mangiare": 1},
    "sul": {"dormire": 0.3, "luogo": 0.6, "preposizione": 1},
    "divano": {"luogo": 1, "dormire": 0.8},
    "letto": {"luogo": 0.9, "dormire": 1},
    "pesce": {"cibo": 1, "animale": 0.5},
    "tappeto": {"luogo": 1},
}
SELF = 3  # the diagonal of W_q: a token looks first of all for what it has itself
LOOKS_FOR = {  # rows of W_q that differ from the diagonal: feature of the token → {feature looked for: weight}
    "preposizione": {"dormire": 1.6, "preposizione": 1.5, "mangiare": 2.5},  # a preposition looks back for the verb
    "articolo": {"articolo": SELF, "mangiare": 4},  # an article after «mangia» introduces what is eaten
}
RULES = (  # the 7 neurons of the MLP: (rule, gate weights, what it adds when fully on)
    ("se articolo, senza mangiare", {"articolo": 1, "mangiare": -2}, {"animale": 3, "articolo": -1}),
    (
        "se animale, senza verbo né cibo",
        {"animale": 1, "dormire": -2, "mangiare": -2, "cibo": -2},
        {"dormire": 3, "mangiare": 3, "animale": -1, "luogo": -3},
    ),  # a verb, not a bed (which has «dormire» too)
    (
        "se dormire, senza preposizione né luogo",
        {"dormire": 1, "preposizione": -2, "luogo": -2},
        {"preposizione": 3, "dormire": -1},
    ),
    ("se preposizione, senza luogo", {"preposizione": 2, "luogo": -1}, {"luogo": 3, "preposizione": -1}),
    (
        "se luogo o cibo, senza preposizione",
        {"luogo": 1, "cibo": 1, "preposizione": -2},
        {"fine": 3, "luogo": -1, "cibo": -1},
    ),
    (
        "se mangiare, senza articolo né preposizione",
        {"mangiare": 1, "articolo": -2, "preposizione": -2},
        {"articolo": 3, "mangiare": -1, "cibo": -3},
    ),  # right after «mangia» the article comes before the food
    ("se mangiare, senza animale", {"mangiare": 1, "animale": -2}, {"cibo": 3, "dormire": -3}),  # eat, not sleep
)


def row(features):
    return [float(features.get(d, 0)) for d in DIMS]


E = [row(FEATURES[t]) for t in VOCAB]  # 12 × 8
W_Q = [row(LOOKS_FOR.get(d, {d: SELF})) for d in DIMS]  # 8 × 8: row = feature of the token, column = looked for
W1 = [[float(gate.get(d, 0)) for _, gate, _ in RULES] for d in DIMS]  # 8 × 7: column k = the gate of rule k
W2 = [row(adds) for _, _, adds in RULES]  # 7 × 8: row k = what rule k adds

# ---------------------------------------------------------------- controls

SENTENCES = (
    ("gatto", "il gatto nero dorme sul"),
    ("cane", "il cane dorme sul"),
    ("mangia", "il cane nero mangia sul"),
    ("pesce", "il gatto mangia il"),
    ("inizio", "il"),
)
MAX_WORDS, MAX_NEW = 12, 8

CONTROLS = [
    Choice("frase", "Frase", SENTENCES + (("tua", "quella scritta qui sotto"),), "gatto"),
    Text("testo", "La tua frase (solo parole del vocabolario)", "il cane nero dorme sul tappeto", max_length=200),
    Slider("posizione", "Token scelto (o clicca una parola)", 1, MAX_WORDS + MAX_NEW, 1, 5),
    Group(
        "Esperimento sull'attention del token scelto",
        (
            Choice(
                "esperimento",
                "Esperimento",
                (
                    ("nessuno", "nessuno: il modello intero"),
                    ("togli", "togli una parola"),
                    ("spegni", "spegni l'attention"),
                ),
                "nessuno",
            ),
            Slider("tolta", "Parola da togliere (numero nella frase)", 1, MAX_WORDS + MAX_NEW, 1, 4),
        ),
    ),
    Group(
        "Generazione",
        (
            Slider("generati", "Token aggiunti dal modello", 0, MAX_NEW, 1, 0),
            Choice(
                "scelta",
                "Come si sceglie il token",
                (("greedy", "il più probabile (greedy)"), ("campiona", "estratto a caso (campionamento)")),
                "greedy",
            ),
            Slider("temperatura", "Temperatura (solo per il campionamento)", 0.1, 2.0, 0.1, 1.0),
            Slider("seme", "Seme dei numeri casuali", 0, 99, 1, 1),
        ),
    ),
]

# ---------------------------------------------------------------- compute


def compute(p):
    """La frase, i token generati e i cinque passi del modello per il token scelto."""
    text = dict(SENTENCES).get(p["frase"], p["testo"])
    base, problem = read_words(text, VOCAB, MAX_WORDS, "il gatto dorme sul")
    if problem:
        return {"problem": problem}
    sampling = p["scelta"] == "campiona"
    new = mini_generate(
        base,
        p["generati"],
        E,
        W_Q,
        W1,
        W2,
        temperature=p["temperatura"] if sampling else None,
        rng=random.Random(p["seme"]),
        end=END,
    )
    ids = base + [g["id"] for g in new]
    pos = min(p["posizione"], len(ids)) - 1
    ignore = ablation(p, pos)
    f = mini_forward(ids, pos, E, W_Q, W1, W2, ignore=ignore)
    probs_t = softmax(f["logits"], p["temperatura"]) if sampling else f["probs"]
    # with an experiment on, the whole model's probabilities are the «before» of the bars
    whole = mini_forward(ids, pos, E, W_Q, W1, W2)["probs"] if ignore else None
    return {
        "ids": ids,
        "n_base": len(base),
        "generated": new,
        "pos": pos,
        "asked": p["generati"],
        "finished": bool(new) and new[-1]["id"] == END,
        "sampling": sampling,
        "t": p["temperatura"],
        "seed": p["seme"],
        "x": f["X"][pos],
        "attention": f["attention"],
        "mlp": f["mlp"],
        "logits": f["logits"],
        "probs": f["probs"],
        "probs_t": probs_t,
        "own_text": p["frase"] == "tua",
        "experiment": p["esperimento"],
        "ignored": sorted(ignore),
        "whole_probs": whole,
        "open": {part: opened(p, part) for part in FOLDS},
    }


def ablation(p, pos):
    """Le posizioni che il token scelto non può guardare nell'esperimento."""
    if p["esperimento"] == "spegni":
        return set(range(pos))
    if p["esperimento"] == "togli" and p["tolta"] - 1 < pos:
        return {p["tolta"] - 1}
    return set()


def follow(s):
    """Controls that would do nothing now say why, and ranges stop at the sentence's end."""
    if "problem" in s:
        waiting = "Prima serve una frase che il modello conosca."
        return {name: Follow(disabled=waiting) for name in ("posizione", "tolta", "generati", "seme")}
    length, pos = len(s["ids"]), s["pos"]
    rules = {"posizione": Follow(max=length)}
    if not s["own_text"]:
        rules["testo"] = Follow(disabled="Conta solo con «Frase: quella scritta qui sotto».")
    if s["finished"]:
        rules["generati"] = Follow(max=len(s["generated"]))  # the sentence ended at «.»: no more to add
    if s["experiment"] != "togli":
        rules["tolta"] = Follow(disabled="Serve solo con l'esperimento «togli una parola».")
    elif pos == 0:
        rules["tolta"] = Follow(disabled="Il token scelto è il primo: prima di lui non c'è niente da togliere.")
    else:
        rules["tolta"] = Follow(max=pos)  # only the words before the chosen token
    if not s["sampling"]:
        rules["temperatura"] = Follow(disabled="Conta solo con il campionamento.")
    if not s["sampling"] or not s["asked"]:
        rules["seme"] = Follow(disabled="Conta solo quando il modello aggiunge token estratti a caso.")
    return rules


# ---------------------------------------------------------------- view


def word(i):
    return quoted(VOCAB[i])


def name(i):
    """A token in a label: the end token in quotes, or a lone «.» would read as punctuation."""
    return word(i) if i == END else VOCAB[i]


def best_of(probs):
    return greedy(probs)  # a tie goes to the lowest ID, as in mini_generate


def chips(s):
    """The sentence, one clickable chip per token, the chosen one lit and followed by its prediction."""
    ignored = s["ignored"]
    return token_chips(
        [
            {
                "text": VOCAB[i],
                "note": f"{k + 1} · ID {i}",
                "set": f"posizione={k + 1}",
                "marks": ["is-new"] * (k >= s["n_base"]) + ["is-removed"] * (k in ignored),
                "title": f"Guarda la previsione dopo {word(i)}, token {k + 1}"
                + (" (tolto dall'attention)" if k in ignored else ""),
            }
            for k, i in enumerate(s["ids"])
        ],
        current=s["pos"],
        after=f"→ {name(best_of(s['probs']))}?",
    )


def buttons(s):
    n, length = len(s["generated"]), len(s["ids"])
    can_add = not s["finished"] and s["asked"] < MAX_NEW
    add = tag(
        "button",
        "Aggiungi il token previsto",
        type="button",
        class_="md-button md-button--primary",
        data_set=f"generati={s['asked'] + 1};posizione={length + 1}" if can_add else None,
        disabled=not can_add,
    )
    undo = tag(
        "button",
        "Togli l'ultimo",
        type="button",
        class_="md-button",
        data_set=f"generati={n - 1};posizione={length - 1}" if n else None,
        disabled=not n,
    )
    note = None
    if s["finished"]:
        note = (
            f"La frase è finita dopo {plural(n, 'token aggiunto', 'token aggiunti')}: il modello ha scelto il "
            "punto «.», il token di fine."
        )
    elif not can_add:
        note = f"Qui il modello aggiunge al massimo {MAX_NEW} token."
    return tag(
        "div",
        add,
        undo,
        tag("span", note, class_="lab-transformer-miniatura-note") if note else None,
        class_="lab-transformer-miniatura-buttons",
    )


def panel(number, title, *content, part):
    return tag(
        "section",
        tag("h3", f"{number} · {title}"),
        *content,
        class_="lab-panel lab-transformer-miniatura-panel",
        data_part=part,
    )


def panel_ids(s):
    seen = set(s["ids"][: s["pos"] + 1])
    vocab = token_chips(
        [{"text": t, "note": str(i), "marks": ["is-used"] * (i in seen)} for i, t in enumerate(VOCAB)],
        small=True,
        part=None,
    )
    shown = s["ids"][: s["pos"] + 1]
    return panel(
        1,
        "Dai token agli ID",
        tag("p", "Il vocabolario: 12 token, ciascuno con il suo numero d'ordine (l'ID)."),
        vocab,
        formula(" ".join(VOCAB[i] for i in shown), "  →  [", ", ".join(str(i) for i in shown), "]"),
        part="id",
    )


# E and W_q do not change with the controls: each is drawn once and kept (160 cells, a third of the view's
# time), keyed by its numbers (tuples), so a reader's edited weights still show their own.
@lru_cache(maxsize=4)
def e_matrix(values):
    return matrix(
        values, label="E", row_labels=[f"{i} {name(i)}" for i in range(len(VOCAB))], col_labels=DIMS, heat=1.0
    )


@lru_cache(maxsize=4)
def w_q_matrix(values):
    return matrix(values, label="W_q", row_labels=DIMS, col_labels=DIMS, heat=True)


def panel_embeddings(s):
    ids, pos = s["ids"], s["pos"]
    labels = [f"{k + 1}. {name(i)}" for k, i in enumerate(ids)]
    return panel(
        2,
        "Gli embedding: una riga di E per token",
        matrix(
            [E[i] for i in ids],
            label="X, i vettori della frase",
            row_labels=labels,
            col_labels=DIMS,
            highlight_rows=[pos],
            muted_rows=range(pos + 1, len(ids)),
            heat=1.0,
            pick_row=lambda i: (f"posizione={i + 1}", f"Scegli il token {labels[i]}"),
            part="embedding",
            caption="Ogni riga è la riga di E dell'ID del token. Le righe sbiadite vengono dopo il "
            "token scelto: l'attention non le vede.",
        ),
        fold(
            "La tabella E completa: 12 token × 8 dimensioni",
            "tabella-e",
            s["open"]["tabella-e"],
            lambda: [e_matrix(frozen(E))],
        ),
        part="embedding",
    )


def panel_attention(s):
    ids, pos, att = s["ids"], s["pos"], s["attention"]
    me = word(ids[pos])
    weights = [
        Bar(
            f"{k + 1}. {name(i)}",
            a,
            text=f"tolta   (punteggio {num(z)})" if k in s["ignored"] else f"{percent(a)}   (punteggio {num(z)})",
            highlight=k == pos,
            class_="muted" if k in s["ignored"] else "s1",
        )
        for k, (i, a, z) in enumerate(zip(ids, att["weights"], att["scores"]))
    ]
    after, before = att["output"], s["x"]
    changed = [j for j in range(len(DIMS)) if abs(after[j] - before[j]) >= 0.005]
    average = " + ".join(
        f"{num(a)} × {name(i)}" for k, (i, a) in enumerate(zip(ids, att["weights"])) if k not in s["ignored"]
    )
    seen = [k for k in range(pos) if k not in s["ignored"]]
    top = max(seen, key=lambda k: att["weights"][k]) if seen else None
    return panel(
        3,
        f"L'attention: {me} guarda indietro",
        tag("p", f"La domanda di {me} è il suo vettore per W_q: dice quali caratteristiche cerca."),
        equation(
            vector(before, label=f"x di {me}", labels=DIMS, column=False, shape=False),
            "· W_q =",
            vector(att["query"], label="domanda q", labels=DIMS, column=False, shape=False, heat=True, part="domanda"),
        ),
        fold(
            "La matrice W_q (8 × 8): riga = caratteristica del token, colonna = che cosa cerca",
            "matrice-wq",
            s["open"]["matrice-wq"],
            lambda: [w_q_matrix(frozen(W_Q))],
        ),
        tag(
            "p",
            "Punteggio = domanda · vettore di ogni token fino a lì; la softmax li fa diventare pesi che sommano a 1.",
        ),
        bars(weights, label=f"I pesi dell'attention di {me}", part="pesi"),
        callout(f"{me} è il primo token: non ha niente prima di sé, e la media è lui stesso.")
        if pos == 0
        else callout(f"Attention spenta: {me} non guarda nessun altro token, e la media è lui stesso.", tone="warn")
        if top is None
        else formula(
            f"il punteggio più alto prima di {me}: q · x({name(ids[top])}) = "
            f"{num(att['scores'][top])} → peso {percent(att['weights'][top])}"
        ),
        tag("p", "Il nuovo vettore è la media pesata dei vettori: ", average, "."),
        matrix(
            [before, after],
            row_labels=[f"{name(ids[pos])} prima", "dopo l'attention"],
            col_labels=DIMS,
            highlight_cells=[(1, j) for j in changed],
            heat=1.0,
            shape=False,
            part="vettore",
            caption="Evidenziate le dimensioni che l'attention ha cambiato."
            if changed
            else "Con un solo token da guardare, la media non cambia niente.",
        ),
        tag("p", "Con l'esperimento, le parole tolte hanno peso 0 e le altre si dividono tutta la softmax.")
        if s["ignored"]
        else None,
        part="attention",
    )


def adds_text(adds):
    return ", ".join(f"{d} {num(v, 0, signed=True)}" for d, v in adds.items())


def panel_mlp(s):
    m, x = s["mlp"], s["attention"]["output"]
    rows = []
    for k, ((rule, gate, adds), pre, g) in enumerate(zip(RULES, m["pre"], m["gates"])):
        terms = " ".join(
            f"{'+' if w > 0 else '−'} {num(abs(w), 0)} × {num(x[DIMS.index(d)])}" for d, w in gate.items()
        ).lstrip("+ ")
        on = g > 0
        rows.append(
            [
                str(k + 1),
                tag("strong", rule) if on else rule,
                settle(f"{terms} = {num(pre)}"),
                tag("strong", num(g)) if on else "0 (spenta)",
                adds_text(adds) + (f"  (× {num(g)})" if on else ""),
            ]
        )
    fired = sum(g > 0 for g in m["gates"])
    fired = (
        "Nessuna regola accesa."
        if not fired
        else f"{'Accesa' if fired == 1 else 'Accese'} {plural(fired, 'regola', 'regole')} su {len(RULES)}."
    )
    return panel(
        4,
        "L'MLP: sette regole che si accendono",
        tag(
            "p",
            "Ogni regola è un neurone: fa il prodotto scalare tra il vettore e i suoi pesi (+ sulla "
            "caratteristica che cerca, − su quella che la spegne), poi la ReLU tiene solo la parte "
            "positiva. Quanto è accesa moltiplica quello che aggiunge.",
        ),
        table(
            ["#", "Regola", "Prodotto scalare", "Accesa (ReLU)", "Aggiunge, se accesa del tutto"],
            rows,
            class_="lab-table lab-transformer-miniatura-rules",
        ),
        matrix(
            [x, m["contribution"], m["output"]],
            row_labels=[
                "ingresso",
                "+ contributo",
                f"{columns_add_up([x, m['contribution']], m['output'], cell_text)} uscita",
            ],
            col_labels=DIMS,
            heat=True,
            highlight_rows=[2],
            shape=False,
            part="mlp",
            caption=f"{fired} Connessione residua: uscita = ingresso + contributo.",
        ),
        part="mlp",
    )


def panel_output(s):
    z, p, pt = s["logits"], s["probs"], s["probs_t"]
    whole = s["whole_probs"]
    if whole:  # the experiment against the whole model: both at T = 1
        pt = p
    order = sorted(range(len(VOCAB)), key=lambda t: (-pt[t], t))
    h = s["mlp"]["output"]
    best = order[0]
    tied = [t for t in range(len(VOCAB)) if abs(p[t] - max(p)) < 1e-12]
    terms = " + ".join(f"{num(h[j])} × {num(E[best][j])}" for j in range(len(DIMS)) if E[best][j])  # one format
    if whole:
        shown = order[:6] + [t for t in (best_of(whole),) if t not in order[:6]]
        texts = dict(zip(shown, shares([p[t] for t in shown], 1)))
        items = [Bar(name(t), p[t], text=texts[t], highlight=t == best, before=whole[t]) for t in shown]
        label, before_label = "Probabilità con l'esperimento (temperatura 1)", "il modello intero"
    else:
        texts = dict(zip(order[:6], shares([pt[t] for t in order[:6]], 1)))
        items = [
            Bar(
                name(t),
                pt[t],
                text=texts[t],
                highlight=t == best,
                before=p[t] if s["sampling"] and s["t"] != 1 else None,
            )
            for t in order[:6]
        ]
        label = (
            f"Probabilità dei 6 token più probabili, temperatura {num(s['t'], 1)}"
            if s["sampling"]
            else "Probabilità dei 6 token più probabili"
        )
        before_label = "con temperatura 1" if items[0].before is not None else ""
    return panel(
        5,
        "Il confronto con il vocabolario",
        tag(
            "p",
            "Punteggio di ogni token = vettore finale · la sua riga di E: è alto se il token ha le "
            "caratteristiche che il vettore chiede.",
        ),
        matrix(
            [z],
            label="punteggi z",
            col_labels=[name(t) for t in range(len(VOCAB))],
            heat=True,
            highlight_cells=[(0, best)],
            shape=False,
            part="punteggi",
        ),
        formula(f"z({name(best)}) = {terms} = {num(z[best])}"),
        bars(items, label=label, before_label=before_label, part="probabilita"),
        experiment_note(s),
        stats(stat("Previsione (greedy)", name(best_of(p))), stat("Sua probabilità (T = 1)", percent(max(p), 1))),
        callout(
            f"{' e '.join(word(t) for t in tied)} hanno la stessa probabilità: per il modello sono "
            f"intercambiabili, e la scelta greedy prende l'ID più basso."
        )
        if len(tied) > 1
        else None,
        part="output",
    )


def experiment_note(s):
    """What the experiment changed, in words: the prediction, and the tokens that moved most."""
    if s["experiment"] == "nessuno":
        return None
    ids, me = s["ids"], word(s["ids"][s["pos"]])
    if not s["ignored"]:
        return callout(f"{me} è il primo token: guarda solo sé stesso, e l'esperimento non ha niente da togliere.")
    what = (
        f"Spegnendo l'attention di {me}"
        if s["experiment"] == "spegni"
        else f"Togliendo {word(ids[s['ignored'][0]])} (parola {s['ignored'][0] + 1}) dall'attention di {me}"
    )
    before, after = s["whole_probs"], s["probs"]
    old, new = best_of(before), best_of(after)
    verdict = f"la previsione passa da {word(old)} a {word(new)}" if old != new else f"la previsione resta {word(new)}"
    moved = sorted(range(len(VOCAB)), key=lambda t: (-abs(after[t] - before[t]), t))[:3]
    changes = "; ".join(f"{word(t)} {percent(before[t], 1)} → {percent(after[t], 1)}" for t in moved)
    return callout(
        f"{what}, {verdict}. I token che si spostano di più: {changes}.", tone="warn" if old != new else "info"
    )


def panel_generation(s):
    if not s["generated"]:
        return None
    rows = []
    sentence = list(s["ids"][: s["n_base"]])
    for k, g in enumerate(s["generated"], 1):
        how = (
            f"estratto con u = {num(g['u'], 3)} (probabilità {percent(g['p_used'], 1)} a T = {num(s['t'], 1)})"
            if s["sampling"]
            else "il più probabile"
        )
        rows.append([str(k), " ".join(VOCAB[i] for i in sentence) + " …", name(g["id"]), percent(g["p"], 1), how])
        sentence.append(g["id"])
    return tag(
        "section",
        tag("h3", "La generazione, un token alla volta"),
        table(["Passo", "Il modello legge", "Aggiunge", "Probabilità (T = 1)", "Come"], rows),
        callout(
            f"u è il numero casuale, tra 0 e 1, tirato dal generatore con il seme {s['seed']}: le "
            "probabilità, messe in fila per ID, dividono l'intervallo da 0 a 1 in fette, e vince il token "
            "sulla cui fetta cade u. Stesso seme, stessa temperatura: stessa frase, sempre."
            if s["sampling"]
            else "Greedy: nessun caso, la frase è sempre la stessa."
        ),
        class_="lab-panel lab-transformer-miniatura-panel",
        data_part="generazione",
    )


def view(s):
    if "problem" in s:
        return tag("div", callout(s["problem"], tone="warn"), class_="lab-transformer-miniatura")
    return tag(
        "div",
        chips(s),
        buttons(s),
        panel_ids(s),
        panel_embeddings(s),
        panel_attention(s),
        panel_mlp(s),
        panel_output(s),
        panel_generation(s),
        class_="lab-transformer-miniatura",
    )


EDITS = [
    Edit(
        "il blocco senza la connessione residua",
        change=(
            '        "output": [a + b for a, b in zip(x, contribution)],',
            '        "output": contribution,',
        ),
        expect="Dal blocco esce solo ciò che aggiungono i neuroni, senza il vettore di partenza: quello che "
        "l'attention aveva raccolto si perde e le probabilità dopo «sul» cambiano.",
        check=lambda before, after: after.state["probs"] != before.state["probs"],
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con «il cane nero mangia sul» il verbo trovato è «mangia» e in testa passa il tappeto.",
        {"frase": "mangia", "posizione": 5, "esperimento": "nessuno", "generati": 0},
        "probabilita",
        lambda s: max(range(len(s["probs"])), key=s["probs"].__getitem__) == VOCAB.index("tappeto"),
        after="una parola alla volta",
    ),
    Experiment(
        "Togli «dorme» dall'attention: il letto scende sotto il tappeto e in testa resta il divano.",
        {"frase": "gatto", "posizione": 5, "esperimento": "togli", "tolta": 4, "generati": 0},
        "probabilita",
        lambda s: (
            s["probs"][VOCAB.index("letto")] < s["probs"][VOCAB.index("tappeto")] < s["probs"][VOCAB.index("divano")]
        ),
        after="una parola alla volta",
    ),
]
