"""Long experiments answered at once: what the build ships beside a lab's page for a costly «Prova».

An experiment is costly when it trains: a stepped lab's experiment at a step past 0, which the browser
would reach by replaying every step before it (3.2 at the end of its training: 1,000 steps, about half a
minute, in the browser as in CPython). The rule is the step, not a timing, so that the same sources build
the same site; a short training ships a small answer. For each, the build ships two files beside the page,
fetched only when the reader clicks:

- prova-<n>.json, the answer: the lab drawn at the experiment's settings, every other control at its
  default and no fold open (labs.render, the page's own path), with those parameters as the page
  writes them (raw), and the name of its checkpoint;
- prova-<key>.bin, a stepped lab's checkpoint: its machine at the experiment's step and the one a step
  before (kit.stepping.ship), one file for every experiment of the same training at the same step.

The page morphs the answer in at once when its controls, after the click, are the answer's; the
worker takes the checkpoint (labs.worker_api.seed_checkpoint) and draws from it: the live machine is then
at that step, «Avanti» costs one step and «Indietro» none (the machine a step before joins its trail). The answer is the drawing a replay gives (tests/test_answers.py).

A shared link, a jump or a drag on the timeline asks for any step, not an experiment's: for those the build
ships every stepped lab's default run too (Checkpoints), its machine every `every` steps in a folder
passi-<hash of the files>/<step>.bin, fetched only when asked. The page asks for a step at the default
training with the checkpoint at the multiple of `every` at or below it, so the worker replays `every` - 1
steps at most (labs.worker_api.seed_checkpoint, the same file format and path as a «Prova»'s). The interval
is chosen by the files and their bytes, the same for every lab and no timing (the same sources build the
same site): the densest that ships at most LINK_FILES files and LINK_BYTES bytes a lab, that is
every = ceil(steps / LINK_FILES), doubled while the files weigh more than LINK_BYTES. LINK_FILES is set by
the slowest step, 3.2's: 10–13 ms in CPython, 27–38 ms in Chromium (≤ 4×: 42 ms is the safe figure, more on
a phone). A link's budget is 1 s from «pronto» to the drawn step; fetching, seeding and drawing take up to
half of it (0.25–0.45 s measured under load), so the replay gets the other half: 12 steps. 1,000 steps in
100 files, one every 10: a replay of 9 steps at most, ≈ 0.4 s. Its files weigh about 18 MB on the host;
the page fetches one (about 180 kB) for a link and none before (the service worker does not keep them
either: sitebuild.offline). A lab whose
steps cost less than a fetch gets its files too; the worker fetches one only when the steps it saves cost
more than the fetch (kit.stepping.StepMachine.worth_seeding).
This module is the build's (sitebuild/answers.py): the browser's wheels leave it out.
"""

import hashlib
import json
import math
import time
from dataclasses import dataclass

from .drawing import draw
from .kit.experiments import raw_settings
from .kit.experiments import raw_value
from .kit.folds import FOLDS_PARAM
from .kit.stepping import StepMachine
from .kit.stepping import ship


@dataclass
class Answer:
    """A costly experiment's answer: file names and contents, and what it cost to compute."""

    index: int  # the experiment's place in the lab's EXPERIMENTS
    name: str  # prova-<n>.json
    answer: dict  # {"raw", "result", "checkpoint"}
    checkpoint: str | None = None  # prova-<key>.bin
    machine: bytes | None = None
    seconds: float = 0.0  # the replay's, in CPython: what the browser would spend, give or take (bench's report)

    def files(self):
        """{file name: bytes} to write beside the page."""
        files = {self.name: json.dumps(self.answer, ensure_ascii=False, separators=(",", ":")).encode()}
        if self.checkpoint:
            files[self.checkpoint] = self.machine
        return files


def settings_params(lab, experiment):
    """The parameters an experiment draws: its settings, every other control at its default, no fold open."""
    return lab.parse(raw_settings(experiment))


def page_raw(lab, params):
    """Parameters as the page's controls hold them (lab.params() in controller.js): strings, a toggle as
    1 or 0, the open folds as «a,b»."""
    raw = {name: raw_value(value) for name, value in params.items() if name != FOLDS_PARAM}
    if lab.folds:
        raw[FOLDS_PARAM] = ",".join(params.get(FOLDS_PARAM, ()))
    return raw


def machine_of(lab):
    """The lab's StepMachine, or None for a lab that is not stepped that way."""
    compute = getattr(lab.module, "compute", None)
    return compute if isinstance(compute, StepMachine) else None


def replay(machine, params):
    """The machine at params[step], from step 0 with no cache."""
    return replay_pair(machine, params)[1]


def replay_pair(machine, params):
    """(the machine a step before params[step], or None at step 0; the machine at params[step]), from step 0
    with no cache."""
    return replay_steps(machine, params, [params[machine.step]])[params[machine.step]][:2]


def replay_steps(machine, params, steps):
    """{s: (the machine a step before s or None, the machine at s, seconds from step 0)} for each s of steps:
    one replay from step 0 with no cache, to the last of them (params' own step is not read)."""
    out, before, m, at = {}, None, machine.start(params), 0
    started = time.perf_counter()
    for s in sorted(set(steps)):
        while at < s:
            before, m, at = m, machine.advance(m, params), at + 1
        out[s] = (before if s else None, m, time.perf_counter() - started)
    return out


def answers(lab):
    """[Answer] of the lab's costly experiments (see the module docstring), in their declared order."""
    return shipment(lab)[0]


def shipment(lab):
    """([Answer] of the lab's costly experiments, Checkpoints of its default run or None): each training
    replayed once, to the last step anything asks of it (3.2's default training to 1,000 steps gives four
    experiments' checkpoints and the links' ones).

    Each experiment's machine is seeded into the lab's cache (kit.stepping.seed), which the drawing then
    reads: the same path the browser's worker takes with the shipped checkpoint."""
    machine = machine_of(lab)
    if machine is None or lab.steps is None or not lab.steps.max:
        return [], None
    runs = {}  # training key → (parameters, steps wanted)
    experiments = [(index, settings_params(lab, e)) for index, e in enumerate(lab.experiments)]
    experiments = [(index, params) for index, params in experiments if params[machine.step]]
    for _, params in experiments:
        runs.setdefault(machine.key(params), (params, set()))[1].add(params[machine.step])
    defaults = lab.defaults() | {machine.step: lab.steps.max}
    every = math.ceil(lab.steps.max / LINK_FILES)
    link_steps = range(every, lab.steps.max + 1, every)
    runs.setdefault(machine.key(defaults), (defaults, set()))[1].update(link_steps)
    replayed = {key: replay_steps(machine, params, steps) for key, (params, steps) in runs.items()}
    out = []
    for index, params in experiments:
        before, m, seconds = replayed[machine.key(params)][params[machine.step]]
        name = machine.training(params)
        machine.seed(params, m, before)
        blob = ship(shipped_machines(name, m, before), f"{lab.id}:{name}")
        drawing = draw(lab, page_raw(lab, params))
        if not drawing.ok:
            raise ValueError(f"{lab.id}: l'esperimento {index + 1} non si disegna: {drawing.error}")
        answer = {"raw": page_raw(lab, params), "result": drawing.page(), "checkpoint": f"prova-{name}.bin"}
        out.append(Answer(index, f"prova-{index + 1}.json", answer, f"prova-{name}.bin", blob, seconds))
    default_run = replayed[machine.key(defaults)]
    files = {s: ship_step(lab, machine, defaults, s, default_run[s][1]) for s in link_steps}
    return out, Checkpoints.thinned(every, files, training_names(lab, machine), default_run[max(link_steps)][2])


# a lab's default run ships a checkpoint every ceil(steps / LINK_FILES) steps, at most LINK_BYTES in all
# (the rule and its reasons: the module docstring)
LINK_FILES = 100
LINK_BYTES = 20_000_000


def ship_step(lab, machine, params, step, m):
    """A checkpoint of a training at a step, as a link's file holds it: its name (for that step), the step, the
    machine; its Memo named after the training at step 0, shared by every file of the run (a Memo belongs to
    a training, whatever step its machines are at)."""
    run = machine.training(params | {machine.step: 0})
    return ship(
        {"name": machine.training(params | {machine.step: step}), "step": step, "machine": m}, f"{lab.id}:{run}"
    )


def training_names(lab, machine):
    """The parameters a training depends on (every one but the step and those only present() reads): the page
    asks for a checkpoint of the default run while these are at their defaults."""
    return [c.name for c in lab.params_list if c.name != machine.step and c.name not in machine.view_only]


@dataclass
class Checkpoints:
    """A stepped lab's default run as the build ships it: {step: file} every `every` steps."""

    every: int
    files: dict  # {step: bytes}
    training: list  # the parameters that must be at their defaults (training_names)
    seconds: float = 0.0  # the replay to the last of them, in CPython (bench's report)

    @classmethod
    def thinned(cls, every, files, training, seconds):
        """Every other file left out, the interval doubled, while they weigh more than LINK_BYTES."""
        while len(files) > 1 and sum(map(len, files.values())) > LINK_BYTES:
            every *= 2
            files = {s: data for s, data in files.items() if s % every == 0}
        return cls(every, files, training, seconds)

    @property
    def folder(self):
        """passi-<hash>/: named by its files' content, so that a new build's never meets an old one's."""
        digest = hashlib.sha256()
        for step, data in sorted(self.files.items()):
            digest.update(f"{step}\0".encode() + hashlib.sha256(data).digest())
        return f"passi-{digest.hexdigest()[:12]}/"

    def manifest(self):
        """What the page needs to ask for them (its data-checkpoints): the folder, the interval, the last step
        with a file, the parameters that must be at their defaults."""
        return {"url": self.folder, "every": self.every, "last": max(self.files), "training": self.training}

    def named_files(self):
        """{path beside the page: bytes}."""
        return {f"{self.folder}{step}.bin": data for step, data in self.files.items()}


def shipped_machines(name, machine, before):
    """What a prova-<key>.bin holds: the training's name, its machine at the step and the one a step before."""
    return {"name": name, "machine": machine, "before": before}


__all__ = [
    "LINK_BYTES",
    "LINK_FILES",
    "Answer",
    "Checkpoints",
    "answers",
    "machine_of",
    "page_raw",
    "replay",
    "replay_pair",
    "replay_steps",
    "settings_params",
    "ship_step",
    "shipment",
    "shipped_machines",
    "training_names",
]
