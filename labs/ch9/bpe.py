"""Un modello non legge lettere né parole intere: legge **token**, pezzi di
testo presi da un vocabolario fisso. Quel vocabolario non lo scrive nessuno a
mano: lo costruisce un algoritmo, il **BPE** (Byte Pair Encoding), allenato
una volta sola su un corpus, prima del modello. Qui gira l'algoritmo vero, su
un corpus minuscolo che puoi riscrivere.

Si parte dai **byte**: ogni testo diventa la sequenza dei suoi byte UTF-8,
quindi i primi 256 token bastano per scrivere qualsiasi cosa. Una lettera
accentata come «è» occupa due byte, un'emoji quattro: finché nessuna fusione
li riunisce, li vedi come pezzi ⟨C3⟩ ⟨A8⟩. Prima di contare, un'espressione
regolare divide il testo in **blocchi**: una parola con il suo spazio
iniziale («·gatto»), un numero, la punteggiatura, gli spazi. Le coppie si
contano solo dentro un blocco, quindi nessun token scavalca il confine tra
due parole.

Ogni pressione di **Avanti** è un passo: si contano tutte le coppie di token
vicini nel corpus, la più frequente viene fusa in un token nuovo e la regola
«t₁ + t₂ → nuovo» si aggiunge all'elenco. Il vocabolario cresce di uno a ogni
passo (256 + k) e il corpus si accorcia. Guarda come nascono, pezzo dopo
pezzo, «·della», «zione» e «·gatt». Un tokenizer vero ripete lo stesso passo
decine di migliaia di volte, fino a vocabolari da 30.000 a 250.000 voci; qui
ne bastano 80 per vedere il meccanismo. Puoi anche incollare un testo tuo,
fino a 100.000 caratteri: la piccola curva accanto al contatore segue quanti
token servono per scriverlo tutto, fusione dopo fusione.

Il **testo nuovo** si tokenizza applicando le stesse regole, nello stesso
ordine in cui sono state imparate. Una parola mai vista nel corpus, come
«gattone», non ha un token suo: si spezza nei pezzi che il BPE conosce. Prova
a scriverne altre, con accenti o emoji, e torna indietro di qualche passo
per vederle sbriciolarsi di nuovo.
"""

from functools import lru_cache
from itertools import islice
from operator import mul

from core.bpe import BASE_VOCAB
from core.bpe import SPLIT_PATTERN
from core.bpe import Trainer
from core.bpe import build_vocab
from core.bpe import encode_chunks
from core.bpe import merge_pair
from core.bpe import pretokenize
from core.bpe import ranked_pairs
from core.bpe import token_text
from labs.kit import Case
from labs.kit import Curve
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Memo
from labs.kit import Question
from labs.kit import Steps
from labs.kit import Text
from labs.kit import Wrong
from labs.kit import callout
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import plural
from labs.kit import stat
from labs.kit import stats
from labs.kit import step_machine
from labs.kit import tag
from labs.kit.stepping import ended

TITLE = "Il tokenizer BPE"
REF = "9A"

CORPUS = """Il gatto della vicina dorme sulla poltrona della nonna.
La gatta e il gattino giocano con il gomitolo della zia.
I gatti della stazione aspettano la colazione sul binario.
Una lezione di attenzione: la stazione della città è in costruzione.
Il gatto nero guarda la televisione della cucina con attenzione.
La nazione ascolta la canzone della tradizione, e il gattino dorme.
Perché il gatto è sul tetto? Perché la città è silenziosa.
La direzione della stazione cerca una soluzione per i gatti.
Il gattino della nonna è curioso: esplora la cucina e la camera.
La canzone della sera parla di un gatto e della sua emozione."""
NEW_TEXT = "Il gattone della stazione guarda la televisione 🐈 con emozione."
MAX_MERGES, TOP_PAIRS, SHOWN_LINES, SHOWN_TOKENS, PALETTE = 80, 10, 4, 300, 6
MAX_CORPUS = 100_000  # characters: a long pasted text still trains its 80 merges in a few seconds in the browser
RECENT_MERGES = 10  # the last rules shown in full; the earlier ones fold away

CONTROLS = [
    Text("corpus", "Corpus di addestramento", CORPUS, max_length=MAX_CORPUS, multiline=True),
    Text("nuovo", "Testo nuovo da tokenizzare", NEW_TEXT, max_length=300),
    Steps(max=MAX_MERGES, label="Fusione", curve=Curve("tokens_so_far", "token del corpus", points=MAX_MERGES + 1)),
]


def first_lines(chunks, tokens_of, lines=SHOWN_LINES, limit=SHOWN_TOKENS):
    """Le prime righe di un testo in token, pezzo per pezzo, tagliate dopo limit token.

    The first lines of a text as tokens, chunk by chunk: a list of lines,
    each a list of chunks, each a list of tokens; cut after `limit` tokens so
    a long text stays light.
    """
    out, shown = [[]], 0
    for chunk, ids in chunks:
        if shown >= limit or len(out) > lines:
            break
        out[-1].append([tokens_of(i) for i in ids[: limit - shown]])
        shown += len(out[-1][-1])
        if "\n" in chunk:
            out.append([])
    return [line for line in out if line]


class Training:
    """Il training su un corpus, fin dove l'ha portato chi legge.

    The trainer only moves forward, and what the view reads at step k is
    small: it is written in steps[k] when the trainer reaches k and never
    changed after. So the training is kept in the machine's Memo, shared by
    the machines of every step, a machine is {"at", "memo"}, and going back
    reads steps[k]."""

    def __init__(self, corpus):
        self.trainer = t = Trainer(corpus)
        self.row_of = {chunk: s for s, chunk in enumerate(t.chunks)}
        # first_lines reads at most SHOWN_TOKENS chunks: every one has a token at least
        first = (match.group() for match in islice(SPLIT_PATTERN.finditer(corpus), SHOWN_TOKENS))
        self.shown = [(chunk, self.row_of[chunk.encode()]) for chunk in first]
        self.tokens_start = sum(len(c) * w for c, w in zip(t.chunks, t.weights))
        self.chunk_count = sum(t.weights)
        self.texts = [token_text(b) for b in build_vocab(t.merges).values()]  # each token's text, as they are learned
        self.steps = [self.record(ranked_pairs(t.counts, TOP_PAIRS), t.next_pair())]

    def record(self, top, winner):
        """What the view shows at the step the trainer has just reached; top and winner are
        the pairs ranked before its merge (at step 0, before the first one)."""
        t = self.trainer
        return {
            "top": top,
            "winner": winner,
            "done": len(t.merges),
            "last": t.next_pair() is None,
            "tokens": sum(map(mul, map(len, t.seqs), t.weights)),
            "shown": {s: list(t.seqs[s]) for _, s in self.shown},
        }

    def reach(self, k):
        """Train until steps[k] is written: one merge per step not reached yet."""
        t = self.trainer
        while len(self.steps) <= k:
            top, winner = ranked_pairs(t.counts, TOP_PAIRS), t.next_pair()
            if t.step():  # None once no pair is left: the step repeats the last state
                self.texts.append(token_text(build_vocab(t.merges)[t.merges[-1].id]))
            self.steps.append(self.record(top, winner))


def trained(m, p):
    """Il training sul corpus, portato almeno fino al passo della macchina."""
    training = m["memo"].get("training", lambda: Training(p["corpus"]))
    training.reach(m["at"])
    return training


def start(p):
    """La macchina al passo 0: il training sul corpus, ancora senza fusioni."""
    m = {"at": 0, "memo": Memo(1)}
    trained(m, p)
    return m


def advance(m, p):
    """Una fusione in più: la coppia più frequente diventa un token nuovo."""
    m = {**m, "at": m["at"] + 1}
    trained(m, p)
    return m


def present(m, p):
    """Lo stato dopo le fusioni fatte: regole, coppie in classifica e il testo in token."""
    training, k = trained(m, p), m["at"]
    now = training.steps[k]
    merges, texts = training.trainer.merges[: now["done"]], training.texts
    tok = lambda i: [i, texts[i]]  # noqa: E731
    new_chunks = list(zip(pretokenize(p["nuovo"]), encode_chunks(p["nuovo"], merges)))
    unseen = [
        [tok(i) for i in ids]
        for chunk, ids in new_chunks
        if any(c.isalpha() for c in chunk) and chunk.encode() not in training.row_of
    ]
    corpus, top, winner = p["corpus"], now["top"], now["winner"]
    return {
        "step": k,
        "done": len(merges),
        "empty": not corpus.strip(),
        "cut": len(corpus) >= MAX_CORPUS,
        "exhausted": bool(corpus) and (len(merges) < k or not top),
        "merges": [{"left": tok(m.left), "right": tok(m.right), "new": tok(m.id), "count": m.count} for m in merges],
        "pairs": [{"left": tok(a), "right": tok(b), "count": c, "winner": (a, b) == winner} for (a, b), c in top],
        "vocab_size": BASE_VOCAB + len(merges),
        "tokens_start": training.tokens_start,
        "tokens_now": now["tokens"],
        "tokens_so_far": [s["tokens"] for s in training.steps[: k + 1]],
        "chunks": training.chunk_count,
        "distinct_chunks": len(training.trainer.chunks),
        "corpus_lines": first_lines(((c, now["shown"][s]) for c, s in training.shown), tok),
        "new_lines": first_lines(new_chunks, tok, lines=len(new_chunks)),
        "new_ids": [i for _, ids in new_chunks for i in ids],
        "unseen": unseen[:6],
        **(ended(len(merges)) if now["last"] else {}),  # no pair left: the training stops at its last merge
    }


compute = step_machine(start, advance, present, view_only=("nuovo",))


def chip(token, newest=None, show_id=False):
    """One token in a box: bytes neutral, merged tokens coloured by id."""
    i, text = token
    return chip_html(i, text, i == newest, show_id)


@lru_cache(maxsize=4096)  # a view draws hundreds of boxes of the same few tokens: Play redraws it at every frame
def chip_html(i, text, is_new, show_id):
    cls = "lab-bpe-tok " + ("is-byte" if i < BASE_VOCAB else f"lab-bpe-c{i % PALETTE}") + (" is-new" if is_new else "")
    return tag("span", text, tag("small", num(i)) if show_id else None, class_=cls, title=f"token {i}")


def lines_view(lines, newest=None, show_id=False):
    """Tokens line by line; each pre-tokenisation chunk is its own group."""
    return tag(
        "div",
        *(
            tag(
                "div",
                *(tag("span", *(chip(t, newest, show_id) for t in chunk), class_="lab-bpe-chunk") for chunk in line),
            )
            for line in lines
        ),
        class_="lab-bpe-corpus",
    )


def pair_table(s):
    """The most frequent pairs, the winner highlighted."""
    rows = [
        tag(
            "tr",
            tag("td", chip(q["left"]), " + ", chip(q["right"])),
            tag("td", num(q["count"])),
            tag("td", ("fusa ora" if s["merges"] else "la prossima") if q["winner"] else ""),
            class_="is-winner" if q["winner"] else None,
        )
        for q in s["pairs"]
    ]
    head = tag("thead", tag("tr", tag("th", "Coppia"), tag("th", "Volte"), tag("td", "")))  # no name: a td
    return tag("table", head, tag("tbody", *rows), class_="lab-table lab-bpe-pairs")


def rule_item(n, m, newest):
    """Rule n + 1 with its tokens in boxes, a button back to its step."""
    return tag(
        "li",
        chip(m["left"]),
        " + ",
        chip(m["right"]),
        " → ",
        chip(m["new"], newest),
        tag("small", f" ({num(m['count'])})"),
        data_set=f"passo={n + 1}",
        tabindex="0",
        role="button",
        title=f"Vai alla fusione {n + 1}",
    )


@lru_cache(maxsize=1024)  # the folded rules are the same at every step after theirs
def folded_rule(n, left, right, new, count):
    """Rule n + 1 as plain text, a button back to its step: each token in «…», a token and not a letter of maths."""
    return tag(
        "li",
        f"«{left}» + «{right}» → «{new}»",
        tag("small", f" ({num(count)})"),
        data_set=f"passo={n + 1}",
        tabindex="0",
        role="button",
        title=f"Vai alla fusione {n + 1}",
    )


def merge_list(merges, newest):
    """The last RECENT_MERGES rules in full; the earlier ones folded, in columns (80 in a row were
    taller than the rest of the lab)."""
    older = max(0, len(merges) - RECENT_MERGES)
    folded = (
        tag(
            "details",
            tag("summary", "La prima regola" if older == 1 else f"Le prime {num(older)} regole"),
            tag(
                "ol",
                *(
                    folded_rule(n, m["left"][1], m["right"][1], m["new"][1], m["count"])
                    for n, m in enumerate(merges[:older])
                ),
                class_="lab-bpe-merges is-folded",
            ),
            class_="lab-bpe-older",
        )
        if older
        else None
    )
    return tag(
        "div",
        folded,
        tag(
            "ol",
            *(rule_item(n, m, newest) for n, m in enumerate(merges[older:], older)),
            start=older + 1,
            class_="lab-bpe-merges",
        ),
    )


def view(s):
    newest = s["merges"][-1]["new"][0] if s["merges"] else None
    parts = []
    if s["cut"]:
        parts.append(
            callout(
                f"Il corpus si ferma a {num(MAX_CORPUS)} caratteri: se ne hai incollati di più, il "
                "resto è stato tagliato e l'addestramento usa solo i primi.",
                tone="warn",
            )
        )
    if s["empty"]:
        parts.append(
            callout(
                "Il corpus è vuoto: scrivi qualche frase in italiano nel riquadro «Corpus di "
                "addestramento». Senza testo non ci sono coppie da contare, e il testo nuovo resta "
                "fatto di soli byte.",
                tone="warn",
            )
        )
    elif s["exhausted"]:
        parts.append(
            callout(
                "Non resta nessuna coppia da fondere: ogni blocco del corpus è ormai un token solo. "
                + (
                    f"Il BPE si ferma dopo {plural(s['done'], 'fusione', 'fusioni')}"
                    if s["done"]
                    else "Il BPE si ferma prima della prima fusione"
                )
                + "; per andare avanti serve un corpus "
                "più vario.",
                tone="warn",
            )
        )
    else:
        if s["merges"]:
            m = s["merges"][-1]
            parts += [
                tag("h3", "La fusione di questo passo"),
                tag(
                    "p",
                    chip(m["left"]),
                    " + ",
                    chip(m["right"]),
                    " → ",
                    chip(m["new"], newest, True),
                    tag("span", f"la coppia compare {plural(m['count'], 'volta', 'volte')}", class_="lab-bpe-count"),
                    class_="lab-bpe-rule",
                ),
            ]
        parts += [
            tag(
                "h3",
                "Le coppie più frequenti prima di questa fusione"
                if s["merges"]
                else "Le coppie più frequenti nel corpus: premi Avanti per fondere la prima",
            ),
            pair_table(s),
        ]
        if len(s["pairs"]) > 1 and s["pairs"][1]["count"] == s["pairs"][0]["count"]:
            parts.append(
                tag(
                    "p",
                    "A pari merito vince la coppia con gli ID più piccoli: una regola arbitraria, "
                    "ma fissa, così l'addestramento dà sempre lo stesso risultato.",
                    class_="lab-bpe-note",
                )
            )
    ratio = s["tokens_start"] / s["tokens_now"] if s["tokens_now"] else 1.0
    parts.append(
        stats(
            stat("Vocabolario", f"256 + {num(s['done'])} = {num(s['vocab_size'])}"),
            stat("Token del corpus", f"{num(s['tokens_start'])} → {num(s['tokens_now'])}"),
            stat("Compressione", f"{num(ratio)} byte per token", tone="ok" if ratio > 1 else None),
            stat("Token risparmiati", percent(1 - 1 / ratio)),
        )
    )
    if s["corpus_lines"]:
        parts += [
            tag("h3", "Il corpus, token per token (prime righe)", id="vista-corpus"),
            lines_view(s["corpus_lines"], newest),
            tag(
                "p",
                f"Ogni riquadro è un token: tratteggiato se è ancora un byte singolo, colorato se nasce da "
                f"una fusione. I token dello stesso blocco della pre-tokenizzazione stanno attaccati; tra "
                f"un blocco e l'altro resta uno spazio, e nessuna fusione lo attraversa. Il corpus ha "
                f"{plural(s['chunks'], 'blocco', 'blocchi')}, {plural(s['distinct_chunks'], 'diverso', 'diversi')}: ognuno si conta una "
                "volta, pesato per quante volte compare. · è lo spazio, ↵ l'a capo, ⟨C3⟩ un byte che da "
                "solo non è un carattere.",
                class_="lab-bpe-note",
            ),
        ]
    parts.append(tag("h3", "Il testo nuovo, con le regole imparate finora", id="vista-testo-nuovo"))
    ids = s["new_ids"]
    if ids:
        shown = sum(len(chunk) for line in s["new_lines"] for chunk in line)
        parts += [
            lines_view(s["new_lines"], show_id=True),
            tag("p", f"Mostrati i primi {num(shown)} token.", class_="lab-bpe-note") if shown < len(ids) else None,
            tag(
                "p",
                f"{num(len(ids))} token: [{', '.join(str(i) for i in ids[:60])}{', …' if len(ids) > 60 else ''}]",
                class_="lab-formula",
            ),
        ]
    else:
        parts.append(tag("p", "Scrivi qualcosa nel riquadro «Testo nuovo da tokenizzare».", class_="lab-bpe-note"))
    if s["unseen"] and s["merges"]:
        pieces = "; ".join(" + ".join(f"«{t[1]}»" for t in c) for c in s["unseen"])
        parts.append(
            callout(
                f"Parole che nel corpus non compaiono mai: nessun token le contiene intere, quindi si "
                f"spezzano nei pezzi che il BPE conosce: {pieces}.",
                tone="info",
            )
        )
    if s["merges"]:
        parts += [
            tag(
                "h3",
                "La regola imparata"
                if len(s["merges"]) == 1
                else f"Le {num(len(s['merges']))} regole imparate, in ordine",
            ),
            tag(
                "p",
                "Tra parentesi, quante volte compariva la coppia quando è stata scelta. Clicca una regola "
                "per tornare al suo passo.",
                class_="lab-bpe-note",
            ),
            merge_list(s["merges"], newest),
        ]
    return panel(*parts, data_merges=s["done"])


EDITS = [
    Edit(
        "a parità di conteggio, la coppia più grande",
        change=(
            "        heap, counts = self._heap, self.counts\n"
            "        while heap and counts.get(heap[0][1]) != -heap[0][0]:\n"
            "            heappop(heap)  # an entry written before its pair's count changed\n"
            "        return heap[0][1] if heap else None",
            "        counts = self.counts\n"
            "        return max(counts, key=lambda pair: (counts[pair], pair)) if counts else None",
        ),
        expect="Quando due coppie hanno lo stesso conteggio vince quella con i byte più alti invece di quella con "
        "i più bassi: qualche regola cambia, e con lei i token del testo. Senza una regola per i pari, "
        "due tokenizer allenati sullo stesso testo non sarebbero uguali.",
        params={"passo": 20},
        check=lambda before, after: before.html != after.html,
    ),
]

EXPERIMENTS = [
    Experiment(
        "Dopo 10 fusioni il corpus, che partiva da 628 token, ne conta 472.",
        {"passo": 10},
        "vista-corpus",
        lambda s: s["tokens_start"] == 628 and s["tokens_now"] == 472,
        after="il corpus si accorcia",
        predict=Question(
            "Si parte dai byte, e ogni fusione unisce la coppia di token vicini più frequente. Che cosa saranno "
            "i primi dieci token nuovi?",
            (
                "Pezzi di poche lettere che in italiano stanno spesso insieme, come «la» e «on»",
                "Parole intere, come «poltrona»",
                "Coppie di parole vicine, come «della stazione»",
            ),
            0,
            "All'inizio ogni token è un byte, quindi le coppie più frequenti sono lettere vicine: la prima fusione "
            "unisce «l» e «a», che stanno insieme 21 volte. Poi i pezzi crescono fino a «zione», ma una parola "
            "rara non vince mai, e nessuna coppia scavalca il confine tra due blocchi.",
        ),
    ),
    Experiment(
        "Al passo 80 «gattone», mai visto nel corpus, si scrive con due token: «·gatt» e «one».",
        {"passo": 80, "nuovo": "Il gattone della stazione guarda la televisione 🐈 con emozione."},
        "vista-testo-nuovo",
        lambda s: [[t for _, t in word] for word in s["unseen"]] == [["·gatt", "one"]],
        after="si spezza nei pezzi che il BPE conosce",
    ),
]

EXERCISES = [
    Exercise(
        merge_pair,
        task="Scrivi una fusione del BPE: scorri gli ID da sinistra a destra e, ogni volta che trovi la coppia "
        "(a, b), metti al suo posto il token nuovo e salta i due elementi. Le occorrenze non si sovrappongono: "
        "in [97, 97, 97] la coppia (97, 97) si fonde una volta sola. Quando la tua funzione passa le verifiche, "
        "il testo nuovo viene tokenizzato con lei, regola dopo regola.",
        doc="Gli ID con ogni occorrenza della coppia, letta da sinistra a destra senza sovrapposizioni, "
        "sostituita da new_id.",
        hints=(
            "Usa un indice `i` e un ciclo `while i < len(ids)`, non un `for`: a volte devi saltare due posti.",
            "Se `ids[i]` e `ids[i + 1]` sono la coppia (attento a non uscire dalla lista), aggiungi `new_id` e "
            "fai `i += 2`; altrimenti aggiungi `ids[i]` e fai `i += 1`.",
            "L'ultimo elemento, se non fa parte di una coppia fusa, va copiato anche lui.",
        ),
        cases=(
            Case(([97, 98, 99, 97, 98], (97, 98), 256), "due occorrenze separate"),
            Case(([97, 97, 97], (97, 97), 256), "tre uguali: le coppie si sovrappongono"),
            Case(([97, 97, 97, 97], (97, 97), 256), "quattro uguali"),
            Case(([2, 1, 2, 1], (1, 2), 256), "la coppia in mezzo"),
            Case(([1, 2, 3], (3, 4), 256), "una coppia che non c'è"),
            Case(([1, 2], (1, 2), 300), "la coppia è tutta la lista"),
            Case(([5], (5, 5), 256), "un solo ID"),
            Case(([], (1, 2), 256), "nessun ID"),
        ),
        random=lambda rng: (
            [rng.randint(1, 3) for _ in range(rng.randint(0, 12))],
            (rng.randint(1, 3), rng.randint(1, 3)),
            256,
        ),
        count=12,
        tolerance=0.0,
        wrong=(
            Wrong(
                """
def merge_pair(ids, pair, new_id):
    out = []
    for i in range(len(ids)):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
        elif i > 0 and (ids[i - 1], ids[i]) == pair:
            continue
        else:
            out.append(ids[i])
    return out
""",
                "Le occorrenze si sovrappongono: in [97, 97, 97] il secondo 97 è già stato usato dalla prima "
                "fusione e non può aprirne un'altra. Dopo una fusione salta due posti, e il terzo 97 resta solo.",
            ),
            Wrong(
                """
def merge_pair(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids) - 1:
        if (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
""",
                "Il ciclo si ferma un passo prima della fine e l'ultimo ID, quando non è stato fuso, va perso: "
                "scorri fino a len(ids) e controlla che ci sia un elemento dopo prima di guardarlo.",
            ),
            Wrong(
                """
def merge_pair(ids, pair, new_id):
    for i in range(len(ids) - 1):
        if (ids[i], ids[i + 1]) == pair:
            return ids[:i] + [new_id] + ids[i + 2 :]
    return list(ids)
""",
                "Hai fuso solo la prima occorrenza: la regola vale per tutte quelle che trovi scorrendo la lista.",
            ),
        ),
    ),
]
