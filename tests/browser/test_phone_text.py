"""On a phone (390 × 844), at every lab's default: no table cell wraps onto more than two lines or is cut, and no
superscript or subscript glyph of a view reads under 11 px (scripts/layout_check.py, PHONE_TEXT_JS, has the
rules and the measuring code).

Before the kit's rules (one line a cell, a table wider than the view scrolling in its frame; script glyphs in a
bigger font of their own) this failed on 8 labs' tables (headers of posizione-rope, softmax-temperatura,
costo-kv-cache, transformer-miniatura's formulas over 9 lines) and on 20 labs' views (schedule-lr's «10⁻⁴» at
6 px, rete-finestra's «n₁» at 7 px)."""

import pytest
from layout_check import check_phone_text

import labs


@pytest.fixture(scope="module")
def phone_text(browser, site_url):
    page = browser.new_page()
    yield check_phone_text(page, site_url, labs.all_labs())
    page.close()


@pytest.mark.parametrize("check", ["cells", "glyphs"])
def test_on_a_phone_cells_fit_and_script_glyphs_read_at_11_px(phone_text, check):
    failures = [f"{lab_id}: {message}" for lab_id, kind, message in phone_text if kind == check]
    assert not failures, "\n".join(failures[:40])
