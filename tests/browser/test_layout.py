"""Every lab's layout, in Chromium, at a phone (390 × 844) and a desktop
(1280 × 900) size, in the light and the dark scheme, at three states: its
default, every control at its top, and every control at its bottom or, for a
stepped lab, its last step.

One test per size walks all the labs in one page (mkdocs-material's instant
navigation keeps Python loaded) and measures each state with one evaluate;
scripts/layout_check.py has the rules, the states and the measuring code,
and prints the same checks as a count of failing labs:
- the page is never wider than the screen;
- nothing inside a lab scrolls or sticks out sideways (on a phone, a frame
  the kit marks with data-scroll-frame may scroll, with a shadow on the side
  that has more: a figure whose text would otherwise shrink under 11 px);
- every text, in SVG or HTML, renders at ≥ 11 CSS px (font size × the scale
  of the SVG's screen transform);
- no two SVG texts of one figure overlap by more than 2 px, and none leaves
  its figure;
- no number is split from its unit at a line's end.
"""

import pytest
from layout_check import CHECK_JS, MIN_FONT, SIZES, SLACK, check_labs, details, summary

import labs


@pytest.fixture(scope="module")
def layout_page(browser):
    """One page for both sizes: the worker stays warm, so a stepped lab's last
    step (3.2 trains a transformer to get there) is computed once, not twice."""
    page = browser.new_page()
    yield page
    page.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_lab_fits_the_screen_with_legible_text(layout_page, site_url, size):
    lab_list = labs.all_labs()
    failures = check_labs(layout_page, site_url, lab_list, size)
    assert not failures, "\n".join(
        [f"{size}: laboratori che non passano un controllo"] + summary(failures, lab_list) + details(failures)
    )


def test_no_page_is_wider_than_a_phone_as_its_html_arrives(browser, site_url):
    """Before the theme's script starts (it waits for Python's download) each page is as its HTML draws
    it; here with no script at all. The header's hidden page title once made four pages 13 px too wide."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    wide = []
    for path in ["", *(lab.path for lab in labs.all_labs())]:
        page.goto(f"{site_url}{path}")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide.append(f"{path or '/'}: {width} px")
    page.close()
    assert not wide, wide


@pytest.mark.parametrize("space, split", [(" ", True), ("\u00a0", False)])
def test_a_number_split_from_its_unit_is_flagged(browser, space, split):
    """A column 5 characters wide: «19,2 %» breaks after «19,2» at a plain space, never at the kit's
    non-breaking one (it overflows instead, which the «sideways» check sees where it matters)."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_content(
        f'<div data-lab="prova"><p style="font: 16px monospace; width: 5ch">19,2{space}% e basta</p></div>'
    )
    found = page.evaluate(CHECK_JS, {"minFont": MIN_FONT, "slack": SLACK, "wide": False})
    page.close()
    assert bool(found["chiaro"]["unit"]) == split, found["chiaro"]
    assert not split or "«19,2 %» va a capo" in found["chiaro"]["unit"][0]
