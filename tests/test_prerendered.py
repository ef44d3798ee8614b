"""labs.kit.prerendered: the answers the build ships with a page, taken by the browser's first drawing only for the
very calls the build made, and the numbers the same as computed."""

import json
import pickle

import pytest

import labs
from labs.kit import prerendered
from labs.kit.prerendered import answers_text, knowing, known, read_answers, recorded
from labs.worker_api import warm_up
from sitebuild.pages import known_answers

CALLS = []


@known
def costly(values, scale):
    CALLS.append(values)
    return tuple(v * scale for v in values)


def test_a_known_function_answers_from_the_build_call_by_call_and_only_while_the_first_drawing_runs():
    text = answers_text(recorded(lambda: (costly([0.1, 0.2], 3), costly([0.5], 2))))
    CALLS.clear()
    assert knowing(text, lambda: (costly([0.1, 0.2], 3), costly([0.5], 2))) == ((0.1 * 3, 0.2 * 3), (1.0,))
    assert CALLS == []
    assert knowing(text, lambda: [costly([1.0], 1) for _ in range(3)]) == [(0.1 * 3, 0.2 * 3), (1.0,), (1.0,)]
    assert CALLS == [[1.0]]  # a third call: not in the build's drawing
    assert costly([0.1, 0.2], 3) and len(CALLS) == 2  # outside knowing(): computed
    assert prerendered.KNOWN == {} and prerendered.CALLS == {}


def test_the_answers_a_page_carries_are_plain_data():
    assert read_answers(answers_text({"k": (1.5, [2, "a"])})) == {"k": (1.5, [2, "a"])}
    assert read_answers("") == {}
    with pytest.raises(pickle.UnpicklingError):
        read_answers(answers_text({"k": labs.get}))


def test_3_2_s_first_drawing_takes_the_losses_at_step_0_from_the_build_and_shows_the_same_numbers(monkeypatch):
    lab = labs.get("transformer-allenato")
    text = known_answers(lab)
    assert text and len(text) < 400  # four losses, a few hundred bytes of the page
    params = lab.parse({})
    expected = lab.module.compute.replay(params)
    lab.module.compute.cache.clear()

    def not_again(*args):
        raise AssertionError("the losses at step 0 computed again")

    monkeypatch.setattr(lab.module, "text_loss", not_again)
    assert warm_up(lab.module.__name__, "page", text)
    assert json.dumps(lab.module.compute(params), sort_keys=True) == json.dumps(expected, sort_keys=True)
    lab.module.compute.cache.clear()
    assert not warm_up(lab.module.__name__, "page")  # without the answers (or after the first drawing): computed


def test_a_lab_without_known_functions_ships_no_answers():
    assert known_answers(labs.get("ombrello")) == ""
