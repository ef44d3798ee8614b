"""«Prova» in Chromium: a click on an experiment of the prose sets the lab's controls (opening the group
that holds them; every control it does not name goes back to its default), marks the part of the view it points at, and «Ripristina» puts the reader's settings back.
Run on real pages: 2.4 (the learning rate), 1.2 (a control in a closed group) and 9A."""

import pytest
from lab_pages import idle, open_ready, set_range
from playwright.sync_api import expect


def values(page):
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('[data-lab] [data-param]')]"
        ".map(i => [i.name, i.type === 'checkbox' ? (i.checked ? '1' : '0') : i.value]))"
    )


def settings_of(button):
    return dict(pair.split("=", 1) for pair in button.get_attribute("data-set").split(";"))


PAGES = [
    ("capitolo-2/learning-rate/", 5, {"eta": "0.37"}),
    ("capitolo-1/ombrello/", 1, {"nuvole": "0.2"}),
    ("capitolo-9/vettori/", 0, {}),
]


@pytest.mark.parametrize(("path", "which", "mine"), PAGES, ids=[p.split("/")[1] for p, _, _ in PAGES])
def test_prova_sets_marks_and_ripristina_restores(page, site_url, path, which, mine):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    lab = open_ready(page, f"{site_url}{path}")
    for name, value in mine.items():  # the reader's own settings first
        set_range(page, name, value)
    idle(page, lab)
    before = values(page)
    button = page.locator("[data-experiment]").nth(which)
    wanted = settings_of(button)
    look = button.get_attribute("data-look")
    closed = page.locator("[data-lab] details:not([open])").count()
    button.focus()
    page.keyboard.press("Enter")  # keyboard first: a button, so Enter clicks it
    idle(page, lab)
    now = values(page)
    for name, value in wanted.items():
        if name in now:
            assert float(now[name]) == float(value), (name, now[name], value)
    # the controls it does not name at their defaults: the experiment shows the same whatever came before
    defaults = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('[data-lab] [data-param]')]"
        ".map(i => [i.name, i.dataset.default]))"
    )
    for name in set(now) - set(wanted):
        assert float(now[name]) == float(defaults[name]), (name, now[name], defaults[name])
    part = page.locator(f'[data-lab-view] [id="{look}"], [data-lab-view] [data-part="{look}"]').first
    expect(part).to_have_class(__import__("re").compile(r"\blab-looked-at\b"))
    expect(part).to_be_in_viewport()
    for name in wanted:
        control = page.locator(f'[data-lab] [data-param="{name}"]')
        if control.count():
            expect(control).to_be_visible()  # its group, if closed, was opened
    undo = page.locator("[data-experiment-undo]:visible")
    expect(undo).to_have_count(1)
    undo.click()
    idle(page, lab)
    assert values(page) == before
    assert page.locator("[data-lab] details:not([open])").count() == closed
    expect(page.locator(".lab-looked-at")).to_have_count(0)
    expect(button).to_be_focused()
    assert not errors, errors


def test_a_prova_shows_the_same_whatever_came_before(page, site_url):
    """A.5: after «Genera 1.000 token» the first «Prova» puts T back to its default and shows 8.002.000, and
    the third shows 2 GiB for Llama 2 7B's window, not the 2,49 GiB of 5.096 tokens."""
    lab = open_ready(page, f"{site_url}approfondimenti-a/costo-kv-cache/")
    view = page.locator("[data-lab-view]")
    buttons = page.locator("[data-experiment]")
    buttons.nth(1).click()
    idle(page, lab)
    assert values(page)["generati"] == "1000"
    buttons.nth(0).click()
    idle(page, lab)
    assert values(page)["generati"] == "100"
    expect(view).to_contain_text("8.002.000")
    buttons.nth(1).click()
    idle(page, lab)
    buttons.nth(2).click()
    idle(page, lab)
    expect(view).to_contain_text("4.097 token in memoria")
    expect(view).not_to_contain_text("2,49")
