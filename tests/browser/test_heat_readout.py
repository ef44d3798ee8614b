"""A heat picture of the kit (3.2's «Una matrice da vicino»): the cell under the pointer, or reached with the
arrow keys, is marked and read as «riga, colonna: valore», the value CPython computes; the readout follows the
next step, and the arrows on the figure are the figure's, not the timeline's."""

from playwright.sync_api import expect

import labs
from labs.kit.heat_pictures import values_text

READY_TIMEOUT = 120_000
LAB = labs.get("transformer-allenato")
QUERY = "?passo=5&matrice=tok_emb&sezioni=matrice"


def cpython(step):
    return LAB.compute(LAB.parse({"passo": str(step), "matrice": "tok_emb", "sezioni": "matrice"}))


def expected(s, i, j, key="values"):
    return f"riga {s['vocab'][i]}, colonna {j + 1}: {values_text([[s['matrix'][key][i][j]]])}"


def open_weights(page, site_url):
    page.goto(f"{site_url}{LAB.path}{QUERY}")
    lab = page.locator(f"[data-lab='{LAB.id}']")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    box = lab.locator("[data-part='pesi'].lab-heat-box")
    box.scroll_into_view_if_needed()
    return lab, box, box.locator("svg[data-heat]"), box.locator(".lab-heat-readout")


def centre_of(svg, i, j):
    """The page coordinates of cell (i, j)'s centre, from the figure's data-heat and its drawn size."""
    left, top, cw, ch = map(float, svg.get_attribute("data-heat").split()[:4])
    width = float(svg.get_attribute("viewBox").split()[2])
    box = svg.bounding_box()
    k = box["width"] / width
    return box["x"] + (left + (j + 0.5) * cw) * k, box["y"] + (top + (i + 0.5) * ch) * k


def test_hovering_a_cell_reads_its_row_column_and_value_and_follows_the_next_step(page, site_url):
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    lab, box, svg, line = open_weights(page, site_url)
    s = cpython(5)
    i, j = 7, 10
    page.mouse.move(*centre_of(svg, i, j))
    expect(line).to_have_text(expected(s, i, j))
    mark = svg.locator(".lab-heat-mark")
    expect(mark).to_have_class("lab-heat-mark is-on")
    assert mark.get_attribute("data-i") == str(i) and mark.get_attribute("data-j") == str(j)
    page.mouse.move(*centre_of(svg, 0, 0))
    expect(line).to_have_text(expected(s, 0, 0))
    # the next step morphs the view: the mark stays on its cell and the line reads the new value
    page.mouse.move(*centre_of(svg, i, j))
    lab.locator('[data-step="+1"]').click()
    expect(lab.locator("[data-step-counter]")).to_have_text("Passo 6 di 1.000")
    assert expected(cpython(6), i, j) != expected(s, i, j)  # the weight moved: the line must be read again
    expect(line).to_have_text(expected(cpython(6), i, j))
    assert mark.get_attribute("data-i") == str(i)
    assert errors == []


def test_the_arrow_keys_move_the_marked_cell_and_not_the_timeline(page, site_url):
    lab, box, svg, line = open_weights(page, site_url)
    s = cpython(5)
    svg.focus()
    expect(line).to_have_text(expected(s, 0, 0))  # focused: the first cell is read
    for key in ("ArrowDown", "ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
    expect(line).to_have_text(expected(s, 2, 2))
    page.keyboard.press("End")
    cols = len(s["matrix"]["values"][0])
    expect(line).to_have_text(expected(s, 2, cols - 1))
    page.keyboard.press("ArrowRight")  # at the edge: it stays
    expect(line).to_have_text(expected(s, 2, cols - 1))
    page.keyboard.press(" ")  # on the picture the space is not the timeline's Play
    page.wait_for_timeout(800)
    expect(lab.locator("[data-step-counter]")).to_have_text("Passo 5 di 1.000")
    # the gradient's picture beside it is another figure, with its own mark
    grad = lab.locator("[data-part='gradiente'].lab-heat-box")
    grad.locator("svg[data-heat]").focus()
    expect(grad.locator(".lab-heat-readout")).to_have_text(expected(s, 0, 0, "grad"))
    expect(line).to_have_text(expected(s, 2, cols - 1))


def test_a_tap_on_a_phone_reads_the_cell(browser, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        lab, box, svg, line = open_weights(page, site_url)
        s = cpython(5)
        page.touchscreen.tap(*centre_of(svg, 3, 12))
        expect(line).to_have_text(expected(s, 3, 12))
    finally:
        context.close()
