"""A long reading session in one tab keeps nothing of the pages it left (issue 48, memory flat): after instant
navigation back and forth between two labs, the code editor opened on one of them, and a garbage collection, no
lab the reader left is still alive, and the page's JavaScript listeners are as many after six visits as after two.
The theme's media-query listeners, one per sidebar of every page, would keep an element of every page left and
the page's subscriptions, and an editor not destroyed its lab (templates/runtime/page/leaving.js). Counts, not
timings."""

import re

from lab_pages import go, open_ready, ready
from playwright.sync_api import expect

LABS = [("capitolo-1/ombrello/", "ombrello"), ("capitolo-2/backprop-due-pesi/", "backprop-due-pesi")]
VISITS = 6

# the lab on screen, watched weakly before the reader leaves it
WATCH = "() => { (window.labsLeft ??= []).push(new WeakRef(document.querySelector('[data-lab]'))); }"
# after the browser's idle moment, when the page left is taken apart
IDLE = "() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 }))"
# how many of the labs left are still alive, out of the page
ALIVE = "() => window.labsLeft.filter((ref) => ref.deref()?.isConnected === false).length"


def test_the_labs_left_by_instant_navigation_are_let_go(page, site_url):
    open_ready(page, f"{site_url}{LABS[0][0]}")
    for visit in range(1, VISITS + 1):
        page.evaluate(WATCH)
        path, lab_id = LABS[visit % 2]
        go(page, f"{site_url}{path}")
        ready(page, lab_id)
        if lab_id == "ombrello":  # the code panel's editor, opened
            panel = page.locator(f'[data-lab-code="{lab_id}"]')
            panel.locator("summary").click()
            panel.locator('[data-code="edit"]').click()
            panel.locator(".cm-editor").wait_for()
    page.evaluate(IDLE)
    page.context.new_cdp_session(page).send("HeapProfiler.collectGarbage")
    assert page.evaluate(ALIVE) == 0, "le pagine lasciate restano in memoria"


def listeners(page, cdp):
    """The JavaScript event listeners alive in the tab after a collection (Blink's count)."""
    cdp.send("HeapProfiler.collectGarbage")
    return cdp.send("Memory.getDOMCounters")["jsEventListeners"]


def test_the_pages_left_keep_no_listener(page, site_url):
    cdp = page.context.new_cdp_session(page)
    open_ready(page, f"{site_url}{LABS[0][0]}")
    counts = []
    for visit in range(1, VISITS + 1):
        path, lab_id = LABS[visit % 2]
        go(page, f"{site_url}{path}")
        ready(page, lab_id)
        page.evaluate(IDLE)
        if visit in (2, VISITS):  # the same lab on screen
            counts.append(listeners(page, cdp))
    assert counts[1] == counts[0], f"ogni visita lascia listener: {counts[0]} dopo due visite, {counts[1]} dopo sei"
    # the page on screen still hears its media queries: its sidebar is placed under the header on a wide screen
    # only (the theme's «(min-width: 76.25em)»)
    sidebar = page.locator(".md-sidebar--primary")
    size = page.viewport_size
    page.set_viewport_size({"width": 700, "height": size["height"]})
    expect(sidebar).not_to_have_attribute("style", re.compile("top"))
    page.set_viewport_size(size)
    expect(sidebar).to_have_attribute("style", re.compile("top"))
