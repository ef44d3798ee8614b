"""A reader moving on a lab's timeline, for the tests that compare the cached steps with a replay."""

from labs.kit.timelines import default_jumps, jump_target, phase_target


def walk(rng, steps, state_at, length):
    """The steps a reader visits: Avanti, Indietro, the phase chips and every named jump (state_at(k) is the
    state at step k, which a jump to «the next …» reads)."""
    at = 0
    for _ in range(length):
        move = rng.random()
        if move < 0.45:
            at = min(steps.max, at + 1)
        elif move < 0.6:
            at = max(0, at - 1)
        elif move < 0.75:
            at = phase_target(steps, at, rng.randrange(len(steps.phases)))
        else:
            target = jump_target(steps, rng.choice(default_jumps(steps)), at, state_at(at))
            at = at if target is None else target
        yield at
