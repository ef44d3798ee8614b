"""La vista di 3.2 (labs/ch3/transformer_allenato.py) e le sue sezioni: la curva della loss, il confronto con il
bigramma, le mappe di attention, il piano degli embedding, i gradienti per strato e una matrice da vicino."""

import math

from labs.kit import Bar
from labs.kit import Marker
from labs.kit import Point
from labs.kit import Series
from labs.kit import bars
from labs.kit import callout
from labs.kit import fold
from labs.kit import heat
from labs.kit import join
from labs.kit import line_chart
from labs.kit import matrix
from labs.kit import nice_ticks
from labs.kit import num
from labs.kit import plane
from labs.kit import plural
from labs.kit import share
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag

from ._allenato_regole import CONTEXT
from ._allenato_regole import EVAL_EVERY
from ._allenato_regole import GENERATED
from ._allenato_regole import MATRICES
from ._allenato_regole import PARTS
from ._allenato_regole import SAMPLE_EVERY
from ._allenato_regole import STEPS
from ._allenato_regole import UNITS


def last_eval(s):
    return dict(zip(("step", "train", "held", "bigram_train", "bigram_held"), s["evals"][-1]))


def loss_chart(s):
    """Both models on one chart, on axes fixed for the whole training: the curves grow, they never show the future."""
    evals = s["evals"]
    at = [e[0] for e in evals]
    series = [
        Series("transformer, loss del batch", tuple(enumerate(s["batch_losses"])), class_="muted"),
        Series(
            "transformer, testo di training",
            tuple(zip(at, (e[1] for e in evals))),
            class_="s1",
            markers=len(evals) == 1,
        ),
        Series(
            "transformer, testo tenuto da parte",
            tuple(zip(at, (e[2] for e in evals))),
            class_="s2",
            markers=len(evals) == 1,
        ),
        Series(
            "bigramma, testo di training", tuple(zip(at, (e[3] for e in evals))), class_="s3", markers=len(evals) == 1
        ),
    ]
    top = max(s["uniform"], s["batch_losses"][0]) * 1.1  # the first loss, about log V, in sight from step 0
    return line_chart(
        series,
        markers=[Marker(s["bigram_best"], "il meglio di un bigramma", class_="s3", axis="y")],
        x_range=(0, STEPS),
        y_range=(0, top),
        x_label="passo di training",
        y_label="loss",
        height=320,
        label=f"La loss dei due modelli fino al passo {num(s['step'])}",
    )


def headline(s):
    e = last_eval(s)
    below = e["train"] < s["bigram_best"]
    return stats(
        stat(f"Loss sul training (passo {num(e['step'])})", num(e["train"], 3), tone="ok" if below else None),
        stat("Il meglio di un bigramma", num(s["bigram_best"], 3)),
        stat("Loss sul testo da parte", num(e["held"], 3)),
        stat("Pesi del transformer", num(s["counts"]["total"])),
    )


def comparison(s):
    """The two models side by side: their numbers in a table, then what each writes from the same prompt."""
    e, g = last_eval(s), s["samples"]
    rows = [
        [tag("strong", name), num(params_), num(train, 3), num(held, 3), num(math.exp(held), 1)]
        for name, params_, train, held in (
            ("Bigramma", s["bigram_params"], e["bigram_train"], e["bigram_held"]),
            ("Transformer", s["counts"]["total"], e["train"], e["held"]),
        )
    ]
    parts = [
        tag("h3", "Bigramma e transformer, sullo stesso testo"),
        table(
            ["", "Pesi", "Loss, training", "Loss, da parte", "Perplexity, da parte"],
            rows,
            class_="lab-table lab-transformer-allenato-compare",
        ),
        tag(
            "p",
            f"Loss misurate al passo {num(e['step'])} (ogni {EVAL_EVERY} passi); la perplexity è e elevato alla "
            "loss: tra quanti token, in media, il modello esita.",
            class_="lab-transformer-allenato-note",
        ),
    ]
    if "problem" in g:
        return parts + [callout(g["problem"], tone="warn")]
    said = lambda text: join(tag("span", g["prompt"], class_="lab-transformer-allenato-prompt"), " ", text)  # noqa: E731
    for k, how in enumerate(
        ("Greedy, sempre il token più probabile", f"Campionato con temperatura {num(g['temperature'], 1)}")
    ):
        parts.append(
            tag(
                "div",
                tag("p", how, class_="lab-transformer-allenato-how"),
                *(
                    tag("p", tag("strong", f"{name}: "), said(g[model][k]), class_="lab-transformer-allenato-sample")
                    for name, model in (("Bigramma", "bigram"), ("Transformer", "transformer"))
                ),
                class_="lab-transformer-allenato-samples",
                data_part="greedy" if k == 0 else "campionato",
            )
        )
    parts.append(
        tag(
            "p",
            f"Testo generato con i pesi del passo {num(g['at'])}: si rigenera ogni {SAMPLE_EVERY} passi, "
            f"{plural(GENERATED[s['kind']], 'token', 'token')} per modello.",
            class_="lab-transformer-allenato-note",
        )
    )
    return parts


def sharpness(A):
    """The mean, over the rows, of the largest weight: 1 when every row looks at one token only."""
    return sum(max(row) for row in A) / len(A)


def attention_section(s):
    a = s["attention"]
    if "problem" in a:
        body = [callout(a["problem"], tone="warn")]
    else:
        names = a["tokens"]
        heats = []
        for layer, heads in enumerate(a["maps"]):
            for h, A in enumerate(heads):
                cells = [[w if j <= i else None for j, w in enumerate(row)] for i, row in enumerate(A)]
                label = f"Blocco {layer + 1} · testa {h + 1}" if s["config"]["layers"] > 1 else f"Testa {h + 1}"
                heats.append(
                    matrix(
                        cells,
                        label=label,
                        row_labels=names,
                        col_labels=names,
                        heat=1.0,
                        shape=False,
                        part=f"attention-{layer}-{h}",
                        caption=f"peso più alto per riga, in media: {num(sharpness(A), 2)}",
                    )
                )
        body = [
            tag(
                "p",
                "Ogni riga è un token che guarda indietro, sé stesso compreso: i suoi pesi sommano a 1. "
                "Le caselle vuote sono i token dopo, che la maschera causale nasconde."
                + (f" Della frase restano gli ultimi {CONTEXT} token, quanti ne legge il modello." if a["cut"] else ""),
                class_="lab-transformer-allenato-note",
            ),
            tag("div", *heats, class_="lab-transformer-allenato-heads"),
        ]
    return tag(
        "details",
        tag("summary", "Le mappe di attention"),
        *body,
        open=True,
        class_="lab-section",
        data_part="attention",
    )


def embedding_section(s):
    e, vocab = s["embedding"], s["vocab"]
    pts = e["points"]
    reach = max(max(abs(c) for pt in pts for c in pt), 1e-9) * 1.2
    ticks, _ = nice_ticks(-reach, reach, 4)
    grid = ticks[1] - ticks[0] if len(ticks) > 1 else reach
    items = [Point(tuple(xy), t, style=role) for t, xy, role in zip(vocab, pts, s["roles"])]
    legend = (
        "I colori sono i ruoli delle parole nel testo proposto: in blu chi fa, in arancione i verbi, in "
        "viola i posti, in rosso articoli e preposizioni. "
        if any(r != "muted" for r in s["roles"])
        else ""
    )
    return [
        plane(
            items,
            (-reach, reach),
            (-reach, reach),
            width=400,
            grid=grid,
            label=f"Gli embedding dei token proiettati su due dimensioni, al passo {num(s['step'])}",
        ),
        tag(
            "p",
            legend + f"Il piano mostra {share(e['explained'])} della varianza dei {s['config']['d']} "
            "numeri di ogni vettore, sulle due direzioni in cui a questo passo sono più sparsi (PCA); "
            "la scala si adatta a ogni passo.",
            class_="lab-transformer-allenato-note",
        ),
    ]


def layer_name(group):
    """layer_grad_norms' groups in Italian: embedding, block0 … → Blocco 1 …, final."""
    return {"embedding": "Embedding", "final": "Norma finale"}.get(group) or f"Blocco {int(group[5:]) + 1}"


def matrix_label(name):
    return dict(MATRICES).get(name, name)


def gradients_section(s):
    norms = s["layer_norms"]
    layers = [Bar(layer_name(k), v, text=num(v, 3)) for k, v in norms.items()]
    top = max(s["matrix_norms"][n] for n, _ in MATRICES if n in s["matrix_norms"]) or 1.0
    picks = [
        Bar(
            matrix_label(n).split(",")[0],
            s["matrix_norms"][n],
            text=num(s["matrix_norms"][n], 3),
            highlight=n == s["matrix"]["name"],
            class_="s2",
            action=f"matrice={n}",
            spoken=f"apri {matrix_label(n)}",
        )
        for n, _ in MATRICES
        if n in s["matrix_norms"]
    ]
    counts = s["counts"]
    parts = [
        Bar(
            label,
            counts[k] / counts["total"],
            text="= embedding" if k == "head" else f"{num(counts[k])} · {share(counts[k] / counts['total'])}",
        )
        for k, label in PARTS
        if counts[k] or k == "head"
    ]
    return [
        tag(
            "p",
            f"La norma del gradiente di questo passo, strato per strato: in tutto "
            f"{num(s['grad_norm'], 3)} (sopra 1 Adam lo riporta a 1 prima di usarlo).",
            class_="lab-transformer-allenato-note",
        ),
        bars(layers, label="Norma del gradiente per strato", hi=max(norms.values()) or 1.0, part="strati"),
        tag(
            "p",
            "Matrice per matrice: clicca una barra per aprirla qui sotto"
            + ("." if s["folds"]["matrice"] else ", in «Una matrice da vicino»."),
            class_="lab-transformer-allenato-note",
        ),
        bars(picks, label="Norma del gradiente per matrice", hi=top, part="matrici"),
        tag(
            "p",
            f"Dove stanno i {num(counts['total'])} pesi (la testa di uscita riusa gli embedding dei token):",
            class_="lab-transformer-allenato-note",
        ),
        bars(parts, label="I pesi del modello, parte per parte", part="parti"),
    ]


def largest(values):
    return max(
        ((i, j) for i, row in enumerate(values) for j in range(len(row))), key=lambda ij: abs(values[ij[0]][ij[1]])
    )


def matrix_section(s):
    mx = s["matrix"]
    name, W, G = mx["name"], mx["values"], mx["grad"]
    rows, cols = mx["shape"]
    row_labels = s["vocab"] if name == "tok_emb" else [str(t + 1) for t in range(rows)] if name == "pos_emb" else None
    i, j = largest(G)
    wi, wj = largest(W)
    where = f"riga {s['vocab'][i]}" if name == "tok_emb" else f"riga {i + 1}"
    what, at = matrix_label(name), s["step"]
    notes = []
    if mx["asked"] != name:
        notes.append(callout(f"Questo modello non ha {matrix_label(mx['asked'])}: qui c'è {what}.", tone="warn"))
    weights = tag(
        "figure",
        heat(W, f"I pesi di {what} al passo {num(at)}", row_labels, part="pesi"),
        tag("figcaption", f"I pesi: il più grande in valore assoluto vale {num(W[wi][wj], 3)}"),
    )
    grads = tag(
        "figure",
        heat(G, f"Il gradiente di {what} al passo {num(at)}", row_labels, part="gradiente"),
        tag(
            "figcaption", f"Il gradiente di questo passo: il più forte, {num(G[i][j], 4)}, in {where}, colonna {j + 1}"
        ),
    )
    return [
        *notes,
        tag(
            "p",
            f"{what}: {rows} × {cols} = {num(rows * cols)} pesi. In blu i numeri positivi, in rosso i "
            "negativi; più intenso, più grande (ogni mappa ha la sua scala).",
            class_="lab-transformer-allenato-note",
        ),
        tag("div", weights, grads, class_="lab-transformer-allenato-pair"),
    ]


def view(s):
    if "problem" in s:
        return tag("div", callout(s["problem"], tone="warn"), class_="lab-ta", data_step=s["step"])
    c = s["config"]
    distinct = f"{len(s['vocab'])} {UNITS[s['kind']][1]} {'diverse' if s['kind'] == 'parole' else 'diversi'}"
    setup = (
        f"{plural(c['layers'], 'blocco', 'blocchi')}, {plural(c['heads'], 'testa', 'teste')}, d = {c['d']}, "
        f"finestre di {c['context']} token, batch di {c['batch']}; {distinct}, {num(s['n_train'])} token per il "
        f"training e {num(s['n_held'])} tenuti da parte. Learning rate del prossimo passo: "
        f"{num(s['lr_next'], 5)}."
    )
    return tag(
        "div",
        headline(s),
        tag("div", loss_chart(s), id="vista-loss"),
        tag("p", setup, class_="lab-transformer-allenato-note"),
        *comparison(s),
        attention_section(s),
        fold("Gli embedding sul piano", "embedding", s["folds"]["embedding"], lambda: embedding_section(s)),
        fold("Gradienti e pesi, parte per parte", "gradienti", s["folds"]["gradienti"], lambda: gradients_section(s)),
        fold(
            "Una matrice da vicino",
            "matrice",
            s["folds"]["matrice"],
            lambda: matrix_section(s),
            data_matrix=s["matrix"]["name"],
        ),
        class_="lab-ta",
        data_step=s["step"],
    )
