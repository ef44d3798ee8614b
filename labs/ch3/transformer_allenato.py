"""Un piccolo **transformer** allenato da zero, nel tuo browser, e accanto a
lui il bigramma del laboratorio precedente, sullo stesso testo:
ogni **Avanti** è un passo di training di tutti e due, e il grafico mette le
loro loss una accanto all'altra.

Esperimenti: ognuno porta il training al passo che serve, con un clic. Che
cosa c'è dietro lo racconta «Per saperne di più», dopo il laboratorio.

## Per saperne di più

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
from dataclasses import dataclass
from dataclasses import replace

from core.bigram import best_loss
from core.bigram import build_vocab
from core.bigram import dataset_loss
from core.bigram import encode
from core.bigram import gradient
from core.bigram import init_weights
from core.bigram import make_pairs
from core.bigram import tokenize
from core.descent import sgd_update
from core.linalg import seeded_rng
from core.optimizers import OptimizerConfig
from core.optimizers import apply_gradients
from core.optimizers import grad_norm
from core.optimizers import learning_rate
from core.pca import principal_directions
from core.pca import project
from core.pca import total_variance
from core.sampling import choose_token
from core.transformer import TransformerConfig
from core.transformer import layer_grad_norms
from core.transformer import loss_and_grads
from core.transformer import param_count
from core.transformer import param_shapes
from core.transformer_generation import transformer_generate
from core.transformer_trace import trace
from core.transformer_training import batch_for_step
from core.transformer_training import init_state
from core.transformer_training import text_loss
from labs.kit import Choice
from labs.kit import Curve
from labs.kit import Edit
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Jump
from labs.kit import Memo
from labs.kit import Slider
from labs.kit import Steps
from labs.kit import Text
from labs.kit import corpus_problem
from labs.kit import known
from labs.kit import num
from labs.kit import opened
from labs.kit import step_machine

from ._allenato_prove import EXPERIMENTS as EXPERIMENTS  # the «Prova» of the prose
from ._allenato_regole import BATCH
from ._allenato_regole import BIGRAM_ETA
from ._allenato_regole import CONTEXT
from ._allenato_regole import CORPUS
from ._allenato_regole import EVAL_EVERY
from ._allenato_regole import EVAL_WINDOWS
from ._allenato_regole import FLOOR
from ._allenato_regole import GENERATED
from ._allenato_regole import HELD_OUT
from ._allenato_regole import MATRICES
from ._allenato_regole import MAX_CHARS
from ._allenato_regole import MAX_VOCAB
from ._allenato_regole import MIN_TOKENS
from ._allenato_regole import ROLES
from ._allenato_regole import SAMPLE_EVERY
from ._allenato_regole import STEPS
from ._allenato_regole import UNITS
from ._allenato_regole import WARMUP
from ._allenato_viste import view as view  # the lab's view, with its sections

TITLE = "Alleniamo un piccolo transformer"
REF = "3.2"

FOLDS = ("embedding", "gradienti", "matrice")  # drawn only while the reader has them open (kit.fold)


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
    return (m.step, *losses(m.state.params, m.config, m.train, m.held, m.W))


@known  # at step 0 of the defaults the page already shows them: the browser's first drawing takes the build's
def losses(params, config, train, held, W):
    """La loss del transformer e quella del bigramma, sul testo di training e su quello tenuto da parte."""
    windows_train, windows_held = EVAL_WINDOWS
    return (
        text_loss(params, config, train, windows_train),
        text_loss(params, config, held, windows_held),
        dataset_loss(W, make_pairs(train)),
        dataset_loss(W, make_pairs(held)),
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
