"""«Il codice Python» in Chromium: the panel is there without JavaScript,
the editor arrives only with «Modifica», edits run in the worker, errors
are Italian and keep the last good view, «Ferma» recovers from a runaway
loop, and a shared link brings the code back without running it."""

import time
from pathlib import Path

from lab_pages import READY, idle, open_ready, set_range
from playwright.sync_api import expect

import labs
from labs.kit.listing import editable_text

ROOT = Path(__file__).resolve().parents[2]
MAX_SUBTRACTION = "shifted = [s - top for s in scaled]"  # in core/softmax.py
WITHOUT_MAX = "shifted = scaled"


def editor_text(page, transform=None):
    return page.evaluate("() => document.querySelector('[data-lab-code]').codePanel.editor.text")


def set_editor_text(page, text):
    page.evaluate("t => { document.querySelector('[data-lab-code]').codePanel.editor.text = t; }", text)


def test_edit_run_error_reset_stop_and_share(measured, site_url, context):
    page = measured  # labsMeasure.stoppedAnswers (scripts/measure.js)
    editor_requests, violations = [], []
    page.on("request", lambda r: editor_requests.append(r.url) if r.url.endswith("/editor.js") else None)
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    url = f"{site_url}capitolo-9/softmax-temperatura/"
    lab = open_ready(page, url)
    panel = page.locator("[data-lab-code]")
    status = panel.locator("[data-lab-code-status]")

    # read-only: highlighted at build time, fetched as the panel opens, no editor downloaded
    assert panel.locator(".lab-code-caption").count() == 0
    panel.locator("summary").click()
    expect(panel.locator(".lab-code-listing .highlight").first).to_be_visible()
    assert panel.locator(".lab-code-caption", has_text="softmax").count() >= 1
    assert editor_requests == []

    panel.locator('[data-code="edit"]').click()
    expect(panel.locator(".cm-editor")).to_be_visible()
    assert len(editor_requests) == 1
    original = editor_text(page)
    assert original == editable_text(labs.get("softmax-temperatura").module)  # read from the listing
    assert MAX_SUBTRACTION in original
    assert violations == []  # the editor's styles obey the site's CSP (style-src 'self')

    # the softmax without the max: fine for small logits, overflow at +1000
    set_editor_text(page, original.replace(MAX_SUBTRACTION, WITHOUT_MAX))
    panel.locator('[data-code="run"]').click()
    expect(status).to_contain_text("usa il tuo codice")
    idle(page, lab)
    good_view = lab.locator("[data-lab-view]").inner_html()
    set_range(page, "aggiunta", 1000)
    expect(status).to_contain_text("overflow")
    expect(status).to_contain_text("riga")
    idle(page, lab)
    assert lab.locator("[data-lab-view]").inner_html() == good_view

    # Ripristina: the original code handles +1000 (it subtracts the max)
    panel.locator('[data-code="reset"]').click()
    expect(status).to_contain_text("ripristinato")
    idle(page, lab)
    expect(lab.locator("[data-lab-error]")).to_be_hidden()
    assert lab.locator("[data-lab-view]").inner_html() != good_view
    assert editor_text(page) == original

    # a runaway loop: «Ferma» interrupts Python, ends the worker and a new one comes up
    set_editor_text(page, original + "\n\ndef compute(p):\n    while True:\n        pass\n")
    panel.locator('[data-code="run"]').click()
    expect(status).to_contain_text("sta ancora girando", timeout=5_000)
    started = time.perf_counter()
    clicked = page.evaluate("performance.now()")
    panel.locator('[data-code="stop"]').click()
    expect(status).to_contain_text("fermato")
    assert page.evaluate("1 + 1") == 2  # the page never froze: Python runs in a worker
    # Python heard the interrupt: the worker in the loop answered «calcolo fermato» itself, no error of the code
    stops = page.wait_for_function("() => labsMeasure.stoppedAnswers.length && labsMeasure.stoppedAnswers")
    stops = stops.json_value()
    assert [stop["error"] for stop in stops] == ["calcolo fermato"]
    print(f"«Ferma» → Python interrotto: {stops[0]['at'] - clicked:.0f} ms")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY)
    print(f"«Ferma» → laboratorio di nuovo pronto: {time.perf_counter() - started:.2f} s")
    set_range(page, "temperatura", 2)
    idle(page, lab)
    expect(lab.locator("[data-lab-error]")).to_be_hidden()

    # a shared link: the code comes back in the editor, with a banner, and does not run by itself
    edited = original.replace(MAX_SUBTRACTION, WITHOUT_MAX)
    set_editor_text(page, edited)
    panel.locator('[data-code="share"]').click()
    expect(status).to_contain_text("ink")
    shared_url = page.url
    assert "#codice=" in shared_url
    other = context.new_page()
    other.goto(shared_url)
    expect(other.locator("[data-code-banner]")).to_contain_text("Questa pagina usa codice modificato")
    expect(other.locator("[data-lab]")).to_have_attribute("data-ready", "true", timeout=READY)
    assert other.evaluate("() => document.querySelector('[data-lab-code]').codePanel.editor.text") == edited
    assert other.evaluate("() => document.querySelector('[data-lab-code]').codePanel.running") is None
    other.locator("[data-code-banner] button").click()
    expect(other.locator("[data-code-banner]")).to_have_count(0)
    assert "codice=" not in other.url


def test_no_editor_download_without_modifica(page, site_url):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    lab = open_ready(page, f"{site_url}capitolo-3/bigrammi/")
    lab.locator('[data-step="+1"]').click()
    idle(page, lab)
    assert not [u for u in requests if u.endswith("/editor.js")]
    # and the read-only listing is a page of its own, highlighted, that the page links to before any script runs
    page.goto(f"{site_url}capitolo-3/bigrammi/codice.html")
    expect(page.locator(".lab-code-listing .highlight").first).to_be_visible()
    assert "def start(" in page.locator(".lab-code-listing").text_content()
    page.locator("text=Torna al laboratorio").click()
    expect(page.locator("[data-lab]")).to_be_visible()


def test_a_listing_that_cannot_be_fetched_says_so_and_modifica_fetches_it_again(page, site_url):
    lab = open_ready(page, f"{site_url}capitolo-9/softmax-temperatura/")
    panel = page.locator("[data-lab-code]")
    page.route("**/codice.html", lambda route: route.fulfill(status=503, body="no"))
    panel.locator("summary").click()
    expect(panel.locator("[data-lab-code-status]")).to_contain_text("Non riesco a scaricare il codice (HTTP 503)")
    expect(panel.locator(".lab-code-wait")).to_have_text("Il codice, in una pagina a parte")  # the way there stays
    page.unroute("**/codice.html")
    panel.locator('[data-code="edit"]').click()
    expect(panel.locator(".cm-editor")).to_be_visible()
    assert editor_text(page) == editable_text(labs.get("softmax-temperatura").module)
    assert lab.is_visible()


def test_the_open_listing_scrolls_inside_its_boxes_on_a_phone(page, site_url):
    page.set_viewport_size({"width": 390, "height": 844})
    open_ready(page, f"{site_url}capitolo-3/transformer-allenato/")
    page.locator("[data-lab-code] summary").click()
    expect(page.locator(".lab-code-listing .highlight").first).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scrolling of the page
    boxes = page.locator(".lab-code-listing pre")
    assert boxes.evaluate_all("pres => pres.some((p) => p.scrollWidth > p.clientWidth)")
    assert boxes.evaluate_all("pres => pres.every((p) => p.tabIndex === 0)")


def test_a_suggested_edit_shows_its_effect_and_ripristina_undoes_it(page, site_url):
    """9E's two suggested edits: one click opens the editor with the edit made, sets the controls
    (T = 2, then +1000), runs it and goes to the changed line, or shows the overflow with its line;
    «Ripristina» puts back the code and the controls."""
    lab = open_ready(page, f"{site_url}capitolo-9/softmax-temperatura/")
    panel = page.locator("[data-lab-code]")
    status = panel.locator("[data-lab-code-status]")
    expected = panel.locator("[data-lab-code-expected]")
    panel.locator("summary").click()
    start_view = lab.locator("[data-lab-view]").inner_html()
    expect(panel.locator(".lab-code-try")).to_contain_text("Prova a cambiare")
    button = panel.get_by_role("button", name="Prova: la softmax senza togliere il massimo")
    expect(button).to_be_visible()
    assert panel.locator(".lab-code-try li").first.locator(".lab-code-expect").inner_text().startswith("Con +1000")

    # an edit that runs: the editor goes to the changed line, the controls to where the effect shows
    panel.get_by_role("button", name="Prova: la temperatura che moltiplica invece di dividere").click()
    expect(panel.locator(".cm-editor")).to_be_visible()
    expect(status).to_contain_text("usa il tuo codice")
    expect(panel.locator(".cm-activeLine")).to_contain_text("scaled = [z * temperature for z in logits]")
    expect(expected).to_contain_text("Che cosa aspettarsi")
    assert page.locator('input[name="temperatura"]').input_value() == "2"
    idle(page, lab)
    assert lab.locator("[data-lab-view]").inner_html() != start_view

    # the softmax without the max: +1000 on every logit, the overflow and its line
    button.click()
    expect(status).to_contain_text("overflow")
    expect(status).to_contain_text("riga")
    expect(expected).to_contain_text("non sta in un numero")
    assert page.locator('input[name="aggiunta"]').input_value() == "1000"
    edited = editor_text(page)
    assert WITHOUT_MAX in edited and MAX_SUBTRACTION not in edited
    expect(panel.locator(".cm-activeLine")).to_contain_text("math.exp(s)")  # then the line that failed
    idle(page, lab)
    error_view = lab.locator("[data-lab-view]").inner_html()

    panel.locator('[data-code="reset"]').click()
    expect(status).to_contain_text("ripristinato")
    expect(expected).to_be_hidden()
    idle(page, lab)
    assert page.locator('input[name="aggiunta"]').input_value() == "0"  # both edits' controls as they were
    assert page.locator('input[name="temperatura"]').input_value() == "1"
    assert error_view != start_view  # the failed run kept the temperature edit's view
    assert MAX_SUBTRACTION in editor_text(page) and WITHOUT_MAX not in editor_text(page)
    expect(lab.locator("[data-lab-error]")).to_be_hidden()
    assert lab.locator("[data-lab-view]").inner_html() == start_view


def test_a_suggested_edit_opens_the_fold_where_its_effect_shows(page, site_url):
    """A.4's «le teste senza W_o» shows in «3. Le uscite in fila, poi W_o», a fold closed by default:
    «Prova» opens it (its params say sezioni=uscite, the name the page sends, labs/kit/contract.py),
    Python draws it with the edited code, and the output is the heads side by side."""
    from labs.kit.folds import FOLDS_PARAM

    runtime = (ROOT / "templates" / "runtime" / "page" / "url.js").read_text(encoding="utf-8")
    assert f'const FOLDS_PARAM = "{FOLDS_PARAM}";' in runtime
    lab = open_ready(page, f"{site_url}approfondimenti-a/multi-head/")
    fold = lab.locator('details[data-fold="uscite"]')
    assert fold.get_attribute("open") is None and fold.locator('[data-part="out"]').count() == 0
    panel = page.locator("[data-lab-code]")
    panel.locator("summary").click()
    panel.get_by_role("button", name="Prova: le teste senza W_o").click()
    expect(panel.locator("[data-lab-code-status]")).to_contain_text("usa il tuo codice")
    expect(fold.locator('[data-part="out"]')).to_be_visible()
    idle(page, lab)
    # textContent, not innerText: a big table off screen is not rendered yet (content-visibility), its text is there
    cells = lambda part: fold.locator(f'[data-part="{part}"] td.lab-mx-cell').all_text_contents()  # noqa: E731
    assert cells("out") == cells("concat") and len(cells("out")) == 42
