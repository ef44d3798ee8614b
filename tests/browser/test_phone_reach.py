"""On a phone (390 × 844), every control of every lab and the part of the view it changes are on screen together.

For each control the reader can move (a slider, a choice, a toggle, a text; a stepped lab's «Avanti» and its
timeline's scrubber), the page records which parts of the view the move changes (a MutationObserver), scrolls
the first of them to the top of the screen, under the header, as a reader looking at it would, and then looks for the
control without moving the page: it must be on screen, in the drawer of controls stuck to the bottom
(labs.css, drawer.js), with the changed part visible above the drawer. On the layout before the drawer the
controls of 4.3, 9C, A.1 and A.5 were 1.400–2.700 px below their figure.
"""

import pytest
from lab_pages import go
from playwright.sync_api import expect

import labs

PHONE = {"width": 390, "height": 844}
READY_TIMEOUT = 90_000
SEEN = 40  # px of the changed part that must show between the header and the drawer (all of it, if shorter)

# Records the view's changes from now on: the outermost <svg> of a figure, else the element itself.
WATCH = """view => {
  const changed = [];
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      let el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      while (el && el.ownerSVGElement) el = el.ownerSVGElement;
      if (el && view.contains(el) && !changed.includes(el)) changed.push(el);
    }
  });
  observer.observe(view, { subtree: true, childList: true, attributes: true, characterData: true });
  view.reachWatch = { observer, changed };
}"""

# The first changed part with a box, scrolled under the header; then the control shown inside the drawer's own
# scroll (the page does not move); then where the two are.
LOOK = """(view, control) => {
  const { observer, changed } = view.reachWatch;
  observer.disconnect();
  const part = changed
    .filter((el) => el.isConnected && el.getBoundingClientRect().height > 0)
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))[0];
  if (!part) return null;
  const header = document.querySelector(".md-header").getBoundingClientRect().bottom;
  window.scrollTo(0, part.getBoundingClientRect().top + scrollY - header - 8);
  const more = control.closest(".lab-more");
  if (more && more.scrollHeight > more.clientHeight) {
    more.scrollTop += control.getBoundingClientRect().top - more.getBoundingClientRect().top - 4;
  }
  const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; };
  const drawer = control.closest("[data-lab-controls]");
  return { part: box(part), control: box(control), drawer: box(drawer), header,
           name: part.id || part.dataset.part || part.getAttribute("aria-label") || part.tagName.toLowerCase() };
}"""


def moves(lab):
    """(what the reader touches, its selector, how) for every control a reader moves by hand: a slider to its
    other end, a choice to another option, a toggle flipped, a text without its last word; a stepped lab's
    «Avanti» clicked, then its scrubber one step further."""
    for c in lab.params_list:
        selector = f'[data-param="{c.name}"]'
        if c.kind == "slider":
            yield c.label, selector, str(c.max if c.default != c.max else c.min)
        elif c.kind == "choice":
            yield c.label, selector, next(v for v, _ in c.options if v != c.default)
        elif c.kind == "toggle":
            yield c.label, selector, "toggle"
        elif c.kind == "text":
            yield c.label, selector, c.default.rsplit(maxsplit=1)[0]
    if lab.steps:
        yield "Avanti", 'button[data-step="+1"]', "click"
        yield lab.steps.label, f'[data-param="{lab.steps.name}"]', str(min(lab.steps.default + 2, lab.steps.max))


@pytest.fixture(scope="module")
def phone_page(browser, site_url):
    """One phone-sized page for every lab: instant navigation keeps the Python worker warm."""
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    page.goto(site_url)
    yield page
    context.close()


def move(page, root, element, how):
    if how == "click":
        element.click()
    elif how == "toggle":
        element.evaluate("el => { el.checked = !el.checked; el.dispatchEvent(new Event('input', {bubbles: true})); }")
    else:
        element.evaluate(
            "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }", str(how)
        )
    page.wait_for_function("el => el.dataset.busy === undefined", arg=root.element_handle())


def out_of_reach(where):
    """Why the changed part and the control are not on screen together, or None."""
    part, control, drawer, header = where["part"], where["control"], where["drawer"], where["header"]
    if control["top"] < header or control["bottom"] > PHONE["height"] + 1:
        return f"il comando è fuori dallo schermo (da {control['top']:.0f} a {control['bottom']:.0f} px)"
    above = min(part["bottom"], drawer["top"]) - max(part["top"], header)
    if above < min(SEEN, part["bottom"] - part["top"]) - 1:
        return f"la parte «{where['name']}» non si vede sopra i comandi ({above:.0f} px visibili)"
    return None


@pytest.mark.parametrize("lab", labs.all_labs(), ids=lambda lab: lab.id)
def test_on_a_phone_every_control_and_what_it_changes_are_on_screen_together(phone_page, site_url, lab):
    page = phone_page
    go(page, f"{site_url}{lab.path}")
    root = page.locator(f"[data-lab='{lab.id}']")
    expect(root).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    view = root.locator("[data-lab-view]")
    problems = []
    for label, selector, how in moves(lab):
        element = root.locator(selector)
        element.evaluate(
            "el => { for (let d = el.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"
        )
        if not element.evaluate("el => !el.disabled && el.getClientRects().length > 0"):
            continue  # hidden or disabled by the lab's follow(): nothing to move
        view.evaluate(WATCH)
        move(page, root, element, how)
        where = view.evaluate(LOOK, element.element_handle())
        if where is None:
            continue  # this move changes nothing drawn at these values
        problem = out_of_reach(where)
        if problem:
            problems.append(f"«{label}»: {problem}")
    assert not problems, f"{lab.id}, su un telefono: " + "; ".join(problems)
