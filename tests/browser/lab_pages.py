"""What the browser tests do to a page: move by instant navigation, wait for a lab to be ready
or idle, type in the search, set a control as a reader's input does."""

from playwright.sync_api import expect

READY = 90_000


def go(page, url):
    """Instant navigation, as a click on a link of the page does it (once the theme's script runs: on a lab page it
    starts when the lab is «pronto», and a click before is a full load)."""
    page.wait_for_function("() => window.document$ !== undefined")
    page.evaluate(
        "u => { const a = document.createElement('a'); a.href = u; document.body.append(a); a.click(); a.remove(); }",
        url,
    )


def ready(page, lab_id, timeout=READY):
    lab = page.locator(f"[data-lab='{lab_id}']")
    expect(lab).to_have_attribute("data-ready", "true", timeout=timeout)
    return lab


def settle(page):
    page.wait_for_function("() => document.querySelector('[data-lab]')?.dataset.busy === undefined")


def search(page, text):
    """Types text in the site's search. The theme shuts the search 125 ms after
    every navigation (the first load too): one opened sooner is closed under
    the typing, so the test waits that out and checks the search is open."""
    page.wait_for_timeout(300)
    page.locator("input.md-search__input").click()
    expect(page.locator("#__search")).to_be_checked()
    page.keyboard.type(text, delay=30)


def set_value(page, name, value):
    page.locator(f'[data-param="{name}"]').evaluate(
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }", str(value)
    )


def open_ready(page, url):
    """Loads a lab page and waits until its Python is ready: the lab's element."""
    page.goto(url)
    lab = page.locator("[data-lab]")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY)
    return lab


def idle(page, lab):
    page.wait_for_function("el => el.dataset.busy === undefined", arg=lab.element_handle())


def set_range(page, name, value):
    page.locator(f'input[name="{name}"]').evaluate(
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }", str(value)
    )
