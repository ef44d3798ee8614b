"""What the browser's worker calls, by name, from templates/assets/labs/worker.js: JSON in, JSON out,
and the tricks that make a reader's gesture cost no more than drawing.

render_json draws a lab for the page (labs.drawing.render as JSON);
render_ahead draws, while the worker is idle, the view the reader will
probably ask for next, and render_json answers from it; warm_up draws the
page's lab once before the worker says «ready».
"""

import json

from .drawing import render
from .kit.prerendered import knowing
from .kit.stepping import StepMachine
from .kit.stepping import unship
from .registry import get
from .registry import load


def warm_up(module_name, stage="page", known=""):
    """Disegna in anticipo il laboratorio della pagina, perché il primo gesto del lettore costi quanto i successivi.

    stage "page": the lab at its defaults (the worker does it before it says
    «ready»), with `known`, the answers the build shipped with the page
    (labs.kit.prerendered: what the prerendered view already shows is not
    computed again). stage "next": a stepped lab's step after the default too (also
    before «ready»), drawn ahead and read back as the worker reads it: the
    code paths of a step and of render_json have run once, and the view
    «Avanti» asks for first is waiting.
    Returns whether the lab could be drawn; for stage "next", the next
    step's view (the page lays it out once, off screen: the first «Avanti»
    then finds the browser's caches warm), or "" if there is none."""
    lab = load(module_name)
    if stage == "page":
        return knowing(known, lambda: render(lab.id, {}))["ok"]
    steps = lab.steps
    if not steps or steps.default >= steps.max:
        return ""
    raw_json = json.dumps({steps.name: str(steps.default + 1)})
    if not render_ahead(lab.id, raw_json):
        return ""
    return json.loads(render_json(lab.id, raw_json))["html"]  # the reader's path to it, run once


AHEAD = {}  # the one view drawn before the reader asked for it: {(lab id, parameters): render_json()'s answer}


def ahead_key(lab, raw):
    """What identifies a request for render_json: the lab and its parameters once parsed (so "0.8" = 0.8)."""
    return json.dumps([lab.id, lab.parse(raw)], sort_keys=True, default=str)


def render_ahead(lab_id, raw_json):
    """Disegna la vista che il lettore chiederà probabilmente dopo (il passo successivo), mentre guarda questa.

    The worker calls it when it has nothing else to do; render_json() then
    answers that request from here, marked "ahead". render() is a pure
    function of the parameters, so the answer is the one it would compute.
    Returns whether the view could be drawn."""
    lab, raw = get(lab_id), json.loads(raw_json)
    answer = render(lab_id, raw)
    AHEAD.clear()
    AHEAD[ahead_key(lab, raw)] = json.dumps({**answer, "ahead": True})
    return answer["ok"]


def render_json(lab_id, raw_json):
    """render() for the browser worker: JSON in, JSON out (the view drawn ahead, if it is this one)."""
    raw = json.loads(raw_json)
    if AHEAD:
        ahead = AHEAD.get(ahead_key(get(lab_id), raw))
        if ahead:
            return ahead
    return json.dumps(render(lab_id, raw))


def seed_checkpoint(lab_id, raw_json, data):
    """Il checkpoint spedito accanto alla pagina (un «Prova» lungo, un link): la macchina del laboratorio riparte da lì.

    The worker gives the bytes of a file the build shipped (labs/answers.py: a prova-<key>.bin, or a
    passi-<hash>/<step>.bin of the default run; a JavaScript Uint8Array) and the parameters of the view it is
    about to draw (raw, as the page sends them): the lab's machine keeps the shipped one if it is the machine
    of this training at its step (the file's, or the view's for a «Prova»), at or below the view's, and it
    saves steps on the way there (kit.stepping.StepMachine.seed). Returns whether it was kept."""
    lab = get(lab_id)
    machine = getattr(lab.module, "compute", None)
    if not isinstance(machine, StepMachine):
        return False
    params = lab.parse(json.loads(raw_json))
    shipped = unship(data.to_bytes() if hasattr(data, "to_bytes") else bytes(data))
    at = params | {machine.step: shipped.get("step", params[machine.step])}
    if shipped.get("name") != machine.training(at) or at[machine.step] > params[machine.step]:
        return False
    return machine.seed(at, shipped["machine"], shipped.get("before"), toward=params[machine.step])


def wants_checkpoint(lab_id, raw_json, step):
    """Se conviene scaricare il checkpoint al passo step per disegnare questa vista (prima di scaricarlo).

    True when the lab's machine, for the view's parameters (raw, as the page sends them), has no machine
    between step and the view's step and the steps a shipped one would save cost more than fetching it
    (kit.stepping.StepMachine.worth_seeding)."""
    lab = get(lab_id)
    machine = getattr(lab.module, "compute", None)
    if not isinstance(machine, StepMachine):
        return False
    return machine.worth_seeding(lab.parse(json.loads(raw_json)), int(step))


__all__ = ["AHEAD", "render_ahead", "render_json", "seed_checkpoint", "wants_checkpoint", "warm_up"]
