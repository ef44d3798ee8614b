"""Stepped labs as step machines: one step costs one step.

A stepped lab describes its training with three pure functions

    start(params)            → the machine at step 0 (any Python value)
    advance(machine, params) → the machine one step later
    present(machine, params) → the JSON state the view draws

and declares `compute = step_machine(start, advance, present)`. Calling
compute(params) gives the state at params[step]: exactly what replaying
from step 0 would give, because it is the same replay — but the machine
remembers where it stopped and keeps checkpoints, so «Avanti» advances the
live machine by one step, and «Indietro» or a jump restarts from the
nearest checkpoint before the target. Changing any other parameter starts a
new machine (the key is every parameter but the step).

Going back is made cheap too: the machines of the last interval before the
target (whether the cache got there going forward or replaying)
and the live machine the reader leaves are kept in a short trail (at most
one checkpoint interval of them), so «Indietro» costs nothing until the
trail is used up, and then one replay of at most one interval refills it.

`advance` returns the machine one step later and never changes the one it
gets: the cache keeps machines as they are, sharing them between the live
machine, the checkpoints and the trail, and never copies one. A machine is
plain data (numbers, strings, tuples, lists, dicts, dataclasses): a step
makes new lists and tables where it changes them (`[*m.losses, loss]`,
`dataclasses.replace(m, W=new_W)`) and shares the rest with the machine it
got. tests/test_stepping.py holds every stepped lab to this rule (a
machine pickles to the same bytes after advance has read it).

What a training computes from its machines and wants to keep (texts it
generated, a tokenizer's merges learned so far) goes in a Memo, made by
start() and carried by the machine: every machine of that training shares
it, whatever step it is at, and a packed checkpoint leaves it out and finds
it again when it is unpacked. A Memo is a cache: the same answers come
from an empty one.

A machine can also come from elsewhere: the build replays a long experiment's training once and ships the
machine beside the page (ship / unship, labs/answers.py), and seed() makes it the live machine of its setting,
so the browser draws that step without replaying the ones before it.

A lab whose machine is big and whose step is slow (a transformer's training:
half a megabyte of weights and Adam moments, a costly step in the browser) says packed=True:
its checkpoints are kept pickled, about a third of the memory, and bounded by
PACKED_BYTES rather than by their number, so they stand closer together and a
jump replays fewer of its slow steps. The bound is for every setting together,
and the setting in use comes first: to make room, the settings left earlier
(oldest first) keep every other checkpoint, down to MAX_CHECKPOINTS each,
before the one in use thins out. packed is the one option a stepped lab
has about its memory. A machine that cannot be pickled (a lab edited in the
page defines its classes anew) is kept as it is instead.
"""

import copy
import json
import math
import time
import weakref
from collections import OrderedDict
from itertools import count

from .folds import FOLDS_PARAM
from .memory import Memory

ENDED = "ended"  # a state's key: where the machine stopped before the last step (see ended)

MACHINES_KEPT = 3  # parameter settings whose checkpoints stay in memory
MAX_CHECKPOINTS = 40  # per setting: the interval grows with the number of steps
# packed checkpoints of every setting together: the interval grows with their bytes. 3.2 at its defaults (1,000
# steps, 150–190 kB a checkpoint): one every 2 steps, 94 MB; a jump replays 1 training step at most (at 48 MB
# a setting, every 4: 3)
PACKED_BYTES = 96 * 1024 * 1024
BYTES_PER_GIB = 24 * 1024 * 1024  # on a device with less memory, the bound shrinks with it (see fit_memory)
UNKNOWN_GIB = 2  # a device that does not say its memory (Firefox, Safari) is taken for a small phone
# a replay longer than REPORT_AFTER seconds tells how far it got, every REPORT_EVERY seconds (see on_progress)
REPORT_AFTER, REPORT_EVERY = 0.3, 0.2
PROGRESS = None  # the function on_progress was given
UNWANTED = None  # the function on_unwanted was given


def on_progress(report):
    """report(at, target) is called while a replay takes long: the browser's worker uses it to show how far
    a retraining has got (3.2 at step 300 with another learning rate: 300 training steps, ~10 s)."""
    global PROGRESS
    PROGRESS = report


def on_unwanted(unwanted):
    """unwanted() is asked after every step of a replay but its last: True when nobody waits for its end any
    more (in the browser: the reader moved a control again meanwhile). The replay then stops there, keeping
    the steps it made (the machine is left at the last one), and raises Unwanted."""
    global UNWANTED
    UNWANTED = unwanted


def fit_memory(gib=None):
    """Bounds the packed checkpoints by the device's memory: BYTES_PER_GIB for each of its GiB, never more
    than PACKED_BYTES. The browser's worker gives navigator.deviceMemory (0.25 to 8): a phone with 2 GiB
    keeps 48 MB of 3.2's checkpoints (one every 4 steps: a jump replays 3 training steps at most), one with
    1 GiB 24 MB. Only Chromium has it: None (unknown) counts as UNKNOWN_GIB. Returns the bound in bytes."""
    global PACKED_BYTES
    if gib is None:
        gib = UNKNOWN_GIB
    PACKED_BYTES = min(PACKED_BYTES, int(gib * BYTES_PER_GIB))
    return PACKED_BYTES


class Unwanted(BaseException):
    """A replay stopped because its answer is no longer wanted. A BaseException, like KeyboardInterrupt:
    no lab's `except Exception` turns it into an error shown to the reader."""


class Packed(bytes):
    """A checkpoint kept pickled (step_machine(..., packed=True))."""


class StepMachine:
    """compute() for a stepped lab, with its checkpoint cache."""

    def __init__(self, start, advance, present, step="passo", view_only=(), packed=False):
        self.start, self.advance, self.present, self.step = start, advance, present, step
        self.packed = packed
        # parameters that only present() reads: changing them keeps the machine (the open folds always are)
        self.view_only = set(view_only) | {FOLDS_PARAM}
        self.cache = OrderedDict()  # key → {"every", "checkpoints": {step: machine}, "live": (step, machine)}

    def __call__(self, params):
        return self.present(self.machine_at(params), params)

    def with_functions(self, start, advance, present):
        """The same machine, every option kept, over other start/advance/present (the code panel's
        edited ones), with an empty cache: none of its checkpoints came from these functions."""
        fresh = copy.copy(self)
        fresh.start, fresh.advance, fresh.present = start, advance, present
        fresh.cache = OrderedDict()
        return fresh

    def replay(self, params):
        """The state at params[step] recomputed from step 0, with no cache (the reference)."""
        machine = self.start(params)
        for _ in range(params[self.step]):
            machine = self.advance(machine, params)
        return self.present(machine, params)

    def key(self, params):
        return json.dumps(
            {k: v for k, v in params.items() if k != self.step and k not in self.view_only}, sort_keys=True, default=str
        )

    def entry(self, params, target):
        key = self.key(params)
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        machine = self.start(params)
        entry = {"every": 1, "checkpoints": {0: self.keep(machine)}, "trail": {}, "live": (0, machine)}
        self.cache[key] = entry
        while len(self.cache) > MACHINES_KEPT:
            self.cache.popitem(last=False)
        return entry

    def machine_at(self, params):
        """The machine at step params[step], advancing the live one or the nearest kept one."""
        target = params[self.step]
        entry = self.entry(params, target)
        at, machine = entry["live"]
        kept = {**entry["checkpoints"], **entry["trail"]}
        nearest = max(s for s in kept if s <= target)
        replaying = at > target or nearest > at
        if replaying:
            if nearest < target:  # steps to recompute: their machines become the trail
                entry["trail"] = {}
            entry["trail"].setdefault(at, machine)  # the machine the reader leaves
            at, machine = nearest, self.restore(kept[nearest])
            if isinstance(kept[nearest], Packed):  # unpickled once: the trail keeps it for the way back
                entry["trail"][at] = machine
        started = shown = time.monotonic()
        while at < target:
            machine = self.advance(machine, params)
            at += 1
            if PROGRESS and (now := time.monotonic()) - shown > REPORT_EVERY and now - started > REPORT_AFTER:
                PROGRESS(at, target)
                shown = now
            self.remember(entry, at, machine)
            kept_as_is = at in entry["checkpoints"] and not isinstance(entry["checkpoints"][at], Packed)
            if target - at < entry["every"] and not kept_as_is:  # near the target (a packed one unpickles)
                entry["trail"][at] = machine
            if UNWANTED and at < target and UNWANTED():
                entry["live"] = (at, machine)  # a whole step: the next call goes on from here
                self.trim(entry, at)
                raise Unwanted(f"{self.step} {at} di {target}")
        entry["live"] = (at, machine)
        self.trim(entry, target)
        return machine

    @staticmethod
    def trim(entry, target):
        """The trail keeps one checkpoint interval of machines at most (two at least: the target and a
        neighbour, for a reader going back and forth), those nearest to the target."""
        trail = entry["trail"]
        for s in sorted(trail, key=lambda s: abs(s - target))[max(entry["every"], 2) :]:
            del trail[s]

    def remember(self, entry, at, machine):
        """Keep a checkpoint every `every` steps; when too many, keep every other one and double the interval
        (the packed ones of settings left earlier first, see the module docstring)."""
        if at % entry["every"]:
            return
        checkpoints = entry["checkpoints"]
        if at not in checkpoints:
            checkpoints[at] = self.keep(machine)
        if not isinstance(checkpoints[at], Packed):  # machines as they are: bounded by their number
            while len(checkpoints) > MAX_CHECKPOINTS:
                thin(entry)
            return
        for other in [e for e in self.cache.values() if e is not entry]:  # the oldest first
            while len(other["checkpoints"]) > MAX_CHECKPOINTS and self.packed_bytes() > PACKED_BYTES:
                thin(other)
        while len(checkpoints) > MAX_CHECKPOINTS and self.packed_bytes() > PACKED_BYTES:
            thin(entry)

    def packed_bytes(self):
        """Bytes of the packed checkpoints of every setting."""
        return sum(len(c) for e in self.cache.values() for c in e["checkpoints"].values() if isinstance(c, Packed))

    def keep(self, machine):
        """A checkpoint of the machine: pickled if the lab asked for it and it can be, else the machine itself."""
        if self.packed:
            import _pickle  # the C pickler alone: the pickle module costs Pyodide a fifth of a second

            try:
                return Packed(_pickle.dumps(machine, protocol=5))
            except (_pickle.PicklingError, AttributeError, TypeError):
                self.packed = False  # an edited lab's own classes: machines as they are from now on
        return machine

    def restore(self, kept):
        """A machine to advance, from a checkpoint or from the trail."""
        if isinstance(kept, Packed):
            import _pickle

            return _pickle.loads(kept)
        return kept

    def training(self, params):
        """A name for the training these parameters replay, up to their step: the same for every setting that
        differs only in what present() reads (a shipped checkpoint says whose it is with it)."""
        import hashlib

        return hashlib.sha256(f"{self.key(params)}\n{params[self.step]}".encode()).hexdigest()[:16]

    def seed(self, params, machine, before=None):
        """Takes machine as the one at params[step], made elsewhere (the build replayed it and ships it beside
        the page, see labs.answers), unless this cache reaches that step already: it becomes the live machine
        and a checkpoint, so the next step costs one step. The machine the reader leaves joins the trail, and
        before, the machine a step earlier, too: one step back costs no replay from step 0.
        Returns whether it was taken."""
        target = params[self.step]
        entry = self.entry(params, target)
        at, live = entry["live"]
        if at == target or target in entry["checkpoints"] or target in entry["trail"]:
            return False
        entry["trail"].setdefault(at, live)
        if before is not None and target > 0:
            entry["trail"][target - 1] = before
        entry["checkpoints"][target] = self.keep(machine)
        entry["live"] = (target, machine)
        self.trim(entry, target)
        return True

    def cache_bytes(self):
        """Size of every kept machine, pickled: an honest measure of the cache's memory (of a lab as written:
        an edited lab's machines may not pickle)."""
        import _pickle

        return sum(
            len(m) if isinstance(m, Packed) else len(_pickle.dumps(m))
            for e in self.cache.values()
            for m in [*e["checkpoints"].values(), *e["trail"].values(), e["live"][1]]
        )


def thin(entry):
    """Keep every other checkpoint of a setting: the interval doubles."""
    entry["every"] *= 2
    for s in [s for s in entry["checkpoints"] if s % entry["every"]]:
        del entry["checkpoints"][s]


def step_machine(start, advance, present, step="passo", view_only=(), packed=False):
    """compute(params) for a lab described as start / advance / present (see the module docstring).
    view_only names the parameters that start and advance never read; packed=True keeps the
    checkpoints pickled, closer together (a big machine, a slow step)."""
    return StepMachine(start, advance, present, step, view_only, packed)


MEMOS = weakref.WeakValueDictionary()  # every Memo alive, by name: an unpacked machine finds its own again
MEMO_NAMES = count(1)


class Memo(Memory):
    """The last `kept` values a training computed from its machines, by key (Memory.get): shared by every
    machine of that training, never copied, and left out of a packed checkpoint, which finds it again by
    name when it is unpacked (an empty one if it is gone: a Memo only saves work)."""

    def __init__(self, kept=64, name=None):
        self.kept, self.items = kept, {}  # not in Memory.every: a Memo lives as long as its training
        self.name = next(MEMO_NAMES) if name is None else name
        MEMOS[self.name] = self

    def __reduce__(self):
        return memo_named, (self.name, self.kept)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def memo_named(name, kept):
    """The Memo of that name (an empty one if it is gone): how a packed machine finds its memo again."""
    return MEMOS.get(name) or Memo(kept, name)


# What a shipped machine may name when it is unpickled: the labs' and core's own classes and functions
# (the machine's dataclasses, memo_named), nothing else (no builtins, no os.system).
SHIPPED_MODULES = ("core", "labs")


def ship(machine, memo):
    """A machine as bytes for another Python (the build's, for the browser's): pickled, its Memo named
    `memo` (a str: it never meets the numbers a Memo gets in this process, and the same training
    shipped twice finds the same one)."""
    import _pickle
    import io

    class Shipper(_pickle.Pickler):
        def reducer_override(self, obj):
            return (memo_named, (memo, obj.kept)) if isinstance(obj, Memo) else NotImplemented

    out = io.BytesIO()
    Shipper(out, protocol=5).dump(machine)
    return out.getvalue()


def unship(data):
    """The machine that ship() made (bytes). A class or function outside core/ and labs/ is refused
    (pickle.UnpicklingError): these bytes come from a file beside the page."""
    import _pickle
    import io

    class Unshipper(_pickle.Unpickler):
        def find_class(self, module, name):
            if module.split(".")[0] not in SHIPPED_MODULES:
                raise _pickle.UnpicklingError(f"{module}.{name} non è del sito")
            return super().find_class(module, name)

    return Unshipper(io.BytesIO(data)).load()


def ended(at, word="finito"):
    """What present() adds to a state whose machine has stopped before the last step and will not move
    again (no pair left to merge, weights that would run away): {ENDED: {"at": at, "word": word}}, at
    being the step where it stopped. The timeline then counts to there («Fusione 5 di 5 · finito»), its
    jumps and the scrubber end there, and a step asked past it reads as that one."""
    return {ENDED: {"at": at, "word": word}}


def worst_case_steps(max_steps):
    """How many advance() calls a jump backwards can cost at most, for a lab of max_steps steps."""
    every = 1
    while math.ceil(max_steps / every) + 1 > MAX_CHECKPOINTS:
        every *= 2
    return every - 1
