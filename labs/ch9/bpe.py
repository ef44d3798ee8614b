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
ne bastano 80 per vedere il meccanismo.

Il **testo nuovo** si tokenizza applicando le stesse regole, nello stesso
ordine in cui sono state imparate. Una parola mai vista nel corpus, come
«gattone», non ha un token suo: si spezza nei pezzi che il BPE conosce. Prova
a scriverne altre, con accenti o emoji, e torna indietro di qualche passo
per vederle sbriciolarsi di nuovo.
"""

from core.bpe import BASE_VOCAB, Trainer, build_vocab, encode_chunks, pretokenize, ranked_pairs, token_text
from labs.kit import Steps, Text, callout, num, percent, stat, stats, tag

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

CONTROLS = [
    Text("corpus", "Corpus di addestramento", CORPUS, max_length=3000, multiline=True),
    Text("nuovo", "Testo nuovo da tokenizzare", NEW_TEXT, max_length=300),
    Steps(max=MAX_MERGES, label="Fusioni"),
]


def first_lines(chunks, tokens_of, lines=SHOWN_LINES, limit=SHOWN_TOKENS):
    """The first lines of a text as tokens, chunk by chunk: a list of lines,
    each a list of chunks, each a list of tokens; cut after `limit` tokens so
    a long text stays light."""
    out, shown = [[]], 0
    for chunk, ids in chunks:
        if shown >= limit or len(out) > lines:
            break
        out[-1].append([tokens_of(i) for i in ids[:limit - shown]])
        shown += len(out[-1][-1])
        if "\n" in chunk:
            out.append([])
    return [line for line in out if line]


def compute(p):
    corpus, k = p["corpus"], p["passo"]
    trainer = Trainer(corpus)
    for _ in range(k - 1):
        trainer.step()
    top = ranked_pairs(trainer.counts, TOP_PAIRS)  # what chooses merge k (at 0 the next one; none if it stopped)
    winner = trainer.next_pair()
    if k:
        trainer.step()
    merges, seqs, weights = trainer.merges, trainer.seqs, trainer.weights
    row_of = {chunk: i for i, chunk in enumerate(trainer.chunks)}
    vocab = build_vocab(merges)
    tok = lambda i: [i, token_text(vocab[i])]  # noqa: E731
    corpus_chunks = ((c, seqs[row_of[c.encode()]]) for c in pretokenize(corpus))
    new_chunks = list(zip(pretokenize(p["nuovo"]), encode_chunks(p["nuovo"], merges)))
    unseen = [[tok(i) for i in ids] for chunk, ids in new_chunks
              if any(c.isalpha() for c in chunk) and chunk.encode() not in row_of]
    return {
        "step": k, "done": len(merges), "empty": not corpus.strip(),
        "exhausted": bool(corpus) and (len(merges) < k or not top),
        "merges": [{"left": tok(m.left), "right": tok(m.right), "new": tok(m.id), "count": m.count} for m in merges],
        "pairs": [{"left": tok(a), "right": tok(b), "count": c, "winner": (a, b) == winner} for (a, b), c in top],
        "vocab_size": BASE_VOCAB + len(merges),
        "tokens_start": sum(len(c) * w for c, w in zip(trainer.chunks, weights)),
        "tokens_now": sum(len(s) * w for s, w in zip(seqs, weights)),
        "chunks": sum(weights), "distinct_chunks": len(trainer.chunks),
        "corpus_lines": first_lines(corpus_chunks, tok),
        "new_lines": first_lines(new_chunks, tok, lines=len(new_chunks)),
        "new_ids": [i for _, ids in new_chunks for i in ids], "unseen": unseen[:6],
    }


def chip(token, newest=None, show_id=False):
    """One token in a box: bytes neutral, merged tokens coloured by id."""
    i, text = token
    cls = "lab-bpe-tok " + ("is-byte" if i < BASE_VOCAB else f"lab-bpe-c{i % PALETTE}") + (" is-new" if i == newest else "")
    return tag("span", text, tag("small", num(i)) if show_id else None, class_=cls, title=f"token {i}")


def lines_view(lines, newest=None, show_id=False):
    """Tokens line by line; each pre-tokenisation chunk is its own group."""
    return tag("div", *(tag("div", *(tag("span", *(chip(t, newest, show_id) for t in chunk), class_="lab-bpe-chunk")
                                     for chunk in line)) for line in lines), class_="lab-bpe-corpus")


def pair_table(s):
    """The most frequent pairs, the winner highlighted."""
    rows = [tag("tr", tag("td", chip(q["left"]), " + ", chip(q["right"])), tag("td", num(q["count"])),
                tag("td", ("fusa ora" if s["merges"] else "la prossima") if q["winner"] else ""),
                class_="is-winner" if q["winner"] else None) for q in s["pairs"]]
    head = tag("thead", tag("tr", tag("th", "Coppia"), tag("th", "Volte"), tag("td", "")))  # no name: a td
    return tag("table", head, tag("tbody", *rows), class_="lab-table lab-bpe-pairs")


def view(s):
    newest = s["merges"][-1]["new"][0] if s["merges"] else None
    parts = [tag("p", f"Passo {s['step']} di {MAX_MERGES} · {num(s['done'])} fusioni imparate",
                 class_="lab-step-counter")]
    if s["empty"]:
        parts.append(callout("Il corpus è vuoto: scrivi qualche frase in italiano nel riquadro «Corpus di "
                             "addestramento». Senza testo non ci sono coppie da contare, e il testo nuovo resta "
                             "fatto di soli byte.", tone="warn"))
    elif s["exhausted"]:
        parts.append(callout(f"Non resta nessuna coppia da fondere: ogni blocco del corpus è ormai un token solo. "
                             f"Il BPE si ferma dopo {num(s['done'])} fusioni; per andare avanti serve un corpus più "
                             "vario.", tone="warn"))
    else:
        if s["merges"]:
            m = s["merges"][-1]
            parts += [tag("h3", "La fusione di questo passo"),
                      tag("p", chip(m["left"]), " + ", chip(m["right"]), " → ", chip(m["new"], newest, True),
                          tag("span", f"la coppia compare {num(m['count'])} volte", class_="lab-bpe-count"),
                          class_="lab-bpe-rule")]
        parts += [tag("h3", "Le coppie più frequenti prima di questa fusione" if s["merges"] else
                      "Le coppie più frequenti nel corpus: premi Avanti per fondere la prima"), pair_table(s)]
        if len(s["pairs"]) > 1 and s["pairs"][1]["count"] == s["pairs"][0]["count"]:
            parts.append(tag("p", "A pari merito vince la coppia con gli ID più piccoli: una regola arbitraria, "
                                  "ma fissa, così l'addestramento dà sempre lo stesso risultato.", class_="lab-bpe-note"))
    ratio = s["tokens_start"] / s["tokens_now"] if s["tokens_now"] else 1.0
    parts.append(stats(
        stat("Vocabolario", f"256 + {num(s['done'])} = {num(s['vocab_size'])}"),
        stat("Token del corpus", f"{num(s['tokens_start'])} → {num(s['tokens_now'])}"),
        stat("Compressione", f"{num(ratio)} byte per token", tone="ok" if ratio > 1 else None),
        stat("Token risparmiati", percent(1 - 1 / ratio)),
    ))
    if s["corpus_lines"]:
        parts += [tag("h3", "Il corpus, token per token (prime righe)"), lines_view(s["corpus_lines"], newest),
                  tag("p", f"Ogni riquadro è un token: tratteggiato se è ancora un byte singolo, colorato se nasce da "
                           f"una fusione. I token dello stesso blocco della pre-tokenizzazione stanno attaccati; tra "
                           f"un blocco e l'altro resta uno spazio, e nessuna fusione lo attraversa. Il corpus ha "
                           f"{num(s['chunks'])} blocchi, {num(s['distinct_chunks'])} diversi: ognuno si conta una "
                           "volta, pesato per quante volte compare. · è lo spazio, ↵ l'a capo, ⟨C3⟩ un byte che da "
                           "solo non è un carattere.", class_="lab-bpe-note")]
    parts.append(tag("h3", "Il testo nuovo, con le regole imparate finora"))
    ids = s["new_ids"]
    if ids:
        shown = sum(len(chunk) for line in s["new_lines"] for chunk in line)
        parts += [lines_view(s["new_lines"], show_id=True),
                  tag("p", f"Mostrati i primi {num(shown)} token.", class_="lab-bpe-note") if shown < len(ids) else None,
                  tag("p", f"{num(len(ids))} token: [{', '.join(str(i) for i in ids[:60])}"
                           f"{', …' if len(ids) > 60 else ''}]", class_="lab-formula")]
    else:
        parts.append(tag("p", "Scrivi qualcosa nel riquadro «Testo nuovo da tokenizzare».", class_="lab-bpe-note"))
    if s["unseen"] and s["merges"]:
        pieces = "; ".join(" + ".join(t[1] for t in c) for c in s["unseen"])
        parts.append(callout(f"Parole che nel corpus non compaiono mai: nessun token le contiene intere, quindi si "
                             f"spezzano nei pezzi che il BPE conosce: {pieces}.", tone="info"))
    if s["merges"]:
        items = [tag("li", chip(m["left"]), " + ", chip(m["right"]), " → ", chip(m["new"], newest),
                     tag("small", f" ({num(m['count'])})"), data_set=f"passo={n + 1}", tabindex="0", role="button",
                     title=f"Vai alla fusione {n + 1}") for n, m in enumerate(s["merges"])]
        parts += [tag("h3", f"Le {num(len(items))} regole imparate, in ordine"),
                  tag("p", "Tra parentesi, quante volte compariva la coppia quando è stata scelta. Clicca una regola "
                           "per tornare al suo passo.", class_="lab-bpe-note"), tag("ol", *items, class_="lab-bpe-merges")]
    return tag("div", *parts, class_="lab-panel", data_merges=s["done"])
