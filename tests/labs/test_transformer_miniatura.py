"""1.4 Il transformer in miniatura: the guide's figures for «il gatto nero
dorme sul», clicks, generation, and the sentence the reader writes."""

import random
import re
from html import unescape as html_unescape

import numpy as np
import pytest

import labs
from labs.ch1 import _miniatura_pesi as P  # the weights written by hand
from labs.ch1 import _miniatura_viste as V  # the view's panels
from labs.kit import percent
from labs.kit.matrices import cell_text


def unescape(text):
    """The page's text as a reader reads it: entities decoded, a non-breaking space read as a space."""
    return html_unescape(text).replace("\u00a0", " ")


LAB = labs.get("transformer-miniatura")
M = LAB.module

DIM = {d: j for j, d in enumerate(P.DIMS)}
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
    assert [percent(w) for w in weights] == ["2\u00a0%", "2\u00a0%", "2\u00a0%", "28\u00a0%", "65\u00a0%"]
    shown = html()
    assert all(f"{p}\u00a0%   (punteggio" in shown for p in ("2", "28", "65"))


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


def p(s, token):
    return s["probs"][M.VOCAB.index(token)]


def test_the_verb_decides_the_place():
    """The prose: with «mangia» the tappeto goes on top; with «dorme» divano and letto stay first."""
    with_sleep, eating = state(), state(frase="mangia")
    assert top(with_sleep) == ["divano", "letto"]
    assert top(eating, 1) == ["tappeto"] and top(eating)[0] != "divano"
    assert p(eating, "tappeto") > p(with_sleep, "tappeto") + 0.1  # visibly: 23 % → 36 %
    # «sul» finds the verb either way, with the same weight
    assert eating["attention"]["weights"] == pytest.approx(with_sleep["attention"]["weights"], abs=1e-12)
    assert "→ tappeto?" in html(frase="mangia")
    for sentence in ("il cane dorme sul", "il gatto dorme sul", "il cane mangia sul", "il gatto mangia sul"):
        s = state(frase="tua", testo=sentence)
        assert top(s, 1) == (["tappeto"] if "mangia" in sentence else ["divano"])


def test_mangia_keeps_the_guides_figures_untouched():
    """«mangiare» in the query of «sul» meets no token of the guide's sentence: nothing moves there."""
    s = state()
    assert s["attention"]["query"][DIM["mangiare"]] == 2.5
    assert s["attention"]["scores"] == pytest.approx([0, 0, 0, 2.5, 3.33], abs=1e-12)


# ---------------------------------------------------------------- the experiment (ablation)


def test_removing_dorme_drops_letto_below_tappeto_and_divano_stays_first():
    """The prose: «Togli «dorme»: il letto scende sotto il tappeto, e resta in testa il divano»."""
    whole, cut = state(), state(esperimento="togli", tolta=4)
    assert cut["ignored"] == [3] and cut["attention"]["weights"][3] == 0
    assert sum(cut["attention"]["weights"]) == pytest.approx(1, abs=1e-12)
    assert p(cut, "letto") < p(cut, "tappeto") and p(whole, "letto") > p(whole, "tappeto")
    assert top(cut, 1) == ["divano"]
    assert cut["whole_probs"] == pytest.approx(whole["probs"], abs=1e-15)
    shown = html(esperimento="togli", tolta=4)
    assert "lab-bar-before" in shown and "il modello intero" in shown  # the before/after bars
    assert "Togliendo «dorme» (parola 4) dall&#x27;attention di «sul», la previsione resta «divano»" in shown
    assert "is-removed" in shown


def test_removing_mangia_gives_the_place_back_to_divano():
    cut = state(frase="mangia", esperimento="togli", tolta=4)
    assert top(cut, 1) == ["divano"]
    assert "la previsione passa da «tappeto» a «divano»" in html(frase="mangia", esperimento="togli", tolta=4)


def test_switching_attention_off_leaves_the_token_alone():
    s = state(esperimento="spegni")
    assert s["attention"]["weights"] == [0, 0, 0, 0, 1.0]
    assert s["attention"]["output"] == s["x"]
    assert "Attention spenta" in html(esperimento="spegni")


def test_the_experiment_does_not_touch_generation():
    assert state(generati=2, esperimento="spegni")["ids"] == state(generati=2)["ids"]


@pytest.mark.parametrize("seed", range(60))
def test_the_experiments_sentence_says_what_the_numbers_do(seed):
    rng = random.Random(seed)
    params = {
        "frase": rng.choice([k for k, _ in M.SENTENCES]),
        "esperimento": rng.choice(["togli", "spegni"]),
        "tolta": rng.randint(1, 6),
        "posizione": rng.randint(1, 6),
        "generati": rng.randint(0, 3),
    }
    s, shown = state(**params), html(**params)
    note = re.search(r"(Togliendo|Spegnendo)[^<]*", shown)
    if not s["ignored"]:
        assert note is None and s["whole_probs"] is None
        return
    note = unescape(note.group(0))
    old, new = V.best_of(s["whole_probs"]), V.best_of(s["probs"])
    if old == new:
        assert f"la previsione resta «{M.VOCAB[new]}»" in note
    else:
        assert f"la previsione passa da «{M.VOCAB[old]}» a «{M.VOCAB[new]}»" in note
    delta = {t: abs(s["probs"][t] - s["whole_probs"][t]) for t in range(len(M.VOCAB))}
    named = re.findall(r"«([^»]+)» [\d,]+ % → [\d,]+ %", note)
    assert len(named) == 3
    assert (
        min(delta[M.VOCAB.index(w)] for w in named)
        >= max(d for t, d in delta.items() if M.VOCAB[t] not in named) - 1e-12
    )


# ---------------------------------------------------------------- controls that follow the state


def rendered(**raw):
    return labs.render(LAB.id, {k: str(v) for k, v in raw.items()})


def test_your_sentence_says_when_it_is_not_used():
    assert M.follow(state())["testo"].disabled
    assert "testo" not in M.follow(state(frase="tua"))
    assert "Frase: quella scritta qui sotto" in rendered()["controls"]["testo"]["disabled"]


def test_the_chosen_token_stays_inside_the_sentence():
    assert M.follow(state())["posizione"].max == 5
    r = rendered(posizione=15)
    assert r["params"]["posizione"] == 5 and r["controls"]["posizione"]["max"] == 5
    assert M.follow(state(generati=2, posizione=7))["posizione"].max == 7


def test_tokens_added_reads_the_real_count_when_the_sentence_ends():
    r = rendered(frase="inizio", generati=8)
    assert r["params"]["generati"] == 5 and r["controls"]["generati"]["max"] == 5  # il gatto dorme sul divano .
    assert "dopo 5 token aggiunti" in r["html"]
    assert "generati" not in M.follow(state(generati=1))  # not finished: up to 8 as usual


def test_word_to_remove_follows_the_experiment_and_the_chosen_token():
    assert M.follow(state())["tolta"].disabled
    assert M.follow(state(esperimento="togli"))["tolta"] == M.Follow(max=4)
    assert M.follow(state(esperimento="togli", posizione=1))["tolta"].disabled
    r = rendered(esperimento="togli", tolta=9, posizione=3)
    assert r["params"]["tolta"] == 2  # only the words before «nero»


def test_temperature_and_seed_say_when_they_do_nothing():
    greedy = M.follow(state())
    assert greedy["temperatura"].disabled and greedy["seme"].disabled
    sampled = M.follow(state(scelta="campiona", generati=3))
    assert "temperatura" not in sampled and "seme" not in sampled
    assert M.follow(state(scelta="campiona"))["seme"].disabled  # nothing drawn yet


def test_the_weights_are_the_documented_tables():
    assert len(M.VOCAB) == 12 and len(P.DIMS) == 8 and len(P.RULES) == 7
    assert np.shape(M.E) == (12, 8) and np.shape(M.W_Q) == (8, 8)
    assert np.shape(M.W1) == (8, 7) and np.shape(M.W2) == (7, 8)
    assert M.E[M.VOCAB.index("sul")] == [0, 0.3, 0, 0.6, 1, 0, 0, 0]
    assert M.E[M.END][DIM["fine"]] == 1 and sum(M.E[M.END]) == 1


def test_the_state_is_e_times_the_final_vector():
    s = state()
    np.testing.assert_allclose(s["logits"], np.array(M.E) @ np.array(s["mlp"]["output"]), atol=1e-12)
    np.testing.assert_allclose(
        s["mlp"]["output"], np.add(s["attention"]["output"], s["mlp"]["contribution"]), atol=1e-12
    )


# ---------------------------------------------------------------- the other sentences make sense


@pytest.mark.parametrize(
    "sentence, position, expected",
    [
        ("gatto", 1, {"gatto", "cane"}),  # il → an animal
        ("gatto", 2, {"dorme", "mangia"}),  # il gatto → a verb
        ("gatto", 4, {"sul"}),  # … dorme → sul
        ("pesce", 3, {"il"}),  # il gatto mangia → il
        ("pesce", 4, {"pesce"}),  # il gatto mangia il → pesce
    ],
)
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
    chips = re.findall(r'class="lab-token[^"]*" title="[^"]*" data-set="(posizione=\d+)"', html())
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


@pytest.mark.parametrize(
    "text, message",
    [
        ("il topo dorme", "«topo» non è nel vocabolario"),
        ("il topo e la volpe", "non sono nel vocabolario"),
        ("", "Scrivi almeno una parola"),
        ("il " * 13, "al massimo 12"),
    ],
)
def test_unknown_words_get_an_italian_message(text, message):
    s = state(frase="tua", testo=text)
    assert message in s["problem"]
    assert message in html(frase="tua", testo=text)


def test_what_the_reader_types_is_escaped():
    shown = html(frase="tua", testo=XSS)
    assert "<script" not in shown and "<img" not in shown and "&lt;script&gt;" in shown


def folds_of(view):
    """Each fold of the view, {part: its whole <details>…</details>}, nested <details> included, and the view
    without them."""
    found, rest = {}, view
    for m in re.finditer(r'<details[^>]*data-fold="([^"]+)"', view):
        depth, k = 0, m.start()
        for t in re.finditer(r"<details|</details>", view[m.start() :]):
            depth += 1 if t.group(0) == "<details" else -1
            if depth == 0:
                k = m.start() + t.end()
                break
        found[m.group(1)] = view[m.start() : k]
    for whole in found.values():
        rest = rest.replace(whole, "")
    return found, rest


def test_the_tables_of_weights_are_drawn_only_when_opened():
    """E and W_q in full are folds for reference: closed by default (their summary and a line, no table);
    opened (?sezioni=…) each shows the model's own weights, cell by cell, and the rest of the view is the same."""
    closed, outside = folds_of(html())
    assert set(closed) == {"tabella-e", "matrice-wq"}
    assert "La tabella E completa" in closed["tabella-e"] and "La matrice W_q" in closed["matrice-wq"]
    assert all("lab-fold-wait" in f and "<table" not in f for f in closed.values())
    for part, label, weights in (("tabella-e", "E", M.E), ("matrice-wq", "W_q", M.W_Q)):
        opened, rest = folds_of(html(sezioni=part))
        figure = re.search(rf'<span class="lab-mx-name">{label}</span>.*?</table>', opened[part], re.S).group(0)
        cells = [unescape(c) for c in re.findall(r'<td class="lab-mx-cell[^"]*"[^>]*>([^<]*)</td>', figure)]
        assert cells == [unescape(str(cell_text(v))) for row in weights for v in row]
        assert rest == outside  # what is outside the folds is the same as with them closed
