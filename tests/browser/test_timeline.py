"""The timeline of a stepped lab in Chromium: one counter prerendered and
live, keyboard, scrubber, jumps, Play and Pause, and views that keep their
place (an opened <details>, a scrolled table) while the steps go by.

One page load per test: the checks run one after the other on a warm worker."""

from playwright.sync_api import expect

READY_TIMEOUT = 90_000


def wait_idle(page, lab):
    page.wait_for_function("el => el.dataset.busy === undefined", arg=lab.element_handle())


def counter(lab):
    return lab.locator("[data-step-counter]")


def open_ready(page, url):
    """The page's lab, once Python is ready and the first view is drawn."""
    page.goto(url)
    lab = page.locator("[data-lab]")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    wait_idle(page, lab)
    return lab


def natural_height(view):
    """The height of what the view holds, without the height it keeps."""
    return view.evaluate("el => [...el.children].reduce((h, c) => h + c.offsetHeight, 0)")


def test_timeline_counter_keyboard_scrubber_jumps_and_play(page, site_url):
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site_url}capitolo-2/backprop-due-pesi/")
    lab = page.locator("[data-lab]")
    prerendered = counter(lab).inner_text()
    assert prerendered.startswith("Passo 0 di 260")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)

    # the same counter, drawn by the same code, once Python is live
    lab.locator('[data-step="+1"]').click()
    expect(counter(lab)).to_contain_text("Passo 1 di 260")
    lab.locator('[data-step="-1"]').click()
    expect(counter(lab)).to_have_text(prerendered)

    # keyboard: → and ← on the timeline's buttons, space plays and pauses
    lab.locator('[data-step="reset"]').focus()
    page.keyboard.press("ArrowRight")
    expect(counter(lab)).to_contain_text("Passo 1 di 260")
    page.keyboard.press("ArrowRight")
    expect(counter(lab)).to_contain_text("Passo 2 di 260")
    page.keyboard.press("ArrowLeft")
    expect(counter(lab)).to_contain_text("Passo 1 di 260")
    scrubber = lab.locator("input.lab-scrubber")
    scrubber.focus()
    page.keyboard.press("ArrowRight")  # the scrubber's own keys move it one step
    expect(counter(lab)).to_contain_text("Passo 2 di 260")

    # the scrubber reaches the last step; Avanti is then disabled
    scrubber.evaluate("el => { el.value = el.max; el.dispatchEvent(new Event('input', {bubbles: true})); }")
    expect(counter(lab)).to_contain_text("Passo 260 di 260")
    expect(lab.locator('[data-step="+1"]')).to_be_disabled()

    # a named jump: from the start, «fine del giro» lands on the round's last phase
    lab.locator('[data-step="reset"]').click()
    expect(counter(lab)).to_contain_text("Passo 0 di 260")
    lab.locator(".lab-jump", has_text="fine").last.click()
    expect(counter(lab)).to_contain_text("Passo 260 di 260")
    lab.locator('[data-step="reset"]').click()
    expect(counter(lab)).to_contain_text("Passo 0 di 260")

    # Play, then Pause: the step stops where it is, within a frame
    lab.locator("[data-play-speed]").select_option("1")
    lab.locator('[data-step="play"]').click()
    page.wait_for_function("() => Number(document.querySelector('.lab-scrubber').value) >= 3")
    lab.locator('[data-step="play"]').click()
    expect(lab.locator('[data-step="play"]')).to_have_attribute("aria-pressed", "false")
    wait_idle(page, lab)
    stopped = scrubber.input_value()
    page.wait_for_timeout(400)
    assert scrubber.input_value() == stopped
    assert counter(lab).inner_text().startswith(f"Passo {stopped} di 260")

    # fastest Play reaches the end by itself
    lab.locator("[data-play-speed]").select_option("max")
    lab.locator('[data-step="play"]').click()
    expect(counter(lab)).to_contain_text("Passo 260 di 260", timeout=30_000)
    expect(lab.locator('[data-step="play"]')).to_have_attribute("aria-pressed", "false")
    assert errors == []


def test_views_keep_their_place_across_steps(page, site_url):
    lab = open_ready(page, f"{site_url}capitolo-2/backprop-due-pesi/?passo=40")
    history = lab.locator("[data-lab-view] details").first
    history.locator("summary").click()
    expect(history).to_have_attribute("open", "")
    # a narrow frame around the first table, scrolled sideways by the reader
    page.evaluate("""() => { const sheet = new CSSStyleSheet();  // constructed: allowed by the site's CSP
      sheet.replaceSync("[data-lab-view] table { display: block !important; max-width: 60px !important; overflow-x: auto !important; }");
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]; }""")
    table = lab.locator("[data-lab-view] table").first
    table.evaluate("el => { el.scrollLeft = 25; el.marked = 'yes'; }")
    assert table.evaluate("el => el.scrollLeft") == 25  # the frame really scrolls
    for _ in range(3):
        lab.locator('[data-step="+1"]').click()
        wait_idle(page, lab)
    expect(counter(lab)).to_contain_text("Passo 43 di 260")
    expect(history).to_have_attribute("open", "")
    assert table.evaluate("el => [el.marked, el.scrollLeft]") == ["yes", 25]


def test_a_step_drawn_ahead_is_the_step_drawn_on_demand(measured, site_url):
    """While the page shows a step, the worker draws the next one (the same stride
    again during Play; labs.render_ahead); «Avanti» then only morphs it in. The
    view drawn ahead is the one a fresh request draws, and a jump is not answered from it."""
    page = measured  # root.labTiming (scripts/measure.js)
    page.goto(f"{site_url}capitolo-3/bigrammi/")
    lab = page.locator("[data-lab]")
    view = lab.locator("[data-lab-view]")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    timing = lambda: lab.evaluate("el => el.labTiming")  # noqa: E731
    scrubber = lab.locator("input.lab-scrubber")

    def go_to(step):
        scrubber.evaluate(f"el => {{ el.value = {step}; el.dispatchEvent(new Event('input', {{bubbles: true}})); }}")
        wait_idle(page, lab)

    lab.locator('[data-step="+1"]').click()  # the first «Avanti»: drawn before «ready» was said (labs.warm_up)
    wait_idle(page, lab)
    expect(counter(lab)).to_contain_text("Passo 1 di 502")
    assert timing()["ahead"]
    go_to(30)
    assert not timing()["ahead"]  # a jump: drawn on demand
    lab.locator('[data-step="+1"]').click()
    wait_idle(page, lab)
    page.wait_for_timeout(300)  # the worker draws step 32 meanwhile
    lab.locator('[data-step="+1"]').click()
    wait_idle(page, lab)
    expect(counter(lab)).to_contain_text("Passo 32 di 502")
    assert timing()["ahead"]
    ahead_html = view.inner_html()
    go_to(0)
    go_to(32)
    assert not timing()["ahead"]
    assert view.inner_html() == ahead_html
    # «Indietro» twice: the second comes from the worker's drawing ahead, backwards
    lab.locator('[data-step="-1"]').click()
    wait_idle(page, lab)
    page.wait_for_timeout(300)
    lab.locator('[data-step="-1"]').click()
    wait_idle(page, lab)
    expect(counter(lab)).to_contain_text("Passo 30 di 502")
    assert timing()["ahead"]


def test_a_closed_section_is_brought_up_to_date_when_opened(page, site_url):
    """A closed <details> keeps what it hides while the steps go by (morphing
    it would cost every step); opened, it shows the current step's content,
    the same a fresh page at that step shows."""
    import labs

    lab = open_ready(page, f"{site_url}capitolo-2/backprop-due-pesi/?passo=40")
    history = lab.locator("[data-lab-view] details").first
    expect(history).not_to_have_attribute("open", "")
    hidden = history.inner_html()
    for _ in range(20):  # past the end of a round (13 steps each): the history of completed rounds grows
        lab.locator('[data-step="+1"]').click()
        wait_idle(page, lab)
    expect(counter(lab)).to_contain_text("Passo 60 di 260")
    assert history.inner_html() == hidden  # not morphed while closed
    history.locator("summary").click()
    expect(history).to_have_attribute("open", "")
    fresh = labs.render("backprop-due-pesi", {"passo": "60"})["html"]
    expected = page.evaluate(
        """html => { const t = document.createElement("template"); t.innerHTML = html;
      return t.content.querySelector("details").innerHTML; }""",
        fresh,
    )
    assert expected != hidden
    expect(history).to_have_js_property("innerHTML", expected)


def test_a_shorter_step_keeps_the_tallest_height_so_the_page_does_not_jump(page, site_url):
    """3.1's screens differ in height (its «Loss» screen is a few lines): stepping
    onto a shorter one keeps the view as tall as the tallest drawn, and no taller,
    where the reader sees its end (below the screen, see the next test)."""
    lab = open_ready(page, f"{site_url}capitolo-3/bigrammi/?passo=103")
    view = lab.locator("[data-lab-view]")
    view.evaluate("el => el.scrollIntoView({block: 'end'})")
    tall = view.evaluate("el => el.offsetHeight")
    lab.locator('[data-step="+1"]').click()
    wait_idle(page, lab)
    expect(counter(lab)).to_contain_text("Passo 104 di 502")
    page.wait_for_timeout(300)  # a few frames: the height is settled, not growing
    assert natural_height(view) < tall - 100  # the «Loss» screen is shorter...
    assert view.evaluate("el => el.offsetHeight") == tall  # ...and the view keeps its height
    page.wait_for_timeout(300)
    assert view.evaluate("el => el.offsetHeight") == tall


def test_the_kept_height_ends_at_the_bottom_of_the_screen(page, site_url):
    """Kept past the screen's bottom edge, the height would only open a gap under a short step (A.6 on a phone,
    test_learner_glitches): with the view's end below the screen, the view keeps its height down to that edge."""
    lab = open_ready(page, f"{site_url}capitolo-3/bigrammi/?passo=103")
    view = lab.locator("[data-lab-view]")
    view.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + scrollY - 100)")
    tall = view.evaluate("el => el.offsetHeight")
    screen = page.viewport_size["height"]
    assert tall > screen - 100  # its end below the screen
    lab.locator('[data-step="+1"]').click()
    wait_idle(page, lab)
    expect(counter(lab)).to_contain_text("Passo 104 di 502")
    page.wait_for_timeout(300)
    assert natural_height(view) < screen - 150  # the «Loss» screen is shorter than the screen
    box = view.bounding_box()
    assert abs(box["y"] - 100) <= 1  # nothing on screen moved
    assert abs(box["y"] + box["height"] - screen) <= 2  # and the view still reaches the screen's bottom edge


def test_the_kept_height_is_let_go_at_another_width(page, site_url):
    """A window narrowed to a phone's width and widened again (or a page printed) must not keep the
    phone's much taller view as a gap under the figures: each width has its own tallest height."""
    page.set_viewport_size({"width": 1280, "height": 900})
    lab = open_ready(page, f"{site_url}capitolo-3/bigrammi/?passo=103")
    view = lab.locator("[data-lab-view]")
    height = lambda: view.evaluate("el => el.offsetHeight")  # noqa: E731
    page.wait_for_timeout(300)
    wide = height()
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    narrow = height()
    assert narrow > wide + 300  # on a phone the same view is much taller
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(300)
    assert height() <= wide + 2  # as tall as it was at this width, not as on the phone
    lab.locator('[data-step="+1"]').click()  # and stepping keeps the tallest again, at this width
    wait_idle(page, lab)
    page.wait_for_timeout(300)
    assert height() >= natural_height(view)


def test_a_click_inside_a_view_that_says_its_step_does_not_step(page, site_url):
    # 2.6's view says its step on its root (data-step="5"): only the timeline's buttons step, and a
    # click on the view (or on a <details> inside it, in 3.2) once went forward by that many steps
    page.goto(f"{site_url}capitolo-2/embedding-vicini/?passo=5")
    lab = page.locator("[data-lab]")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    view = lab.locator("[data-lab-view] [data-step='5']")
    expect(view).to_have_count(1)
    before = counter(lab).inner_text()
    view.click(position={"x": 4, "y": 4})
    page.wait_for_timeout(300)
    wait_idle(page, lab)
    expect(counter(lab)).to_have_text(before)
    assert lab.locator("input.lab-scrubber").input_value() == "5"


def test_a_big_table_below_the_screen_is_drawn_only_when_it_comes_near(page, site_url):
    """3.1 on a phone at an update step: two 15 × 15 tables, the second far below
    the screen. The browser skips its cells (content-visibility: ~40 µs a cell
    to style and lay out, at every step that brings a new table) while the
    steps go by, until the reader scrolls to it; then they are drawn, and the
    page does not move under the reader while it happens."""
    page.set_viewport_size({"width": 390, "height": 844})
    lab = open_ready(page, f"{site_url}capitolo-3/bigrammi/?passo=96")
    frames = lab.locator(".lab-mx.is-big > .lab-mx-scroll")
    expect(frames).to_have_count(2)
    drawn = "el => el.querySelector('td').checkVisibility({contentVisibilityAuto: true})"
    frame = lambda: "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"  # noqa: E731
    assert frames.last.evaluate("el => el.getBoundingClientRect().top") > 2 * 844  # far below the screen
    assert not frames.last.evaluate(drawn)
    for step in ("+1", "-1"):  # away to a screen without it and back (clicked as the page is, not scrolled)
        lab.locator(f'[data-step="{step}"]').evaluate("el => el.click()")
        wait_idle(page, lab)
    expect(counter(lab)).to_contain_text("Passo 96 di 502")
    page.evaluate(frame())
    assert not frames.last.evaluate(drawn)
    # the reader scrolls down to it: it is drawn before it shows, and what is on screen does not move
    titles = lab.locator(".lab-mx.is-big > figcaption")
    seen = """els => els.map((el) => { const top = el.getBoundingClientRect().top;
                                      return top >= 0 && top <= innerHeight ? top + scrollY : null; })"""
    page.mouse.move(200, 400)
    while frames.last.evaluate("el => el.getBoundingClientRect().top") > 300:
        before = titles.evaluate_all(seen)
        page.mouse.wheel(0, 250)
        page.evaluate(frame())
        after = titles.evaluate_all(seen)
        assert all(b is None or a is None or a == b for b, a in zip(before, after)), (before, after)
    assert frames.last.evaluate(drawn)
    assert frames.last.evaluate("el => el.querySelectorAll('td.lab-mx-cell').length") == 225


def test_another_screen_is_put_in_whole_and_the_same_screen_is_morphed(page, site_url):
    """3.1's steps go from screen to screen (Forward, Loss, …): an element with data-screen whose screen
    changes is replaced whole, not morphed cell by cell into a different table; five steps on, the same
    screen again, and it is morphed in place (the reader's open sections and scrolls would stay)."""
    lab = open_ready(page, f"{site_url}capitolo-3/bigrammi/?passo=3")
    screen = lab.locator("[data-lab-view] [data-screen]")
    expect(screen).to_have_attribute("data-screen", "4")
    screen.evaluate("el => { el.__seen = true; }")
    lab.locator('[data-step="+1"]').click()
    wait_idle(page, lab)
    expect(screen).to_have_attribute("data-screen", "5")
    assert screen.evaluate("el => el.__seen === undefined")  # a new element: put in whole
    assert screen.locator("table").count() == 1  # nothing of «Forward» left behind
    screen.evaluate("el => { el.__seen = true; }")
    scrubber = lab.locator("input.lab-scrubber")
    scrubber.evaluate("el => { el.value = 9; el.dispatchEvent(new Event('input', {bubbles: true})); }")
    wait_idle(page, lab)
    expect(counter(lab)).to_contain_text("Passo 9 di 502")
    expect(screen).to_have_attribute("data-screen", "5")
    assert screen.evaluate("el => el.__seen === true")  # the same element, morphed


# Copies of a lab's view put into the page (runtime.js rehearseLayout), seen as they come and go.
WATCH_COPIES = """window.__copies = [];
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    if (node.nodeType === 1 && node.inert && record.target.closest?.("[data-lab]")) {
      window.__copies.push({ html: node.innerHTML, visibility: node.style.visibility, hidden: node.ariaHidden });
    }
  }
}).observe(document, { childList: true, subtree: true });"""


def test_the_next_step_is_laid_out_once_off_screen_before_the_first_avanti(page, site_url):
    """Before «ready» the worker sends the view of the step after the default (labs.warm_up), and the page lays it
    out once in a hidden, inert copy of the view that it removes at once: the reader's first «Avanti» then finds
    the browser's caches warm. Nothing of the copy stays, and the first «Avanti» shows that very view."""
    page.add_init_script(WATCH_COPIES)
    page.goto(f"{site_url}capitolo-3/bigrammi/")
    lab = page.locator("[data-lab]")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    page.wait_for_function("() => window.__copies.length > 0")
    page.wait_for_timeout(200)
    copies = page.evaluate("window.__copies")
    assert len(copies) == 1 and copies[0]["visibility"] == "hidden" and copies[0]["hidden"] == "true"
    assert page.locator("[data-lab-view]").count() == 1 and lab.locator("[inert]").count() == 0
    expect(counter(lab)).to_contain_text("Passo 0 di 502")
    lab.locator('[data-step="+1"]').click()
    wait_idle(page, lab)
    expect(counter(lab)).to_contain_text("Passo 1 di 502")
    assert lab.locator("[data-lab-view]").inner_html() == copies[0]["html"]


def test_a_machine_that_stops_early_ends_the_scrubber_where_it_stopped(page, site_url):
    """BPE on «aaa aaa ab» has no pair left after 5 merges: a link to merge 80 shows merge 5, «finito»,
    and the scrubber and «Avanti» end there; a step back, the timeline is whole again."""
    lab = open_ready(page, f"{site_url}capitolo-9/bpe/?corpus=aaa+aaa+ab&passo=80")
    scrubber = lab.locator("input.lab-scrubber")
    expect(counter(lab)).to_have_text("Fusione 5 di 5 · finito")
    expect(scrubber).to_have_attribute("max", "5")
    expect(scrubber).to_have_value("5")
    expect(scrubber).to_have_attribute("aria-valuetext", "Fusione 5 di 5 · finito")
    expect(lab.locator('[data-step="+1"]')).to_be_disabled()
    lab.locator('[data-step="-1"]').click()
    expect(counter(lab)).to_have_text("Fusione 4 di 80")
    expect(scrubber).to_have_attribute("max", "80")
    expect(lab.locator('[data-step="+1"]')).to_be_enabled()
    lab.locator('[data-step="+1"]').click()
    expect(counter(lab)).to_have_text("Fusione 5 di 5 · finito")
    expect(lab.locator('[data-step="+1"]')).to_be_disabled()
    lab.locator('[data-step="play"]').click()  # Play from the end starts again and stops at the end
    expect(lab.locator('[data-step="play"]')).to_have_attribute("aria-pressed", "false", timeout=20_000)
    expect(counter(lab)).to_have_text("Fusione 5 di 5 · finito")
