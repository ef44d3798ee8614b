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
This module is the build's (sitebuild/answers.py): the browser's wheels leave it out.
"""

import json
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
    before, m = None, machine.start(params)
    for _ in range(params[machine.step]):
        before, m = m, machine.advance(m, params)
    return before, m


def answers(lab):
    """[Answer] of the lab's costly experiments (see the module docstring), in their declared order.

    The machine is replayed once for each training and step its experiments share, timed, and seeded into
    the lab's cache (kit.stepping.seed), which the drawing then reads: the same path the browser's worker
    takes with the shipped checkpoint."""
    machine = machine_of(lab)
    out, replayed = [], {}
    for index, experiment in enumerate(lab.experiments):
        params = settings_params(lab, experiment)
        if machine is None or not params[machine.step]:
            continue
        name = machine.training(params)
        if name not in replayed:
            started = time.perf_counter()
            before, m = replay_pair(machine, params)
            replayed[name] = (before, m, time.perf_counter() - started)
        before, m, seconds = replayed[name]
        machine.seed(params, m, before)
        checkpoint, blob = f"prova-{name}.bin", ship(shipped_machines(name, m, before), f"{lab.id}:{name}")
        drawing = draw(lab, page_raw(lab, params))
        if not drawing.ok:
            raise ValueError(f"{lab.id}: l'esperimento {index + 1} non si disegna: {drawing.error}")
        answer = {"raw": page_raw(lab, params), "result": drawing.page(), "checkpoint": checkpoint}
        out.append(Answer(index, f"prova-{index + 1}.json", answer, checkpoint, blob, seconds))
    return out


def shipped_machines(name, machine, before):
    """What a prova-<key>.bin holds: the training's name, its machine at the step and the one a step before."""
    return {"name": name, "machine": machine, "before": before}


__all__ = [
    "Answer",
    "answers",
    "machine_of",
    "page_raw",
    "replay",
    "replay_pair",
    "settings_params",
    "shipped_machines",
]
