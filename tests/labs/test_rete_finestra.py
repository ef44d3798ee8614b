"""1.3 La rete a finestra fissa: the guide's figures in the default state."""

import pytest

import labs
from core.window_net import rounded, train_window_net, window_forward

LAB = labs.get("rete-finestra")
MOD = LAB.module

# what 100 steps of gradient descent from seed 0 give, rounded to one decimal
W1 = [[1.4, 1.7, -2.1, 0.8], [-1.3, -0.1, 1.5, -0.3], [1.4, -0.3, 1.5, 1.2]]
W2 = [[2.2, -0.2, -1.4], [-1.0, -0.1, -0.2], [-0.7, 2.0, -0.5], [1.1, -0.1, 0.9], [-1.5, -0.6, 1.7]]


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def test_context_il_gatto_is_concatenated_not_summed():
    s = state()
    assert (s["a"], s["b"]) == ("il", "gatto")
    assert (s["va"], s["vb"]) == ([1, 0], [0, 1])
    assert s["x"] == [1, 0, 0, 1]
    assert s["sum"] == [1, 1]  # the same for «gatto il»: the order is lost
    assert s["swapped"] == [0, 1, 1, 0]  # concatenated, the order stays
    assert "[1, 1]" in str(LAB.view(s))


def test_shapes_of_the_two_layers():
    s = state()
    assert (len(s["W1"]), len(s["W1"][0])) == (3, 4)
    assert (len(s["W2"]), len(s["W2"][0])) == (5, 3)
    assert len(MOD.VOCAB) == 5 and len(MOD.EXAMPLES) == 5


def test_the_weights_come_from_the_training_and_are_rounded():
    fresh = train_window_net(MOD.training_set(), 3, 5, seed=MOD.SEED, steps=MOD.STEPS, eta=MOD.ETA)
    again = train_window_net(MOD.training_set(), 3, 5, seed=MOD.SEED, steps=MOD.STEPS, eta=MOD.ETA)
    assert fresh == again  # deterministic
    assert rounded(fresh[0]) == W1 and rounded(fresh[1]) == W2
    s = state()
    assert (s["W1"], s["W2"]) == (W1, W2)
    assert all(round(w, 1) == w for row in W1 + W2 for w in row)
    assert s["loss_end"] < 0.05 < 1.5 < s["loss_start"]


def test_forward_pass_number_by_number():
    s = state()
    assert s["z"] == pytest.approx([2.2, -1.6, 2.6])
    assert s["h"] == pytest.approx([2.2, 0.0, 2.6])  # the ReLU silences the second neuron
    assert s["scores"] == pytest.approx([1.2, -2.72, -2.84, 4.76, 1.12])
    assert s["predicted"] == "dorme" and s["probs"][3] == pytest.approx(0.947, abs=1e-3)


@pytest.mark.parametrize("a, b, target", [e for e in MOD.EXAMPLES])
def test_the_rounded_network_predicts_all_five_examples(a, b, target):
    s = state(contesto=f"{a}-{b}")
    assert s["target"] == target and s["predicted"] == target
    assert s["x"] == list(MOD.VECTORS[a]) + list(MOD.VECTORS[b])
    assert window_forward(W1, W2, s["x"])["probs"] == pytest.approx(s["probs"])


def test_concatenation_does_not_scale():
    s = state()
    assert (s["n"], s["d"], s["neurons"]) == (100, 768, 512)
    assert s["inputs"] == 76_800 and s["weights"] == 39_321_600
    html = str(LAB.view(s))
    assert "76.800" in html and "39.321.600" in html and "circa 39 milioni" in html


def test_a_three_token_window_needs_six_columns():
    s = state(n=3, d=2, neuroni=3)
    assert (s["inputs"], s["weights"]) == (6, 18)
    assert "[3\u00a0×\u00a06]" in str(LAB.view(s))


def test_context_chips_set_the_choice():
    html = str(LAB.view(state()))
    for a, b, _ in MOD.EXAMPLES:
        assert f'data-set="contesto={a}-{b}"' in html
