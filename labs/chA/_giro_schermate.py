"""Le schermate di A.6 (labs/chA/giro_del_token.py), una per operazione del blocco: ognuna disegna dallo
stato il vettore del token prima e dopo l'operazione, i pesi che usa e una frase su che cosa è cambiato."""

import math

from core.linalg import norm
from labs.chA._giro_modello import VOCAB
from labs.kit import Bar
from labs.kit import bars
from labs.kit import factor
from labs.kit import formula
from labs.kit import num
from labs.kit import plural
from labs.kit import share
from labs.kit import stat
from labs.kit import tag
from labs.kit import the
from labs.kit.italian import shares

from ._giro_disegni import DH
from ._giro_disegni import DIMS
from ._giro_disegni import D
from ._giro_disegni import F
from ._giro_disegni import cap
from ._giro_disegni import head_span
from ._giro_disegni import moved
from ._giro_disegni import rms_of
from ._giro_disegni import shapes
from ._giro_disegni import strip
from ._giro_disegni import token_bars
from ._giro_disegni import vector_bars
from ._giro_disegni import word


def screen_embed(s):
    i, pos = s["ids"][s["position"]], s["position"]
    after, before = s["embedded"], s["token_row"]
    j = max(range(D), key=lambda j: (abs(after[j] - before[j]), -j))
    return dict(
        why="Il modello non legge lettere ma righe di numeri: la riga di E, la tabella di embedding, dice quale parola è, la riga di P "
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
            vector_bars(after, x, "Il vettore diviso per la sua RMS", "prima: x", digits=4),
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
        why="La query q di questo token per le key K degli altri misura quanto ciascuno interessa a questo. Dividere per √8 (le dimensioni di una "
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
