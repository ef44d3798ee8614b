"""Stepped labs: the checkpoint cache is invisible, and the timeline the kit
draws says the same thing as the lab's own steps.

Every stepped lab is found like the build finds it; none is listed here.
"""

import functools
import json
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import labs
from labs.kit import Curve, Jump, Steps, step_machine, stepping
from labs.kit.stepping import MAX_CHECKPOINTS, worst_case_steps
from labs.kit.timelines import counter, jump_target, phase_of, phase_target, timeline

STEPPED = [lab for lab in labs.all_labs() if lab.stepped]


def test_there_are_stepped_labs():
    assert {"bigrammi", "backprop-due-pesi"} <= {lab.id for lab in STEPPED}


@pytest.mark.parametrize("lab", STEPPED, ids=[lab.id for lab in STEPPED])
def test_every_stepped_lab_is_a_step_machine(lab):
    assert isinstance(lab.module.compute, type(step_machine(None, None, None))), (
        f"{lab.id}: compute = step_machine(start, advance, present), così «Avanti» costa un passo"
    )


@functools.cache
def reach(lab):
    """How far a walk may go: all the steps, or as many as replay in about a
    third of a second where a step is expensive (a transformer's training step)."""
    machine, params = lab.module.compute, lab.defaults()
    started = time.process_time()
    m = machine.start(params)
    for _ in range(5):
        m = machine.advance(m, params)
    per_step = (time.process_time() - started) / 6
    return min(lab.steps.max, max(12, int(0.3 / max(per_step, 1e-6))))


def walk(lab, rng, length):
    """A reader's walk on the timeline: Avanti, Indietro, jumps anywhere."""
    last = reach(lab)
    at = 0
    for _ in range(length):
        move = rng.random()
        if move < 0.5:
            at = min(last, at + 1)
        elif move < 0.65:
            at = max(0, at - 1)
        elif move < 0.8:
            at = min(last, at + rng.choice((10, 100)))
        else:
            at = rng.randint(0, last)
        yield at


@pytest.mark.parametrize("lab", STEPPED, ids=[lab.id for lab in STEPPED])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_cached_steps_equal_steps_from_scratch(lab, seed):
    machine = lab.module.compute
    if not hasattr(machine, "replay"):
        pytest.skip("non è ancora una macchina a passi")
    rng = random.Random(seed)
    params = lab.defaults()
    if rng.random() < 0.5:  # another setting: a new machine, same rule
        slider = next((c for c in lab.params_list if c.kind == "slider"), None)
        if slider:
            params[slider.name] = slider.parse(rng.uniform(slider.min, slider.max))
    for at in walk(lab, rng, 8):
        params[lab.steps.name] = at
        cached = json.dumps(machine(params), sort_keys=True)
        assert cached == json.dumps(machine.replay(params), sort_keys=True), f"{lab.id}: passo {at}"


def counting_machine(packed=False):
    """A machine whose state is the list of steps taken; it counts advance() calls."""
    calls = []

    def advance(m, p):
        calls.append(1)
        return [*m, len(m)]  # a new machine: the one it gets stays as it was (the kit's rule)

    return step_machine(lambda p: [], advance, lambda m, p: {"taken": list(m)}, packed=packed), calls


def test_avanti_costs_one_step_and_indietro_at_most_one_interval():
    machine, calls = counting_machine()
    for at in range(0, 501):
        calls.clear()
        assert machine({"passo": at}) == {"taken": list(range(at))}
        assert len(calls) == (1 if at else 0)
    worst = worst_case_steps(500)
    for at in (499, 250, 3, 0, 377):
        calls.clear()
        assert machine({"passo": at}) == {"taken": list(range(at))}
        assert len(calls) <= worst
    assert worst < 500 / MAX_CHECKPOINTS * 2


def test_indietro_again_and_again_replays_one_interval_once():
    machine, calls = counting_machine()
    machine({"passo": 500})
    every = next(iter(machine.cache.values()))["every"]
    calls.clear()
    machine({"passo": 499})  # right after going forward: the step before is kept
    assert not calls
    costly = []
    for at in range(499, 399, -1):
        calls.clear()
        assert machine({"passo": at}) == {"taken": list(range(at))}
        if calls:
            costly.append(len(calls))
    assert len(costly) <= 100 / every + 1 and max(costly) < every  # one replay per interval, none longer
    for at in (401, 402, 401, 400):  # back and forth inside the trail: no step recomputed
        calls.clear()
        assert machine({"passo": at}) == {"taken": list(range(at))}
        assert not calls
    entry = next(iter(machine.cache.values()))
    assert len(entry["trail"]) <= entry["every"]


def test_other_parameters_start_a_new_machine_and_few_are_kept():
    machine, _ = counting_machine()
    for seed in range(10):
        machine({"passo": 5, "seme": seed})
    assert len(machine.cache) <= 3
    assert machine.cache_bytes() > 0


def test_checkpoints_are_bounded():
    machine, _ = counting_machine()
    machine({"passo": 5000})
    entry = next(iter(machine.cache.values()))
    assert len(entry["checkpoints"]) <= MAX_CHECKPOINTS + 1


def test_packed_checkpoints_are_pickled_bounded_by_bytes_and_invisible(monkeypatch):
    monkeypatch.setattr(stepping, "PACKED_BYTES", 200_000)
    machine, calls = counting_machine(packed=True)
    assert machine({"passo": 1000}) == {"taken": list(range(1000))}
    entry = next(iter(machine.cache.values()))
    packed = entry["checkpoints"].values()
    assert all(isinstance(c, stepping.Packed) for c in packed)
    assert sum(map(len, packed)) <= 200_000 and len(packed) > MAX_CHECKPOINTS  # closer together than copies
    rng = random.Random(7)
    for _ in range(60):
        at = rng.randint(0, 1000)
        calls.clear()
        assert machine({"passo": at}) == {"taken": list(range(at))}
        assert len(calls) < entry["every"]  # a jump replays less than one interval
    assert entry["every"] < 1000 / MAX_CHECKPOINTS  # denser than 40 copies would be


def test_packed_checkpoints_of_every_setting_share_one_bound_and_the_setting_in_use_keeps_the_most(monkeypatch):
    monkeypatch.setattr(stepping, "PACKED_BYTES", 300_000)
    machine, calls = counting_machine(packed=True)
    for seed in (0, 1, 2):
        assert machine({"passo": 1000, "seme": seed}) == {"taken": list(range(1000))}
        assert machine.packed_bytes() <= 300_000
    first, second, in_use = (e["every"] for e in machine.cache.values())
    assert in_use < second and in_use < first  # the settings left earlier were thinned first
    assert all(len(e["checkpoints"]) > MAX_CHECKPOINTS // 2 for e in machine.cache.values())  # thinned, kept
    for seed in (0, 2, 1):  # back to a setting left earlier: still its checkpoints, fewer, and the same states
        rng = random.Random(seed)
        for _ in range(10):
            at = rng.randint(0, 1000)
            assert machine({"passo": at, "seme": seed}) == {"taken": list(range(at))}
        assert machine.packed_bytes() <= 300_000


def test_a_device_with_little_memory_keeps_fewer_checkpoints_and_the_same_states(monkeypatch):
    monkeypatch.setattr(stepping, "PACKED_BYTES", 400_000)
    monkeypatch.setattr(stepping, "BYTES_PER_GIB", 200_000)
    assert stepping.fit_memory(8) == 400_000  # a bound never grows
    assert stepping.fit_memory(1) == 200_000 == stepping.PACKED_BYTES  # navigator.deviceMemory: 1 GiB
    assert stepping.fit_memory(0.5) == 100_000
    monkeypatch.setattr(stepping, "PACKED_BYTES", 1_000_000)
    assert stepping.fit_memory(None) == 2 * 200_000  # Firefox, Safari: no navigator.deviceMemory, a small phone
    monkeypatch.setattr(stepping, "PACKED_BYTES", 100_000)
    machine, calls = counting_machine(packed=True)
    assert machine({"passo": 1000}) == {"taken": list(range(1000))}
    entry = next(iter(machine.cache.values()))
    assert machine.packed_bytes() <= 100_000 and len(entry["checkpoints"]) > MAX_CHECKPOINTS // 2
    for at in random.Random(3).sample(range(1001), 30):  # sparser checkpoints: longer replays, the same states
        calls.clear()
        assert machine({"passo": at}) == {"taken": list(range(at))}
        assert len(calls) < entry["every"]


def test_a_long_replay_says_how_far_it_got_and_a_short_one_says_nothing(monkeypatch):
    said = []
    monkeypatch.setattr(stepping, "PROGRESS", None)
    stepping.on_progress(lambda at, target: said.append((at, target)))
    machine, _ = counting_machine()
    machine({"passo": 50})
    assert said == []  # far quicker than REPORT_AFTER
    monkeypatch.setattr(stepping, "REPORT_AFTER", 0.0)
    monkeypatch.setattr(stepping, "REPORT_EVERY", -1.0)  # every step
    assert machine({"passo": 80, "seme": 1}) == {"taken": list(range(80))}
    assert said == [(at, 80) for at in range(1, 81)]


def unwanted_after(n):
    """on_unwanted's function that says «no longer wanted» at its n-th question."""
    asked = []
    return lambda: asked.append(1) or len(asked) >= n


@pytest.mark.parametrize("packed", [False, True])
def test_an_unwanted_replay_stops_between_steps_and_keeps_them(monkeypatch, packed):
    machine, calls = counting_machine(packed=packed)
    monkeypatch.setattr(stepping, "UNWANTED", None)
    stepping.on_unwanted(unwanted_after(30))
    with pytest.raises(stepping.Unwanted):
        machine({"passo": 300})
    assert len(calls) == 30  # asked after every step: stopped after the 30th
    stepping.on_unwanted(lambda: False)
    calls.clear()
    assert machine({"passo": 300}) == {"taken": list(range(300))}
    assert len(calls) == 270  # went on from step 30: none of the steps made was lost
    stepping.on_unwanted(unwanted_after(2))
    with pytest.raises(stepping.Unwanted):
        machine({"passo": 310})
    stepping.on_unwanted(None)
    for at in (0, 302, 1, 310, 299):  # every step where it was, back and forth
        assert machine({"passo": at}) == {"taken": list(range(at))}
    stepping.on_unwanted(lambda: True)
    assert machine({"passo": 300}) == {"taken": list(range(300))}  # nothing to replay: nothing to stop
    assert machine({"passo": 301}) == {"taken": list(range(301))}  # the last step is never stopped


@pytest.mark.parametrize("lab", STEPPED, ids=[lab.id for lab in STEPPED])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_replays_stopped_anywhere_leave_the_cache_invisible(lab, seed):
    """A reader who moves on stops the replay made for them (the browser's worker asks after every step):
    whatever step it stops at, the views asked for afterwards are the ones computed from scratch."""
    machine = lab.module.compute
    rng = random.Random(seed)
    params = lab.defaults()
    for at in walk(lab, rng, 8):
        params[lab.steps.name] = at
        stepping.on_unwanted(unwanted_after(rng.randint(1, 6)))
        try:
            machine(params)
        except stepping.Unwanted:
            pass
        finally:
            stepping.on_unwanted(None)
        assert json.dumps(machine(params), sort_keys=True) == json.dumps(machine.replay(params), sort_keys=True), (
            f"{lab.id}: passo {at}"
        )


def test_a_packed_checkpoint_is_unpickled_once_on_the_way_back(monkeypatch):
    """The worker draws the next step ahead: a reader changing a view control at step 0 goes 1 → 0 every time."""
    import _pickle

    machine, _ = counting_machine(packed=True)
    machine({"passo": 1})
    loads, real = [], _pickle.loads
    monkeypatch.setattr(_pickle, "loads", lambda blob: loads.append(1) or real(blob))
    for at in (0, 1, 0, 1, 0):
        assert machine({"passo": at}) == {"taken": list(range(at))}
    assert len(loads) == 1


def test_a_machine_that_cannot_be_pickled_is_kept_as_it_is():
    class Local(list):  # a class of a lab edited in the page is not the one pickle finds by name
        pass

    def advance(m, p):
        return Local([*m, len(m)])

    machine = step_machine(lambda p: Local(), advance, lambda m, p: {"taken": list(m)}, packed=True)
    for at in (30, 5, 29, 0, 17):
        assert machine({"passo": at}) == {"taken": list(range(at))}
    assert not machine.packed


ROUND = Steps(max=40, phases=("prima", "a", "b", "c"), prelude=1, curve=Curve("loss", points=14))


def test_phases_repeat_after_the_prelude():
    assert [phase_of(ROUND, s) for s in range(8)] == [0, 1, 2, 3, 1, 2, 3, 1]
    assert phase_target(ROUND, 5, 3) == 6  # «c» of the round that holds step 5
    assert phase_target(ROUND, 5, 0) == 0
    assert phase_target(ROUND, 0, 2) == 2
    assert counter(ROUND, 5) == "Passo 5 di 40 · b"


def test_jumps_land_where_they_say():
    assert jump_target(ROUND, Jump("fine del giro", "giro"), 4, {}) == 6
    assert jump_target(ROUND, Jump("fine del giro", "giro"), 6, {}) == 9
    assert jump_target(ROUND, Jump("+10", 10), 35, {}) == 40
    assert jump_target(ROUND, Jump("fine", "fine"), 40, {}) is None
    assert jump_target(ROUND, Jump("epoch", lambda s: s["end"]), 3, {"end": 12}) == 12


def test_the_timeline_never_shows_the_future():
    html = str(timeline(ROUND, 5, {"loss": [3.0, 2.0]}))
    assert html.count("data-set=") == len(ROUND.phases) + 3  # chips + giro, +10, fine (+100 needs 200 steps)
    assert 'aria-current="step"' in html and "Passo 5 di 40" in html
    assert "2 valori finora" in html


@pytest.mark.parametrize("lab", STEPPED, ids=[lab.id for lab in STEPPED])
def test_one_counter_for_every_stepped_lab(lab):
    """The counter is the kit's, in the lab's unit; the view does not print another one."""
    steps = lab.steps
    for at in (0, 1, reach(lab)):
        result = labs.render(lab.id, {steps.name: str(at)})
        assert result["ok"], result.get("error")
        assert counter(steps, at) in result["timeline"]
        assert "lab-step-counter" not in result["html"], f"{lab.id}: un secondo contatore dei passi nella vista"


@pytest.mark.parametrize("lab", STEPPED, ids=[lab.id for lab in STEPPED])
def test_warm_up_leaves_the_first_avanti_nothing_to_compute(lab):
    """The worker draws the page's lab, then its next step, before the reader acts:
    the reader's first «Avanti» then runs no step of training (labs.warm_up)."""
    machine = lab.module.compute
    machine.cache.clear()
    assert labs.warm_up(lab.module.__name__, "page")
    rehearsed = labs.warm_up(lab.module.__name__, "next")  # the page lays this view out once, off screen
    advance, calls = machine.advance, []
    machine.advance = lambda m, p: calls.append(1) or advance(m, p)
    try:
        result = labs.render(lab.id, {lab.steps.name: str(lab.steps.default + 1)})
    finally:
        machine.advance = advance
    assert result["ok"] and calls == []
    assert rehearsed == result["html"]
    # the warm-up ran the worker's own path to that view, and left it there for the reader's click
    raw = json.dumps({lab.steps.name: str(lab.steps.default + 1)})
    assert json.loads(labs.render_json(lab.id, raw)) == json.loads(json.dumps({**result, "ahead": True}))


@pytest.mark.parametrize("lab", STEPPED, ids=[lab.id for lab in STEPPED])
def test_a_view_drawn_ahead_is_the_view_drawn_on_demand(lab):
    """labs.render_ahead draws the step the reader will probably ask for next
    (the worker calls it while the page shows the last one); render_json then
    answers that request, and only that one, from it: the same answer, marked."""
    steps, rng = lab.steps, random.Random(lab.id)
    for at in (steps.default + 1, rng.randint(0, reach(lab)), reach(lab)):
        raw = {steps.name: str(at)}
        assert labs.render_ahead(lab.id, json.dumps(raw))
        # the page sends every control as text: the same parameters, written as the page writes them
        page_raw = {name: str(value) for name, value in {**lab.defaults(), **raw}.items()}
        answered = json.loads(labs.render_json(lab.id, json.dumps(page_raw)))
        assert answered.pop("ahead") is True
        assert answered == json.loads(json.dumps(labs.render(lab.id, raw)))
        other = {steps.name: str(at - 1 if at else at + 1)}
        assert "ahead" not in json.loads(labs.render_json(lab.id, json.dumps(other)))


@pytest.mark.parametrize("lab", STEPPED, ids=[lab.id for lab in STEPPED])
def test_advance_never_changes_the_machine_it_gets(lab):
    """The kit keeps machines as they are, shared by the live machine, the checkpoints and the trail: a machine
    advance has read must pickle to the same bytes as before (its Memo left out), at every step of a walk."""
    import pickle

    machine, params = lab.module.compute, lab.defaults()
    m = machine.start(params)
    for _ in range(min(reach(lab), 40)):
        before = pickle.dumps(m)
        m_next = machine.advance(m, params)
        assert pickle.dumps(m) == before, f"{lab.id}: advance ha cambiato la macchina che ha ricevuto"
        m = m_next


def test_the_cache_shares_machines_and_never_copies_them():
    """A machine advance never changes is kept as it is: the checkpoints and the trail hold the very machines
    advance returned (no copy), and every step of a walk gives the state a replay gives."""
    made = {}
    machine = step_machine(
        lambda p: (), lambda m, p: made.setdefault(len(m) + 1, (*m, len(m))), lambda m, p: {"taken": list(m)}
    )
    machine({"passo": 0})
    made[0] = machine.cache[machine.key({"passo": 0})]["live"][1]
    rng = random.Random(7)
    for at in [rng.randint(0, 300) for _ in range(60)] + list(range(300, 250, -1)):
        assert machine({"passo": at}) == {"taken": list(range(at))}
    entry = next(iter(machine.cache.values()))
    for at, kept in [*entry["checkpoints"].items(), *entry["trail"].items()]:
        assert kept is made[at]


def test_a_memo_is_shared_by_every_machine_of_a_training_and_left_out_of_packed_checkpoints(monkeypatch):
    """Values kept in a Memo survive Indietro and a packed checkpoint's unpickling (the same memo comes back),
    are not in the checkpoints' bytes, and a lost memo comes back empty: only work is lost."""
    import _pickle

    from labs.kit import Memo

    made = []

    def present(m, p):
        return {"taken": m["at"], "double": m["memo"].get(m["at"], lambda: made.append(m["at"]) or 2 * m["at"])}

    machine = step_machine(
        lambda p: {"at": 0, "memo": Memo()}, lambda m, p: {**m, "at": m["at"] + 1}, present, packed=True
    )
    for at in (0, 1, 2, 3, 2, 1, 0, 3):
        assert machine({"passo": at}) == {"taken": at, "double": 2 * at}
    assert made == [0, 1, 2, 3]  # each value made once, whatever machine asked for it again
    entry = next(iter(machine.cache.values()))
    memo = entry["live"][1]["memo"]
    assert all(_pickle.loads(c)["memo"] is memo for c in entry["checkpoints"].values())
    big = Memo()
    big.get("x", lambda: "a" * 100_000)
    assert len(_pickle.dumps({"memo": big})) < 200  # the memo's values are not packed
    name = big.name
    del big, memo, entry, machine
    import gc

    gc.collect()
    again = _pickle.loads(_pickle.dumps({"memo": Memo(name=name)}))["memo"]
    assert again.items == {}
