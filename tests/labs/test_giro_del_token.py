"""A.6 Il giro di un token nel blocco: every number of the trip is the model's
forward (core's and a numpy one written here), the RMSNorm moves by hand, the
shapes, the token slider's bounds and every «prova…» of the prose."""

import html
import math
import re

import numpy as np
import pytest

import labs
from core.softmax import softmax
from core.transformer import block_forward, param_count, param_shapes, transformer_forward
from core.transformer_layers import EPS
from core.transformer_trace import trace
from labs.chA import _giro_modello as model
from labs.chA._giro_pesi import WEIGHTS
from labs.kit import num, share
from labs.kit.arithmetic import settle

LAB = labs.get("giro-del-token")
M = LAB.module
CONFIG, VOCAB = model.CONFIG, model.VOCAB
SENTENCES = [
    "il gatto dorme sul",
    "il cane dorme sul",
    "il cane mangia la",
    "la bambina mangia la",
    "il gatto corre nel",
    "la bambina dorme nel letto .",
    "il",
]


def state(step=0, **changes):
    raw = {k: str(v) for k, v in changes.items()} | {"passo": str(step)}
    return LAB.compute(LAB.parse(raw))


def own(sentence, token, step=0):
    return state(step, frase="tua", testo=sentence, token=token)


def page(step=0, **changes):
    """The visible text of the rendered view (what the reader reads), with its drawings' titles."""
    result = labs.render(LAB.id, {k: str(v) for k, v in changes.items()} | {"passo": str(step)})
    assert result["ok"], result.get("error")
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", result["html"]))).replace("\u00a0", " ")


def ids_of(sentence):
    return [VOCAB.index(w) for w in sentence.split()]


# --- the model -----------------------------------------------------------------------------------------------------


def test_the_stored_weights_are_what_the_seeded_training_gives():
    trained, losses = model.train_weights()
    assert trained.keys() == WEIGHTS.keys() == param_shapes(CONFIG).keys()
    for name, shape in param_shapes(CONFIG).items():
        assert np.shape(WEIGHTS[name]) == shape
        assert np.allclose(trained[name], WEIGHTS[name], rtol=0, atol=5e-4), name
    assert losses[0] == pytest.approx(math.log(len(VOCAB)), abs=0.4) and losses[-1] < 0.6


def test_the_prose_counts_are_the_model():
    counts = param_count(CONFIG)
    assert (counts["attention"], counts["feed_forward"], counts["total"]) == (1024, 2048, 3536)
    assert len(VOCAB) == 18 and len(model.SENTENCES) == 8 and CONFIG.d_model == 16 and CONFIG.n_heads == 2
    assert CONFIG.n_layers == 1 and CONFIG.d_ffn == 64 and model.OPTIMIZER.total_steps == 300
    for fact in ("3.536 numeri", "18 parole", "4 × 16 × 16 = 1.024", "2 × 16 × 64 = 2.048", "300 passi"):
        assert fact in " ".join(LAB.prose.split()), fact


# --- every intermediate is the forward -----------------------------------------------------------------------------


def np_rms(x, gain):
    return np.asarray(gain) * x / np.sqrt(np.mean(x**2) + EPS)


def np_trip(ids, i):
    """The same model in numpy, for token i of ids: every intermediate of its row."""
    W = {name: np.array(t, dtype=np.float64) for name, t in WEIGHTS.items()}
    b = {name.split(".")[1]: t for name, t in W.items() if name.startswith("block0.")}
    T, dh = len(ids), CONFIG.d_head
    X = W["tok_emb"][ids] + W["pos_emb"][:T]
    U = np.array([np_rms(x, b["norm_attn"]) for x in X])
    Q, K, V = U @ b["W_q"], U @ b["W_k"], U @ b["W_v"]
    heads = []
    for h in range(CONFIG.n_heads):
        cut = slice(h * dh, (h + 1) * dh)
        scores = K[: i + 1, cut] @ Q[i, cut] / math.sqrt(dh)
        weights = np.exp(scores - scores.max())
        weights /= weights.sum()
        heads.append({"scores": scores, "weights": weights, "output": weights @ V[: i + 1, cut]})
    O = np.concatenate([h["output"] for h in heads])
    attn = O @ b["W_o"]
    mid = X[i] + attn
    u2 = np_rms(mid, b["norm_ffn"])
    hidden = u2 @ b["W_1"]
    active = np.maximum(hidden, 0)
    ffn = active @ b["W_2"]
    out = mid + ffn
    uf = np_rms(out, W["norm_final"])
    z = uf @ W["tok_emb"].T
    p = np.exp(z - z.max())
    return {
        "embedded": X[i],
        "normed_attn": U[i],
        "q": Q[i],
        "k": K[i],
        "v": V[i],
        "heads": heads,
        "heads_out": O,
        "attn_out": attn,
        "after_attn": mid,
        "normed_ffn": u2,
        "hidden": hidden,
        "active": active,
        "ffn_out": ffn,
        "output": out,
        "normed_final": uf,
        "logits": z,
        "probs": p / p.sum(),
    }


@pytest.mark.parametrize("sentence", SENTENCES)
def test_every_intermediate_of_every_token_is_the_models_forward(sentence):
    ids = ids_of(sentence)
    X = transformer_forward(WEIGHTS, CONFIG, [ids]).embedded
    after_block, _ = block_forward(WEIGHTS, 0, X, CONFIG, len(ids), None)
    traced = trace(WEIGHTS, CONFIG, ids)
    for i in range(len(ids)):
        s = own(sentence, i)
        assert s["ids"] == ids and s["position"] == i
        b, ref = s["blocks"][0], np_trip(ids, i)
        assert s["embedded"] == [a + c for a, c in zip(WEIGHTS["tok_emb"][ids[i]], WEIGHTS["pos_emb"][i])]
        assert b["output"] == after_block[i]  # the row block_forward gives
        assert s["probabilities"] == traced["probabilities"][i]
        assert np.allclose(s["probabilities"], softmax(traced["logits"][i]), rtol=0, atol=1e-12)
        assert np.allclose(s["probabilities"], ref["probs"], rtol=0, atol=1e-12)
        pairs = [
            (s["embedded"], ref["embedded"]),
            (b["norm_attn"]["output"], ref["normed_attn"]),
            (b["q"], ref["q"]),
            (b["k"], ref["k"]),
            (b["v"], ref["v"]),
            (b["heads_out"], ref["heads_out"]),
            (b["attn_out"], ref["attn_out"]),
            (b["after_attn"], ref["after_attn"]),
            (b["norm_ffn"]["output"], ref["normed_ffn"]),
            (b["hidden"], ref["hidden"]),
            (b["active"], ref["active"]),
            (b["ffn_out"], ref["ffn_out"]),
            (b["output"], ref["output"]),
            (s["norm_final"]["output"], ref["normed_final"]),
            (s["logits"], ref["logits"]),
        ]
        for h, head in enumerate(b["heads"]):
            pairs += [(head[key], ref["heads"][h][key]) for key in ("scores", "weights", "output")]
        for ours, theirs in pairs:
            assert np.allclose(ours, theirs, rtol=0, atol=1e-12)


def test_the_rms_norm_steps_by_hand():
    s = state()
    n = s["blocks"][0]["norm_attn"]
    x = n["input"]
    mean_square = sum(v * v for v in x) / 16
    rms = math.sqrt(mean_square + 0.00001)
    assert n["mean_square"] == pytest.approx(mean_square, abs=1e-15)
    assert 1 / n["inv_rms"] == pytest.approx(rms, abs=1e-15)
    assert n["divided"] == pytest.approx([v / rms for v in x], abs=1e-14)
    assert n["output"] == pytest.approx([g * v / rms for g, v in zip(n["gain"], x)], abs=1e-14)
    assert n["gain"] == WEIGHTS["block0.norm_attn"]
    assert sum(v * v for v in n["divided"]) / 16 == pytest.approx(1, abs=1e-4)  # RMS 1, up to ε
    squares = page(M.SQUARES)
    assert f"Media dei quadrati {num(mean_square, 4)}" in squares and f"{num(rms, 4)}" in squares
    divide = page(M.DIVIDE)
    j = max(range(16), key=lambda j: abs(x[j]))
    # «≈» where the four-digit numbers do not give the shown quotient (kit.arithmetic)
    assert settle(f"d{j + 1}: {num(x[j], 4)} ÷ {num(rms, 4)} = {num(x[j] / rms, 4)}") in divide
    gain = page(M.GAIN)
    k = max(range(16), key=lambda k: (abs(n["output"][k] - n["divided"][k]), -k))
    assert f"d{k + 1}: γ = {num(n['gain'][k])} × {num(n['divided'][k])} = {num(n['output'][k])}" in gain


# --- what each screen says ---------------------------------------------------------------------------------------


def test_one_operation_per_step_each_with_its_shapes():
    assert LAB.steps.max == len(M.PHASES) - 1 == 17 and LAB.steps.phases == M.PHASES and LAB.steps.label == "Passo"
    expected = {
        M.EMBED: "[1 × 16] + [1 × 16] = [1 × 16]",
        M.SQUARES: "[1 × 16] → [1]",
        M.DIVIDE: "[1 × 16] ÷ [1] = [1 × 16]",
        M.GAIN: "[16] ⊙ [1 × 16] = [1 × 16]",
        M.QKV: "[1 × 16] · [16 × 16] = [1 × 16]",
        M.SCORES: "[1 × 8] · [8 × 4] = [1 × 4]",
        M.SOFTMAX: "[1 × 4] → [1 × 4]",
        M.MIX: "[1 × 4] · [4 × 8] = [1 × 8], affiancate: [1 × 16]",
        M.W_O: "[1 × 16] · [16 × 16] = [1 × 16]",
        M.RESIDUAL: "[1 × 16] + [1 × 16] = [1 × 16]",
        M.NORM_FFN: "[1 × 16] → [1 × 16]",
        M.UP: "[1 × 16] · [16 × 64] = [1 × 64]",
        M.RELU: "[1 × 64] → [1 × 64]",
        M.DOWN: "[1 × 64] · [64 × 16] = [1 × 16]",
        M.RESIDUAL_FFN: "[1 × 16] + [1 × 16] = [1 × 16]",
        M.FINAL: "[1 × 16] → [1 × 16]",
        M.HEAD: "[1 × 16] · [16 × 18] = [1 × 18]",
        M.PROBS: "[1 × 18] → [1 × 18]",
    }
    assert set(expected) == set(range(18))
    for step, shape in expected.items():
        text = page(step)
        assert f"{M.PHASES[step]} · «sul»" in text and "Perché:" in text and "Che cosa è cambiato:" in text
        assert shape in text, (step, shape)
        assert f'data-phase="{step}"' in labs.render(LAB.id, {"passo": str(step)})["html"]
    assert "[1 × 8] · [8 × 2] = [1 × 2]" in page(M.SCORES, frase="tua", testo="il gatto corre nel", token=1)


def test_the_bars_show_before_and_after_of_each_step():
    s = state()
    b = s["blocks"][0]
    pairs = {
        M.EMBED: (s["token_row"], s["embedded"]),
        M.DIVIDE: (b["input"], b["norm_attn"]["divided"]),
        M.GAIN: (b["norm_attn"]["divided"], b["norm_attn"]["output"]),
        M.W_O: (b["heads_out"], b["attn_out"]),
        M.RESIDUAL: (b["input"], b["after_attn"]),
        M.NORM_FFN: (b["after_attn"], b["norm_ffn"]["output"]),
        M.DOWN: (b["norm_ffn"]["output"], b["ffn_out"]),
        M.RESIDUAL_FFN: (b["after_attn"], b["output"]),
        M.FINAL: (b["output"], s["norm_final"]["output"]),
    }
    for step, (before, after) in pairs.items():
        view = labs.render(LAB.id, {"passo": str(step)})["html"]
        shown = [float(v) for v in re.findall(r'data-value="([^"]+)"', view)]
        assert np.allclose(shown, after, rtol=0, atol=0.0051), step  # data-value is written with 2 decimals
        assert view.count('class="lab-bar-before"') == len(before) + 1, step  # an outline per bar, and the legend
        assert any(a != c for a, c in zip(before, after)), step
    relu = labs.render(LAB.id, {"passo": str(M.RELU)})["html"]
    assert [float(v) for v in re.findall(r'data-value="([^"]+)"', relu)] == pytest.approx(b["active"], abs=0.0051)
    assert relu.count('class="lab-bar-before"') == sum(v < 0 for v in b["hidden"])


def test_the_final_screen_names_the_models_prediction():
    s = state(M.PROBS)
    p = s["probabilities"]
    best = max(range(18), key=p.__getitem__)
    text = page(M.PROBS)
    assert (
        VOCAB[best] == "divano" and f"Previsione «divano» Probabilità {share(p[best]).replace(chr(160), ' ')}" in text
    )
    assert "→ divano" in text and "→ divano" not in page(M.HEAD)


# --- the controls --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("sentence", ["il", "il gatto", "il gatto dorme sul divano .", "il cane mangia la carne . il"])
def test_the_token_slider_stops_at_the_last_token(sentence):
    n = len(sentence.split())
    s = own(sentence, 0)
    rules = M.follow(s)
    assert rules["token"].max == n - 1 and not rules["token"].disabled and "testo" not in rules
    result = labs.render(LAB.id, {"frase": "tua", "testo": sentence, "token": "7"})
    assert result["params"]["token"] == n - 1 and result["controls"]["token"]["max"] == n - 1
    assert own(sentence, 7)["position"] == n - 1  # compute alone clamps too
    assert M.follow(state())["testo"].disabled  # the text counts only for «tua»


@pytest.mark.parametrize(
    "typed,says",
    [
        ("", "Scrivi almeno una parola"),
        ("il gatto vola", "«vola» non è nel vocabolario"),
        ("il lupo e la volpe", "«lupo», «e», «volpe» non sono nel vocabolario"),
        ("il gatto dorme sul divano . il cane dorme", "La frase ha 9 token: il modello ne legge al massimo 8"),
    ],
)
def test_a_sentence_the_model_cannot_read_gets_an_italian_message(typed, says):
    s = own(typed, 2, step=5)
    assert says in s["problem"]
    assert M.follow(s)["token"].disabled
    assert says in page(5, frase="tua", testo=typed)


# --- every «prova…» of the prose ------------------------------------------------------------------------------------


def test_prova_sul_after_the_cat_and_after_the_dog():
    cat, dog = state(frase="gatto"), state(frase="cane")
    assert cat["position"] == dog["position"] == 3 and VOCAB[cat["ids"][3]] == "sul"
    c, d = cat["blocks"][0], dog["blocks"][0]
    assert cat["embedded"] == dog["embedded"] and c["norm_attn"] == d["norm_attn"]
    assert (c["q"], c["k"], c["v"]) == (d["q"], d["k"], d["v"])  # identical up to Q, K, V
    for hc, hd in zip(c["heads"], d["heads"]):
        differ = [k for k in range(4) if hc["scores"][k] != hd["scores"][k]]
        assert differ == [1]  # only the subject's score changes
    assert share(d["heads"][1]["weights"][1]) == "97\u00a0%" and share(c["heads"][1]["weights"][1]) == "5\u00a0%"
    assert "la testa 2 dà il 97 % a «cane»" in page(M.SOFTMAX, frase="cane")
    top = lambda s: VOCAB[max(range(18), key=s["probabilities"].__getitem__)]  # noqa: E731
    assert (top(cat), top(dog)) == ("divano", "tappeto")


def test_prova_the_first_token():
    s = state(token=0)
    assert s["position"] == 0 and VOCAB[s["ids"][0]] == "il"
    for head in s["blocks"][0]["heads"]:
        assert head["weights"] == [1.0] and share(head["weights"][0]) == "100\u00a0%"
        assert head["output"] == head["values"][0]
    assert "Testa 1: peso massimo 100 %" in page(M.SOFTMAX, token=0)
    assert "«il» è il primo token" in page(M.MIX, token=0)


def test_prova_count_the_neurons_left_on_by_the_relu():
    b = state()["blocks"][0]
    on = sum(v > 0 for v in b["active"])
    assert on == sum(v > 0 for v in b["hidden"]) and 0 < on < 64
    assert all(a == (h if h > 0 else 0.0) for h, a in zip(b["hidden"], b["active"]))
    assert f"Neuroni accesi {on} su 64" in page(M.RELU)
    assert f"restano accesi {on} neuroni su 64" in page(M.RELU)


def test_prova_a_sentence_of_your_own_the_cat_that_runs():
    assert M.CONTROLS[1].default == "il gatto corre nel"
    assert "gatto corre" not in model.corpus_text() and not any("gatto corre" in s for s in model.SENTENCES)
    s = state(frase="tua")
    assert s["position"] == 3 and VOCAB[s["ids"][2]] == "corre"
    assert s["blocks"][0]["heads"][0]["weights"][2] > 0.99  # head 1 goes straight to the verb
    assert VOCAB[max(range(18), key=s["probabilities"].__getitem__)] == "prato"


def test_a_state_is_screened_once_for_its_view_and_its_spoken_line(monkeypatch):
    """view() and summary() read the same screen (screen_of): one drawing per change, the same line."""
    module = labs.get("giro-del-token").module
    calls = []
    screens = tuple((lambda f: lambda s: calls.append(f.__name__) or f(s))(f) for f in module.SCREENS)
    monkeypatch.setattr(module, "SCREENS", screens)
    for step in (0, 3, len(screens) - 1):
        calls.clear()
        answer = labs.render("giro-del-token", {"passo": str(step), "token": "2"})
        assert answer["ok"] and len(calls) == 1
        state = labs.get("giro-del-token").compute(labs.get("giro-del-token").parse({"passo": str(step), "token": "2"}))
        assert answer["summary"].endswith(module.SCREENS[step](state)["changed"].replace("\u00a0", " "))


@pytest.mark.parametrize("step", [0, 2, 9])
def test_the_bars_of_unnamed_dimensions_have_a_legend_and_the_one_that_moved_most_is_lit(step):
    """No meaning is invented for d1…d16: the legend says what the bars show (value, sign, size) and, when
    there is a «before», which dimension changed most, lit in the figure."""
    s = state(step)
    page = html.unescape(str(LAB.view(s)))
    legend = re.search(r'<p class="lab-giro-del-token-legend"[^>]*>(.*?)</p>', page, re.S)
    assert legend, "manca la legenda delle barre"
    said = legend.group(1)
    assert "16 dimensioni" in said and "nessuna ha un nome" in said and "positivo" in said and "negativo" in said
    lit = re.findall(r'lab-bar-row is-hl"[^>]*>.*?<text[^>]*>(d\d+)</text>', page, re.S)
    if step == 0:
        assert "cambiata di più" not in said or lit
    else:
        (name,) = set(lit)
        assert f"in evidenza {name}, la dimensione cambiata di più" in said
