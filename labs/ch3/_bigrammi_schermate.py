"""Le otto schermate di 3.1 (labs/ch3/bigrammi.py), una per fase dell'allenamento: il dataset, i token, i
batch, il forward, la loss, il backward, l'aggiornamento e il riepilogo, ognuna disegnata dallo stato."""

from labs.kit import Marker
from labs.kit import Series
from labs.kit import callout
from labs.kit import factor
from labs.kit import formula
from labs.kit import join
from labs.kit import line_chart
from labs.kit import matrix
from labs.kit import num
from labs.kit import percent
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag


def short(token):
    """Un token accorciato a nove caratteri al massimo, per le etichette della tabella."""
    return token if len(token) <= 9 else token[:8] + "…"


def pair_text(s, pair):
    return f"{short(s['vocab'][pair[0]])} → {short(s['vocab'][pair[1]])}"


def chips(s, batch, current=False):
    return tag(
        "span",
        *(tag("span", pair_text(s, pr), class_="lab-bigrammi-pair") for pr in batch),
        class_="lab-bigrammi-chips" + (" is-current" if current else ""),
    )


def grid(s, values, label, rows=None, present=None, part=None, **kw):
    """A V × V (or B × V) table with tokens on the columns. Rows outside
    `present` fade (this step does not touch them); the names of the others
    stand out."""
    names = [short(t) for t in s["vocab"]]
    muted = [] if present is None else [i for i in range(len(values)) if i not in present]
    if present is not None:
        names = [tag("span", t, class_="is-on") if i in present else t for i, t in enumerate(names)]
    return matrix(
        values,
        label=label,
        row_labels=rows or names,
        col_labels=[short(t) for t in s["vocab"]],
        muted_rows=muted,
        trim=False,
        part=part,
        **kw,
    )


def exact_zeros(values, present):
    """Rows outside the batch as the integer 0: shown «0», not «0,00», because they are exactly zero."""
    return [row if i in present else [0] * len(row) for i, row in enumerate(values)]


def header(s):
    """Where the training is (the timeline counts the steps) and the batch of this round, from the first batch on."""
    parts = [
        tag(
            "p",
            f"Epoch {s['epoch']} · batch {s['number']} di {s['per_epoch']} · aggiornamento {s['update']} di {s['updates']}",
            class_="lab-bigrammi-where",
        ),
        tag("p", "Il batch: ", chips(s, s["batch"], current=True), class_="lab-bigrammi-batch"),
    ]
    if s["number"] == 1 and s["epoch"] > 1 and s["screen"] == 4:
        parts.append(
            callout(
                f"Inizia l'epoch {s['epoch']}: tutte le {s['n_pairs']} coppie sono state viste, "
                "ora si rimescolano e si ricomincia dal primo batch."
            )
        )
    return parts


def view_dataset(s):
    return [
        tag("div", *(tag("p", line) for line in s["text"]), class_="lab-bigrammi-corpus"),
        stats(
            stat("Righe", num(len(s["text"]))),
            stat("Token", num(s["n_tokens"])),
            stat("Parole diverse", num(len(s["vocab"]))),
        ),
        callout("Niente etichette, niente domande scritte a mano: il testo stesso dirà che cosa viene dopo."),
    ]


def view_tokens(s):
    vocab = s["vocab"]
    token = lambda i: tag("span", tag("span", short(vocab[i])), tag("small", str(i)), class_="lab-bigrammi-tok")  # noqa: E731
    return [
        tag("p", "Il vocabolario: ogni parola diversa riceve un ID, nell'ordine in cui compare."),
        tag("div", *(token(i) for i in range(len(vocab))), class_="lab-bigrammi-tokens"),
        tag("p", f"Il corpus diventa una sequenza di {s['n_tokens']} ID:"),
        *(tag("div", *(token(i) for i in line), class_="lab-bigrammi-tokens is-line") for line in s["lines"]),
        callout(
            f"La tabella dei pesi avrà una riga e una colonna per ogni token: "
            f"{len(vocab)} × {len(vocab)} = {num(len(vocab) ** 2)} numeri."
        ),
    ]


def view_batches(s):
    rows = [
        join(tag("strong", f"Batch {k}"), " ", chips(s, b, current=k == 1)) for k, b in enumerate(s["epoch_batches"], 1)
    ]
    return [
        tag(
            "p",
            f"Ogni token e quello che lo segue formano un esempio: {s['n_tokens']} token danno "
            f"{s['n_pairs']} coppie (token attuale → token successivo).",
        ),
        tag("p", chips(s, s["pairs"])),
        tag(
            "p",
            f"Con il seme {s['seed']} le coppie si mescolano e si dividono in {s['per_epoch']} batch "
            f"da {s['size']}{' (l’ultimo è più corto)' if s['n_pairs'] % s['size'] else ''}. Il batch 1 "
            "è il primo che il modello vedrà; quando li avrà visti tutti sarà passata un'epoch.",
        ),
        tag("div", *(tag("p", r) for r in rows), class_="lab-bigrammi-batches"),
    ]


def example_rows(s):
    return [f"{k}. {short(s['vocab'][cur])} →" for k, (cur, _) in enumerate(s["batch"], 1)]


def view_forward(s):
    cur, nxt = s["batch"][0]
    vocab, row = s["vocab"], s["W"][cur]
    power = lambda w: join("e", tag("sup", num(w)))  # noqa: E731
    terms = row if len(row) <= 4 else row[:3]
    denominator = join(
        *(join(" + " if i else "", power(w)) for i, w in enumerate(terms)), " + …" if len(terms) < len(row) else ""
    )
    return [
        tag(
            "p",
            "Per ogni esempio il modello legge nella tabella W la riga del token attuale e le applica la "
            "softmax: escono le probabilità di tutti i token successivi.",
        ),
        grid(
            s,
            s["W"],
            "W, i pesi",
            present={c for c, _ in s["batch"]},
            highlight_cells=[tuple(pr) for pr in s["batch"]],
            heat=True,
            part="pesi",
        ),
        grid(
            s,
            s["probs"],
            "Probabilità (softmax delle righe lette)",
            rows=example_rows(s),
            highlight_cells=[(k, n) for k, (_, n) in enumerate(s["batch"])],
            heat=1.0,
            shape=False,
            part="probabilita",
            caption="Evidenziata, in ogni riga, la probabilità del token giusto.",
        ),
        formula(
            f"p({vocab[nxt]} | {vocab[cur]}) = ", power(row[nxt]), " / (", denominator, f") = {num(s['p_right'][0], 3)}"
        ),
    ]


def view_loss(s):
    rows = [
        [f"{k}. {pair_text(s, pr)}", num(p, 3), num(loss, 3)]
        for k, (pr, p, loss) in enumerate(zip(s["batch"], s["p_right"], s["losses"]), 1)
    ]
    rows.append([tag("strong", "media: loss del batch"), "", tag("strong", num(s["loss"], 3))])
    return [
        tag(
            "p",
            "Ogni esempio conta solo la probabilità data al token giusto: loss = −log p. La loss del batch è la media.",
        ),
        table(["Esempio", "p(giusto)", "−log p"], rows),
        stats(
            stat("Loss del batch", num(s["loss"], 3)),
            stat(f"Tirando a caso tra {len(s['vocab'])}", f"log {len(s['vocab'])} = {num(s['uniform'], 3)}"),
        ),
    ]


def view_backward(s):
    present = {c for c, _ in s["batch"]}
    absent = [short(t) for i, t in enumerate(s["vocab"]) if i not in present]
    currents = [c for c, _ in s["batch"]]
    often = max(present, key=currents.count)
    return [
        tag(
            "p",
            "Per ogni esempio il gradiente rispetto alla riga letta è p − y: la probabilità data a ogni "
            "token, meno 1 sul token giusto. Negativo vuol dire «alza questo peso».",
        ),
        grid(
            s,
            s["residuals"],
            "p − y, esempio per esempio",
            rows=example_rows(s),
            heat=1.0,
            shape=False,
            highlight_cells=[(k, n) for k, (_, n) in enumerate(s["batch"])],
            part="residui",
        ),
        formula(f"gradiente[riga a] = (1/{s['size']}) · somma di p − y sugli esempi con token attuale a"),
        None
        if currents.count(often) < 2
        else tag(
            "p",
            f"«{short(s['vocab'][often])}» è il token attuale di {currents.count(often)} esempi: "
            f"la sua riga somma i loro contributi, ciascuno diviso per {s['size']}.",
        ),
        grid(
            s,
            exact_zeros(s["G"], present),
            "Gradiente della loss del batch",
            present=present,
            heat=True,
            part="gradiente",
        ),
        callout(
            f"Le righe grigie ({', '.join(absent)}) sono a zero, esattamente: quei token non sono il token "
            f"attuale di nessun esempio del batch, quindi questo batch non dice niente sulle loro righe."
            if absent
            else "Ogni token è il token attuale di qualche esempio: nessuna riga resta a zero.",
            tone="warn" if absent else "info",
        ),
    ]


def view_update(s):
    cur, nxt = s["batch"][0]
    present = {c for c, _ in s["batch"]}
    w, g = s["W"][cur][nxt], s["G"][cur][nxt]
    scale = max(abs(x) for row in s["W"] + s["after"] for x in row)
    better = s["loss_after"] < s["loss"]
    rising = [(i, j) for i, row in enumerate(s["delta"]) for j, d in enumerate(row) if d > 0]
    return [
        formula(
            f"w ← w − η·gradiente, con η = {num(s['eta'], 1)}.  Per esempio w[{s['vocab'][cur]}, "
            f"{s['vocab'][nxt]}]: {num(w, 3)} − {num(s['eta'], 1)} × {factor(g, 3)} = "
            f"{num(s['after'][cur][nxt], 3)}"
        ),
        grid(
            s,
            exact_zeros(s["delta"], present),
            "Lo spostamento −η·gradiente",
            present=present,
            heat=True,
            part="spostamento",
        ),
        grid(
            s,
            s["after"],
            "W dopo l'aggiornamento",
            present=present,
            heat=scale,
            part="pesi-dopo",
            highlight_cells=rising,
            caption="Evidenziate le caselle che salgono: sono sempre coppie del batch. "
            "Il resto delle righe toccate scende un poco.",
        ),
        stats(
            stat("Loss del batch prima", num(s["loss"], 3)),
            stat("… e dopo", num(s["loss_after"], 3), tone="ok" if better else "warn"),
            stat("Loss su tutto il dataset", f"{num(s['data_before'], 3)} → {num(s['data_after'], 3)}"),
        ),
    ]


def view_summary(s):
    vocab, k = s["vocab"], s["picked"]
    xs = range(len(s["curve"]))
    chart = line_chart(
        [
            Series("su tutto il dataset", tuple(zip(xs, s["curve"]))),
            Series("sul batch di turno", tuple(zip(xs, s["batch_curve"])), class_="s2", markers=True, line=False),
        ],
        markers=[
            Marker(s["best"], f"minimo possibile, {num(s['best'])}", class_="s3", axis="y"),
            Marker(s["uniform"], f"tirando a caso (log {len(vocab)})", class_="muted", axis="y"),
        ],
        label="La loss dopo ogni aggiornamento",
        x_range=(0, max(5, len(s["curve"]) - 1)),
        y_range=(0, max(s["curve"] + s["batch_curve"]) * 1.05),
        x_label="aggiornamenti fatti",
        y_label="loss",
        height=240,
    )
    shown = sorted(set(s["top"]) | {j for j, f in enumerate(s["freq"]) if f > 0}, key=lambda j: -s["P"][k][j])
    rows = [[vocab[j], percent(s["P"][k][j]), percent(s["freq"][j]) if s["freq"][j] else "—"] for j in shown]
    pick = lambda i: (f"parola={i}", f"Scegli «{vocab[i]}» per la previsione")  # noqa: E731
    if s["update"] == s["updates"]:
        after = "Fine dei 100 aggiornamenti: Ricomincia, o cambia η, batch e seme e rifai il giro."
    elif s["number"] == s["per_epoch"]:
        after = f"Avanti: i batch sono finiti, le coppie si rimescolano e inizia l'epoch {s['epoch'] + 1}."
    else:
        after = f"Avanti: si torna al forward con il batch {s['number'] + 1} di {s['per_epoch']}."
    return [
        tag("div", chart, id="vista-curva"),
        grid(
            s,
            s["P"],
            "Che cosa prevede ora (probabilità riga per riga)",
            heat=True,
            highlight_rows=[k],
            pick_row=pick,
            part="previsioni",
            caption="Clicca una riga per scegliere la parola.",
        ),
        tag("p", f"Dopo «{vocab[k]}»: le previsioni più probabili del modello e quello che dice il corpus."),
        table(["Token successivo", "Il modello ora", "Nel corpus"], rows),
        None
        if any(s["freq"])
        else callout(
            f"Nel corpus «{vocab[k]}» non è mai seguito da niente: la sua riga non riceve mai correzioni.", tone="warn"
        ),
        callout(after),
    ]


SCREEN_VIEWS = (
    view_dataset,
    view_tokens,
    view_batches,
    view_forward,
    view_loss,
    view_backward,
    view_update,
    view_summary,
)
