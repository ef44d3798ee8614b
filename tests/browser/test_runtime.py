"""The built site in headless Chromium: prerender, Pyodide, controls, URL,
instant navigation, errors. Runs against site/ served on 127.0.0.1."""

import json
import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

READY_TIMEOUT = 90_000  # a cold Pyodide start on a slow CI machine


@pytest.fixture
def console_errors(page):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def open_lab(page, site_url, path, query=""):
    page.goto(f"{site_url}{path}{query}")
    lab = page.locator("[data-lab]")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    return lab


def activations(page):
    return page.locator('[data-part="rete"] [data-activation]').evaluate_all(
        "nodes => nodes.map(n => n.dataset.activation)"
    )


def set_range(page, name, value):
    """Move a slider as a reader would: set it and fire 'input'."""
    page.locator(f'input[name="{name}"]').evaluate(
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }", str(value)
    )


def test_prerendered_numbers_show_without_python_and_retry_recovers(page, site_url):
    blocked = {"on": True}

    def maybe_block(route):
        if blocked["on"]:
            route.abort()
        else:
            route.continue_()

    page.route("**/pyodide.asm.wasm", maybe_block)
    page.goto(f"{site_url}capitolo-1/ombrello/")
    lab = page.locator("[data-lab='ombrello']")
    # the build's numbers are there straight away, the controls wait for Python
    expect(lab.locator('[data-part="rete"] [data-decision]')).to_have_attribute("data-decision", "si")
    expect(lab.locator('[data-part="rete"] table')).to_contain_text("0,90")
    expect(lab.locator('input[name="vento"]')).to_be_disabled()
    expect(lab.locator("[data-lab-message]")).to_contain_text(
        "Non è stato possibile avviare Python", timeout=READY_TIMEOUT
    )
    expect(lab.locator("[data-lab-retry]")).to_be_visible()
    assert lab.get_attribute("data-ready") is None
    blocked["on"] = False
    lab.locator("[data-lab-retry]").click()
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    expect(lab.locator('input[name="vento"]')).to_be_enabled()


def test_umbrella_reacts_to_its_sliders_and_keeps_state_in_the_url(page, site_url, console_errors):
    lab = open_lab(page, site_url, "capitolo-1/ombrello/")
    decision = lab.locator('[data-part="rete"] [data-decision]')
    expect(decision).to_have_attribute("data-decision", "si")
    before = activations(page)
    set_range(page, "vento", 1)
    expect(decision).to_have_attribute("data-decision", "no")
    expect(lab).not_to_have_attribute("data-busy", "true")
    assert activations(page) != before
    expect(lab.locator('output[data-output="vento"]')).to_have_text("1")
    expect(page).to_have_url(re.compile(r"vento=1"))  # written when the reader pauses
    # a link reproduces the view
    page.reload()
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    expect(decision).to_have_attribute("data-decision", "no")
    expect(page.locator('input[name="vento"]')).to_have_value("1")
    assert console_errors == []


def test_keyboard_moves_a_slider(page, site_url):
    lab = open_lab(page, site_url, "capitolo-1/ombrello/")
    slider = page.locator('input[name="w_vento"]')
    slider.focus()
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(lab.locator('output[data-output="w_vento"]')).to_have_text("−0,9")
    expect(page).to_have_url(re.compile(r"w_vento=-0\.9"))


def test_out_of_range_url_values_are_clamped(page, site_url, console_errors):
    lab = open_lab(page, site_url, "capitolo-1/ombrello/", "?vento=7&nuvole=abc&sconosciuto=1")
    expect(page.locator('input[name="vento"]')).to_have_value("1")
    expect(lab.locator('[data-part="rete"] [data-decision]')).to_have_attribute("data-decision", "no")
    expect(lab.locator("[data-lab-error]")).to_be_hidden()
    assert console_errors == []


def test_backprop_steps_forward_back_reset_and_survive_reload(page, site_url, console_errors):
    lab = open_lab(page, site_url, "capitolo-2/backprop-due-pesi/")
    phase = lab.locator("[data-phase]")
    expect(phase).to_have_attribute("data-phase", "0")
    expect(lab.locator('[data-step="-1"]')).to_be_disabled()
    for expected in ("1", "2", "3", "4"):
        lab.locator('[data-step="+1"]').click()
        expect(phase).to_have_attribute("data-phase", expected)
    expect(lab.locator(".lab-formula")).to_contain_text("L = (ŷ − y)² = (0,6000 − 2,0000)² = 1,9600")
    lab.locator('[data-step="-1"]').click()
    expect(phase).to_have_attribute("data-phase", "3")
    expect(page).to_have_url(re.compile(r"passo=3"))
    page.reload()
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    expect(phase).to_have_attribute("data-phase", "3")
    expect(lab.locator("[data-step-counter]")).to_contain_text("Passo 3 di 260")
    lab.locator('[data-step="reset"]').click()
    expect(phase).to_have_attribute("data-phase", "0")
    expect(page).not_to_have_url(re.compile(r"passo="))
    assert console_errors == []


def test_dead_relu_is_shown_stopping_the_gradient(page, site_url):
    lab = open_lab(page, site_url, "capitolo-2/backprop-due-pesi/", "?w1=-0.5&passo=11")
    expect(lab.locator("[data-phase]")).to_have_attribute("data-phase", "11")
    expect(lab.locator(".lab-callout.is-warn")).to_contain_text("il gradiente si ferma qui".capitalize().split()[0])
    expect(lab.locator(".lab-formula")).to_contain_text("= 0,0000")


def test_instant_navigation_keeps_one_worker(page, site_url, console_errors):
    wasm_requests = []
    page.on("request", lambda r: wasm_requests.append(r.url) if r.url.endswith("pyodide.asm.wasm") else None)
    open_lab(page, site_url, "capitolo-1/ombrello/")
    page.evaluate("window.sameTab = true")
    # lab pages hide the left navigation (the figure gets the width): the footer leads to the next lab and back
    page.locator("a.md-footer__link--next").click()
    lab = page.locator("[data-lab='rete-finestra']")
    expect(lab).to_have_attribute("data-ready", "true", timeout=10_000)
    page.locator("a.md-footer__link--prev").click()
    umbrella = page.locator("[data-lab='ombrello']")
    expect(umbrella).to_have_attribute("data-ready", "true", timeout=10_000)
    set_range(page, "vento", 1)
    expect(umbrella.locator('[data-part="rete"] [data-decision]')).to_have_attribute("data-decision", "no")
    assert page.evaluate("window.sameTab") is True, "la pagina è stata ricaricata"
    assert len(wasm_requests) == 1, wasm_requests
    assert console_errors == []


def test_a_wheel_that_does_not_download_after_navigation_is_named_in_italian(page, site_url):
    """The next lab's wheels, put in by the worker when its page first asks (worker.js install): one that
    cannot be downloaded gives the lab an Italian line naming it, and the page keeps working."""
    open_lab(page, site_url, "capitolo-1/ombrello/")
    page.route("**/laboratori_llm_ch1_rete_finestra-*.whl", lambda route: route.abort())
    page.locator("a.md-footer__link--next").click()
    lab = page.locator("[data-lab='rete-finestra']")
    expect(lab).to_have_attribute("data-ready", "true", timeout=10_000)
    set_range(page, "n", 200)
    expect(lab.locator("[data-lab-error]")).to_contain_text(
        "Il codice di questo laboratorio (laboratori-llm-ch1-rete-finestra) non si è scaricato"
    )
    page.unroute("**/laboratori_llm_ch1_rete_finestra-*.whl")
    set_range(page, "n", 300)  # asked again: downloaded now, drawn
    expect(lab.locator("[data-lab-error]")).to_be_hidden()


def test_a_failing_computation_shows_an_italian_error_inside_the_lab(page, site_url):
    lab = open_lab(page, site_url, "capitolo-1/ombrello/")
    page.evaluate("document.querySelector('[data-lab]').labController.id = 'inesistente'")
    set_range(page, "vento", 1)
    error = lab.locator("[data-lab-error]")
    expect(error).to_be_visible()
    expect(error).to_contain_text("laboratorio sconosciuto")
    expect(lab.locator('[data-part="rete"] [data-decision]')).to_have_attribute("data-decision", "si")  # view kept
    page.evaluate("document.querySelector('[data-lab]').labController.id = 'ombrello'")
    set_range(page, "vento", 0.9)
    expect(error).to_be_hidden()
    expect(lab.locator('[data-part="rete"] [data-decision]')).to_have_attribute("data-decision", "no")


def test_no_request_leaves_the_site(context, site_url):
    outside = []

    def guard(route):
        host = urlparse(route.request.url).hostname
        if host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.goto(site_url)
    page.locator("[data-lab-card='ombrello']").click()
    expect(page.locator("[data-lab]")).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    set_range(page, "vento", 1)
    expect(page.locator('[data-part="rete"] [data-decision]')).to_have_attribute("data-decision", "no")
    assert outside == []


def test_the_progress_bar_counts_the_download_and_is_never_an_animation(
    page, site_url, site_dir, goto_holding_the_wasm
):
    """Once the bytes are in, the bar stays full: an indeterminate <progress> is an animation painted on the page's
    main thread, which Pyodide's start waits on (in WebKit and Firefox «pronto» came later for it)."""
    seen, positions = [], []
    page.expose_function("reportProgress", lambda value, position: (seen.append(value), positions.append(position)))
    page.add_init_script("""
        new MutationObserver(() => {
          const bar = document.querySelector('[data-lab-progress]');
          if (bar && !bar.hidden) window.reportProgress(bar.value, bar.position);
        }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
    """)
    goto_holding_the_wasm(page, f"{site_url}capitolo-1/ombrello/")
    expect(page.locator("[data-lab]")).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    wasm = (site_dir / "pyodide" / "pyodide.asm.wasm").stat().st_size
    assert page.evaluate("window.labsRuntime.loaded") >= wasm  # every byte of the runtime was counted
    assert any(0 < v < 1 for v in seen), "la barra non ha mai mostrato un avanzamento parziale"
    assert -1 not in positions and seen[-1] == 1, (seen[-5:], positions[-5:])  # position -1: indeterminate


# While the lab waits for Python: whether its view starts to dim (a CSS transition on it or
# .is-waiting), read as soon as the lab says it is busy and again when it is done.
WATCH_DIMMING = """(root) => {
  const view = root.querySelector("[data-lab-view]");
  window.__dimmed = [];
  const dimmed = () => { getComputedStyle(view).opacity; // brings the style up to date, and starts any transition
                         return view.getAnimations().length > 0 || view.classList.contains("is-waiting"); };
  new MutationObserver(() => window.__dimmed.push([root.dataset.busy === "true", dimmed()]))
    .observe(root, { attributes: true, attributeFilter: ["data-busy"] });
}"""


def test_a_quick_change_does_not_dim_the_view(page, site_url):
    # dimming every change made the browser paint the dimmed view first, and the answer waited behind
    # that frame; only a view that takes longer than DIM_AFTER dims (3.2's test sees a slow one dim)
    lab = open_lab(page, site_url, "capitolo-1/ombrello/")
    lab.evaluate(WATCH_DIMMING)
    for value in (0, 1, 0.5):
        set_range(page, "vento", value)
        expect(lab).not_to_have_attribute("data-busy", "true")
    seen = page.evaluate("window.__dimmed")
    assert [busy for busy, _ in seen].count(True) >= 3
    assert not any(dimmed for _, dimmed in seen)


def test_a_link_opens_the_folds_it_names_and_the_url_follows_them(page, site_url):
    """?sezioni=uscite opens A.4's W_o product as the page starts and Python draws it; another setting in
    the link is kept; closing the fold takes it out of the URL, opening it puts it back."""
    lab = open_lab(page, site_url, "approfondimenti-a/multi-head/", "?riga=2&sezioni=uscite")
    fold = lab.locator('details[data-fold="uscite"]')
    expect(fold).to_have_attribute("open", "")
    expect(fold.locator('[data-part="out"]')).to_be_visible()
    expect(fold.locator('[data-part="out"] th.is-hl')).to_have_text("«trofeo»")  # the link's token too
    fold.locator(":scope > summary").click()
    page.wait_for_function("() => !location.search.includes('sezioni')")
    assert "riga=2" in page.url
    fold.locator(":scope > summary").click()
    page.wait_for_function("() => location.search.includes('sezioni=uscite')")
    assert "riga=2" in page.url


def test_a_worker_that_failed_before_the_runtime_came_is_told_and_retried(page, site_url):
    """The <head>'s worker can fail (here: Pyodide's wasm refused) before runtime.js has even arrived;
    the runtime, taking it over, still says so in Italian with «Riprova», and «Riprova» recovers.
    (The runtime once replayed that failure before its own variables existed, and stopped there: the
    page kept saying «Python si sta caricando» for ever.)"""
    blocked, held = {"on": True}, []
    page.route("**/pyodide.asm.wasm", lambda route: route.abort() if blocked["on"] else route.continue_())
    page.route("**/assets/labs/runtime.js", lambda route: held.append(route))
    page.goto(f"{site_url}capitolo-1/ombrello/", wait_until="commit")
    page.wait_for_function("() => self.labsEarly?.events.some((e) => e.data?.type === 'failed')", timeout=READY_TIMEOUT)
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(100)
    held[0].continue_()
    lab = page.locator("[data-lab='ombrello']")
    expect(lab.locator("[data-lab-message]")).to_contain_text(
        "Non è stato possibile avviare Python", timeout=READY_TIMEOUT
    )
    expect(lab.locator("[data-lab-retry]")).to_be_visible()
    blocked["on"] = False
    lab.locator("[data-lab-retry]").click()
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    expect(lab.locator('input[name="vento"]')).to_be_enabled()


def test_the_worker_started_from_the_head_is_the_one_the_page_uses(page, site_url):
    """The inline boot script starts Python's worker from the <head> (its tag names the lab's module), with the page's
    runtime.js still held by the server; the runtime, once it arrives, takes that worker over: one worker for
    the page, and it answers changes."""
    workers, held = [], []
    page.on("worker", lambda worker: workers.append(worker.url))  # the theme's search has a worker of its own
    ours = lambda: [url for url in workers if urlparse(url).path.endswith("/assets/labs/worker.js")]  # noqa: E731
    page.route("**/assets/labs/runtime.js", lambda route: held.append(route))
    page.goto(f"{site_url}capitolo-1/ombrello/", wait_until="commit")
    for _ in range(200):  # up to 20 s on a slow machine
        if ours() and held:
            break
        page.wait_for_timeout(100)
    assert len(ours()) == 1 and len(held) == 1  # started while runtime.js had not arrived
    held[0].continue_()
    lab = page.locator("[data-lab]")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    before = activations(page)
    set_range(page, "pioggia", 0)
    page.wait_for_function(
        """(before) => JSON.stringify([...document.querySelectorAll(
        '[data-part="rete"] [data-activation]')].map((n) => n.dataset.activation)) !== before""",
        arg=json.dumps(before),
    )
    assert len(ours()) == 1
