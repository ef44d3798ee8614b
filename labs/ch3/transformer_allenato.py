"""Qui alleniamo da zero, nel tuo browser, un piccolo **transformer**, e
accanto a lui il bigramma del laboratorio precedente, sullo stesso testo:
ogni **Avanti** è un passo di training di tutti e due, e il grafico mette le
loro loss una accanto all'altra.

Esperimenti: ognuno porta il training al passo che serve, con un clic. Che
cosa c'è dietro lo spiega la parte che segue.

Come è fatto. Nel laboratorio sui bigrammi il modello guardava soltanto
l'ultima parola; questo è un transformer vero: un blocco con due teste di
attention e un MLP, vettori di 16 numeri, una finestra di 8 token. Sono
circa 3.700 pesi, tutti all'inizio tirati a caso. Ogni passo prende 4
finestre di 8 token a caso dal testo e fa forward, loss, backward e
aggiornamento con Adam (il learning rate sale nei primi 20 passi, poi cala
dolcemente fino alla fine). Il bigramma si allena sugli stessi batch.

Il testo è fatto apposta: 48 frasi brevi su chi fa che cosa, e dove. Il
posto dipende dal verbo (chi nuota va al mare, chi legge in biblioteca), ma
la parola subito prima del posto è «in» oppure «al», la stessa per quattro
verbi diversi. Un bigramma, arrivato a «al», ha davanti quattro posti
possibili e non sa scegliere; il transformer può guardare indietro fino al
verbo. Le ultime otto frasi, un sesto del testo, non entrano nel training:
servono a misurare la loss su frasi che il modello non ha mai letto.

Che cosa guardare.

- **La curva della loss.** La linea tratteggiata è il meglio che un
  bigramma possa fare su questo testo, per quanto lo si alleni. La loss del
  transformer scende sotto quella linea nel giro di poche centinaia di passi,
  qualunque sia il seme (pesi iniziali e batch). Con i **caratteri** al posto
  delle parole il bigramma vede una lettera sola, il transformer le otto
  prima, e il distacco tra i due cresce.
- **Le mappe di attention** di ogni testa sulla frase che scegli. Al passo 0
  ogni riga divide il peso quasi in parti uguali; poi le righe si fanno
  appuntite. Nella riga di «in» o di «al» una testa impara a guardare il
  verbo, quello che decide il posto.
- **I testi generati.** Da «il papà pesca» il transformer continua con «al
  lago .», mentre il bigramma, arrivato ad «al», va sempre nello stesso
  posto qualunque sia il verbo. A temperatura 0,1 il testo campionato dal
  transformer segue a lungo quello greedy, e se ne stacca su un verbo, dove
  anche il testo lascia la scelta aperta (chiunque può fare qualunque cosa).
  Il bigramma se ne stacca prima: dopo «il» ha tre parole quasi alla pari
  (papà 38 %, bambino 36 %, nonno 25 %); a 0,1 nonno scende all'1 %, ma tra
  papà e bambino, 64 % e 35 %, sceglie ancora. A temperatura 2 compaiono
  coppie di parole che nel testo non ci sono.
- **Gli embedding sul piano.** Nessuno dice al modello che «nonno» e
  «mamma» hanno lo stesso ruolo: i loro vettori si avvicinano da soli, e
  così i verbi e i posti.
- **La curva del testo tenuto da parte.** Scende, poi a un certo punto
  risale mentre quella del training continua a scendere: il modello ha
  cominciato a imparare a memoria l'ordine delle frasi, e su frasi nuove
  quella memoria non serve. Con un learning rate di 0,01 la loss sul
  training scende più in basso, ma quella sul testo tenuto da parte risale
  prima e a fine training supera quella del bigramma. Imparare a memoria
  non è capire.

Nella vista trovi anche la norma del gradiente di ogni strato, quanti pesi ha ogni
parte del modello e, se clicchi una matrice, i suoi pesi e il suo gradiente
a questo passo, come mappe di colore. Puoi anche riscrivere il testo, fino
a 2.000 caratteri.
"""

import math
import random
from dataclasses import dataclass, replace

from core.bigram import best_loss, build_vocab, dataset_loss, encode, gradient, init_weights, make_pairs, tokenize
from core.descent import sgd_update
from core.linalg import seeded_rng
from core.optimizers import OptimizerConfig, apply_gradients, grad_norm, learning_rate
from core.pca import principal_directions, project, total_variance
from core.sampling import choose_token
from core.transformer import TransformerConfig, layer_grad_norms, loss_and_grads, param_count, param_shapes
from core.transformer_generation import transformer_generate
from core.transformer_trace import trace
from core.transformer_training import batch_for_step, init_state, text_loss
from labs.kit import (
    Bar,
    Choice,
    Curve,
    Edit,
    Experiment,
    Follow,
    Group,
    Jump,
    Marker,
    Memo,
    Point,
    Series,
    Slider,
    Steps,
    Text,
    bars,
    callout,
    corpus_problem,
    fold,
    join,
    line_chart,
    matrix,
    nice_ticks,
    num,
    opened,
    plane,
    plural,
    share,
    stat,
    stats,
    step_machine,
    table,
    tag,
)
from labs.kit.matrices import describe_matrix
from labs.kit.svg import path, svg
from labs.kit.svg import text as svg_text

TITLE = "Alleniamo un piccolo transformer"
REF = "3.2"

CORPUS = """la mamma nuota al mare .
la nonna cena al ristorante .
la mamma gioca al parco .
la nonna mangia in cucina .
il nonno gioca al parco .
il papà legge in biblioteca .
il nonno balla in salotto .
la nonna pesca al lago .
il bambino legge in biblioteca .
il papà balla in salotto .
il papà mangia in cucina .
la mamma pesca al lago .
la mamma dorme in camera .
la bambina balla in salotto .
la nonna legge in biblioteca .
il papà pesca al lago .
il papà gioca al parco .
la nonna nuota al mare .
il bambino gioca al parco .
il bambino mangia in cucina .
il bambino nuota al mare .
il bambino pesca al lago .
la bambina gioca al parco .
il papà dorme in camera .
la nonna balla in salotto .
il nonno legge in biblioteca .
il bambino balla in salotto .
la mamma legge in biblioteca .
la bambina mangia in cucina .
il bambino cena al ristorante .
la mamma cena al ristorante .
la mamma mangia in cucina .
il nonno dorme in camera .
la bambina legge in biblioteca .
il papà cena al ristorante .
il nonno mangia in cucina .
la mamma balla in salotto .
il nonno pesca al lago .
la nonna gioca al parco .
la bambina dorme in camera .
la mamma mangia in cucina .
la bambina dorme in camera .
la mamma balla in salotto .
il papà legge in biblioteca .
la mamma nuota al mare .
il papà pesca al lago .
la nonna cena al ristorante .
la nonna gioca al parco ."""
# each word's role in the default text: a colour on the plane of the embeddings
ROLES = {
    **dict.fromkeys(("nonno", "nonna", "bambino", "bambina", "papà", "mamma"), "a"),
    **dict.fromkeys(("dorme", "mangia", "balla", "legge", "nuota", "gioca", "pesca", "cena"), "b"),
    **dict.fromkeys(("camera", "cucina", "salotto", "biblioteca", "mare", "parco", "lago", "ristorante"), "c"),
    **dict.fromkeys(("il", "la", "in", "al"), "d"),
}

STEPS = 1000
CONTEXT, BATCH = 8, 4  # 4 windows a step: one step stays within 40 ms in the browser (issue 13)
WARMUP, FLOOR = 20, 0.1  # Adam's learning rate: up in 20 steps, then a cosine down to 10 % of the peak
HELD_OUT = 6  # the last sixth of the text is never trained on
EVAL_EVERY = 20  # the loss on the whole text, every 20 steps (a forward over it costs about three training steps)
EVAL_WINDOWS = (32, 16)  # at most this many windows of the training text and of the held-out text
SAMPLE_EVERY = 50  # text generated from the prompt, every 50 steps
GENERATED = {"parole": 20, "caratteri": 40}
BIGRAM_ETA = 2.0  # the bigram's SGD, as in 3.1
MAX_CHARS = 2000
MIN_TOKENS = HELD_OUT * (CONTEXT + 1)  # so that the held-out sixth fills at least one window
MAX_VOCAB = {"parole": 40, "caratteri": 50}
UNITS = {"parole": ("parola", "parole"), "caratteri": ("carattere", "caratteri")}

BLOCK_MATRICES = (
    ("W_q", "W_q, le query"),
    ("W_k", "W_k, le chiavi"),
    ("W_v", "W_v, i valori"),
    ("W_o", "W_o, l'uscita dell'attention"),
    ("W_1", "W₁, l'MLP che allarga"),
    ("W_2", "W₂, l'MLP che restringe"),
)
FOLDS = ("embedding", "gradienti", "matrice")  # drawn only while the reader has them open (kit.fold)
MATRICES = (
    ("tok_emb", "E, gli embedding dei token"),
    ("pos_emb", "P, le posizioni"),
    *((f"block{b}.{name}", f"Blocco {b + 1} · {label}") for b in range(2) for name, label in BLOCK_MATRICES),
)
PARTS = (
    ("token_embedding", "Embedding dei token"),
    ("position_embedding", "Posizioni"),
    ("attention", "Attention"),
    ("feed_forward", "MLP"),
    ("norms", "Normalizzazioni"),
    ("head", "Testa di uscita"),
)


def next_sample(s):
    """Where «prossimo testo generato» lands: the next step that generates text."""
    return None if "problem" in s else (s["step"] // SAMPLE_EVERY + 1) * SAMPLE_EVERY


CONTROLS = [
    Steps(
        max=STEPS,
        label="Passo",
        jumps=(Jump("prossimo testo generato", next_sample),),
        curve=Curve("batch_losses", "loss del batch", points=STEPS + 1),
    ),
    Choice("token", "Token", (("parole", "parole intere"), ("caratteri", "caratteri")), "parole", primary=True),
    Text("corpus", "Il testo di training (l'ultimo sesto resta da parte)", CORPUS, max_length=4000, multiline=True),
    Group(
        "Guarda dentro il modello",
        (
            Text("prompt", "Inizio del testo da generare", "il papà pesca", max_length=80),
            Slider("temperatura", "Temperatura del campionamento", 0.1, 2.0, 0.1, 0.8),
            Text("frase", "Frase per le mappe di attention", "la nonna legge in", max_length=80),
            Choice("matrice", "Matrice da guardare da vicino", MATRICES, "tok_emb"),
        ),
    ),
    Group(
        "Il modello e il training",
        (
            Choice("d", "Numeri per vettore (d)", (("8", "8"), ("16", "16"), ("24", "24")), "16"),
            Choice("teste", "Teste di attention", (("1", "1"), ("2", "2"), ("4", "4")), "2"),
            Choice("blocchi", "Blocchi", (("1", "1"), ("2", "2")), "1"),
            Slider("lr", "Learning rate di Adam (il picco)", 0.001, 0.03, 0.001, 0.004),
            Slider("seme", "Seme: pesi iniziali, batch e campionamento", 0, 99, 1, 0),
        ),
        open=False,
    ),
]


def tokens_of(text, kind):
    """Il testo in token: parole intere (come in 3.1) o un carattere alla volta."""
    return tokenize(text) if kind == "parole" else list(" ".join(text.lower().split()))


def shown(token):
    """Un token come lo scrive la pagina: lo spazio si vede."""
    return "␣" if token == " " else token


def joined(tokens, kind):
    """I token rimessi insieme in un testo: con gli spazi se sono parole, attaccati se sono caratteri."""
    return " ".join(tokens) if kind == "parole" else "".join(tokens)


def text_problem(text, tokens, vocab, kind):
    """Un messaggio in italiano se su questo testo non si può allenare, altrimenti None."""
    if len(text) > MAX_CHARS:
        return (
            f"Il testo ha {num(len(text))} caratteri: qui ne stanno al massimo {num(MAX_CHARS)}, "
            "perché ogni passo di training deve restare veloce nel browser. Accorcialo."
        )
    return corpus_problem(
        tokens,
        vocab,
        MAX_VOCAB[kind],
        kind,
        min_tokens=MIN_TOKENS,
        shown=shown,
        short=f"Il modello legge finestre di {CONTEXT} token, e l'ultimo sesto del testo resta "
        "da parte per la verifica.",
        wide=f", perché ogni {UNITS[kind][0]} ha il suo vettore da allenare",
    )


def unknown(tokens, vocab):
    """I token della frase che non sono nel vocabolario, ciascuno una volta."""
    return [t for t in dict.fromkeys(tokens) if t not in vocab]


def batch_pairs(batch):
    """Le coppie (token, successivo) di un batch di finestre: ciò che impara il bigramma."""
    return [pair for inputs, targets in zip(*batch) for pair in zip(inputs, targets)]


# ---------------------------------------------------------------- the training, one step at a time


@dataclass(frozen=True)
class Training:
    """La macchina che «Avanti» fa muovere: il transformer, il suo gradiente e il bigramma di confronto.

    The machine that «Avanti» moves: the transformer (its TrainState, the
    gradient of this step's batch at these weights, which the next update
    applies), the bigram trained on the same batches, and the curves so far.

    A step makes a new machine and shares with it everything it does not
    change (the kit's rule). samples remembers the texts the training
    generated, by step, prompt and temperature: every machine of the
    training shares it, and a packed checkpoint leaves it out."""

    step: int = 0
    problem: str = ""
    kind: str = "parole"
    vocab: list = None
    train: list = None  # the IDs of the training part of the text
    held: list = None  # the IDs of the held-out sixth
    config: TransformerConfig = None
    opt: OptimizerConfig = None
    seed: int = 0
    state: object = None
    loss: float = 0.0
    grads: dict = None
    W: list = None  # the bigram's table
    pairs: list = None  # the bigram's pairs of this step's batch
    batch_losses: tuple = ()
    evals: tuple = ()  # (step, train, held-out, bigram train, bigram held-out)
    snapshot: tuple = None  # (step, transformer weights, bigram table) of the last generation
    samples: Memo = None


def evaluate(m):
    """Le loss dei due modelli su tutto il testo di training e sul sesto tenuto da parte."""
    windows_train, windows_held = EVAL_WINDOWS
    return (
        m.step,
        text_loss(m.state.params, m.config, m.train, windows_train),
        text_loss(m.state.params, m.config, m.held, windows_held),
        dataset_loss(m.W, make_pairs(m.train)),
        dataset_loss(m.W, make_pairs(m.held)),
    )


def measure(m):
    """Il batch di questo passo, la sua loss e il gradiente con questi pesi, e le valutazioni.

    The batch of this step, its loss and gradient at these weights, and the evaluations that fall here.
    """
    batch = batch_for_step(m.train, m.config, BATCH, m.seed, m.step)
    loss, grads = loss_and_grads(m.state.params, m.config, *batch)
    m = replace(m, loss=loss, grads=grads, pairs=batch_pairs(batch), batch_losses=(*m.batch_losses, loss))
    if m.step % EVAL_EVERY == 0:
        m = replace(m, evals=(*m.evals, evaluate(m)))
    if m.step % SAMPLE_EVERY == 0:
        m = replace(m, snapshot=(m.step, m.state.params, m.W))
    return m


def start(p):
    """La macchina al passo 0: vocabolario, testo di training e di prova, pesi iniziali dei due modelli."""
    kind = p["token"]
    tokens = tokens_of(p["corpus"], kind)
    vocab = build_vocab(tokens)
    problem = text_problem(p["corpus"], tokens, vocab, kind)
    if problem:
        return Training(problem=problem, kind=kind)
    ids = encode(tokens, vocab)
    cut = len(ids) - len(ids) // HELD_OUT
    config = TransformerConfig(
        vocab_size=len(vocab),
        d_model=int(p["d"]),
        n_heads=int(p["teste"]),
        n_layers=int(p["blocchi"]),
        context=CONTEXT,
        seed=p["seme"],
    )
    opt = OptimizerConfig(lr=p["lr"], warmup=WARMUP, total_steps=STEPS, floor=FLOOR)
    m = Training(
        kind=kind,
        vocab=vocab,
        train=ids[:cut],
        held=ids[cut:],
        config=config,
        opt=opt,
        seed=p["seme"],
        state=init_state(config),
        W=init_weights(len(vocab), random.Random(p["seme"])),
        samples=Memo(),
    )
    return measure(m)


def advance(m, p):
    """Un passo di training di entrambi i modelli sullo stesso batch, poi il batch dopo.

    One training step of both models on the same batch, then the next batch measured at the new weights.
    """
    if m.problem:
        return replace(m, step=m.step + 1)
    state, _ = apply_gradients(m.state, m.grads, m.opt)
    return measure(replace(m, state=state, W=sgd_update(m.W, gradient(m.W, m.pairs), BIGRAM_ETA), step=m.step + 1))


def generate(m, prompt, temperature):
    """Il testo greedy e campionato dal prompt, per il transformer e per il bigramma.

    Greedy and sampled text from the prompt, for the transformer and for the
    bigram, with the weights of the last generation step (remembered in the training's samples).
    The greedy text does not depend on the temperature: moving its slider
    samples again, and only that.
    """
    step, params, W = m.snapshot
    n = GENERATED[m.kind]
    greedy = m.samples.get(
        (step, tuple(prompt)),
        lambda: [transformer_generate(params, m.config, prompt, n), bigram_generate(W, prompt, n, 0.0)],
    )
    sampled = m.samples.get(
        (step, tuple(prompt), temperature),
        lambda: [
            transformer_generate(params, m.config, prompt, n, temperature, seeded_rng(m.seed)),
            bigram_generate(W, prompt, n, temperature, seeded_rng(m.seed)),
        ],
    )
    return {
        model: [joined([m.vocab[i] for i in ids], m.kind) for ids in (greedy[k], sampled[k])]
        for k, model in enumerate(("transformer", "bigram"))
    }


def bigram_generate(W, prompt, n, temperature, rng=None):
    """n ID dopo il prompt, ognuno scelto dalla riga del precedente (la stessa regola del transformer).

    n IDs after the prompt, each chosen from the row of the one before (the same rule as the transformer's).
    """
    ids = [prompt[-1]]
    for _ in range(n):
        ids.append(choose_token(W[ids[-1]], temperature, rng))
    return ids[1:]


def attention_maps(m, sentence):
    """L'attention di ogni testa sugli ultimi CONTEXT token della frase."""
    tokens = tokens_of(sentence, m.kind)
    missing = unknown(tokens, m.vocab)
    if not tokens:
        return {"problem": "Scrivi una frase per vedere dove guarda ogni testa."}
    if missing:
        return {"problem": f"{missing_text(missing)}: il modello non ha un vettore per leggerle."}
    cut = len(tokens) > CONTEXT
    tokens = tokens[-CONTEXT:]
    layers = trace(m.state.params, m.config, encode(tokens, m.vocab))["layers"]
    return {"tokens": [shown(t) for t in tokens], "cut": cut, "maps": [layer["attention"] for layer in layers]}


def missing_text(missing):
    """Il messaggio «xyz» non è nel vocabolario del testo (nomina al più cinque token)."""
    names = ", ".join(f"«{shown(t)}»" for t in missing[:5]) + (" …" if len(missing) > 5 else "")
    return f"{names} non {'è' if len(missing) == 1 else 'sono'} nel vocabolario del testo"


def embedding_plane(m):
    """Gli embedding dei token sulle loro due direzioni principali, orientate in modo stabile.

    The token embeddings on their two principal directions, each turned so
    that the first token sits on the positive side (the cloud does not flip
    from one step to the next when the sign of a direction would).
    """
    E = m.state.params["tok_emb"]
    directions, variances = principal_directions(E)
    points = project(E, directions)
    signs = [-1.0 if points[0][k] < 0 else 1.0 for k in range(2)]
    return {
        "points": [[x * signs[0], y * signs[1]] for x, y in points],
        "explained": sum(variances) / total_variance(E),
    }


def present(m, p):
    """Lo stato del passo: curve, gradienti, generazioni, attention e embedding del transformer."""
    s = {"step": m.step, "kind": m.kind, "batch_losses": list(m.batch_losses or [])}
    if m.problem:
        return s | {"problem": m.problem}
    config = m.config
    train_pairs = make_pairs(m.train)
    s |= {
        "vocab": [shown(t) for t in m.vocab],
        "n_train": len(m.train),
        "n_held": len(m.held),
        "config": {
            "d": config.d_model,
            "heads": config.n_heads,
            "layers": config.n_layers,
            "context": CONTEXT,
            "batch": BATCH,
        },
        "lr": m.opt.lr,
        "lr_next": learning_rate(m.step, m.opt),
        "seed": m.seed,
        "loss": m.loss,
        "evals": [list(e) for e in m.evals],
        "bigram_best": best_loss(train_pairs),
        "uniform": math.log(len(m.vocab)),
        "counts": param_count(config),
        "bigram_params": len(m.vocab) ** 2,
        "folds": {part: opened(p, part) for part in FOLDS},
        "attention": attention_maps(m, p["frase"]),
        "roles": [ROLES.get(t, "muted") if m.kind == "parole" else "muted" for t in m.vocab],
    }
    prompt = tokens_of(p["prompt"], m.kind)
    missing = unknown(prompt, m.vocab)
    if not prompt:
        s["samples"] = {"problem": "Scrivi l'inizio di una frase: il modello la continua da lì."}
    elif missing:
        s["samples"] = {
            "problem": f"{missing_text(missing)}: il modello può continuare solo un testo fatto di token che conosce."
        }
    else:
        s["samples"] = {
            "at": m.snapshot[0],
            "prompt": joined(prompt, m.kind),
            "temperature": p["temperatura"],
            **generate(m, encode(prompt, m.vocab), p["temperatura"]),
        }
    name = p["matrice"]
    if name not in m.state.params:  # a block this model does not have, or no learned positions
        name = name.replace(name.split(".")[0], "block0") if name.startswith("block") else "tok_emb"
    if opened(p, "gradienti"):  # what only the closed sections show is computed when they are open
        s |= {
            "grad_norm": grad_norm(m.grads),
            "layer_norms": layer_grad_norms(m.grads),
            "matrix_norms": {name: grad_norm({name: g}) for name, g in m.grads.items()},
        }
    if opened(p, "embedding"):
        s["embedding"] = embedding_plane(m)
    s["matrix"] = {
        "name": name,
        "asked": p["matrice"],
        "values": m.state.params[name],
        "grad": m.grads[name],
        "shape": list(param_shapes(config)[name]),
    }
    return s


compute = step_machine(start, advance, present, view_only=("prompt", "temperatura", "frase", "matrice"), packed=True)


def follow(s):
    if "problem" in s:
        reason = "Prima serve un testo su cui allenare il modello."
        return {name: Follow(disabled=reason) for name in ("prompt", "temperatura", "frase", "matrice")}
    return {}


# ---------------------------------------------------------------- view


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
        label=f"La loss dei due modelli fino al passo {s['step']}",
    )


def headline(s):
    e = last_eval(s)
    below = e["train"] < s["bigram_best"]
    return stats(
        stat(f"Loss sul training (passo {e['step']})", num(e["train"], 3), tone="ok" if below else None),
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
            f"Loss misurate al passo {e['step']} (ogni {EVAL_EVERY} passi); la perplexity è e elevato alla "
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
            f"Testo generato con i pesi del passo {g['at']}: si rigenera ogni {SAMPLE_EVERY} passi, "
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
            label=f"Gli embedding dei token proiettati su due dimensioni, al passo {s['step']}",
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


HEAT_LEVELS = ("p1", "p2", "p3", "p4", "n1", "n2", "n3", "n4")


def heat_picture(values, label, row_labels=None):
    """A matrix as a picture of coloured cells, one SVG path per shade: light
    enough to be redrawn at every step even at 64 × 16."""
    rows, cols = len(values), len(values[0])
    cell = max(6, min(16, 320 // cols))  # whole pixels: the path stays short
    height_cell = max(cell, 14) if row_labels else cell
    left = 8 + 8 * max((len(str(r)) for r in row_labels), default=0) if row_labels else 4
    scale = max(abs(v) for row in values for v in row) or 1.0
    shapes = {level: [] for level in HEAT_LEVELS}
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            level = min(4, max(1, math.ceil(4 * abs(v) / scale - 1e-9))) if v else 0
            if level:
                shapes[("p" if v > 0 else "n") + str(level)].append(
                    f"M{left + j * cell} {4 + i * height_cell}h{cell}v{height_cell}h-{cell}z"
                )
    width, height = left + cols * cell + 4, 8 + rows * height_cell
    names = [
        svg_text(left - 4, 4 + (i + 0.5) * height_cell, r, class_="lab-transformer-allenato-heat-name", anchor="end")
        for i, r in enumerate(row_labels or ())
    ]
    return svg(
        round(width),
        round(height),
        tag(
            "rect",
            x=float(left),
            y=4.0,
            width=float(cols * cell),
            height=float(rows * height_cell),
            class_="lab-transformer-allenato-heat-frame",
        ),
        *(path(" ".join(d), class_=f"lab-heat-{level}") for level, d in shapes.items() if d),
        *names,
        label=label,
        class_="lab-svg lab-transformer-allenato-heat",
        text=12,
        description=describe_matrix(values, [str(r) for r in row_labels] if row_labels else None),
    )


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
        heat_picture(W, f"I pesi di {what} al passo {at}", row_labels),
        tag("figcaption", f"I pesi: il più grande in valore assoluto vale {num(W[wi][wj], 3)}"),
    )
    grads = tag(
        "figure",
        heat_picture(G, f"Il gradiente di {what} al passo {at}", row_labels),
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


EDITS = [
    Edit(
        "i pesi iniziali dieci volte più grandi",
        change=(
            "        params[name] = [[std * g for g in gaussian_sample(shape[1], rng)]",
            "        params[name] = [[10 * std * g for g in gaussian_sample(shape[1], rng)]",
        ),
        expect="Al passo 0 il modello è già sicuro di sé, e sbaglia: la loss di partenza sale da circa 3,5 a più "
        "di 8, ben sopra log V ≈ 3,3 di chi tira a indovinare. Per questo si parte da pesi piccoli.",
        check=lambda before, after: (
            before.state["loss"] < before.state["uniform"] + 0.5 and after.state["loss"] > before.state["uniform"] + 4
        ),
    ),
]

KNOWN_PAIRS = frozenset(make_pairs(tokenize(CORPUS)))  # the word pairs of the default text


def first_difference(a, b):
    """Where two texts of words part (the length of the shorter if one begins the other)."""
    a, b = a.split(), b.split()
    return next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def followers(text, word):
    """The words that come after `word` in a text."""
    words = text.split()
    return {b for a, b in zip(words, words[1:]) if a == word}


def cold_sampling(s):
    """At a low temperature the transformer follows greedy past the first sentence and parts on a verb; the
    bigram parts sooner, and still picks more than one word after «il»."""
    g = s["samples"]
    greedy, sampled = g["transformer"]
    at = first_difference(greedy, sampled)
    return (
        at > greedy.split().index(".") + 5
        and ROLES.get(sampled.split()[at]) == "b"
        and first_difference(*g["bigram"]) < at
        and len(followers(g["bigram"][1], "il")) > 1
    )


def new_pairs(s):
    """Whether the sampled text of the transformer (after its prompt) has a pair of words the text has not."""
    words = (s["samples"]["prompt"] + " " + s["samples"]["transformer"][1]).split()
    return any(pair not in KNOWN_PAIRS for pair in zip(words, words[1:]))


# the training at its defaults: an experiment about the training sets all of it (the reader may have changed it)
TRAINING = {"token": "parole", "d": "16", "teste": "2", "blocchi": "1", "lr": 0.004, "seme": 0}

EXPERIMENTS = [
    Experiment(
        "Alla fine del training, nella riga di «al» della frase «il nonno nuota al», una testa guarda quasi solo "
        "«nuota».",
        {"passo": STEPS, "token": "parole", "frase": "il nonno nuota al"},
        "attention",
        lambda s: max(A[-1][2] for A in s["attention"]["maps"][0]) > 0.9,
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "Da «il papà pesca» il transformer scrive «al lago .»; il bigramma, da «al», va in un altro posto.",
        {"passo": STEPS, "token": "parole", "prompt": "il papà pesca"},
        "greedy",
        lambda s: (
            s["samples"]["transformer"][0].split()[:3] == ["al", "lago", "."]
            and s["samples"]["bigram"][0].split()[0] == "al"
            and s["samples"]["bigram"][0].split()[1] != "lago"
        ),
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "Con il learning rate a 0,01, a fine training la loss sul testo da parte supera quella del bigramma.",
        {"passo": STEPS, **TRAINING, "lr": 0.01},
        "vista-loss",
        lambda s: s["evals"][-1][1] < 0.424 and s["evals"][-1][2] > s["evals"][-1][4],
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "Con i caratteri, al passo 300 il transformer sta sotto la linea del bigramma più che con le parole.",
        {"passo": 300, **TRAINING, "token": "caratteri"},
        "vista-loss",
        lambda s: len(s["vocab"]) == 19 and s["bigram_best"] - s["evals"][-1][1] > 0.24,
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "A temperatura 0,1 il transformer segue il testo greedy fino a un verbo; il bigramma se ne stacca prima.",
        {"passo": STEPS, "token": "parole", "temperatura": 0.1},
        "campionato",
        cold_sampling,
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "A temperatura 2 il transformer scrive coppie di parole che nel testo non ci sono.",
        {"passo": STEPS, "token": "parole", "temperatura": 2.0},
        "campionato",
        new_pairs,
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "Con il seme 1, dopo 300 passi la loss del transformer sul training è già sotto la linea del bigramma.",
        {"passo": 300, **TRAINING, "seme": 1},
        "vista-loss",
        lambda s: s["evals"][-1][0] == 300 and s["evals"][-1][1] < s["bigram_best"],
        after="Esperimenti: ognuno porta",
    ),
    Experiment(
        "Al passo 0, nelle mappe di attention, la riga di «in» divide il peso quasi in parti uguali tra le quattro "
        "parole.",
        {"passo": 0, "frase": "la nonna legge in", "token": "parole", "seme": 0},
        "attention",
        lambda s: all(max(m[-1]) - min(m[-1]) < 0.1 for layer in s["attention"]["maps"] for m in layer),
        after="Al passo 0",
    ),
]
