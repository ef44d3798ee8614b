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

from core.transformer_trace import token_trip
from labs.chA._giro_modello import CONFIG
from labs.chA._giro_modello import VOCAB
from labs.chA._giro_pesi import WEIGHTS
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Slider
from labs.kit import Steps
from labs.kit import Text
from labs.kit import callout
from labs.kit import panel
from labs.kit import phase_screen
from labs.kit import read_words
from labs.kit import stats
from labs.kit import step_machine
from labs.kit import tag
from labs.kit import token_chips
from labs.kit.stepping import ended

from ._giro_schermate import SCREENS
from ._giro_schermate import word

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
        panel(
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
            title=f"{PHASES[s['step']]} · {word(s['ids'][s['position']])}",
            part="passo",
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
