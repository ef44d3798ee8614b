"""Un modello linguistico vero, per quanto minuscolo, impara da capo nel
tuo browser. Guarda soltanto l'ultima parola e prova a indovinare
la successiva: è un **modello a bigrammi**. Tutto quello che sa sta in una
tabella di pesi W con una riga per il token attuale e una colonna per il
token che potrebbe seguirlo: con il corpus proposto, 15 token, quindi
15 × 15 = 225 numeri, all'inizio scelti a caso.

Premi **Avanti** e segui il ciclo, una schermata alla volta. [Le fasi](#bigrammi-passo)
del ciclo, tra i comandi dei passi, portano a una schermata del giro in corso e «fine
dell'epoch» salta al riepilogo che chiude l'epoch.

1. **Il dataset**: poche frasi su un gatto, un cane, un divano e un letto.
   Nessuno le ha etichettate: le risposte giuste stanno già nel testo.
2. **La tokenizzazione**: ogni parola (e il punto) diventa un token con un
   numero, il suo ID.
3. **Coppie e batch**: ogni token fa da domanda e quello che lo segue da
   risposta. Le coppie si mescolano e si dividono in batch.
4. **Forward**: per ogni esempio del batch il modello legge la riga del
   token attuale e la trasforma in probabilità con la softmax.
5. **Loss**: −log della probabilità data al token giusto, poi la media
   sul batch.
6. **Backward**: il gradiente è p − y, la probabilità meno il bersaglio
   one-hot, sulla riga di ogni esempio, mediato sul batch. Le righe dei token assenti dal batch restano a zero.
7. **Aggiornamento**: w ← w − η·gradiente, in un colpo solo per tutta la
   tabella.
8. **Riepilogo**: la curva della loss e le previsioni del modello adesso.

Poi il giro ricomincia dal forward con il batch successivo. Quando i batch
sono finiti ogni coppia è stata vista una volta: si chiude un'**epoch**, le
coppie si rimescolano e ne comincia un'altra.

Che cosa guardare. Nel backward, quante righe restano grigie: un batch
piccolo corregge poche righe alla volta. Nell'aggiornamento, che la loss del
batch scende. Nel riepilogo, che la loss su tutto il dataset
cala epoch dopo epoch ma non arriva a zero: dopo «il» può venire «gatto»,
«cane» o «pesce», e nessuna tabella può sapere quale. La linea tratteggiata
segna il minimo possibile. I punti, la loss di ciascun batch, saltano più
della curva: ogni batch è un campione piccolo, e il suo gradiente è una
stima rumorosa di quello vero (è la «S» di SGD). Prova poi un learning rate grande con batch da un
solo esempio: la curva smette di scendere e si mette a saltare.

Il corpus si può riscrivere: le parole diverse diventano la tabella (fino a
20), e il punto resta un token come le parole.
"""

import math
import random
from dataclasses import dataclass
from dataclasses import replace

from core.bigram import batch_loss
from core.bigram import best_loss
from core.bigram import build_vocab
from core.bigram import cut_batches
from core.bigram import dataset_loss
from core.bigram import encode
from core.bigram import example_losses
from core.bigram import gradient
from core.bigram import init_weights
from core.bigram import make_pairs
from core.bigram import next_frequencies
from core.bigram import next_token_probs
from core.bigram import shuffle_pairs
from core.bigram import tokenize
from core.bigram import top_k
from core.descent import sgd_update
from core.losses import softmax_cross_entropy_grad
from core.softmax import softmax
from labs.kit import Case
from labs.kit import Curve
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Jump
from labs.kit import Question
from labs.kit import Slider
from labs.kit import Steps
from labs.kit import Text
from labs.kit import Wrong
from labs.kit import callout
from labs.kit import corpus_problem
from labs.kit import phase_screen
from labs.kit import step_machine
from labs.kit import tag

from ._bigrammi_schermate import SCREEN_VIEWS
from ._bigrammi_schermate import header
from ._bigrammi_schermate import short

TITLE = "Il modello a bigrammi, allenato passo per passo"
REF = "3.1"

CORPUS = """il gatto dorme sul divano .
il cane dorme sul letto .
il gatto mangia il pesce .
il cane mangia la carne .
il cane corre nel giardino .
il gatto corre nel giardino ."""
MAX_VOCAB = 20  # a 20 × 20 table is the most that stays legible in the page
MAX_TOKENS = 120
UPDATES = 100
PRELUDE, LOOP = 3, 5  # screens 1–3 once, then 4–8 once per batch
SCREENS = (
    "Il dataset",
    "Tokenizzazione",
    "Coppie e batch",
    "Forward",
    "Loss",
    "Backward",
    "Aggiornamento",
    "Riepilogo",
)


def screen_of(step):
    """Dal passo alla schermata (da 1 a 8) e al numero di aggiornamenti già fatti."""
    if step < PRELUDE:
        return step + 1, 0
    done, k = divmod(step - PRELUDE, LOOP)
    return PRELUDE + 1 + k, done


def summary_step(update):
    """The step of the summary (screen 8) of the update numbered from 1."""
    return PRELUDE + LOOP * update - 1


def epoch_end(s):
    """Where «fine dell'epoch» lands: the summary that closes this epoch, or
    the next one if the reader is already on it; None when that epoch would
    end after the last update."""
    if "problem" in s:
        return None
    end = s["update"] + s["per_epoch"] - s["number"]
    if summary_step(end) <= s["step"]:
        end += s["per_epoch"]
    return summary_step(end) if end <= UPDATES else None


CONTROLS = [
    Text("corpus", "Il corpus (parole intere; il punto è un token)", CORPUS, max_length=600, multiline=True),
    Group(
        "Il training",
        (
            Slider("eta", "Learning rate η", 0.1, 10.0, 0.1, 2.0),
            Slider("batch", "Esempi per batch", 1, 40, 1, 7),
            Slider("seme", "Seme: pesi iniziali e rimescolamento", 0, 99, 1, 1),
            Slider("parola", "Parola del riepilogo (ID, o clicca una riga)", 0, MAX_VOCAB - 1, 1, 1),
        ),
    ),
    Steps(
        max=summary_step(UPDATES),
        phases=SCREENS,
        prelude=PRELUDE,
        jumps=(Jump("fine dell'epoch", epoch_end),),
        curve=Curve("curve", "loss sul dataset", points=UPDATES + 1),
    ),
]


# ---------------------------------------------------------------- the training, one step at a time


@dataclass(frozen=True)
class Training:
    """Il punto in cui è arrivato il training: la macchina che «Avanti» fa muovere.

    W is the table before this round's update; batches are this epoch's, and
    number says which one comes now; shuffler is the state of the generator
    that drew the initial weights and will shuffle the next epochs; curve and
    batch_curve hold the losses after each update so far. Only leaving a
    summary (screen 8) changes W: every other step shows one more screen of
    the same round."""

    step: int = 0
    problem: str = ""
    vocab: list = None
    n_tokens: int = 0
    pairs: list = None
    W: list = None
    shuffler: tuple = None
    epoch: int = 1
    number: int = 1
    batches: list = None
    curve: tuple = ()
    batch_curve: tuple = ()


def epoch_batches(pairs, p, rng):
    """I batch di un'epoch: le coppie mescolate e tagliate in pezzi della taglia scelta."""
    return cut_batches(shuffle_pairs(pairs, rng), min(p["batch"], len(pairs)))


def next_epoch(m, p):
    """I batch dell'epoch dopo, mescolati dal generatore dov'era rimasto, e il suo stato nuovo."""
    rng = random.Random()
    rng.setstate(m.shuffler)
    return epoch_batches(m.pairs, p, rng), rng.getstate()


def start(p):
    """La macchina al passo 0: vocabolario, coppie, pesi casuali e i batch della prima epoch."""
    tokens = tokenize(p["corpus"])
    vocab = build_vocab(tokens)
    problem = corpus_problem(
        tokens,
        vocab,
        MAX_VOCAB,
        max_tokens=MAX_TOKENS,
        shown=short,
        wide=f", perché la tabella dei pesi sarebbe {len(vocab)} × {len(vocab)}",
    )
    if problem:
        return Training(problem=problem)
    pairs = make_pairs(encode(tokens, vocab))
    rng = random.Random(p["seme"])
    W = init_weights(len(vocab), rng)
    batches = epoch_batches(pairs, p, rng)
    return Training(
        vocab=vocab,
        n_tokens=len(tokens),
        pairs=pairs,
        W=W,
        shuffler=rng.getstate(),
        batches=batches,
        curve=(dataset_loss(W, pairs),),
    )


def advance(m, p):
    """Un passo dopo: uscendo dal riassunto si applica l'aggiornamento e si prende il batch seguente."""
    if m.problem or screen_of(m.step)[0] != len(SCREENS):
        return replace(m, step=m.step + 1)
    batch = m.batches[m.number - 1]
    W = sgd_update(m.W, gradient(m.W, batch), p["eta"])
    m = replace(
        m,
        step=m.step + 1,
        W=W,
        number=m.number + 1,
        curve=(*m.curve, dataset_loss(W, m.pairs)),
        batch_curve=(*m.batch_curve, batch_loss(m.W, batch)),
    )
    if m.number > len(m.batches):  # every pair seen: a new epoch, shuffled again
        batches, shuffler = next_epoch(m, p)
        m = replace(m, epoch=m.epoch + 1, number=1, batches=batches, shuffler=shuffler)
    return m


def present(m, p):
    """Lo stato della schermata a questo passo, calcolato solo per il batch corrente."""
    screen, done = screen_of(m.step)
    s = {"step": m.step, "screen": screen}
    if m.problem:
        return s | {"problem": m.problem}
    vocab, pairs, W, eta = m.vocab, m.pairs, m.W, p["eta"]
    batch = m.batches[m.number - 1]
    s |= {
        "vocab": list(vocab),
        "eta": eta,
        "size": min(p["batch"], len(pairs)),
        "seed": p["seme"],
        "epoch": m.epoch,
        "number": m.number,
        "per_epoch": len(m.batches),
        "update": done + 1,
        "updates": UPDATES,
        "batch": list(batch),
        "n_pairs": len(pairs),
        "n_tokens": m.n_tokens,
        "uniform": math.log(len(vocab)),
        "curve": list(m.curve),
    }  # the dataset loss so far: the timeline draws it
    if screen == 1:
        return s | {"text": [line.strip() for line in p["corpus"].splitlines() if line.strip()]}
    if screen == 2:
        lines = [tokenize(line) for line in p["corpus"].splitlines()]
        return s | {"lines": [encode(line, vocab) for line in lines if line]}
    if screen == 3:
        return s | {"pairs": list(pairs), "epoch_batches": [list(b) for b in m.batches]}
    probs, G = next_token_probs(W, batch), gradient(W, batch)
    after = sgd_update(W, G, eta)
    s |= {
        "W": W,
        "probs": probs,
        "p_right": [pr[nxt] for pr, (_, nxt) in zip(probs, batch)],
        "losses": example_losses(W, batch),
        "loss": batch_loss(W, batch),
    }
    if screen == 6:
        s |= {"residuals": [softmax_cross_entropy_grad(W[cur], nxt) for cur, nxt in batch]}
    if screen >= 6:
        s |= {
            "G": G,
            "delta": [[-eta * g for g in row] for row in G],
            "after": after,
            "loss_after": batch_loss(after, batch),
            "data_before": m.curve[-1],
            "data_after": dataset_loss(after, pairs),
        }
    if screen == 8:
        picked = min(p["parola"], len(vocab) - 1)
        P = [softmax(row) for row in after]
        s |= {
            "P": P,
            "curve": s["curve"] + [s["data_after"]],
            "batch_curve": [*m.batch_curve, s["loss"]],
            "best": best_loss(pairs),
            "picked": picked,
            "top": top_k(P[picked], 3),
            "freq": next_frequencies(pairs, picked, len(vocab)),
        }
    return s


compute = step_machine(start, advance, present, view_only=("parola",))


def follow(s):
    """«Parola del riepilogo» stops at the last token of the vocabulary, and says when it does nothing."""
    if "problem" in s:
        return {"parola": Follow(disabled="Prima serve un corpus che dia una tabella.")}
    last = len(s["vocab"]) - 1
    if s["screen"] != len(SCREENS):
        return {"parola": Follow(disabled="Conta solo nel Riepilogo, alla fine di ogni giro.", max=last)}
    return {"parola": Follow(max=last)}


# ---------------------------------------------------------------- view


def view(s):
    if "problem" in s:
        return tag("div", callout(s["problem"], tone="warn"), class_="lab-bigrammi", data_screen=s["screen"])
    big = " is-big" if len(s["vocab"]) > 16 else ""  # smaller type, so that a 20 × 20 table still fits
    return tag(
        "div",
        *(header(s) if s["screen"] > PRELUDE else ()),
        tag("h3", f"{s['screen']}. {SCREENS[s['screen'] - 1]}"),
        *phase_screen(SCREEN_VIEWS, s, s["screen"] - 1),
        class_="lab-bigrammi" + big,
        data_screen=s["screen"],
    )


EDITS = [
    Edit(
        "il gradiente senza il −1 del token giusto",
        change=(
            "            row[j] += ((p[j] - 1.0) if j == nxt else p[j]) / size",
            "            row[j] += p[j] / size",
        ),
        expect="Senza y il gradiente spinge giù ogni peso della riga, il giusto come gli altri: dopo un'epoch "
        "la loss sul testo non scende più, si avvicina a quella di chi tira a indovinare.",
        params={"passo": 60},
        check=lambda before, after: after.state["curve"][-1] > before.state["curve"][-1],
    ),
]

EXPERIMENTS = [
    Experiment(
        "Con batch da 2 esempi, nel backward solo 2 righe su 15 ricevono un gradiente: le altre restano grigie.",
        {"batch": 2, "eta": 2.0, "seme": 1, "passo": 5},
        "gradiente",
        lambda s: sum(any(g != 0 for g in row) for row in s["G"]) == 2 and len(s["G"]) == 15,
        after="un batch piccolo corregge poche righe",
        predict=Question(
            "La tabella W ha 15 righe, una per token. Con un batch di 2 esempi, quante righe ricevono un "
            "gradiente diverso da zero nel backward?",
            ("Tutte e 15", "Solo le righe dei token correnti del batch: 2", "Nessuna, finché l'epoch non è finita"),
            1,
            "Ogni esempio legge una riga sola, quella del suo token corrente, e solo lì il gradiente p − y non è "
            "zero. Due esempi con due token diversi toccano due righe; le altre tredici aspettano un altro batch.",
        ),
    ),
    Experiment(
        "Alla fine dell'ultima epoch la loss su tutto il dataset è scesa a 0,62, ma resta più alta del minimo "
        "possibile, 0,47.",
        {"batch": 7, "eta": 2.0, "seme": 1, "passo": 502},
        "vista-curva",
        lambda s: round(s["curve"][-1], 2) == 0.62 and round(s["best"], 2) == 0.47,
        after="segna il minimo possibile",
    ),
    Experiment(
        "Con η = 10 e batch da un solo esempio la curva smette di scendere: alla fine la loss è ancora sopra 2,5.",
        {"batch": 1, "eta": 10.0, "seme": 1, "passo": 502},
        "vista-curva",
        lambda s: s["curve"][-1] > 2.5 and s["screen"] == 8,
        after="si mette a saltare",
    ),
]

EXERCISES = [
    Exercise(
        next_frequencies,
        task="Scrivi come si passa dai conteggi dei bigrammi alle probabilità: tra le coppie (corrente, "
        "successivo) tieni quelle che cominciano con il token `cur`, conta quante volte compare ogni successivo "
        "e dividi per quante sono in tutto. Se `cur` non è mai seguito da niente, restituisci n zeri. Quando la "
        "tua funzione passa le verifiche, la colonna «nei dati» del riepilogo viene da lei.",
        doc="Le frequenze dei token che seguono cur nelle coppie: una quota per ciascuno degli n token.",
        hints=(
            "Tieni solo i successivi delle coppie giuste: `[nxt for c, nxt in pairs if c == cur]`.",
            "Conta con una lista di n zeri (o con `Counter`), e dividi ogni conteggio per quante coppie hai "
            "tenuto, non per n.",
            "Se non hai tenuto nessuna coppia il totale è zero: restituisci `[0.0] * n` invece di dividere.",
        ),
        cases=(
            Case(([(0, 1), (0, 2), (0, 1), (1, 0), (2, 2)], 0, 4), "tre successivi su quattro token"),
            Case(([(0, 1), (1, 2), (2, 0)], 1, 3), "un solo successivo possibile"),
            Case(([(0, 1), (0, 1), (0, 2), (0, 2)], 0, 4), "due successivi alla pari"),
            Case(([(0, 1), (0, 2)], 2, 3), "un token che non è mai seguito da niente"),
            Case(([], 0, 2), "nessuna coppia"),
            Case(([(0, 0), (0, 0)], 0, 1), "un token che segue sé stesso"),
        ),
        random=lambda rng: (
            lambda n: (
                [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 12))],
                rng.randrange(n),
                n,
            )
        )(rng.randint(2, 6)),
        count=14,
        tolerance=1e-9,
        wrong=(
            Wrong(
                """
def next_frequencies(pairs, cur, n):
    counts = Counter(nxt for c, nxt in pairs if c == cur)
    total = sum(counts.values())
    return [counts[j] / total for j in range(n)]
""",
                "Quando il token non è mai seguito da niente il totale è zero e la divisione fallisce: in quel "
                "caso le quote sono tutte 0.",
            ),
            Wrong(
                """
def next_frequencies(pairs, cur, n):
    counts = Counter(nxt for c, nxt in pairs if c == cur)
    return [counts[j] / n for j in range(n)]
""",
                "Hai diviso per n, la taglia del vocabolario: si divide per quante volte cur è seguito da "
                "qualcosa, così le quote sommano a 1.",
            ),
            Wrong(
                """
def next_frequencies(pairs, cur, n):
    counts = Counter(nxt for c, nxt in pairs if c == cur)
    return [counts[j] / len(pairs) if pairs else 0.0 for j in range(n)]
""",
                "Hai diviso per tutte le coppie del dataset: contano solo quelle che cominciano con cur.",
            ),
        ),
    ),
]
