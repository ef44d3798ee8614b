"""A bigram language model, trained with plain SGD: the engine of chapter 3.

The model is one table W of V × V numbers: row = current token, column =
next token. Its forward pass reads the row of the current token and applies
the softmax, which gives the probability of every possible next token. The
loss of an example is −log p(right next token); the loss of a batch is the
mean. The gradient of that mean with respect to W is, row by row, the mean
of the examples' p − y (y one-hot on the right token): a row whose token is
not in the batch gets exactly 0. The update is w ← w − η·gradient
(core.descent's sgd_update). Each epoch shuffles the pairs and cuts them
into batches, so every pair is seen once per epoch.
"""

import math
import re
from collections import Counter

from core.stats import fmean

from .softmax import log_softmax, softmax

WORD = re.compile(r"\w+'|\w+|[^\w\s]")


def tokenize(text):
    """Il testo in token: parole intere in minuscolo, ogni segno di punteggiatura un token a sé.

    Whole-word tokens, lower case; each punctuation mark is a token of its
    own and an apostrophe stays with the word before it: «L'acqua.» →
    ["l'", "acqua", "."].
    """
    return WORD.findall(text.lower())


def build_vocab(tokens):
    """Il vocabolario: i token distinti in ordine di prima apparizione (l'ID è la posizione).

    The distinct tokens, in order of first appearance: a token's ID is its
    position in this list.
    """
    return list(dict.fromkeys(tokens))


def encode(tokens, vocab):
    """Dai token agli ID."""
    index = {t: i for i, t in enumerate(vocab)}
    return [index[t] for t in tokens]


def make_pairs(ids):
    """Gli esempi di training di una sequenza: ogni coppia (corrente, successivo) di ID vicini.

    The training examples of a sequence: every (current, next) pair of
    neighbouring IDs. A text of n tokens gives n − 1 examples.
    """
    return list(zip(ids, ids[1:]))


def init_weights(n, rng, spread=0.5):
    """Una tabella n × n di numeri estratti a caso, uniformi in [−spread, spread]."""
    return [[spread * (2 * rng.random() - 1) for _ in range(n)] for _ in range(n)]


def shuffle_pairs(pairs, rng):
    """L'ordine di un'epoch: le coppie mescolate con il generatore rng (una lista nuova)."""
    order = list(pairs)
    rng.shuffle(order)
    return order


def cut_batches(order, batch_size):
    """L'ordine di un'epoch tagliato in batch di batch_size esempi; l'ultimo può essere più corto."""
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]


def next_token_probs(W, batch):
    """Il forward: per ogni esempio, la softmax della riga del token corrente.

    The forward pass: for each (current, next) example, the softmax of the
    row of the current token.
    """
    return [softmax(W[cur]) for cur, _ in batch]


def example_losses(W, batch):
    """La loss −log p(successivo | corrente) di ogni esempio, calcolata dai logit."""
    return [-log_softmax(W[cur])[nxt] for cur, nxt in batch]


def batch_loss(W, batch):
    """La loss di un batch: la media delle loss dei suoi esempi."""
    return fmean(example_losses(W, batch))


def gradient(W, batch):
    """Il gradiente ∂loss/∂W del batch: ogni esempio somma (p − y)/B alla riga del suo token.

    ∂(batch loss)/∂W: each example adds (p − y)/B to the row of its current
    token. Rows of tokens that are not the current token of any example in
    the batch stay exactly 0.
    """
    n, size = len(W), len(batch)
    G = [[0.0] * n for _ in range(n)]
    for (cur, nxt), p in zip(batch, next_token_probs(W, batch)):
        row = G[cur]
        for j in range(n):
            row[j] += ((p[j] - 1.0) if j == nxt else p[j]) / size
    return G


def dataset_loss(W, pairs):
    """La loss media su tutte le coppie del testo (la log-softmax di ogni riga calcolata una volta)."""
    rows = {cur: log_softmax(W[cur]) for cur in {c for c, _ in pairs}}
    return fmean([-rows[cur][nxt] for cur, nxt in pairs])


def best_loss(pairs):
    """La loss più bassa che una tabella di bigrammi può raggiungere su queste coppie.

    The lowest loss any bigram table can reach on these pairs: the one of
    the model that predicts the counted frequencies, −mean log(c(a, b)/c(a)).
    It is 0 only if every token is always followed by the same one.
    """
    pair_counts, row_counts = Counter(pairs), Counter(c for c, _ in pairs)
    return fmean([-math.log(pair_counts[p] / row_counts[p[0]]) for p in pairs])


def next_frequencies(pairs, cur, n):
    """Che cosa dicono i dati dopo il token cur: la quota di ciascuno degli n token."""
    counts = Counter(nxt for c, nxt in pairs if c == cur)
    total = sum(counts.values())
    return [counts[j] / total if total else 0.0 for j in range(n)]


def top_k(probs, k):
    """I k ID più probabili, dal più probabile (a parità, vince l'ID più basso)."""
    return sorted(range(len(probs)), key=lambda j: (-probs[j], j))[:k]
