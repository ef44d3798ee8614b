"""«Prova» in Chromium: a click on an experiment of the prose sets the lab's controls (opening the group
that holds them), marks the part of the view it points at, and «Ripristina» puts the reader's settings back.
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
