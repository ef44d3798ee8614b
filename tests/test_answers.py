"""Long experiments answered at once (labs/answers.py, sitebuild/answers.py): the answer the build ships
beside a page for a costly «Prova» is the drawing a replay gives, its checkpoint is the replayed machine,
and a machine seeded with it goes on from there as if it had got there itself."""

import json
import pickle

import pytest

import labs
from labs.answers import answers, page_raw, replay, replay_pair, settings_params, shipped_machines
from labs.drawing import draw
from labs.kit.experiments import prose_with_experiments
from labs.kit.stepping import Memo, ship, unship
from labs.worker_api import seed_checkpoint
from sitebuild.answers import answer_names, lab_answers, write_answers
from sitebuild.offline import offline_files

TRANSFORMER = labs.get("transformer-allenato")
CHECKPOINTS = 4  # 3.2's trainings and steps its answers start from
BIGRAM = labs.get("bigrammi")  # a stepped lab whose steps are cheap: the seeding tests run on it


def fresh(lab):
    """The lab's StepMachine with an empty cache (a replay from step 0 is all it can do)."""
    machine = lab.module.compute
    return machine.with_functions(machine.start, machine.advance, machine.present)


@pytest.fixture(scope="module")
def shipped():
    """3.2's answers as the build ships them (kept between builds in the build's scratch space)."""
    return lab_answers(TRANSFORMER)


def test_every_experiment_of_3_2_that_replays_its_training_ships_an_answer(shipped):
    at = {a.index for a in shipped}
    for index, experiment in enumerate(TRANSFORMER.experiments):
        assert (index in at) == (experiment.settings["passo"] > 0), experiment.sentence
    # one checkpoint for each training and step: four experiments look at the default training at its end
    assert len({a.checkpoint for a in shipped}) == CHECKPOINTS


@pytest.mark.parametrize("k", range(CHECKPOINTS), ids=[f"{TRANSFORMER.id}-{k + 1}" for k in range(CHECKPOINTS)])
def test_each_shipped_answer_equals_a_replay(shipped, monkeypatch, k):
    """A fresh machine (no cache, no seed) replays from step 0: its drawing is the answer, its machine the
    checkpoint. One training and step at a time (the k-th checkpoint), so the replays spread over the workers."""
    checkpoint = sorted({a.checkpoint for a in shipped})[k]
    checkpoints = {}
    for answer in (a for a in shipped if a.checkpoint == checkpoint):
        experiment = TRANSFORMER.experiments[answer.index]
        params = settings_params(TRANSFORMER, experiment)
        machine = fresh(TRANSFORMER)
        monkeypatch.setattr(TRANSFORMER.module, "compute", machine)
        if answer.checkpoint in checkpoints:  # the same training at the same step: replayed once
            machine.seed(params, *checkpoints[answer.checkpoint])
        drawing = draw(TRANSFORMER, page_raw(TRANSFORMER, params))
        assert answer.answer["raw"] == page_raw(TRANSFORMER, params)
        shipped_result = json.loads(answer.files()[answer.name])["result"]  # as the page reads it
        assert shipped_result == json.loads(json.dumps(drawing.page())), experiment.sentence
        assert experiment.check(drawing.state), experiment.sentence  # the answer shows what the prose promises
        m = machine.machine_at(params)
        before = machine.machine_at(params | {"passo": params["passo"] - 1})  # from the trail: no replay
        name = machine.training(params)
        shipped_ones = unship(answer.machine)
        assert shipped_ones["name"] == name and set(shipped_ones) == set(shipped_machines(name, m, before))
        for key, mine in (("machine", m), ("before", before)):  # each alone: what the two share may differ
            memo = f"{TRANSFORMER.id}:{name}"
            assert ship(shipped_ones[key], memo) == ship(mine, memo), (experiment.sentence, key)
        checkpoints[answer.checkpoint] = (m, before)


def test_the_site_ships_what_the_build_computed(shipped, site_dir):
    """The files beside the built page are the answers (a site built from these sources)."""
    folder = site_dir / TRANSFORMER.path
    if not (folder / "prova-1.json").exists():
        pytest.skip("il sito è stato costruito prima degli esperimenti pronti: ricostruiscilo")
    for answer in shipped:
        for name, data in answer.files().items():
            assert (folder / name).read_bytes() == data, name
    page = (folder / "index.html").read_text(encoding="utf-8")
    for answer in shipped:
        assert f'data-answer="{answer.name}"' in page and f'data-checkpoint="{answer.checkpoint}"' in page
    listed = {url for url, _, _ in offline_files(site_dir)}
    assert {f"{TRANSFORMER.path}{name}" for a in shipped for name in a.files()} <= listed  # kept offline too


def test_a_seeded_machine_goes_on_as_if_it_had_got_there_itself():
    experiment_params = BIGRAM.parse({"passo": "40", "batch": "2", "seme": "1"})
    made = replay(BIGRAM.module.compute, experiment_params)
    name = BIGRAM.module.compute.training(experiment_params)
    data = ship({"name": name, "machine": made}, f"{BIGRAM.id}:{name}")
    machine = fresh(BIGRAM)
    steps = []
    advance = machine.advance
    machine.advance = lambda m, p: steps.append(1) or advance(m, p)
    assert machine.seed(experiment_params, unship(data)["machine"])
    assert not machine.seed(experiment_params, unship(data)["machine"])  # it reaches that step already
    assert machine(experiment_params) == BIGRAM.module.compute.replay(experiment_params)
    assert steps == []  # drawn from the checkpoint, no step replayed
    after = experiment_params | {"passo": 41}
    assert machine(after) == BIGRAM.module.compute.replay(after)
    assert steps == [1]  # «Avanti»: one step


def test_a_seeded_machine_steps_back_one_without_replaying(monkeypatch):
    """«Indietro» from a shipped step (3.2 at 1,000 → 999) replayed from step 0, half a minute: the checkpoint
    holds the machine a step before too, and one step back costs no step."""
    params = BIGRAM.parse({"passo": "40", "batch": "2", "seme": "1"})
    before, made = replay_pair(BIGRAM.module.compute, params)
    name = BIGRAM.module.compute.training(params)
    data = ship(shipped_machines(name, made, before), f"{BIGRAM.id}:{name}")
    machine = fresh(BIGRAM)
    steps = []
    advance = machine.advance
    machine.advance = lambda m, p: steps.append(1) or advance(m, p)
    monkeypatch.setattr(BIGRAM.module, "compute", machine)
    back = params | {"passo": 39}
    expected = {s: fresh(BIGRAM).replay(p) for s, p in ((40, params), (39, back))}  # before counting
    assert seed_checkpoint(BIGRAM.id, json.dumps({"passo": "40", "batch": "2", "seme": "1"}), data)
    steps.clear()
    assert machine(params) == expected[40]
    assert machine(back) == expected[39]
    assert steps == []  # «Indietro»: from the machine shipped a step before
    assert machine(params) == expected[40] and steps == []  # and «Avanti» again: the machine left


def test_seed_takes_only_the_machine_of_these_parameters(monkeypatch):
    params = BIGRAM.parse({"passo": "12", "seme": "2"})
    machine = BIGRAM.module.compute
    name = machine.training(params)
    data = ship({"name": name, "machine": replay(machine, params)}, f"{BIGRAM.id}:{name}")
    monkeypatch.setattr(BIGRAM.module, "compute", fresh(BIGRAM))
    assert not seed_checkpoint(BIGRAM.id, json.dumps({"passo": "12", "seme": "3"}), data)  # another training
    assert not seed_checkpoint(BIGRAM.id, json.dumps({"passo": "13", "seme": "2"}), data)  # another step
    assert seed_checkpoint(BIGRAM.id, json.dumps({"passo": "12", "seme": "2"}), data)
    assert not seed_checkpoint(BIGRAM.id, json.dumps({"passo": "12", "seme": "2"}), data)


def test_a_shipped_machine_names_only_the_sites_own_classes():
    class Evil:
        def __reduce__(self):
            import os

            return (os.system, ("true",))

    with pytest.raises(pickle.UnpicklingError):
        unship(pickle.dumps({"name": "x", "machine": Evil()}, protocol=5))


def test_a_shipped_memo_is_named_apart_from_this_process_memos():
    mine = Memo()
    mine.get("k", lambda: "mio")
    back = unship(ship({"memo": mine}, "lab:abc"))["memo"]
    assert back is not mine and back.name == "lab:abc" and back.get("k", lambda: "nuovo") == "nuovo"
    assert unship(ship({"memo": Memo()}, "lab:abc"))["memo"] is back  # the same training finds the same one


def test_the_buttons_name_their_answer_and_checkpoint():
    experiments = TRANSFORMER.experiments
    prose = prose_with_experiments(TRANSFORMER.prose, TRANSFORMER.id, experiments, {1: ("prova-2.json", "prova-k.bin")})
    assert prose.count("data-answer=") == 1 and 'data-answer="prova-2.json" data-checkpoint="prova-k.bin"' in prose
    assert prose_with_experiments(TRANSFORMER.prose, TRANSFORMER.id, experiments) == TRANSFORMER.page_prose


def test_only_experiments_that_train_ship_an_answer():
    assert answers(labs.get("learning-rate")) == []  # not stepped: one compute
    assert [a.index for a in answers(labs.get("embedding-vicini"))] == [0, 1]  # 60 steps each


def test_write_answers_puts_the_files_beside_the_page(tmp_path, shipped):
    (tmp_path / TRANSFORMER.path).mkdir(parents=True)
    count, size = write_answers({TRANSFORMER.id: (shipped[:1], None)}, site=tmp_path)
    files = shipped[0].files()
    assert count == len(files) and size == sum(map(len, files.values()))
    assert answer_names({TRANSFORMER.id: (shipped[:1], None)}) == {
        TRANSFORMER.id: {shipped[0].index: (shipped[0].name, shipped[0].checkpoint)}
    }
    listed = {url for url, _, _ in offline_files(tmp_path)}
    assert {f"{TRANSFORMER.path}{name}" for name in files} <= listed


def test_the_answers_are_computed_again_when_a_helper_module_of_the_lab_changes(monkeypatch):
    """The cache's name covers every file of labs/ the lab imports (3.2's rules live in a helper module)."""
    from pathlib import Path

    from sitebuild import answers as cache

    lab = labs.get("transformer-allenato")
    files = {p.name for p in cache.imported_files(Path(lab.module.__file__).resolve(), lab.module.__name__)}
    assert {"_allenato_regole.py", "_allenato_viste.py", "_allenato_prove.py", "transformer_allenato.py"} <= files
    before = cache.sources_hash(lab)
    read = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda p: read(p) + (b"#" if p.name == "_allenato_regole.py" else b""))
    assert cache.sources_hash(lab) != before
