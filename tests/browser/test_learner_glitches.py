"""Glitches a learner met, in Chromium at the sizes where they showed."""

import re

from lab_pages import idle, open_ready
from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}


def inside_the_screen(locator, width):
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


def test_softmax_on_a_phone_shows_the_column_without_subtraction_after_the_1000_try(page, site_url):
    """9E: «Aggiungi 1.000» promises an exploding column «senza sottrarre»; on a phone it must be on screen,
    not past the right edge of a table that scrolls sideways."""
    page.set_viewport_size(PHONE)
    lab = open_ready(page, f"{site_url}capitolo-9/softmax-temperatura/")
    page.locator("[data-experiment]").first.click()
    idle(page, lab)
    header = page.locator("[data-lab-view] th", has_text="senza sottrarre")
    expect(header).to_have_count(1)
    overflow = page.locator("[data-lab-view] td", has_text="overflow!")
    expect(overflow).to_have_count(6)
    for cell in [header, *(overflow.nth(k) for k in range(6))]:
        assert inside_the_screen(cell, PHONE["width"]), cell.inner_text()


def test_after_adding_tokens_the_chosen_position_and_the_ids_follow_the_longer_sentence(page, site_url):
    """1.4: «Aggiungi il token previsto» sets the position to the new end; a range narrowed to the old sentence
    must not clamp it, or the IDs and the prediction stay one token behind."""
    lab = open_ready(page, f"{site_url}capitolo-1/transformer-miniatura/")
    position = page.locator('input[name="posizione"]')
    for length in (6, 7):
        page.locator("button", has_text="Aggiungi il token previsto").click()
        idle(page, lab)
        expect(position).to_have_value(str(length))
        ids = page.locator('[data-part="id"] .lab-formula').first.inner_text()
        assert ids.count(",") == length - 1, ids
    expect(page).to_have_url(re.compile(r"posizione=7"))  # written a moment after the view


def test_the_added_tokens_slider_keeps_the_chosen_position_at_the_end_of_the_sentence(page, site_url):
    """1.4: «Token aggiunti» moved by hand grows and shrinks the sentence; the chosen token, at the last one,
    stays the last one (as «Aggiungi» leaves it) and never points past the sentence."""
    lab = open_ready(page, f"{site_url}capitolo-1/transformer-miniatura/")
    position, added = page.locator('input[name="posizione"]'), page.locator('input[name="generati"]')
    current = page.locator("[data-lab-view] .is-current").first
    for count, length in ((1, 6), (2, 7), (1, 6), (0, 5)):  # greedy ends the sentence at «.» after 2
        added.fill(str(count))
        idle(page, lab)
        expect(position).to_have_value(str(length))
        expect(position).to_have_attribute("max", str(length))
        ids = page.locator('[data-part="id"] .lab-formula').first.inner_text()
        assert ids.count(",") == length - 1, ids
        expect(current).to_contain_text(f"{length} · ID")
    expect(page).to_have_url(re.compile(r"^[^?]*$|^(?!.*posizione=)"))  # at the defaults again
    page.locator("[data-lab-view] [data-set='posizione=2']").first.click()  # a word of the reader's choice
    idle(page, lab)
    added.fill("2")
    idle(page, lab)
    expect(position).to_have_value("2")  # not at the end: it stays where the reader put it


def to_a_big_matrix(page, lab):
    """3.1 moved with «Avanti» to its first screen with a big matrix: (the «Mostra i numeri» switches, «Avanti»)."""
    numbers = page.locator("[data-lab-view] details.lab-mx-numbers")
    avanti = page.locator('[data-lab] [data-step="+1"]').first
    for _ in range(12):  # to the first screen with a big matrix
        if numbers.count():
            break
        avanti.click()
        idle(page, lab)
    assert numbers.count(), "nessuna matrice grande nei primi passi"
    return numbers, avanti


def test_show_the_numbers_stays_as_the_reader_left_it_across_avanti(page, site_url):
    """3.1: each «Avanti» puts in another screen whole; a big matrix on it shows numbers or picture as the
    reader last chose with «Mostra i numeri», not the picture again."""
    lab = open_ready(page, f"{site_url}capitolo-3/bigrammi/")
    numbers, avanti = to_a_big_matrix(page, lab)
    numbers.first.locator("summary").click()
    expect(numbers.first).to_have_attribute("open", "")
    screens = set()
    for _ in range(8):
        screen = page.locator("[data-lab-view] [data-screen]").first.get_attribute("data-screen")
        screens.add(screen)
        avanti.click()
        idle(page, lab)
        for k in range(numbers.count()):
            expect(numbers.nth(k)).to_have_attribute("open", "")
    assert len(screens) > 1
    numbers.first.locator("summary").click()  # back to the picture: it stays so too
    avanti.click()
    idle(page, lab)
    for k in range(numbers.count()):
        expect(numbers.nth(k)).not_to_have_attribute("open", "")


DESKTOP = {"width": 1280, "height": 900}
REACH = ["capitolo-1/transformer-miniatura/", "capitolo-3/transformer-allenato/", "capitolo-9/bpe/"]


def test_on_a_phone_the_sticky_bar_carries_the_step_counter_with_the_buttons(page, site_url):
    """9A: the bar stuck under the view said only ⟲ ← → ▶; the counter beside them says where the reader is."""
    page.set_viewport_size(PHONE)
    lab = open_ready(page, f"{site_url}capitolo-9/bpe/")
    bar = page.locator("div.lab-bar")
    for _ in range(2):
        counter = page.locator("[data-lab-timeline] [data-step-counter]").inner_text()
        expect(bar.locator("[data-bar-counter]")).to_have_text(counter)
        expect(bar.locator("[data-bar-counter]")).to_be_visible()
        bar.locator('[data-step="+1"]').click()
        idle(page, lab)
    expect(bar.locator("[data-bar-counter]")).to_contain_text("2")
    page.mouse.wheel(0, 1500)
    box = bar.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"] + 1 and box["y"] > PHONE["height"] / 2


def test_on_a_desktop_the_controls_follow_the_reader_without_covering_a_heading(page, site_url):
    """1.4, 3.2, 9A: scrolled down the view, the column of controls is still on screen under the header, and its
    bar covers none of the column's group headings (3.2's «Guarda dentro il modello» slid under it)."""
    page.set_viewport_size(DESKTOP)
    for path in REACH:
        open_ready(page, f"{site_url}{path}")
        column = page.locator("[data-lab-fieldset]")
        view = page.locator("[data-lab-view]").bounding_box()
        # down the view, a screen before its end (there the column, sticky inside the lab, leaves with it)
        page.evaluate("y => window.scrollTo(0, y)", view["y"] + max(200, view["height"] - 1000))
        page.wait_for_timeout(200)
        header = page.locator(".md-header").bounding_box()
        box = column.bounding_box()
        assert header["y"] + header["height"] <= box["y"] + 1 and box["y"] < DESKTOP["height"] / 4, (path, box)
        assert box["y"] + box["height"] <= DESKTOP["height"] + 1, (path, box)
        column.evaluate("el => el.scrollTo(0, el.scrollHeight)")  # a column taller than the screen scrolls inside
        page.wait_for_timeout(100)
        if not page.locator("div.lab-bar").count():
            continue  # 1.4: no bar
        bar = page.locator("div.lab-bar").bounding_box()
        for summary in page.locator("[data-lab-fieldset] .lab-group > summary").all():
            s = summary.bounding_box()
            if s and s["height"]:
                assert s["y"] >= bar["y"] + bar["height"] - 1 or s["y"] + s["height"] <= bar["y"] + 1, path


def test_show_the_numbers_is_written_in_the_link_and_read_back_from_it(page, site_url):
    """3.1: «Mostra i numeri», the reader's choice for every big matrix of the page, is in the URL: a shared link
    opens the matrices on their numbers; closed again, the link says nothing of it (the picture, the default)."""
    lab = open_ready(page, f"{site_url}capitolo-3/bigrammi/")
    numbers, avanti = to_a_big_matrix(page, lab)
    numbers.first.locator("summary").click()
    expect(page).to_have_url(re.compile(r"[?&]numeri=1(&|$)"))
    link = page.url
    page.goto(f"{site_url}capitolo-3/")  # another page, then the link in a new load
    lab = open_ready(page, link)
    idle(page, lab)
    expect(numbers.first).to_have_attribute("open", "")
    for k in range(numbers.count()):
        expect(numbers.nth(k)).to_have_attribute("open", "")
    numbers.first.locator("summary").click()
    expect(numbers.first).not_to_have_attribute("open", "")
    expect(page).not_to_have_url(re.compile(r"numeri="))


def gap_above(page, view, below):
    """px between the lowest thing drawn in the view and the top of the element below."""
    return page.evaluate(
        """([view, below]) => below.getBoundingClientRect().top
             - Math.max(...[...view.querySelectorAll('*')].map((el) => el.getBoundingClientRect().bottom))""",
        [view.element_handle(), below.element_handle()],
    )


def test_on_a_phone_a_short_step_after_a_tall_one_leaves_no_empty_gap_above_the_controls(page, site_url):
    """A.6: the view kept the height of its tallest step («Q, K, V», 2,300 px on a phone): each step after it left
    a gap of more than 1,000 px of nothing between the view and «La tua frase». Kept only down to the screen's
    bottom edge, nothing on screen moves and no gap is left."""
    page.set_viewport_size(PHONE)
    lab = open_ready(page, f"{site_url}approfondimenti-a/giro-del-token/")
    view, below = page.locator("[data-lab-view]"), page.locator('[data-control]:has(input[name="testo"])')
    avanti = page.locator('.lab-bar [data-step="+1"]')
    heights = []
    for _ in range(5):  # to «Q, K, V» and the step after it
        view.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + scrollY - 60)")
        avanti.click()
        idle(page, lab)
        page.wait_for_timeout(100)  # the frame that trims the height kept
        heights.append(view.evaluate("el => el.scrollHeight"))
    assert heights[3] > 2 * PHONE["height"], heights  # the tall step was there
    gap = gap_above(page, view, below)
    assert gap < 400, (gap, heights)
    bar = page.locator("div.lab-bar").bounding_box()
    assert bar["y"] + bar["height"] >= PHONE["height"] - 1  # the bar stayed stuck at the bottom: nothing jumped


def test_on_a_phone_the_part_a_prova_scrolls_to_starts_below_the_header_and_above_the_bar(page, site_url):
    """A.6: a «Prova» scrolls to the part that shows its effect; its top (a heading: «Testa 1») went under the
    sticky header. Every part of every view clears the header as a heading reached by its anchor does. The
    second «Prova» points at the same part of another screen, shorter above it: the page scrolled to the part
    as the old screen had it, and the new one left it under the header (the scroll is redone once drawn)."""
    page.set_viewport_size(PHONE)
    page.emulate_media(reduced_motion="reduce")
    lab = open_ready(page, f"{site_url}approfondimenti-a/giro-del-token/")
    header = page.locator(".md-header").bounding_box()
    for which in (0, 1):
        page.locator("[data-experiment]").nth(which).click()
        idle(page, lab)
        page.wait_for_timeout(300)
        part = page.locator("[data-lab-view] .lab-looked-at").bounding_box()
        bar = page.locator("div.lab-bar").bounding_box()
        assert part["y"] >= header["y"] + header["height"] + 8, (which, part, header)
        assert part["y"] + 40 <= bar["y"], (which, part, bar)
    anchor = page.locator("h2[id]").first.get_attribute("id")  # and a heading reached by its anchor, the same
    page.evaluate("id => { location.hash = id; }", anchor)
    page.wait_for_timeout(200)
    heading = page.locator(f"h2[id='{anchor}']").bounding_box()
    assert heading["y"] >= header["y"] + header["height"], (heading, header)
