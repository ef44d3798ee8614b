"""A shared link to any step (labs/answers.py: Checkpoints): the build ships every stepped lab's default run
every `every` steps, each file is the machine a replay from step 0 reaches there to the last bit, and the
browser's path (labs.worker_api) seeds the nearest one at or below the step asked and replays the rest."""

import html
import json
import math
import re

import pytest

import labs
from labs.answers import (
    LINK_BYTES,
    LINK_FILES,
    Checkpoints,
    machine_of,
    replay,
    settings_params,
    shipment,
    training_names,
)
from labs.kit.stepping import ship, unship
from labs.worker_api import seed_checkpoint, wants_checkpoint
from sitebuild.answers import lab_shipment, link_manifests, write_answers
from sitebuild.offline import offline_files

STEPPED = [lab for lab in labs.all_labs() if machine_of(lab) is not None]
BIGRAM = labs.get("bigrammi")  # cheap steps: the seeding tests run on it


def fresh(lab):
    """The lab's StepMachine with an empty cache, counting its steps in .steps."""
    machine = lab.module.compute
    made = machine.with_functions(
        machine.start, lambda m, p: made.steps.append(1) or machine.advance(m, p), machine.present
    )
    made.steps = []
    made.step_seconds = None
    return made


def at_default(lab, step):
    return lab.defaults() | {lab.steps.name: step}


def same_machine(lab, a, b):
    """Two machines equal to the last bit: the same bytes once shipped under one memo name."""
    return ship(a, f"{lab.id}:x") == ship(b, f"{lab.id}:x")


def test_every_stepped_lab_is_covered():
    assert {lab.id for lab in STEPPED} >= {"transformer-allenato", "bigrammi", "bpe", "giro-del-token"}


@pytest.mark.parametrize("lab", STEPPED, ids=lambda lab: lab.id)
def test_the_default_run_ships_a_file_every_k_steps_each_the_machine_a_replay_reaches(lab):
    """The interval is the rule's (module docstring), and the first two files are the machines a replay from
    step 0 gives (3.2: 40 steps of its 1,000; the rest are the same replay, further on)."""
    links = lab_shipment(lab)[1]
    steps = lab.steps.max
    assert links.every >= math.ceil(steps / LINK_FILES) and links.every % math.ceil(steps / LINK_FILES) == 0
    assert sorted(links.files) == list(range(links.every, steps + 1, links.every))
    assert len(links.files) <= LINK_FILES and sum(map(len, links.files.values())) <= LINK_BYTES
    machine = lab.module.compute
    for step in sorted(links.files)[:2]:
        params = at_default(lab, step)
        shipped = unship(links.files[step])
        assert shipped["step"] == step and shipped["name"] == machine.training(params)
        assert same_machine(lab, shipped["machine"], replay(machine, params)), step
    assert links.training == training_names(lab, machine)
    assert lab.steps.name not in links.training and "sezioni" not in links.training


def test_a_link_seeds_the_checkpoint_below_its_step_and_replays_only_the_rest(monkeypatch):
    links = lab_shipment(BIGRAM)[1]
    below = 2 * links.every
    view = {"passo": str(below + 3)}
    expected = BIGRAM.module.compute.replay(at_default(BIGRAM, below + 3))
    machine = fresh(BIGRAM)
    monkeypatch.setattr(BIGRAM.module, "compute", machine)
    assert wants_checkpoint(BIGRAM.id, json.dumps(view), below)  # no step timed yet: fetched
    assert seed_checkpoint(BIGRAM.id, json.dumps(view), links.files[below])
    assert machine(at_default(BIGRAM, below + 3)) == expected
    assert len(machine.steps) == 3  # from the checkpoint, not from step 0
    # the machine is there now: the same file, or an earlier one, saves nothing
    assert not wants_checkpoint(BIGRAM.id, json.dumps(view), below)
    assert not seed_checkpoint(BIGRAM.id, json.dumps(view), links.files[below])
    assert not seed_checkpoint(BIGRAM.id, json.dumps(view), links.files[links.every])


def test_a_checkpoint_past_the_step_or_of_another_training_is_refused(monkeypatch):
    links = lab_shipment(BIGRAM)[1]
    monkeypatch.setattr(BIGRAM.module, "compute", fresh(BIGRAM))
    step = links.every
    assert not seed_checkpoint(BIGRAM.id, json.dumps({"passo": str(step - 1)}), links.files[step])  # past it
    assert not seed_checkpoint(BIGRAM.id, json.dumps({"passo": str(step), "seme": "3"}), links.files[step])
    assert not wants_checkpoint(BIGRAM.id, json.dumps({"passo": str(step - 1)}), step)
    assert seed_checkpoint(BIGRAM.id, json.dumps({"passo": str(step)}), links.files[step])


def test_a_checkpoint_is_fetched_only_when_the_steps_it_saves_cost_more_than_the_fetch(monkeypatch):
    machine = fresh(BIGRAM)
    monkeypatch.setattr(BIGRAM.module, "compute", machine)
    machine(at_default(BIGRAM, 10))  # times its steps
    assert machine.step_seconds is not None
    view = json.dumps({"passo": "300"})
    machine.step_seconds = 1e-6  # a cheap lab: replaying 300 steps costs less than a fetch
    assert not wants_checkpoint(BIGRAM.id, view, 290)
    machine.step_seconds = 0.03  # 3.2's step in the browser: 280 steps saved are worth it
    assert wants_checkpoint(BIGRAM.id, view, 290)
    assert not wants_checkpoint(BIGRAM.id, json.dumps({"passo": "12"}), 11)  # one step saved (from 10): not


def test_each_training_is_replayed_once_for_its_answers_and_its_links(monkeypatch):
    """bigrammi: its default run (to 502, the links' last step) and the experiments' other trainings, each
    once to the last step anything asks of it."""
    machine = fresh(BIGRAM)
    monkeypatch.setattr(BIGRAM.module, "compute", machine)
    found, links = shipment(BIGRAM)
    runs = {}
    for experiment in BIGRAM.experiments:
        params = settings_params(BIGRAM, experiment)
        if params["passo"]:
            runs[machine.key(params)] = max(runs.get(machine.key(params), 0), params["passo"])
    default = machine.key(BIGRAM.defaults())
    runs[default] = max(runs.get(default, 0), max(links.files))
    assert len(machine.steps) == sum(runs.values())
    assert found and links


def test_thinning_keeps_every_other_file_until_they_fit(monkeypatch):
    files = {s: bytes(400) for s in range(2, 21, 2)}
    monkeypatch.setattr("labs.answers.LINK_BYTES", 1500)
    thinned = Checkpoints.thinned(2, files, ["seme"], 0.0)
    assert thinned.every == 8 and sorted(thinned.files) == [8, 16]
    assert thinned.manifest() == {"url": thinned.folder, "every": 8, "last": 16, "training": ["seme"]}
    assert thinned.folder != Checkpoints.thinned(2, files | {8: bytes(401)}, ["seme"], 0.0).folder  # by content


def test_the_files_go_in_a_folder_beside_the_page_and_not_offline(tmp_path):
    links = lab_shipment(BIGRAM)[1]
    (tmp_path / BIGRAM.path).mkdir(parents=True)
    count, size = write_answers({BIGRAM.id: ([], links)}, site=tmp_path)
    assert count == len(links.files) and size == sum(map(len, links.files.values()))
    for name, data in links.named_files().items():
        assert (tmp_path / BIGRAM.path / name).read_bytes() == data
    assert link_manifests({BIGRAM.id: ([], links)}) == {BIGRAM.id: links.manifest()}
    assert not [url for url, _, _ in offline_files(tmp_path) if "/passi-" in url]  # fetched on demand only


def test_each_stepped_page_names_its_checkpoints(site_dir):
    """The page's data-checkpoints (what the controller reads) names files the site holds."""
    for lab in STEPPED:
        page = (site_dir / lab.path / "index.html").read_text(encoding="utf-8")
        links = lab_shipment(lab)[1]
        named = re.search(r'<div class="lab" [^>]*data-checkpoints="([^"]+)"', page)
        assert named and json.loads(html.unescape(named.group(1))) == links.manifest(), lab.id
        for name, data in links.named_files().items():
            assert (site_dir / lab.path / name).read_bytes() == data, name
