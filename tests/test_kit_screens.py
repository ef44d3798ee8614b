"""labs.kit.phase_screen: one function per phase, called once per state."""

from labs.kit import phase_screen


def test_a_phase_s_screen_is_made_once_per_state_and_again_for_another_state():
    calls = []

    def first(s):
        calls.append(("first", s["x"]))
        return {"changed": f"x = {s['x']}"}

    def second(s):
        calls.append(("second", s["x"]))
        return {"changed": f"2x = {2 * s['x']}"}

    screens = (first, second)
    state = {"x": 3}
    seen = phase_screen(screens, state, 0)
    assert phase_screen(screens, state, 0) is seen and seen == {"changed": "x = 3"}
    assert calls == [("first", 3)]
    assert phase_screen(screens, state, 1) == {"changed": "2x = 6"}
    other = {"x": 3}  # equal, but another state: made for it
    assert phase_screen(screens, other, 0) == seen and phase_screen(screens, other, 0) is not seen
    assert calls == [("first", 3), ("second", 3), ("first", 3)]
