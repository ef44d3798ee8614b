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

from core.mini_transformer import mini_forward
from core.mini_transformer import mini_generate
from core.softmax import softmax
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Slider
from labs.kit import Text
from labs.kit import opened
from labs.kit import read_words

from ._miniatura_pesi import END
from ._miniatura_pesi import MAX_NEW
from ._miniatura_pesi import MAX_WORDS
from ._miniatura_pesi import VOCAB
from ._miniatura_pesi import W1
from ._miniatura_pesi import W2
from ._miniatura_pesi import W_Q
from ._miniatura_pesi import E
from ._miniatura_viste import view as view  # the lab's view, a panel a stage

TITLE = "Il transformer in miniatura"
REF = "1.4"
FOLDS = ("tabella-e", "matrice-wq")  # the two tables of weights, for reference: drawn only while open

# ---------------------------------------------------------------- controls

SENTENCES = (
    ("gatto", "il gatto nero dorme sul"),
    ("cane", "il cane dorme sul"),
    ("mangia", "il cane nero mangia sul"),
    ("pesce", "il gatto mangia il"),
    ("inizio", "il"),
)

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
    rules = {"posizione": Follow(max=length, keep_end=True)}  # the last token stays the chosen one as tokens come
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
