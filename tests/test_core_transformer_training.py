"""core.transformer's training: Adam and SGD against their formulas, determinism per seed,
training that learns, generation, parameter counts, the traces the labs show."""

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiny_transformer import VARIANTS, corpus_ids, lively_params, loss_of, np_forward, random_batch, tiny

from core import optimizers as optim
from core import transformer as tr
from core import transformer_generation as gen
from core import transformer_layers as layers
from core import transformer_trace as trc
from core import transformer_training as training
from core.schedules import warmup_cosine_lr
from core.softmax import softmax

# --- optimiser -----------------------------------------------------------------


def test_adam_step_matches_its_formula_with_clipping():
    config = tiny(n_layers=1)
    opt = optim.OptimizerConfig(lr=0.05, warmup=3, total_steps=20, clip=0.5)
    state = training.init_state(config)
    batches = [random_batch(config, 2, 5, seed=s) for s in range(3)]
    m = {k: np.zeros(np.shape(t)) for k, t in state.params.items()}
    v = {k: np.zeros(np.shape(t)) for k, t in state.params.items()}
    expected = {k: np.array(t) for k, t in state.params.items()}
    for step, batch in enumerate(batches):
        _, grads = tr.loss_and_grads(state.params, config, *batch)
        norm = optim.grad_norm(grads)
        k = min(1.0, opt.clip / norm)
        lr = warmup_cosine_lr(step + 1, opt.lr, opt.warmup, opt.total_steps, opt.floor)
        for name, g in grads.items():
            g = k * np.array(g)
            m[name] = opt.beta1 * m[name] + (1 - opt.beta1) * g
            v[name] = opt.beta2 * v[name] + (1 - opt.beta2) * g**2
            m_hat, v_hat = m[name] / (1 - opt.beta1 ** (step + 1)), v[name] / (1 - opt.beta2 ** (step + 1))
            expected[name] = expected[name] - lr * m_hat / (np.sqrt(v_hat) + opt.eps)
        state, info = training.train_step(state, batch, config, opt)
        assert info["grad_norm"] == pytest.approx(norm, rel=1e-12) and info["lr"] == pytest.approx(lr)
        for name, p in state.params.items():
            assert np.allclose(p, expected[name], rtol=0, atol=1e-12), name
    assert state.step == 3


def test_sgd_moves_against_the_clipped_gradient():
    config = tiny(n_layers=1)
    opt = optim.OptimizerConfig(kind="sgd", lr=0.1, warmup=0, total_steps=10, clip=0.01)
    state = training.init_state(config)
    batch = random_batch(config, 2, 5)
    _, grads = tr.loss_and_grads(state.params, config, *batch)
    new, info = training.train_step(state, batch, config, opt)
    k = 0.01 / info["grad_norm"]
    assert info["grad_norm"] > 0.01
    for name, p in new.params.items():
        assert np.allclose(p, np.array(state.params[name]) - info["lr"] * k * np.array(grads[name]), atol=1e-15)
    assert info["lr"] == pytest.approx(warmup_cosine_lr(1, 0.1, 0, 10, 0.1))


def test_the_first_update_already_moves_and_the_schedule_ends_at_the_floor():
    opt = optim.OptimizerConfig(lr=0.01, warmup=10, total_steps=100, floor=0.1)
    assert optim.learning_rate(0, opt) == pytest.approx(0.001)
    assert optim.learning_rate(9, opt) == pytest.approx(0.01)
    assert optim.learning_rate(99, opt) == pytest.approx(0.001)


def test_a_step_leaves_the_state_it_started_from_untouched():
    config = tiny(n_layers=1)
    state = training.init_state(config)
    before = {k: np.array(t) for k, t in state.params.items()}
    training.train_step(state, random_batch(config, 2, 5), config, optim.OptimizerConfig())
    assert state.step == 0
    assert all(np.array_equal(before[k], t) for k, t in state.params.items())
    assert all(not np.any(t) for t in state.m.values())


# --- determinism, training, generation ------------------------------------------


def run(config, opt, steps, seed=0):
    ids, _ = corpus_ids()
    state, losses = training.init_state(config), []
    for step in range(steps):
        state, info = training.train_step(state, training.batch_for_step(ids, config, 8, seed, step), config, opt)
        losses.append(info["loss"])
    return state, losses


def test_the_same_seed_gives_the_same_model_batches_and_losses():
    ids, V = corpus_ids()
    config = tr.TransformerConfig(vocab_size=V, seed=5, positions="rope")
    assert tr.init_params(config) == tr.init_params(config)
    assert tr.init_params(config) != tr.init_params(tr.TransformerConfig(vocab_size=V, seed=6, positions="rope"))
    assert training.batch_for_step(ids, config, 8, 1, 7) == training.batch_for_step(ids, config, 8, 1, 7)
    assert training.batch_for_step(ids, config, 8, 1, 7) != training.batch_for_step(ids, config, 8, 1, 8)
    first, second = run(config, optim.OptimizerConfig(), 5), run(config, optim.OptimizerConfig(), 5)
    assert first[1] == second[1] and first[0].params == second[0].params


def test_training_on_a_small_corpus_lowers_the_loss():
    ids, V = corpus_ids()
    config = tr.TransformerConfig(vocab_size=V, n_layers=1)
    windows = [ids[i : i + 9] for i in range(len(ids) - 8)]
    inputs, targets = [w[:-1] for w in windows], [w[1:] for w in windows]
    start = loss_of(tr.init_params(config), config, inputs, targets)
    assert start == pytest.approx(math.log(V), abs=0.5)
    state, losses = run(config, optim.OptimizerConfig(lr=0.01, warmup=10, total_steps=60), 60)
    assert loss_of(state.params, config, inputs, targets) < 0.4 * start
    assert np.mean(losses[-10:]) < 0.5 * np.mean(losses[:5])
    sgd, _ = run(config, optim.OptimizerConfig(kind="sgd", lr=0.5, warmup=5, total_steps=30), 30)
    assert loss_of(sgd.params, config, inputs, targets) < start - 0.3


def test_generation_is_deterministic_greedy_at_temperature_zero_and_seeded_otherwise():
    config = tiny(positions="rope", context=4)
    params = lively_params(config)
    prompt = [1, 2, 3, 4, 5, 6]  # longer than the context: only the last 4 are read
    greedy = gen.transformer_generate(params, config, prompt, 6)
    assert greedy == gen.transformer_generate(params, config, prompt, 6) and len(greedy) == 6
    ids = list(prompt)
    for new in greedy:
        logits = tr.transformer_forward(params, config, [ids[-4:]]).logits[-1]
        assert new == int(np.argmax(logits))
        ids.append(new)
    sampled = gen.transformer_generate(params, config, prompt, 20, temperature=1.0, rng=random.Random(9))
    assert sampled == gen.transformer_generate(params, config, prompt, 20, temperature=1.0, rng=random.Random(9))
    assert all(0 <= i < config.vocab_size for i in sampled)
    with pytest.raises(ValueError):
        gen.transformer_generate(params, config, [], 3)


@settings(max_examples=40)
@given(
    activation=st.sampled_from(["relu", "gelu"]),
    positions=st.sampled_from(["learned", "rope"]),
    tied=st.booleans(),
    layers=st.integers(1, 3),
    seed=st.integers(0, 99),
    data=st.data(),
)
def test_next_logits_are_the_forward_passs_last_row_to_the_last_bit(activation, positions, tied, layers, seed, data):
    config = tiny(activation, positions, tied, seed, n_layers=layers)
    params = lively_params(config, seed)
    ids = data.draw(st.lists(st.integers(0, config.vocab_size - 1), min_size=1, max_size=config.context))
    assert gen.next_logits(params, config, ids) == tr.transformer_forward(params, config, [ids]).logits[-1]


# --- shapes, counts, looking inside ----------------------------------------------


def test_param_count_by_part():
    config = tr.TransformerConfig(vocab_size=30)
    counts = tr.param_count(config)
    assert counts == {
        "token_embedding": 480,
        "position_embedding": 128,
        "attention": 1024,
        "feed_forward": 2048,
        "norms": 48,
        "head": 0,
        "total": 3728,
    }
    untied = tr.param_count(tr.TransformerConfig(vocab_size=30, n_layers=2, tied=False, positions="rope"))
    assert untied["head"] == 480 and untied["position_embedding"] == 0 and untied["total"] == 7184
    params = tr.init_params(config)
    assert counts["total"] == sum(np.size(t) for t in params.values())


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=5), st.sampled_from(VARIANTS))
def test_trace_attention_rows_are_causal_distributions(ids, variant):
    config = tiny(*variant)
    traced = trc.trace(lively_params(config), config, ids)
    T = len(ids)
    assert len(traced["layers"]) == 2 and np.shape(traced["logits"]) == (T, 7)
    for layer in traced["layers"]:
        A = np.array(layer["attention"])
        assert A.shape == (2, T, T)
        assert np.allclose(A.sum(-1), 1, atol=1e-12) and not np.any(np.triu(A, 1))
        assert np.shape(layer["hidden"]) == (T, 32) and np.shape(layer["output"]) == (T, 8)
    assert np.allclose(np.sum(traced["probabilities"], 1), 1, atol=1e-12)


def test_bad_configs_and_inputs_are_refused():
    with pytest.raises(ValueError):
        tr.TransformerConfig(vocab_size=5, d_model=10, n_heads=3)
    with pytest.raises(ValueError):
        tr.TransformerConfig(vocab_size=5, d_model=6, n_heads=2, positions="rope")
    with pytest.raises(ValueError):
        tr.TransformerConfig(vocab_size=5, activation="tanh")
    config = tiny()
    with pytest.raises(ValueError):
        tr.transformer_forward(tr.init_params(config), config, [[1] * 6])
    with pytest.raises(IndexError):
        tr.transformer_forward(tr.init_params(config), config, [[7]])


@pytest.mark.parametrize("activation,positions,tied", VARIANTS)
def test_token_trip_is_the_forward_row_of_one_token(activation, positions, tied):
    config = tiny(activation, positions, tied)
    params = lively_params(config)
    ids = [3, 1, 4, 1, 5]
    cache = tr.transformer_forward(params, config, [ids])
    logits, maps = np_forward(params, config, [ids])
    dh = config.d_head
    for i in range(len(ids)):
        trip = trc.token_trip(params, config, ids, i)
        assert trip["embedded"] == cache.embedded[i] and trip["token_row"] == params["tok_emb"][ids[i]]
        if positions == "learned":
            assert trip["embedded"] == [a + b for a, b in zip(trip["token_row"], trip["position_row"])]
        else:
            assert trip["position_row"] is None and trip["embedded"] == trip["token_row"]
        for layer, (step, block) in enumerate(zip(trip["blocks"], cache.blocks)):
            rows = {
                "input": block.input,
                "attn_out": block.attn_out,
                "after_attn": block.after_attn,
                "hidden": block.ffn.hidden,
                "active": block.ffn.active,
                "ffn_out": block.ffn.out,
                "output": block.output,
            }
            for name, M in rows.items():
                assert step[name] == M[i], name
            assert [step["q"], step["k"], step["v"]] == [block.Q[i], block.K[i], block.V[i]]
            for key, norm in (("norm_attn", block.norm_attn), ("norm_ffn", block.ffn.norm)):
                n = step[key]
                x = np.array(n["input"])
                assert n["mean_square"] == pytest.approx(np.mean(x**2), abs=1e-12)
                assert n["inv_rms"] == norm.inv[i] == 1 / math.sqrt(n["mean_square"] + layers.EPS)
                assert n["divided"] == norm.xhat[i] and np.allclose(n["divided"], x * n["inv_rms"], atol=1e-15)
                assert n["output"] == norm.output[i] and n["gain"] == params[f"block{layer}.{key}"]
            for h, head in enumerate(step["heads"]):
                Q, K, V = (np.array(M)[:, h * dh : (h + 1) * dh] for M in (block.Q, block.K, block.V))
                assert np.allclose(head["scores"], K[: i + 1] @ Q[i] / math.sqrt(dh), rtol=0, atol=1e-12)
                assert np.allclose(head["weights"], maps[layer][0, h, i, : i + 1], rtol=0, atol=1e-12)
                assert head["weights"] == softmax(head["scores"])
                assert np.allclose(head["output"], np.array(head["weights"]) @ V[: i + 1], rtol=0, atol=1e-12)
                assert head["query"] == list(Q[i]) and len(head["keys"]) == len(head["values"]) == i + 1
            assert sum((head["output"] for head in step["heads"]), []) == step["heads_out"] == block.heads_out[i]
        assert trip["logits"] == cache.logits[i]
        assert np.allclose(trip["logits"], logits[i], rtol=0, atol=1e-9)
        assert trip["probabilities"] == softmax(trip["logits"])
        assert trip["norm_final"]["output"] == cache.norm_final.output[i]
        assert trip["norm_final"]["input"] == cache.blocks[-1].output[i]
    with pytest.raises(IndexError):
        trc.token_trip(params, config, ids, len(ids))


def test_causal_scores_are_the_scores_that_causal_weights_softmaxes():
    rng = random.Random(3)
    q, k = ([[rng.gauss(0, 1) for _ in range(4)] for _ in range(5)] for _ in range(2))
    A = layers.causal_weights(q, k)
    for i in range(5):
        scores = layers.causal_scores(q[i], k[: i + 1])
        assert len(scores) == i + 1
        assert scores == pytest.approx([np.dot(q[i], kj) / 2 for kj in k[: i + 1]], abs=1e-14)
        assert A[i] == softmax(scores) + [0.0] * (4 - i)


@pytest.mark.parametrize("n", [2, 5, 9, 10, 17, 40])
def test_text_windows_predict_every_pair_of_the_text_once(n):
    ids = list(range(100, 100 + n))
    windows = training.text_windows(ids, 4)
    assert all(0 < len(i) == len(t) <= 4 and t[:-1] == i[1:] for i, t in windows)
    assert sorted(p for i, t in windows for p in zip(i, t)) == list(zip(ids, ids[1:]))
    few = training.text_windows(ids, 4, limit=3)
    starts = [windows.index(w) for w in few]
    assert len(few) == min(3, len(windows)) and starts == sorted(set(starts)) and starts[0] == 0
    if len(windows) > 3:
        assert starts[-1] == len(windows) - 1  # spread over the whole text, not its beginning
    assert training.text_windows(ids, 4, limit=1) == windows[:1]


def test_text_loss_is_the_mean_over_every_predicted_token_against_numpy():
    config = tiny(n_layers=1)
    params = lively_params(config)
    rng = random.Random(5)
    ids = [rng.randrange(config.vocab_size) for _ in range(23)]  # 22 pairs: windows of 5, 5, 5, 5 and 2
    losses = []
    for inputs, targets in training.text_windows(ids, config.context):
        logits, _ = np_forward(params, config, [inputs])
        z = logits - logits.max(1, keepdims=True)
        losses += list(-(z - np.log(np.exp(z).sum(1, keepdims=True)))[np.arange(len(targets)), targets])
    assert len(losses) == 22
    assert training.text_loss(params, config, ids) == pytest.approx(np.mean(losses), abs=1e-9)
    part = training.text_windows(ids, config.context, limit=2)  # the first window and the last, of 2 tokens
    expected = sum(loss_of(params, config, [i], [t]) * len(t) for i, t in part) / sum(len(t) for _, t in part)
    assert training.text_loss(params, config, ids, limit=2) == pytest.approx(expected, abs=1e-12)
    with pytest.raises(ValueError):
        training.text_loss(params, config, ids[:1])
