"""Every lab page, found like the build finds them: it loads from the built
site, becomes interactive, and its view changes when a control moves."""

import pytest
from lab_pages import go
from playwright.sync_api import expect

import labs

READY_TIMEOUT = 90_000


def first_change(lab):
    """A control and a new value for it, as a reader would set it: one the lab does not hide or disable."""
    follows = lab.follow(lab.compute(lab.defaults()))
    for c in lab.params_list:
        if c.name in follows and (follows[c.name].hidden or follows[c.name].disabled):
            continue
        if c.kind == "steps":
            return c.name, "step"
        if c.kind == "slider":
            return c.name, c.max if c.default != c.max else c.min
        if c.kind == "choice":
            return c.name, next(v for v, _ in c.options if v != c.default)
        if c.kind == "toggle":
            return c.name, "toggle"
        if c.kind == "text":
            return c.name, c.default[::-1] + " testo nuovo"
    pytest.fail(f"{lab.id} non ha controlli")


@pytest.fixture(scope="module")
def shared_page(browser, site_url):
    """One page for every lab: mkdocs-material's instant navigation moves
    between them and the Python worker stays warm, as for a reader."""
    context = browser.new_context()
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(site_url)
    yield page
    context.close()


@pytest.mark.parametrize("lab", labs.all_labs(), ids=lambda lab: lab.id)
def test_lab_page_becomes_interactive_and_reacts(shared_page, site_url, lab):
    page = shared_page
    page.errors.clear()
    go(page, f"{site_url}{lab.path}")
    root = page.locator(f"[data-lab='{lab.id}']")
    view = root.locator("[data-lab-view]")
    expect(root).to_be_attached(timeout=READY_TIMEOUT)
    prerendered = view.inner_html()
    assert prerendered.strip()
    expect(root).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    # Python's arrival changes no number: the first morph rehearsed at «ready» works on a copy
    assert view.inner_html() == prerendered, f"{lab.id}: la vista è cambiata all'arrivo di Python"
    name, value = first_change(lab)
    control = root.locator(f'[data-param="{name}"]')
    if value == "step":
        root.locator('[data-step="+1"]').click()
    elif value == "toggle":
        control.click()
    elif control.evaluate("el => el.tagName") == "SELECT":
        control.select_option(str(value))
    else:
        control.evaluate(
            "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }", str(value)
        )
    page.wait_for_function("el => el.dataset.busy === undefined", arg=root.element_handle())
    expect(root.locator("[data-lab-error]")).to_be_hidden()
    assert view.inner_html() != prerendered, f"{lab.id}: la vista non è cambiata muovendo «{name}»"
    assert page.errors == []
