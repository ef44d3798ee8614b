"""A shared link to a step of 3.2 in Chromium (labs/answers.py: Checkpoints): the worker fetches the default
run's checkpoint at or below the step and draws from it, with the numbers CPython gives, without replaying
the training; a drag goes to the checkpoint below its step; off the defaults a replay says how far it has
got and «Ferma qui» stops it at that step, drawn with CPython's numbers."""

import json
import re

import pytest
from lab_pages import READY, idle
from playwright.sync_api import expect

import labs

LAB = labs.get("transformer-allenato")

# Whether the «Calcolo i passi» line (a replay) has shown since the page started.
WATCH_WORKING = """new MutationObserver(() => {
  const line = document.querySelector("[data-lab-working]");
  if (line && !line.hidden) window.__replayed = true;
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["hidden"] });"""


def files(urls):
    """The checkpoint files asked for, in order, each once."""
    return list(dict.fromkeys(url.rsplit("/", 1)[1] for url in urls))


def summary(**raw):
    return labs.render(LAB.id, {k: str(v) for k, v in raw.items()})["summary"]


@pytest.mark.browser
def test_a_link_to_step_300_is_drawn_from_the_shipped_checkpoint(browser, site_url):
    context = browser.new_context()
    context.add_init_script(WATCH_WORKING)
    fetched = []  # the worker's requests (and the service worker's, once it is there, for the same files)
    context.on("request", lambda r: fetched.append(r.url) if "/passi-" in r.url else None)
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{site_url}{LAB.path}?passo=300")
    lab = page.locator("[data-lab]")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY)
    expect(lab.locator("[data-lab-view]")).not_to_have_class(re.compile("is-stale"), timeout=60_000)
    idle(page, lab)
    expect(lab.locator("[data-step-counter]")).to_have_text("Passo 300 di 1.000")
    assert files(fetched) == ["300.bin"]
    assert not page.evaluate("window.__replayed === true")  # drawn from the checkpoint, not 300 steps
    assert lab.locator("[data-lab-live]").text_content() == summary(passo=300)

    # a drag back to 250 and a bit: from the checkpoint below it, a few steps
    every = json.loads(lab.get_attribute("data-checkpoints"))["every"]
    back = 250 + every // 2
    below = f"{back // every * every}.bin"
    lab.locator("input.lab-scrubber").evaluate(
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }", back
    )
    expect(lab.locator("[data-step-counter]")).to_have_text(f"Passo {back} di 1.000")
    idle(page, lab)
    assert files(fetched) == ["300.bin", below]
    assert lab.locator("[data-lab-live]").text_content() == summary(passo=back)

    # another learning rate: no checkpoint, a replay from step 0 that says how far it got; «Ferma qui» stops it
    # there, and that step is drawn with CPython's numbers
    lab.locator('[data-param="lr"]').evaluate(
        "el => { el.value = '0.01'; el.dispatchEvent(new Event('input', {bubbles: true})); }"
    )
    stop = lab.locator("[data-lab-stop]")
    expect(stop).to_be_visible(timeout=60_000)
    said = lab.locator("[data-lab-working-text]").text_content()
    assert re.fullmatch(rf"Calcolo i passi: \d+ di {back}…", said), said
    stop.click()
    expect(lab.locator("[data-lab-working]")).to_be_hidden(timeout=60_000)
    idle(page, lab)
    reached = int(re.search(r"Passo (\d+)", lab.locator("[data-step-counter]").text_content()).group(1))
    assert 0 < reached < back
    expect(lab.locator('input[name="passo"]')).to_have_value(str(reached))
    assert lab.locator("[data-lab-live]").text_content() == summary(passo=reached, lr=0.01)
    assert files(fetched) == ["300.bin", below]  # off the defaults, nothing fetched
    assert not errors, errors
    context.close()
