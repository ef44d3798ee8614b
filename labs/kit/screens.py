"""Phased screens: a lab that shows one operation at a time (a token's trip through a block, a training step
told in eight screens) writes one function per phase, each drawing that phase from the state; the kit calls the
phase's function once per state, so that view() and summary() read the same screen without the lab keeping it."""

from .memory import Memory

MADE = Memory(8)  # the screens made last, by (phases, state, phase); each kept with its state


def phase_screen(screens, state, phase):
    """screens[phase](state), made once for this state: the same object to view() and to summary().

    screens is the lab's tuple of functions, one per phase; phase its index. What a function returns is the
    lab's own (a list of Html parts, a dict with the figure and a sentence …)."""
    key = (id(screens), id(state), phase)
    made = MADE.get(key, lambda: (state, screens[phase](state)))
    if made[0] is not state:  # a state at the address of one forgotten: its own screen
        made = MADE.items[key] = (state, screens[phase](state))
    return made[1]


__all__ = ["phase_screen"]
