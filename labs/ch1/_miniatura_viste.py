"""La vista di 1.4 (labs/ch1/transformer_miniatura.py): la frase in token, e un pannello per ogni tappa del
modello (ID, embedding, attention, MLP, uscita, generazione)."""

from functools import lru_cache

from core.sampling import greedy
from labs.kit import Bar
from labs.kit import bars
from labs.kit import callout
from labs.kit import equation
from labs.kit import fold
from labs.kit import formula
from labs.kit import frozen
from labs.kit import matrix
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import plural
from labs.kit import quoted
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag
from labs.kit import token_chips
from labs.kit import vector
from labs.kit.arithmetic import columns_add_up
from labs.kit.arithmetic import settle
from labs.kit.cells import cell_text
from labs.kit.italian import shares

from ._miniatura_pesi import DIMS
from ._miniatura_pesi import END
from ._miniatura_pesi import MAX_NEW
from ._miniatura_pesi import RULES
from ._miniatura_pesi import VOCAB
from ._miniatura_pesi import W_Q
from ._miniatura_pesi import E


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


def stage(number, title, *content, part):
    return panel(*content, title=f"{number} · {title}", class_="lab-transformer-miniatura-panel", part=part)


def panel_ids(s):
    seen = set(s["ids"][: s["pos"] + 1])
    vocab = token_chips(
        [{"text": t, "note": str(i), "marks": ["is-used"] * (i in seen)} for i, t in enumerate(VOCAB)],
        small=True,
        part=None,
    )
    shown = s["ids"][: s["pos"] + 1]
    return stage(
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
    return stage(
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
    return stage(
        3,
        f"L'attention: {me} guarda indietro",
        tag("p", f"La domanda di {me}, la sua query q, è il suo vettore x per W_q: dice quali caratteristiche cerca."),
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
    return stage(
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
            wrap=(1, 2, 4),
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
    return stage(
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
        stats(
            stat("Previsione (greedy)", name(best_of(p))),
            stat("Sua probabilità (temperatura T = 1)", percent(max(p), 1)),
        ),
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
            f"estratto con u = {num(g['u'], 3)}: {percent(g['p_used'], 1)} a T = {num(s['t'], 1)}"
            if s["sampling"]
            else "il più probabile"
        )
        rows.append([str(k), " ".join(VOCAB[i] for i in sentence) + " …", name(g["id"]), percent(g["p"], 1), how])
        sentence.append(g["id"])
    return panel(
        table(["Passo", "Il modello legge", "Aggiunge", "Probabilità (T = 1)", "Come"], rows, wrap=(1, 3, 4)),
        callout(
            f"u è il numero casuale, tra 0 e 1, tirato dal generatore con il seme {s['seed']}: le "
            "probabilità, messe in fila per ID, dividono l'intervallo da 0 a 1 in fette, e vince il token "
            "sulla cui fetta cade u. Stesso seme, stessa temperatura: stessa frase, sempre."
            if s["sampling"]
            else "Greedy: nessun caso, la frase è sempre la stessa."
        ),
        title="La generazione, un token alla volta",
        class_="lab-transformer-miniatura-panel",
        part="generazione",
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
