"""1.4 Il transformer in miniatura: the guide's figures for «il gatto nero
dorme sul», clicks, generation, and the sentence the reader writes."""

import re

import numpy as np
import pytest

import labs
from labs.kit import percent

LAB = labs.get("transformer-miniatura")
M = LAB.module
DIM = {d: j for j, d in enumerate(M.DIMS)}
XSS = "<script>alert(1)</script><img src=x onerror=alert(1)>"


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def html(**changes):
    return str(LAB.view(state(**changes)))


def words(s):
    return [M.VOCAB[i] for i in s["ids"]]


def top(s, k=2):
    return [M.VOCAB[t] for t in sorted(range(len(M.VOCAB)), key=lambda t: (-s["probs"][t], t))[:k]]


# ---------------------------------------------------------------- the guide's figures


def test_the_default_sentence_has_the_guides_ids():
    s = state()
    assert words(s) == ["il", "gatto", "nero", "dorme", "sul"]
    assert s["ids"] == [1, 2, 4, 5, 7]
    assert s["pos"] == 4  # «sul» is the token shown
    assert "[1, 2, 4, 5, 7]" in html()


def test_attention_of_sul_is_2_2_2_28_65_percent():
    weights = state()["attention"]["weights"]
    for got, want in zip(weights, (0.02, 0.02, 0.02, 0.28, 0.65)):
        assert got == pytest.approx(want, abs=0.005)
    assert [percent(w) for w in weights] == ["2 %", "2 %", "2 %", "28 %", "65 %"]
    shown = html()
    assert all(f"{p}   (punteggio" in shown for p in ("2 %", "28 %", "65 %"))


def test_after_attention_sul_has_dormire_048_luogo_039_preposizione_065():
    s = state()
    before, after = s["x"], s["attention"]["output"]
    assert before[DIM["dormire"]] == pytest.approx(0.30, abs=1e-12)
    assert after[DIM["dormire"]] == pytest.approx(0.48, abs=0.005)
    assert after[DIM["luogo"]] == pytest.approx(0.39, abs=0.005)
    assert after[DIM["preposizione"]] == pytest.approx(0.65, abs=0.005)
    vector = re.search(r'data-part="vettore".*?</figure>', html(), re.S).group(0)
    assert all(f">{v}<" in vector for v in ("0,3", "0,48", "0,39", "0,65"))


def test_the_top_predictions_after_sul_are_divano_and_letto():
    s = state()
    assert top(s) == ["divano", "letto"]
    assert "→ divano?" in html()


def test_attention_to_dorme_is_what_puts_letto_above_tappeto():
    with_sleep, without = state(), state(frase="mangia")
    p = lambda s, t: s["probs"][M.VOCAB.index(t)]  # noqa: E731
    assert p(with_sleep, "letto") > p(with_sleep, "tappeto")
    assert p(without, "tappeto") > p(without, "letto")


def test_the_weights_are_the_documented_tables():
    assert len(M.VOCAB) == 12 and len(M.DIMS) == 8 and len(M.RULES) == 7
    assert np.shape(M.E) == (12, 8) and np.shape(M.W_Q) == (8, 8)
    assert np.shape(M.W1) == (8, 7) and np.shape(M.W2) == (7, 8)
    assert M.E[M.VOCAB.index("sul")] == [0, 0.3, 0, 0.6, 1, 0, 0, 0]
    assert M.E[M.END][DIM["fine"]] == 1 and sum(M.E[M.END]) == 1


def test_the_state_is_e_times_the_final_vector():
    s = state()
    np.testing.assert_allclose(s["logits"], np.array(M.E) @ np.array(s["mlp"]["output"]), atol=1e-12)
    np.testing.assert_allclose(s["mlp"]["output"], np.add(s["attention"]["output"], s["mlp"]["contribution"]),
                               atol=1e-12)


# ---------------------------------------------------------------- the other sentences make sense


@pytest.mark.parametrize("sentence, position, expected", [
    ("gatto", 1, {"gatto", "cane"}),       # il → an animal
    ("gatto", 2, {"dorme", "mangia"}),     # il gatto → a verb
    ("gatto", 4, {"sul"}),                 # … dorme → sul
    ("pesce", 3, {"il"}),                  # il gatto mangia → il
    ("pesce", 4, {"pesce"}),               # il gatto mangia il → pesce
])
def test_each_position_predicts_a_sensible_word(sentence, position, expected):
    assert top(state(frase=sentence, posizione=position), 1)[0] in expected


# ---------------------------------------------------------------- clicks


def data_sets(markup):
    return re.findall(r'data-set="([^"]+)"', markup)


def click(params, data_set):
    """What the runtime does: set the controls named in data-set, recompute."""
    return LAB.compute(LAB.parse({**params, **dict(pair.split("=") for pair in data_set.split(";"))}))


def test_clicking_a_token_chip_shows_the_prediction_at_that_point():
    params = LAB.defaults()
    chips = re.findall(r'class="lab-mt-tok[^"]*" data-set="(posizione=\d+)"', html())
    assert chips == [f"posizione={k}" for k in range(1, 6)]
    s = click(params, chips[1])
    assert s["pos"] == 1 and len(s["attention"]["weights"]) == 2  # «gatto» sees «il» and itself
    assert "→ dorme?" in str(LAB.view(s))


def test_rows_of_the_embedding_table_are_clickable_too():
    table = re.search(r'data-part="embedding".*?</figure>', html(), re.S).group(0)
    assert "posizione=3" in data_sets(table)


def test_the_button_adds_the_predicted_token_and_moves_to_it():
    params = LAB.defaults()
    (button,) = [d for d in data_sets(html()) if d.startswith("generati=")]
    assert button == "generati=1;posizione=6"
    s = click(params, button)
    assert words(s) == ["il", "gatto", "nero", "dorme", "sul", "divano"] and s["pos"] == 5
    assert top(s, 1) == ["."]
    s = click({**params, "generati": 1, "posizione": 6}, "generati=2;posizione=7")
    assert words(s)[-1] == "." and s["finished"]
    assert not [d for d in data_sets(str(LAB.view(s))) if d.startswith("generati=3")]  # no more «Aggiungi»


def test_greedy_generation_from_il_writes_a_whole_sentence():
    s = state(frase="inizio", generati=8, posizione=20)
    assert words(s) == ["il", "gatto", "dorme", "sul", "divano", "."]
    assert s["finished"] and len(s["generated"]) == 5


# ---------------------------------------------------------------- sampling


def test_the_same_seed_gives_the_same_sentence():
    params = {"frase": "inizio", "generati": 8, "scelta": "campiona", "temperatura": 1.5}
    for seed in range(10):
        assert state(**params, seme=seed) == state(**params, seme=seed)
    sentences = {tuple(state(**params, seme=seed)["ids"]) for seed in range(20)}
    assert len(sentences) > 1


def test_sampled_tokens_follow_the_tempered_probabilities():
    s = state(frase="inizio", generati=8, scelta="campiona", temperatura=0.5, seme=3)
    assert all(g["u"] is not None and 0 < g["p_used"] <= 1 for g in s["generated"])
    assert "estratto con u = " in str(LAB.view(s))
    assert s["probs_t"] != s["probs"]


def test_temperature_is_ignored_by_greedy():
    cold, hot = state(temperatura=0.3, generati=3), state(temperatura=1.7, generati=3)
    assert cold["ids"] == hot["ids"] and cold["probs_t"] == cold["probs"]


# ---------------------------------------------------------------- the reader's sentence


def test_a_sentence_of_known_words_is_used():
    s = state(frase="tua", testo="Il cane dorme sul letto.")
    assert words(s) == ["il", "cane", "dorme", "sul", "letto", "."]


@pytest.mark.parametrize("text, message", [
    ("il topo dorme", "«topo» non è nel vocabolario"),
    ("il topo e la volpe", "non sono nel vocabolario"),
    ("", "Scrivi almeno una parola"),
    ("il " * 13, "al massimo 12"),
])
def test_unknown_words_get_an_italian_message(text, message):
    s = state(frase="tua", testo=text)
    assert message in s["problem"]
    assert message in html(frase="tua", testo=text)


def test_what_the_reader_types_is_escaped():
    shown = html(frase="tua", testo=XSS)
    assert "<script" not in shown and "<img" not in shown and "&lt;script&gt;" in shown
