"""A transformer with one block, small enough to follow number by number.

Tokens are the rows of X, as in Q = X·W_q: a token's vector x (d numbers)
times a matrix W (d × k) gives k numbers, (x·W)ⱼ = Σᵢ xᵢ·Wᵢⱼ, written
matvec(transpose(W), x) (core.linalg's one convention: x·W = Wᵀ·x).

The forward pass for the token at `position` of a sentence of token IDs:

    1. IDs          the sentence, already as numbers
    2. embedding    X = the rows of E for those IDs                 (n × d)
    3. attention    q = x·W_q,  sⱼ = q · xⱼ  for every j ≤ position,
                    a = softmax(s),  x' = Σⱼ aⱼ·xⱼ                (causal)
    4. MLP          g = ReLU(x'·W₁),  h = x' + g·W₂               (residual)
    5. output       zₜ = h · Eₜ for every token t of the vocabulary, p = softmax(z)

An ablation switches parts of attention off: `ignore` lists positions the
token may not look at (their weight is 0 and the others share the whole
softmax), as if those words were not in the sentence. Ignoring every other
position switches attention off: the token keeps its own vector.

As in the simplified model of the guide, the vectors of the tokens act
directly as keys and values (no W_k, no W_v), the scores are not divided by
√d, and attention replaces the vector with the weighted average (which
contains the token itself): core.attention's attention() with those choices.
The MLP adds its contribution to its input. The output head is E itself
(weight tying).

Generation repeats the forward pass at the last position and appends the
chosen token: the most probable one (greedy), or one drawn with the
probabilities of softmax(z / T), from a seeded random generator.
"""

from core.activations import relu
from core.attention import attention, dot_scores
from core.linalg import matvec, transpose
from core.sampling import greedy, sample
from core.softmax import softmax


def embed(E, ids):
    """La matrice X: per ogni ID di token, la sua riga di E."""
    for i in ids:
        if not 0 <= i < len(E):
            raise IndexError(f"ID {i} fuori dal vocabolario (0…{len(E) - 1})")
    return [list(E[i]) for i in ids]


def causal_view(X, position):
    """Le righe che un token può guardare: sé stesso e quelli prima, mai quelli dopo."""
    if not 0 <= position < len(X):
        raise IndexError(f"posizione {position} fuori dalla frase (0…{len(X) - 1})")
    return X[: position + 1]


def simple_attention(X, W_q, position, ignore=()):
    """L'attention semplificata della guida per una posizione: i vettori dei token fanno da chiavi e da valori.

    The guide's simplified attention for one position: attention() with
    the tokens' vectors as keys and values, and no √d.

    query q = x·W_q (what the token looks for); score sⱼ = q · xⱼ (how much
    token j has it); weights a = softmax(s), ≥ 0 and summing to 1; output
    x' = Σⱼ aⱼ·xⱼ, the weighted average of the visible vectors.
    Positions in `ignore` (never the token itself) get weight 0: the softmax
    runs over the others only, as if those scores were −∞.
    """
    visible = causal_view(X, position)
    q = matvec(transpose(W_q), X[position])
    keep = [j == position or j not in ignore for j in range(len(visible))]
    A, O = attention([q], visible, visible, causal=False, scale=False, keep=keep)
    return {"query": q, "scores": dot_scores([q], visible)[0], "weights": A[0], "output": O[0]}


def mlp(x, W1, W2):
    """Uno strato di neuroni ReLU più la connessione residua.

    pre = x·W₁ (one dot product per neuron: column k of W₁ holds its weights);
    gates g = ReLU(pre); contribution c = g·W₂ (row k of W₂ is what neuron k
    adds when fully on); output = x + c.
    """
    pre = matvec(transpose(W1), x)
    gates = [relu(v) for v in pre]
    contribution = matvec(transpose(W2), gates)
    return {
        "pre": pre,
        "gates": gates,
        "contribution": contribution,
        "output": [a + b for a, b in zip(x, contribution)],
    }


def logits(E, h):
    """Un punteggio per ogni token del vocabolario: z = E·h (E fa anche da testa d'uscita).

    One score per token of the vocabulary: zₜ = h · Eₜ, so z = E·h (E is also the output head).
    """
    return matvec(E, h)


def mini_forward(ids, position, E, W_q, W1, W2, ignore=()):
    """I cinque passi del modello per il token in posizione position: tutto ciò che il laboratorio mostra.

    The five steps for the token at `position` (0-based): everything the
    lab shows. `ignore`: positions attention may not look at (an ablation).
    """
    X = embed(E, ids)
    att = simple_attention(X, W_q, position, ignore)
    block = mlp(att["output"], W1, W2)
    z = logits(E, block["output"])
    return {
        "ids": list(ids),
        "position": position,
        "X": X,
        "attention": att,
        "mlp": block,
        "logits": z,
        "probs": softmax(z),
    }


def mini_generate(ids, steps, E, W_q, W1, W2, temperature=None, rng=None, end=None):
    """La generazione: aggiunge fino a steps token, con un forward ciascuno sull'ultima posizione.

    temperature None: greedy; otherwise draw from softmax(z / T) with
    rng.random() (a seeded random.Random gives the same sentence every time).
    Stops after the token `end`. Returns one record per added token: its ID,
    its probability at T = 1 and at the temperature used, and the u drawn.
    """
    ids = list(ids)
    added = []
    for _ in range(steps):
        z = mini_forward(ids, len(ids) - 1, E, W_q, W1, W2)["logits"]
        p = softmax(z)
        if temperature is None:
            chosen, u, p_used = greedy(p), None, p
        else:
            p_used = softmax(z, temperature)
            u = rng.random()
            chosen = sample(p_used, u)
        added.append({"id": chosen, "p": p[chosen], "p_used": p_used[chosen], "u": u})
        ids.append(chosen)
        if chosen == end:
            break
    return added
