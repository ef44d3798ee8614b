"""View-driven input: dragging a point or clicking an element of the view
sets the controls, with the same result as moving the controls themselves."""

import re

from playwright.sync_api import expect

READY_TIMEOUT = 90_000


def open_lab(page, site_url, path):
    page.goto(f"{site_url}{path}")
    root = page.locator("[data-lab]")
    expect(root).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    return root


def settle(page):
    page.wait_for_function("() => document.querySelector('[data-lab]').dataset.busy === undefined")


def set_controls(page, values):
    for name, value in values.items():
        page.locator(f'[data-param="{name}"]').evaluate(
            "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }", str(value)
        )
        settle(page)


def view_html(root):
    return root.locator("[data-lab-view]").inner_html()


def test_dragging_a_point_equals_moving_its_sliders(page, site_url):
    root = open_lab(page, site_url, "capitolo-9/vettori/")
    handle = root.locator('[data-drag="ax ay"]').first
    svg = handle.locator("xpath=ancestor::*[local-name()='svg'][@data-plane][1]")
    svg.scroll_into_view_if_needed()
    xmin, xmax, ymin, ymax = map(float, svg.get_attribute("data-plane").split())
    box = svg.bounding_box()

    def screen(x, y):
        return (
            box["x"] + (x - xmin) / (xmax - xmin) * box["width"],
            box["y"] + (ymax - y) / (ymax - ymin) * box["height"],
        )

    start = handle.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(*screen(0, 0), steps=4)
    page.mouse.move(*screen(3, -2), steps=4)
    page.mouse.up()
    settle(page)
    expect(root.locator('[data-param="ax"]')).to_have_value("3")
    expect(root.locator('[data-param="ay"]')).to_have_value("-2")
    dragged = view_html(root)
    set_controls(page, {"ax": 2, "ay": 1})
    assert view_html(root) != dragged
    set_controls(page, {"ax": 3, "ay": -2})
    assert view_html(root) == dragged


def test_clicking_a_preset_equals_setting_the_matrix(page, site_url):
    root = open_lab(page, site_url, "capitolo-9/matrice-vettore/")
    preset = root.locator('[data-set="a11=0;a12=-1;a21=1;a22=0"]').first
    preset.click()
    settle(page)
    for name, value in {"a11": "0", "a12": "-1", "a21": "1", "a22": "0"}.items():
        expect(root.locator(f'[data-param="{name}"]')).to_have_value(value)
    clicked = view_html(root)
    expect(page).to_have_url(re.compile(r"a12=-1"))  # written when the reader pauses
    set_controls(page, {"a11": 2, "a12": 1, "a21": 0, "a22": 1})
    set_controls(page, {"a11": 0, "a12": -1, "a21": 1, "a22": 0})
    assert view_html(root) == clicked


def test_view_elements_work_from_the_keyboard(page, site_url):
    root = open_lab(page, site_url, "capitolo-9/one-hot/")
    target = root.locator("[data-set][tabindex='0']").last
    wanted = dict(pair.split("=") for pair in target.get_attribute("data-set").split(";"))
    target.focus()
    page.keyboard.press("Enter")
    settle(page)
    for name, value in wanted.items():
        expect(root.locator(f'[data-param="{name}"]')).to_have_value(value)


def test_adding_the_predicted_token_grows_the_sentence(page, site_url):
    root = open_lab(page, site_url, "capitolo-1/transformer-miniatura/")
    add = root.get_by_role("button", name="Aggiungi il token previsto")
    add.click()
    settle(page)
    expect(root.locator('[data-param="generati"]')).to_have_value("1")
    expect(root.locator("[data-lab-view]")).to_contain_text("divano")
    expect(page).to_have_url(re.compile(r"generati=1"))


def test_what_a_lab_says_of_its_controls_follows_the_state(page, site_url):
    """follow(state): 9B.10 disables the elbows not in use, with the reason beside
    them; 4.2 bounds the step to look at by the steps of the training."""
    root = open_lab(page, site_url, "capitolo-9/tante-pieghe/")
    set_controls(page, {"gomiti": 1})
    third = root.locator('[data-param="e3"]')
    expect(third).to_be_disabled()
    expect(root.locator('[data-reason="e3"]')).to_have_text("In uso c'è 1 gomito: alza «Gomiti in uso».")
    expect(root.locator('[data-reason="e3"]')).to_be_visible()
    set_controls(page, {"gomiti": 4})
    expect(third).to_be_enabled()
    expect(root.locator('[data-reason="e3"]')).to_be_hidden()
    expect(root.locator('[data-reason="e5"]')).to_have_text("In uso ci sono 4 gomiti: alza «Gomiti in uso».")
    root = open_lab(page, site_url, "capitolo-4/schedule-lr/")
    set_controls(page, {"totale": 20000})
    expect(root.locator('[data-param="passo"]')).to_have_attribute("max", "20000")
    expect(root.locator('[data-param="warmup"]')).to_have_attribute("max", "20000")
    set_controls(page, {"totale": 500000})
    expect(root.locator('[data-param="passo"]')).to_have_attribute("max", "500000")


def test_a_row_is_chosen_by_its_name_from_the_keyboard_or_by_a_click_anywhere_in_it(page, site_url):
    """A.4's tables choose a row (matrix(pick_row=…)): its name is its one button, a click on any of its
    cells counts too; the focus stays on the button through the update, and the chosen row is the current one."""
    root = open_lab(page, site_url, "approfondimenti-a/multi-head/")
    view = root.locator("[data-lab-view]")
    names = view.locator('[data-part="X"] button')
    expect(names).to_have_count(7)
    assert view.locator("td[tabindex='0']").count() == 0  # no cell is a tab stop of its own
    names.nth(3).focus()
    page.keyboard.press("Enter")
    settle(page)
    expect(root.locator('[data-param="riga"]')).to_have_value("4")
    expect(names.nth(3)).to_be_focused()
    expect(names.nth(3)).to_have_attribute("aria-current", "true")
    expect(view.locator('[data-part="X"] button[aria-current]')).to_have_count(1)
    view.locator('[data-part="A2"] td[data-i="5"][data-j="2"]').click()
    settle(page)
    expect(root.locator('[data-param="riga"]')).to_have_value("6")
    expect(names.nth(5)).to_have_attribute("aria-current", "true")
