"""Un modello di linguaggio vero, anche se minuscolo, e un solo token da
seguire dentro di lui. Scegli la frase e il token, poi premi **Avanti**: a
ogni passo il suo vettore attraversa una sola operazione del blocco, e le
barre mostrano come cambia, dimensione per dimensione, fino alla parola che
il modello prevede.

## Per saperne di più

Il modello ha letto soltanto otto frasi su un gatto, un cane e una bambina
(chi dorme dove, chi mangia che cosa, chi corre nel prato) e da lì ha
imparato i suoi 3.536 numeri: 18 parole nel vocabolario, vettori di 16
dimensioni, due teste di attention e **un solo blocco**. Per ogni operazione
vedi il vettore prima (il tratteggio) e dopo (le barre), le forme delle
matrici moltiplicate, che cosa è cambiato e perché quell'operazione c'è.

Il percorso è quello di ogni blocco dei modelli di oggi, con la
normalizzazione prima di ciascun sotto-strato. Si **normalizza** (una
RMSNorm, qui scomposta nei suoi tre gesti: media dei quadrati, divisione per
la radice, prodotto per i pesi γ), si passa per l'**attention**, si **somma**
quello che c'era all'ingresso; poi si normalizza di nuovo, si attraversa la
**feed-forward** e si somma ancora. Dopo il blocco una normalizzazione finale
e la testa d'uscita danno un punteggio a ogni parola, e la softmax ne fa le
probabilità del token successivo.

Guarda le forme: entra un vettore [1 × 16] ed esce un [1 × 16], perché le
due somme dei residui vogliono addendi della stessa misura. Dentro, la
feed-forward allarga a 64 numeri e poi rientra. Conta anche i pesi: le
quattro matrici dell'attention ne hanno 4 × 16 × 16 = 1.024, le due della
feed-forward 2 × 16 × 64 = 2.048, il doppio.

Prova a seguire «sul» in «il gatto dorme sul» e poi in «il cane dorme sul».
Fino a Q, K, V i suoi numeri sono identici, perché token e posizione sono gli
stessi. Ai punteggi, in ciascuna testa, cambia un numero solo, quello del
soggetto, e nella testa 2 basta: il cane si prende il 97 % del peso, il gatto
appena il 5 %. Alla fine vince «tappeto» per il cane e «divano» per il gatto.
Prova poi il primo token, «il» in posizione 0: può guardare solo sé stesso,
la softmax gli dà il 100 % e il mix è il suo stesso value. Al passo della
ReLU conta quanti dei 64 neuroni restano accesi. E scrivi una frase tua,
come «il gatto corre nel»: nel corpus il gatto non corre mai, eppure la testa
1 va dritta sul verbo, con quasi tutto il peso, e il modello punta sul prato.

I pesi vengono da un allenamento vero (300 passi di Adam, con semi fissi e
lo stesso codice Python che fa i conti di questa pagina), fatto una volta
sola e salvato accanto al laboratorio: rifarlo a ogni visita costerebbe
secondi. Un test lo ripete e trova gli stessi pesi.
"""

import math

from core.linalg import norm
from core.transformer_trace import token_trip
from labs.chA._giro_modello import CONFIG, VOCAB
from labs.chA._giro_pesi import WEIGHTS
from labs.kit import (
    Bar,
    Choice,
    Edit,
    Experiment,
    Follow,
    Slider,
    Steps,
    Text,
    bars,
    callout,
    factor,
    formula,
    num,
    phase_screen,
    plural,
    quoted,
    read_words,
    shape_label,
    share,
    stat,
    stats,
    step_machine,
    tag,
    the,
    token_chips,
)
from labs.kit.italian import shares
from labs.kit.stepping import ended
from labs.kit.svg import group, line, rect, svg, text

TITLE = "Il giro di un token nel blocco"
REF = "A.6"

PHASES = (
    "Embedding",
    "RMSNorm: quadrati",
    "RMSNorm: dividi",
    "RMSNorm: × γ",
    "Q, K, V",
    "Punteggi",
    "Softmax",
    "Mix dei value",
    "W_o",
    "+ residuo",
    "RMSNorm 2",
    "FFN: su",
    "FFN: ReLU",
    "FFN: giù",
    "+ residuo 2",
    "Norma finale",
    "Testa d'uscita",
    "Probabilità",
)
(
    EMBED,
    SQUARES,
    DIVIDE,
    GAIN,
    QKV,
    SCORES,
    SOFTMAX,
    MIX,
    W_O,
    RESIDUAL,
    NORM_FFN,
    UP,
    RELU,
    DOWN,
    RESIDUAL_FFN,
    FINAL,
    HEAD,
    PROBS,
) = range(len(PHASES))

D, DH, H, F = CONFIG.d_model, CONFIG.d_head, CONFIG.n_heads, CONFIG.d_ffn
DIMS = tuple(f"d{j + 1}" for j in range(D))
SENTENCES = (
    ("gatto", "il gatto dorme sul"),
    ("cane", "il cane dorme sul"),
    ("carne", "il cane mangia la"),
    ("torta", "la bambina mangia la"),
)

CONTROLS = [
    Choice("frase", "Frase", SENTENCES + (("tua", "la frase scritta qui sotto"),), "gatto", primary=True),
    Text("testo", "La tua frase (parole del vocabolario, al massimo 8)", "il gatto corre nel", max_length=200),
    Slider("token", "Token da seguire (posizione, da 0)", 0, CONFIG.context - 1, 1, 3, primary=True),
    Steps(max=len(PHASES) - 1, phases=PHASES, label="Passo"),
]


# ---------------------------------------------------------------- compute: the trip, then a pointer on it


def start(p):
    """La macchina al passo 0: il giro completo del token scelto nel modello."""
    text_ = dict(SENTENCES).get(p["frase"], p["testo"])
    ids, problem = read_words(text_, VOCAB, CONFIG.context, "il gatto corre nel", "è la lunghezza del suo contesto")
    if problem:
        return {"step": 0, "problem": problem}
    position = min(p["token"], len(ids) - 1)
    return {"step": 0, "trip": token_trip(WEIGHTS, CONFIG, ids, position), "own": p["frase"] == "tua"}


def advance(m, p):
    """Un passo avanti nel giro del token: lo stesso giro, guardato all'operazione dopo."""
    return {**m, "step": m["step"] + 1}


def present(m, p):
    """Il giro del token fino al passo scelto."""
    if "problem" in m:
        return {"step": m["step"], "problem": m["problem"], **ended(0, "fermo")}  # no sentence, no trip to follow
    return {"step": m["step"], "own": m["own"], **m["trip"]}


compute = step_machine(start, advance, present)


def follow(s):
    """The token slider stops at the sentence's last token; the text only counts for «la tua frase»."""
    if "problem" in s:
        return {"token": Follow(disabled="Prima serve una frase che il modello sappia leggere.")}
    rules = {"token": Follow(max=len(s["ids"]) - 1)}
    if not s["own"]:
        rules["testo"] = Follow(disabled="Conta solo con «Frase: la frase scritta qui sotto».")
    return rules


# ---------------------------------------------------------------- view: one screen per operation


def word(i):
    return quoted(VOCAB[i])


def cap(text_):
    return text_[:1].upper() + text_[1:]


def shapes(operation, *parts):
    """The operation, then its shapes: tuples become [1 × n], strings are the operators between them."""
    return formula(
        tag("span", operation, class_="lab-giro-del-token-op"),
        " ",
        tag("span", *(shape_label(*p) if isinstance(p, tuple) else p for p in parts), class_="lab-giro-del-token-dims"),
    )


def vector_bars(after, before, label, before_label, names=DIMS, cls="sign", lo=None):
    """One bar per dimension, the dashed outline is the vector before this step; the dimension that moved
    most is lit, and a legend says what the bars of the unnamed dimensions tell."""
    every = [abs(v) for v in after + (before or [])]
    hi = max(every + [1e-9]) * 1.05
    most = None if before is None else max(range(len(after)), key=lambda j: (abs(after[j] - before[j]), -j))
    items = [
        Bar(n, v, class_=cls, before=None if before is None else before[j], highlight=j == most)
        for j, (n, v) in enumerate(zip(names, after))
    ]
    figure = bars(
        items,
        label=label,
        lo=-hi if lo is None else lo,
        hi=hi,
        before_label=before_label if before else "",
        row_height=24,
        part="barre",
    )
    if names != DIMS:
        return figure
    return tag("div", figure, legend(after, before, most), class_="lab-giro-del-token-bars")


def legend(after, before, most):
    """What a reader can read from the bars of dimensions that have no name."""
    said = [
        f"Ogni barra è una delle {D} dimensioni del vettore: nessuna ha un nome, il training le ha usate come "
        "gli servivano. La barra dice il valore: verso destra se è positivo, verso sinistra se è negativo, "
        "più lunga quanto più è grande."
    ]
    if before is not None:
        said.append(
            f"Il tratteggio è il valore prima di questa operazione; in evidenza {DIMS[most]}, la dimensione "
            f"cambiata di più (da {num(before[most])} a {num(after[most])})."
        )
    return tag("p", " ".join(said), class_="lab-giro-del-token-legend", data_part="legenda")


def moved(before, after, names=DIMS):
    """The dimension that moved most, in words."""
    j = max(range(len(after)), key=lambda j: (abs(after[j] - before[j]), -j))
    return f"la dimensione che si sposta di più è {names[j]}, da {num(before[j])} a {num(after[j])}"


def rms_of(n):
    return 1.0 / n["inv_rms"]  # √(mean of the squares + ε), as RMSNorm divides by it


def strip_description(values):
    """The strip in words: how many neurons are above, at and below zero, and the two extremes."""
    top = max(range(len(values)), key=lambda k: values[k])
    low = min(range(len(values)), key=lambda k: values[k])
    signs = [sum(1 for v in values if v > 0), sum(1 for v in values if v == 0), sum(1 for v in values if v < 0)]
    return (
        f"{len(values)} neuroni: {signs[0]} sopra lo zero, {signs[1]} a zero, {signs[2]} sotto; il più alto è "
        f"il neurone {top + 1} ({num(values[top])}), il più basso il neurone {low + 1} ({num(values[low])})."
    )


def strip(values, before, label):
    """The 64 numbers of the feed-forward as thin bars around zero, the dashed ones before this step."""
    col, pad, height, mid, reach = 6, 20, 160, 72, 56  # reach: the tallest bar, above or below the zero line
    width = len(values) * col + 2 * pad
    hi = max([abs(v) for v in values + (before or [])] + [1e-9])
    y = lambda v: mid - reach * v / hi  # noqa: E731
    parts = [line(pad, mid, width - pad, mid, class_="lab-bar-zero")]
    for k, v in enumerate(values):
        x = pad + k * col
        cls = "muted" if v == 0 else "pos" if v > 0 else "neg"
        shape = [
            tag("title", f"neurone {k + 1}: {num(v)}"),
            rect(x + 0.5, min(mid, y(v)), col - 1, abs(y(v) - mid), class_=f"lab-bar {cls}"),
        ]
        if before is not None and before[k] != v:
            shape.append(
                rect(x + 0.5, min(mid, y(before[k])), col - 1, abs(y(before[k]) - mid), class_="lab-bar-before")
            )
        parts.append(group(*shape, data_value=round(v, 12)))
    for k in (1, 16, 32, 48, 64):
        parts.append(text(pad + (k - 0.5) * col, height - 14, str(k), class_="lab-bar-label"))
    return tag(
        "div",
        svg(
            width,
            height,
            *parts,
            label=label,
            class_="lab-svg lab-bars",
            text=14,
            description=strip_description(values),
        ),
        class_="lab-giro-del-token-strip",
        data_part="barre",
    )


def head_span(h):
    return f"d{h * DH + 1}–d{(h + 1) * DH}"


def token_bars(s, per_head, texts, lo, hi, before=None, before_label=""):
    """One bar per token of the sentence: the visible ones carry a value, the later ones are hidden."""
    pos, items = s["position"], []
    for k, i in enumerate(s["ids"]):
        if k <= pos:
            items.append(
                Bar(
                    f"{k}. {VOCAB[i]}",
                    per_head[k],
                    text=texts[k],
                    highlight=k == pos,
                    class_="sign",
                    before=None if before is None else before[k],
                )
            )
        else:
            items.append(Bar(f"{k}. {VOCAB[i]}", 0.0, text="nascosto (−∞)", class_="muted"))
    return items, dict(lo=lo, hi=hi, before_label=before_label)


def screen_embed(s):
    i, pos = s["ids"][s["position"]], s["position"]
    after, before = s["embedded"], s["token_row"]
    j = max(range(D), key=lambda j: (abs(after[j] - before[j]), -j))
    return dict(
        why="Il modello non legge lettere ma righe di numeri: la riga di E dice quale parola è, la riga di P "
        "dice in che posizione sta, e la loro somma è il vettore che entra nel blocco.",
        shapes=shapes(f"E[{VOCAB[i]}] + P[{pos}] = x", (1, D), " + ", (1, D), " = ", (1, D)),
        stats=[stat("ID del token", str(i)), stat("Posizione", str(pos)), stat("Lunghezza ‖x‖", num(norm(after)))],
        figures=[vector_bars(after, before, f"Il vettore x di {word(i)}", "solo la riga di E")],
        changed=f"Alla riga del token (il tratteggio) si aggiunge quella della posizione {pos}; "
        f"{moved(before, after)} ({num(before[j])} + {num(s['position_row'][j])} = {num(after[j])}).",
    )


def norm_parts(n):
    x, ms = n["input"], n["mean_square"]
    terms = " + ".join(f"{factor(v)}²" for v in x[:3])
    return x, ms, terms


def screen_squares(s):
    n = s["blocks"][0]["norm_attn"]
    x, ms, terms = norm_parts(n)
    squares = [v * v for v in x]
    return dict(
        why="Per rimettere il vettore in scala il blocco deve prima sapere quanto è grande: la radice della media "
        "dei quadrati (RMS), calcolata su questo token soltanto, senza guardare gli altri né il resto del batch.",
        shapes=shapes("media(x²)", (1, D), " → ", (1,), " (un numero solo)"),
        stats=[stat("Media dei quadrati", num(ms, 4)), stat("RMS = √(media + ε)", num(rms_of(n), 4))],
        figures=[
            formula(f"({terms} + …) ÷ {D} = {num(ms, 4)}"),
            vector_bars(squares, None, "I quadrati x² di ogni dimensione", "", cls="s1", lo=0.0),
        ],
        changed=f"Il vettore non cambia: da {D} quadrati nasce un numero, la loro media {num(ms, 4)}, e la sua "
        f"radice {num(rms_of(n), 4)} (con ε = 0,00001 sotto la radice, per non dividere mai per zero).",
    )


def screen_divide(s):
    n = s["blocks"][0]["norm_attn"]
    x, after = n["input"], n["divided"]
    r = rms_of(n)
    j = max(range(D), key=lambda j: abs(x[j]))
    return dict(
        why="Diviso per la sua RMS, il vettore arriva all'attention sempre alla stessa scala: così, blocco dopo "
        "blocco, i numeri non possono né crescere senza freno né spegnersi.",
        shapes=shapes("x̂ = x ÷ RMS", (1, D), " ÷ ", (1,), " = ", (1, D)),
        stats=[stat("RMS prima", num(r, 4)), stat("RMS dopo", num(math.sqrt(sum(v * v for v in after) / D), 4))],
        figures=[
            formula(f"{DIMS[j]}: {num(x[j], 4)} ÷ {num(r, 4)} = {num(after[j], 4)}"),
            vector_bars(after, x, "Il vettore diviso per la sua RMS", "prima: x"),
        ],
        changed=f"Ogni numero è diviso per {num(r, 4)}: segni e proporzioni restano, la media dei quadrati ora "
        f"vale 1 (a meno di ε).",
    )


def gain_screen(n, why, title, before_label):
    x_hat, after, gain = n["divided"], n["output"], n["gain"]
    j = max(range(D), key=lambda j: (abs(after[j] - x_hat[j]), -j))
    return dict(
        why=why,
        shapes=shapes("u = γ ⊙ x̂", (D,), " ⊙ ", (1, D), " = ", (1, D)),
        stats=[stat("γ più piccolo", num(min(gain))), stat("γ più grande", num(max(gain)))],
        figures=[
            formula(f"{DIMS[j]}: γ = {num(gain[j])} × {num(x_hat[j])} = {num(after[j])}"),
            vector_bars(after, x_hat, title, before_label),
        ],
        changed=f"Ogni dimensione è moltiplicata per il suo γ, da {num(min(gain))} a {num(max(gain))}; "
        f"{moved(x_hat, after)}.",
    )


def screen_gain(s):
    return gain_screen(
        s["blocks"][0]["norm_attn"],
        "γ è appreso: dimensione per dimensione il modello può ridare ampiezza a quello che gli serve, e perfino "
        "annullare la normalizzazione se non gli è utile.",
        "L'ingresso dell'attention, u",
        "prima: x̂",
    )


def screen_qkv(s):
    b = s["blocks"][0]
    u = b["norm_attn"]["output"]
    return dict(
        why="L'attention è l'unico punto del blocco in cui un token scopre che cosa dicono gli altri. Da u nascono "
        "tre vettori: la query (che cosa cerca), la key (come si presenta) e il value (che cosa offre).",
        shapes=shapes("u · W_q = q (e così k con W_k, v con W_v)", (1, D), " · ", (D, D), " = ", (1, D)),
        stats=[stat("‖q‖", num(norm(b["q"]))), stat("‖k‖", num(norm(b["k"]))), stat("‖v‖", num(norm(b["v"])))],
        figures=[
            tag(
                "div",
                *(
                    tag("div", tag("h4", title), vector_bars(b[key], u, title, "prima: u"))
                    for key, title in (("q", "query q"), ("k", "key k"), ("v", "value v"))
                ),
                class_="lab-giro-del-token-grid",
            )
        ],
        changed=f"Da un vettore ne nascono tre, ciascuno di {D} numeri: le dimensioni {head_span(0)} vanno alla "
        f"testa 1, {head_span(1)} alla testa 2. Gli altri token hanno fatto lo stesso con i loro vettori.",
    )


def screen_scores(s):
    b, pos = s["blocks"][0], s["position"]
    n = pos + 1
    hi = max(abs(v) * math.sqrt(DH) for h in b["heads"] for v in h["scores"]) * 1.05
    figures, best = [], []
    for h, head in enumerate(b["heads"]):
        raw = [v * math.sqrt(DH) for v in head["scores"]]
        items, scale = token_bars(s, head["scores"], [num(v) for v in head["scores"]], -hi, hi, raw, "prima di ÷ √8")
        figures.append(
            tag(
                "div",
                tag("h4", f"Testa {h + 1}"),
                bars(items, label=f"Punteggi della testa {h + 1}", row_height=26, part="barre", **scale),
            )
        )
        k = max(range(n), key=lambda k: (head["scores"][k], -k))
        best.append(f"nella testa {h + 1} il punteggio più alto va a {word(s['ids'][k])} ({num(head['scores'][k])})")
    hidden = len(s["ids"]) - n
    return dict(
        why="Query per key misura quanto ciascun token interessa a questo. Dividere per √8 (le dimensioni di una "
        "testa) tiene i punteggi in una scala in cui la softmax non si blocca; la maschera nasconde i token "
        "che vengono dopo, che quando il modello scrive non esistono ancora.",
        shapes=shapes("q · Kᵀ ÷ √8, per ciascuna testa", (1, DH), " · ", (DH, n), " = ", (1, n)),
        stats=[stat("Token visibili", str(n)), stat("Token nascosti", str(hidden))],
        figures=[tag("div", *figures, class_="lab-giro-del-token-grid")],
        changed=cap("; ".join(best))
        + "."
        + (
            f" {cap(the(f'{hidden} token', plural=True))} che vengono dopo valgono −∞."
            if hidden > 1
            else " Il token che viene dopo vale −∞."
            if hidden
            else ""
        ),
    )


def screen_softmax(s):
    b, pos = s["blocks"][0], s["position"]
    figures, best = [], []
    for h, head in enumerate(b["heads"]):
        items, scale = token_bars(s, head["weights"], [share(w) for w in head["weights"]], 0.0, 1.0)
        figures.append(
            tag(
                "div",
                tag("h4", f"Testa {h + 1}"),
                bars(items, label=f"Pesi della testa {h + 1}", row_height=26, part="barre", **scale),
            )
        )
        k = max(range(pos + 1), key=lambda k: (head["weights"][k], -k))
        best.append(f"la testa {h + 1} dà {the(share(head['weights'][k]))} a {word(s['ids'][k])}")
    return dict(
        why="La softmax trasforma i punteggi in pesi positivi che sommano a 1, uno per ogni token visibile: "
        "un punteggio più alto di un altro pesa in proporzione molto di più.",
        shapes=shapes("softmax, per ciascuna testa", (1, pos + 1), " → ", (1, pos + 1)),
        stats=[stat(f"Testa {h + 1}: peso massimo", share(max(head["weights"]))) for h, head in enumerate(b["heads"])],
        figures=[tag("div", *figures, class_="lab-giro-del-token-grid")],
        changed=cap("; ".join(best)) + ". I token nascosti hanno peso 0.",
    )


def screen_mix(s):
    b, pos, i = s["blocks"][0], s["position"], s["ids"][s["position"]]
    n = pos + 1
    figures, sums = [], []
    for h, head in enumerate(b["heads"]):
        names = DIMS[h * DH : (h + 1) * DH]
        own = head["values"][pos]
        figures.append(
            tag(
                "div",
                tag("h4", f"Testa {h + 1}: o{'¹²'[h]}"),
                vector_bars(
                    head["output"], own, f"Uscita della testa {h + 1}", f"solo il value di {word(i)}", names=names
                ),
            )
        )
        top = sorted(range(n), key=lambda k: (-head["weights"][k], k))[:3]
        sums.append(
            f"o{'¹²'[h]} = "
            + " + ".join(f"{num(head['weights'][k])} × v({VOCAB[s['ids'][k]]})" for k in top)
            + (" + …" if n > 3 else "")
        )
    return dict(
        why="Il nuovo vettore è la media dei value pesata dalla softmax: è qui che quello che dicono gli altri "
        "token entra nel vettore che seguiamo.",
        shapes=shapes(
            "a · V per ciascuna testa, poi [o¹ | o²]", (1, n), " · ", (n, DH), " = ", (1, DH), ", affiancate: ", (1, D)
        ),
        stats=[stat("‖o¹ | o²‖", num(norm(b["heads_out"])))],
        figures=[*(formula(t) for t in sums), tag("div", *figures, class_="lab-giro-del-token-grid")],
        changed=(
            f"{word(i)} è il primo token: la media ha un solo termine, con peso 1, e ogni testa "
            "restituisce il suo stesso value."
        )
        if pos == 0
        else f"Il tratteggio è il value di {word(i)} da solo: la distanza dalle barre è quanto gli altri token "
        f"hanno spostato la media. Le due metà messe una accanto all'altra fanno di nuovo {D} numeri.",
    )


def screen_wo(s):
    b = s["blocks"][0]
    return dict(
        why=f"Le due teste hanno lavorato ciascuna sui suoi {DH} numeri; W_o le rimescola in {D} numeri, la "
        "larghezza del blocco, quella che serve per sommarle all'ingresso.",
        shapes=shapes("[o¹ | o²] · W_o", (1, D), " · ", (D, D), " = ", (1, D)),
        stats=[
            stat("‖uscita dell'attention‖", num(norm(b["attn_out"]))),
            stat("‖x‖ all'ingresso", num(norm(b["input"]))),
        ],
        figures=[vector_bars(b["attn_out"], b["heads_out"], "L'uscita dell'attention", "prima: [o¹ | o²]")],
        changed=f"Le dimensioni non appartengono più a una testa sola: ogni numero dell'uscita mescola tutte e due. "
        f"{cap(moved(b['heads_out'], b['attn_out']))}.",
    )


def residual_screen(before, added, after, why, title, names):
    return dict(
        why=why,
        shapes=shapes(names, (1, D), " + ", (1, D), " = ", (1, D)),
        stats=[
            stat("‖prima‖", num(norm(before))),
            stat("‖aggiunto‖", num(norm(added))),
            stat("‖dopo‖", num(norm(after))),
        ],
        figures=[vector_bars(after, before, title, "prima della somma")],
        changed=f"Al vettore di prima (il tratteggio) si somma un contributo lungo {num(norm(added))}; "
        f"{moved(before, after)}.",
    )


def screen_residual(s):
    b = s["blocks"][0]
    return residual_screen(
        b["input"],
        b["attn_out"],
        b["after_attn"],
        "La connessione residua somma l'uscita dell'attention al vettore entrato nel blocco. Se l'attention non "
        "avesse niente da dire, il token passerebbe intatto; e durante l'allenamento il gradiente trova qui una "
        "strada diretta, con derivata 1, che lo porta indietro senza indebolirsi.",
        "x + attention",
        "x + attention",
    )


def screen_norm_ffn(s):
    n = s["blocks"][0]["norm_ffn"]
    x, ms, terms = norm_parts(n)
    return dict(
        why="Prima del secondo sotto-strato si normalizza di nuovo, con un γ tutto suo: è la pre-norm, che lascia "
        "pulita la strada diretta dei residui e dà alla feed-forward numeri sempre alla stessa scala.",
        shapes=shapes("RMSNorm", (1, D), " → ", (1, D)),
        stats=[stat("Media dei quadrati", num(ms, 4)), stat("RMS", num(rms_of(n), 4))],
        figures=[
            formula(f"media = ({terms} + …) ÷ {D} = {num(ms, 4)};  ÷ {num(rms_of(n), 4)};  × γ"),
            vector_bars(n["output"], x, "L'ingresso della feed-forward", "prima della norma"),
        ],
        changed=f"Gli stessi tre gesti di prima in un colpo: media dei quadrati {num(ms, 4)}, divisione per "
        f"{num(rms_of(n), 4)}, γ da {num(min(n['gain']))} a {num(max(n['gain']))}.",
    )


def screen_up(s):
    b = s["blocks"][0]
    h = b["hidden"]
    positive = sum(v > 0 for v in h)
    return dict(
        why=f"La feed-forward lavora su ogni posizione da sola, con le stesse matrici per tutti i token. Prima "
        f"allarga il vettore a 4 × {D} = {F} numeri: nello spazio più largo ogni neurone può riconoscere una "
        "combinazione di caratteristiche.",
        shapes=shapes("u · W₁", (1, D), " · ", (D, F), " = ", (1, F)),
        stats=[stat("Positivi", f"{positive} su {F}"), stat("Negativi", f"{F - positive} su {F}")],
        figures=[strip(h, None, f"I {F} numeri dello strato interno")],
        changed=f"{D} numeri diventano {F}: {plural(positive, 'è positivo', 'sono positivi')}, "
        f"{plural(F - positive, 'negativo', 'negativi')}. Nessun altro token entra in questo conto.",
    )


def screen_relu(s):
    b = s["blocks"][0]
    h, a = b["hidden"], b["active"]
    on = sum(v > 0 for v in a)
    return dict(
        why="La ReLU tiene i numeri positivi e azzera i negativi. Senza una non linearità in mezzo le due matrici "
        "si ridurrebbero a una sola, e allargare non servirebbe a niente.",
        shapes=shapes("ReLU", (1, F), " → ", (1, F)),
        stats=[stat("Neuroni accesi", f"{on} su {F}"), stat("Spenti", f"{F - on} su {F}")],
        figures=[strip(a, h, f"I {F} neuroni dopo la ReLU (tratteggiati i valori negativi azzerati)")],
        changed=f"I {F - on} numeri negativi diventano 0 (tratteggiati quelli di prima): restano accesi "
        f"{on} neuroni su {F}, e solo loro contano per il passo dopo.",
    )


def screen_down(s):
    b = s["blocks"][0]
    return dict(
        why=f"La seconda matrice riporta i {F} numeri a {D}: fuori dalla feed-forward la larghezza deve tornare "
        "quella del blocco, per poter fare la somma.",
        shapes=shapes("a · W₂", (1, F), " · ", (F, D), " = ", (1, D)),
        stats=[stat("‖uscita della feed-forward‖", num(norm(b["ffn_out"])))],
        figures=[vector_bars(b["ffn_out"], b["norm_ffn"]["output"], "L'uscita della feed-forward", "il suo ingresso")],
        changed=f"I {F} numeri tornano {D}. Il tratteggio è il vettore entrato nella feed-forward: "
        f"{moved(b['norm_ffn']['output'], b['ffn_out'])}.",
    )


def screen_residual_ffn(s):
    b = s["blocks"][0]
    return residual_screen(
        b["after_attn"],
        b["ffn_out"],
        b["output"],
        f"Seconda connessione residua: quello che arrivava più il contributo della feed-forward. È l'uscita del "
        f"blocco, della stessa forma dell'ingresso, [1 × {D}], pronta per un altro blocco uguale.",
        "L'uscita del blocco",
        "uscita del blocco",
    )


def screen_final(s):
    n = s["norm_final"]
    return dict(
        why="Il nostro modello ha un blocco solo: in uno più grande questo vettore entrerebbe nel blocco "
        "successivo, con la stessa anatomia. Dopo l'ultimo, una normalizzazione finale lo prepara per la "
        "testa d'uscita.",
        shapes=shapes("RMSNorm", (1, D), " → ", (1, D)),
        stats=[stat("Media dei quadrati", num(n["mean_square"], 4)), stat("RMS", num(rms_of(n), 4))],
        figures=[vector_bars(n["output"], n["input"], "Il vettore finale", "uscita del blocco")],
        changed=f"Divisione per {num(rms_of(n), 4)} e prodotto per il γ finale; {moved(n['input'], n['output'])}.",
    )


def screen_head(s):
    z, V = s["logits"], len(VOCAB)
    best = max(range(V), key=lambda t: (z[t], -t))
    items = [Bar(word(t) if t == 0 else VOCAB[t], v, class_="sign", highlight=t == best) for t, v in enumerate(z)]
    hi = max(abs(v) for v in z) * 1.05
    return dict(
        why="La testa d'uscita confronta il vettore con la riga di ogni parola nella tabella E, la stessa "
        "dell'embedding: un prodotto scalare per parola, il suo punteggio (logit).",
        shapes=shapes("u · Eᵀ", (1, D), " · ", (D, V), " = ", (1, V)),
        stats=[stat("Punteggio più alto", f"{word(best)} {num(z[best])}"), stat("Più basso", num(min(z)))],
        figures=[bars(items, label="Un punteggio per parola", lo=-hi, hi=hi, row_height=24, part="barre")],
        changed=f"{D} numeri diventano {V}, uno per parola del vocabolario: il più alto è quello di "
        f"{word(best)}, {num(z[best])}.",
    )


def screen_probs(s):
    p, V = s["probabilities"], len(VOCAB)
    order = sorted(range(V), key=lambda t: (-p[t], t))
    best = order[0]
    texts = shares(p)
    items = [Bar(word(t) if t == 0 else VOCAB[t], p[t], text=texts[t], class_="s3", highlight=t == best) for t in order]
    sentence = " ".join(VOCAB[i] for i in s["ids"][: s["position"] + 1])
    return dict(
        why="La softmax trasforma i punteggi in probabilità per il token successivo: è la previsione del modello "
        "in questo punto della frase.",
        shapes=shapes("softmax", (1, V), " → ", (1, V)),
        stats=[stat("Previsione", word(best)), stat("Probabilità", share(p[best]))],
        figures=[bars(items, label="Probabilità del token successivo", lo=0.0, hi=1.0, row_height=24, part="barre")],
        changed=f"Dopo «{sentence}» il modello punta su {word(best)} con {the(share(p[best]))}; poi viene "
        f"{word(order[1])} con {the(share(p[order[1]]))}.",
    )


SCREENS = (
    screen_embed,
    screen_squares,
    screen_divide,
    screen_gain,
    screen_qkv,
    screen_scores,
    screen_softmax,
    screen_mix,
    screen_wo,
    screen_residual,
    screen_norm_ffn,
    screen_up,
    screen_relu,
    screen_down,
    screen_residual_ffn,
    screen_final,
    screen_head,
    screen_probs,
)


def sentence_chips(s):
    """The sentence, one chip per token: the followed one lit, the later ones faded (it cannot see them)."""
    after = None
    if s["step"] == PROBS:
        after = f"→ {VOCAB[max(range(len(VOCAB)), key=lambda t: (s['probabilities'][t], -t))]}"
    return token_chips(
        [
            {"text": VOCAB[i], "note": f"{k} · ID {i}", "set": f"token={k}", "title": f"Segui {word(i)}, posizione {k}"}
            for k, i in enumerate(s["ids"])
        ],
        current=s["position"],
        after=after,
    )


def screen_of(s):
    """La schermata dell'operazione di questo stato, fatta una volta sola per stato."""
    return phase_screen(SCREENS, s, s["step"])


def summary(s):
    """The line a screen reader hears: the operation and what it changed."""
    if "problem" in s:
        return s["problem"]
    return f"{PHASES[s['step']]}: {screen_of(s)['changed']}"


def view(s):
    if "problem" in s:
        return tag("div", callout(s["problem"], tone="warn"), class_="lab-giro-del-token")
    screen = screen_of(s)
    return tag(
        "div",
        sentence_chips(s),
        tag(
            "section",
            tag("h3", f"{PHASES[s['step']]} · {word(s['ids'][s['position']])}"),
            tag("p", tag("strong", "Perché: "), screen["why"], class_="lab-giro-del-token-why", data_part="perche"),
            tag("div", screen["shapes"], class_="lab-giro-del-token-shapes", data_part="forme"),
            stats(*screen["stats"]),
            *screen["figures"],
            tag(
                "p",
                tag("strong", "Che cosa è cambiato: "),
                screen["changed"],
                class_="lab-giro-del-token-changed",
                data_part="cambiato",
            ),
            class_="lab-panel",
            data_part="passo",
            data_phase=s["step"],
        ),
        class_="lab-giro-del-token",
    )


EDITS = [
    Edit(
        "l'attention senza il ramo residuo",
        change=("    X_mid = add_rows(X, attn_out)", "    X_mid = attn_out"),
        expect="Dopo l'attention resta solo ciò che l'attention ha scritto: il vettore del token e della sua "
        "posizione non arriva più al feed-forward, e le probabilità finali cambiano.",
        params={"passo": len(PHASES) - 1},
        check=lambda before, after: after.state["probabilities"] != before.state["probabilities"],
    ),
]

EXPERIMENTS = [
    Experiment(
        "Segui «sul» in «il cane dorme sul»: alla softmax, nella testa 2, il cane si prende il 97 % del peso.",
        {"frase": "cane", "token": 3, "passo": SOFTMAX},
        "barre",
        lambda s: round(s["blocks"][0]["heads"][1]["weights"][1], 2) == 0.97,
        after="fino alla parola che il modello prevede",
    ),
    Experiment(
        "Alla fine, per «il cane dorme sul», vince «tappeto».",
        {"frase": "cane", "token": 3, "passo": PROBS},
        "barre",
        lambda s: VOCAB[max(range(len(s["probabilities"])), key=s["probabilities"].__getitem__)] == "tappeto",
        after="fino alla parola che il modello prevede",
    ),
    Experiment(
        "Segui il primo token, «il»: può guardare solo sé stesso, e in ogni testa la softmax gli dà il 100 %.",
        {"frase": "cane", "token": 0, "passo": SOFTMAX},
        "barre",
        lambda s: all(h["weights"] == [1.0] for h in s["blocks"][0]["heads"]),
        after="fino alla parola che il modello prevede",
    ),
]
