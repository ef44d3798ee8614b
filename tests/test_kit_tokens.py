"""The kit's pieces for tokens and text: a sentence read against a vocabulary, a corpus checked before
training, a sentence as chips, a lab's stages as buttons with the stage before recapped."""

import re

import pytest

from labs.kit import corpus_problem, frozen, quoted, read_words, recap, stage_buttons, token_chips, vector

VOCAB = (".", "il", "gatto", "dorme", "sul")


@pytest.mark.parametrize(
    "text, ids, says",
    [
        ("Il gatto dorme.", [1, 2, 3, 0], None),
        ("  ", None, "Scrivi almeno una parola, per esempio «il gatto dorme»."),
        ("il gatto dorme sul il gatto", None, "La frase ha 6 token: il modello ne legge al massimo 5 (è il contesto)."),
        (
            "il topo dorme",
            None,
            "«topo» non è nel vocabolario del modello, che conosce solo 5 token: il, gatto, dorme, sul e il punto «.».",
        ),
        ("a b c d", None, "«a», «b», «c» e altre non sono nel vocabolario"),
    ],
)
def test_read_words_gives_ids_or_says_what_is_wrong_in_italian(text, ids, says):
    got, problem = read_words(text, VOCAB, 5, "il gatto dorme", "è il contesto")
    assert got == ids
    assert (problem is None) if says is None else problem.startswith(says)


@pytest.mark.parametrize(
    "tokens, kind, says",
    [
        ([], "parole", "Il testo è vuoto"),
        (["a", "b"], "parole", "Il testo è troppo corto: 2 token, ne servono almeno 3. Servono finestre."),
        (
            ["a", "a", "a"],
            "parole",
            "Servono almeno due parole diverse: con la sola parola «A» non c'è niente da prevedere.",
        ),
        (["a", "a", "a"], "caratteri", "Servono almeno due caratteri diversi: con il solo carattere «A»"),
        (
            list("abcde"),
            "parole",
            "Il testo ha 5 parole diverse: qui ne stanno al massimo 4, perché sì. Riusa le stesse parole o accorcia ",
        ),
        (list("abab" * 3), "parole", "Il testo ha 12 token: per seguirlo passo per passo ne bastano al massimo 10."),
        (list("abab"), "parole", None),
    ],
)
def test_corpus_problem_names_the_first_rule_the_text_breaks(tokens, kind, says):
    vocab = list(dict.fromkeys(tokens))
    problem = corpus_problem(
        tokens,
        vocab,
        4,
        kind,
        max_tokens=10,
        min_tokens=3,
        short="Servono finestre.",
        wide=", perché sì",
        shown=str.upper,
    )
    assert (problem is None) if says is None else problem.startswith(says)


def test_token_chips_light_the_current_fade_the_later_and_set_their_control():
    html = str(
        token_chips(
            [
                {"text": "il", "note": "1 · ID 1", "set": "posizione=1", "title": "il <primo>"},
                {"text": "gatto", "note": "2", "set": "posizione=2", "marks": ["is-new"]},
                {"text": "<dorme>", "note": "3"},
            ],
            current=1,
            after="→ sul?",
        )
    )
    chips = re.findall(r'<span class="(lab-token(?: [^"]*)?)"', html)
    assert chips == ["lab-token", "lab-token is-new is-current", "lab-token is-later"]
    assert html.count('role="button"') == 2 and 'data-set="posizione=2"' in html and "&lt;dorme&gt;" in html
    assert html.index("is-current") < html.index("→ sul?") < html.index("&lt;dorme&gt;")  # the prediction follows
    assert 'data-part="frase"' in html and "il &lt;primo&gt;" in html
    small = str(token_chips([{"text": "il"}], small=True, part=None))
    assert 'class="lab-tokens is-small"' in small and "data-part" not in small and "role=" not in small


def test_stage_buttons_and_recap():
    html = str(stage_buttons([("a", "1. Uno"), ("b", "2. Due")], "b"))
    assert html.count("<button") == 2 and 'data-set="fase=a"' in html
    assert re.search(r'class="lab-chip is-current" data-set="fase=b" aria-current="step"', html)
    kept = str(recap("Fase prima:", vector([1.0], label="x")))
    assert kept.startswith('<div class="lab-recap"><span class="lab-recap-title">Fase prima:</span>')


def test_quoted_and_frozen():
    assert quoted("gatto") == "«gatto»"
    assert frozen([[1, 2], [3, 4]]) == ((1, 2), (3, 4)) and hash(frozen([[1.5]]))
