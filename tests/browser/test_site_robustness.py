"""The site as an unlucky reader meets it: offline after one visit, with stalled and corrupted
downloads, from disk, under a sub-path, racing the URL (its policy and axe-core:
test_site_policy.py). One browser for all; pages are walked with instant navigation, which is
also what keeps this file fast."""

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from lab_pages import READY, go, ready, search, set_value, settle
from playwright.sync_api import expect

import labs

ROOT = Path(__file__).resolve().parents[2]
THEME_LATEST = 10_000  # ms: the theme starts at the latest then, Python or not (templates/runtime/page/theme.js)
LABS = labs.all_labs()


@pytest.fixture(scope="module")
def warm_page(browser, site_url):
    """One page whose Python stays started: the tests that only need a lab move
    to it by instant navigation instead of paying Pyodide's start again."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{site_url}{LABS[0].path}")
    ready(page, LABS[0].id)
    yield page
    context.close()


def test_a_late_result_never_writes_its_settings_into_the_next_labs_url(warm_page, site_url):
    """A race: a change, then another lab within a few milliseconds.

    3.2 at step 40 with the other tokens replays 40 training steps (over a
    second), and the second time at step 80 (the worker has kept the first
    machine: 40 more steps): its result surely arrives after the next page is
    there, and the test checks that it was still on its way. The other labs
    answer in a few milliseconds: the race is only likely there."""
    page = warm_page
    cases = (
        ("capitolo-3/transformer-allenato/", "?passo={}", "token", "caratteri", "capitolo-1/ombrello/", True),
        ("capitolo-9/alte-dimensioni/", "?d=4096", "seme", None, "approfondimenti-a/residuo-profondita/", False),
        ("capitolo-9/vettori/", "", "ax", None, "capitolo-9/prodotto-scalare/", False),
    )
    for start, query, control, value, target, surely_late in cases:
        for attempt in range(2 if surely_late else 3):
            go(
                page, f"{site_url}{start}{query.format(40 * (attempt + 1))}"
            )  # Python stays warm across instant navigation
            ready(page, start.split("/")[1], timeout=30_000)
            settle(page)
            if value is None:
                page.locator(f'[data-param="{control}"]').focus()
                page.keyboard.press("End")
            else:
                page.evaluate(
                    """([name, value]) => { const input = document.querySelector(`[data-param="${name}"]`);
                    input.value = value; input.dispatchEvent(new Event("input", { bubbles: true })); }""",
                    [control, value],
                )
            on_its_way = page.evaluate("document.querySelector('[data-lab]').dataset.busy === 'true'")
            go(page, f"{site_url}{target}")
            ready(page, target.split("/")[1], timeout=60_000)
            page.wait_for_timeout(900)  # the late result has arrived by now, and its URL would be written
            assert urlparse(page.url).query == "", page.url
            assert urlparse(page.url).path.endswith(target)
            assert on_its_way or not surely_late, "il risultato non era in ritardo: la corsa non è stata provata"


def test_a_link_to_the_lab_itself_keeps_its_settings(warm_page, site_url):
    page = warm_page
    go(page, f"{site_url}capitolo-1/ombrello/")
    ready(page, "ombrello", timeout=30_000)
    set_value(page, "vento", 1)
    expect(page).to_have_url(re.compile(r"vento=1"))
    search(page, "ombrello")
    result = page.locator(".md-search-result__item > a[href$='ombrello/']:visible").first
    expect(result).to_be_visible(timeout=15_000)
    result.click()
    expect(page.locator('[data-param="vento"]')).to_have_value("1")
    assert "vento=1" in page.url
    assert not page.evaluate("document.getElementById('__search').checked")


def test_the_url_is_written_once_the_reader_pauses_and_before_a_link_is_followed(warm_page, site_url):
    page = warm_page
    go(page, f"{site_url}capitolo-1/ombrello/")
    ready(page, "ombrello", timeout=30_000)
    page.evaluate("""() => { window.__urls = [];
        const replace = history.replaceState.bind(history);
        history.replaceState = (state, title, url) => { window.__urls.push(String(url)); return replace(state, title, url); }; }""")
    page.locator('[data-param="vento"]').evaluate("""(el) => { for (const v of ["0.2", "0.4", "0.6", "0.8", "1"]) {
        el.value = v; el.dispatchEvent(new Event("input", { bubbles: true })); } }""")  # a slider dragged
    settle(page)
    page.wait_for_function("() => window.__urls.length > 0")
    page.wait_for_timeout(500)
    assert page.evaluate("window.__urls") == ["/capitolo-1/ombrello/?vento=1"]
    # a change followed at once by a link: the page left says what the reader last saw
    set_value(page, "vento", 0.5)
    settle(page)
    go(page, f"{site_url}capitolo-2/loss/")
    ready(page, "loss", timeout=30_000)
    page.go_back()
    expect(page).to_have_url(re.compile(r"ombrello/\?.*vento=0\.5"))


def test_bad_url_values_give_the_labs_default_and_a_comma_decimal_is_read(warm_page, site_url):
    page = warm_page
    lab = next(lab for lab in LABS if lab.id == "softmax-temperatura")
    slider = next(c for c in lab.params_list if c.kind == "slider")
    for bad in ("abc", "", "NaN", "1e999"):
        go(page, f"{site_url}capitolo-2/loss/")
        ready(page, "loss", timeout=30_000)
        go(page, f"{site_url}{lab.path}?{slider.name}={bad}")
        ready(page, lab.id, timeout=30_000)
        settle(page)
        expect(page.locator(f'[data-param="{slider.name}"]')).to_have_value(str(slider.default).removesuffix(".0"))
        page.wait_for_timeout(500)  # the URL is written when the reader pauses
        assert slider.name not in parse_qs(urlparse(page.url).query), page.url  # the default is not written back
    go(page, f"{site_url}capitolo-2/loss/?p=0,5")
    ready(page, "loss", timeout=30_000)
    settle(page)
    expect(page.locator('[data-param="p"]')).to_have_value("0.5")


def test_enter_and_space_on_a_point_of_a_drawing_set_its_controls(warm_page, site_url):
    page = warm_page
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    go(page, f"{site_url}capitolo-2/loss/")
    root = ready(page, "loss", timeout=30_000)
    points = root.locator("svg [data-set][tabindex='0']")
    for key, index in (("Enter", 0), (" ", 1)):
        point = points.nth(index)
        wanted = dict(pair.split("=") for pair in point.get_attribute("data-set").split(";"))
        point.focus()
        page.keyboard.press(key)
        settle(page)
        for name, value in wanted.items():
            expect(root.locator(f'[data-param="{name}"]')).to_have_value(value)
    assert errors == []


def test_a_stalled_download_ends_with_the_retry_message(page, site_url):
    held = []
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))  # never answered: a stalled download
    page.goto(f"{site_url}capitolo-1/ombrello/")
    lab = page.locator("[data-lab='ombrello']")
    message = lab.locator("[data-lab-message]")
    expect(message).to_contain_text("si è fermato", timeout=30_000)  # the worker's stall timeout is 15 s
    expect(lab.locator("[data-lab-retry]")).to_be_visible()
    page.unroute("**/pyodide.asm.wasm")
    lab.locator("[data-lab-retry]").click()
    ready(page, "ombrello")


# when the theme's script ran (it defines window.document$), from the page's start
WATCH_THEME = """
Object.defineProperty(window, "document$", { configurable: true, set(value) {
  window.themeRanAt = performance.now();
  Object.defineProperty(window, "document$", { value, writable: true, configurable: true });
} });
new MutationObserver((records, observer) => {  // when the page asked for it (its <script> appended)
  if (!records.some((r) => [...r.addedNodes].some((n) => n.tagName === "SCRIPT" && /bundle/.test(n.src)))) return;
  window.themeAskedAt = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


def test_the_theme_waits_for_python_and_a_key_starts_it_sooner(browser, site_url):
    """On a lab page the theme's script runs once the lab is «pronto», not while Pyodide
    starts or the worker imports and draws the lab; a reader who presses a key meanwhile
    gets it at once, and its search then works."""
    context = browser.new_context()
    context.add_init_script(WATCH_THEME)
    page = context.new_page()
    page.goto(f"{site_url}capitolo-1/ombrello/")
    ready(page, "ombrello")
    expect(page.locator("html")).to_have_class(re.compile(r"\bjs\b"))  # the theme has started
    asked, started = page.evaluate(
        "[window.themeAskedAt, performance.getEntriesByName('labs:worker:next')[0].startTime]"
    )  # the end of the worker's start, on the page's timeline
    assert asked > min(started, THEME_LATEST), (asked, started)  # or the latest it waits, on a slow machine
    page.close()

    held = []
    page = context.new_page()
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))  # Python never starts
    page.goto(f"{site_url}capitolo-1/ombrello/")
    page.wait_for_timeout(1000)
    assert page.evaluate("[window.themeRanAt, window.labsRuntime.theme]") == [None, "waiting"]
    page.keyboard.press("Shift")
    expect(page.locator("html")).to_have_class(re.compile(r"\bjs\b"))
    search(page, "softmax")
    expect(page.locator(".md-search-result__item a").first).to_be_visible(timeout=15_000)
    context.close()


def test_a_runtime_module_held_open_by_the_server_ends_with_the_retry_message(page, site_url):
    """import() has no timeout of its own: a held pyodide.asm.mjs fails like a stalled download."""
    held = []
    page.route("**/pyodide.asm.mjs", lambda route: held.append(route))
    page.goto(f"{site_url}capitolo-1/ombrello/")
    lab = page.locator("[data-lab='ombrello']")
    expect(lab.locator("[data-lab-message]")).to_contain_text("pyodide.asm.mjs si è fermato", timeout=40_000)
    expect(lab.locator("[data-lab-retry]")).to_be_visible()
    page.unroute("**/pyodide.asm.mjs")
    lab.locator("[data-lab-retry]").click()
    ready(page, "ombrello")


def test_the_service_worker_registers_on_load_and_after_pythons_first_start(browser, site_url):
    """A page without a lab registers sw.js once loaded; a lab page waits for
    Python's first start to end, so the copies never compete with that download."""
    has_worker = "async () => Boolean(await navigator.serviceWorker.getRegistration())"
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{site_url}scrivere-un-laboratorio/")
    page.wait_for_function(has_worker, timeout=15_000)
    context.close()
    context = browser.new_context()
    page = context.new_page()
    held, released = [], []

    def hold(route):  # a wheel asked for once released goes on at once: none is left waiting
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/*.whl", hold)
    page.goto(f"{site_url}capitolo-1/ombrello/")
    page.wait_for_load_state("load")
    while not held:
        page.wait_for_timeout(100)
    page.wait_for_timeout(1000)
    assert page.evaluate("window.labsRuntime.status") == "loading"
    assert not page.evaluate(has_worker)
    released.append(True)
    while held:
        held.pop().continue_()
    page.unroute("**/*.whl")
    ready(page, "ombrello")
    page.wait_for_function(has_worker, timeout=15_000)
    context.close()


def test_a_corrupted_wheel_is_named_in_italian_and_retry_recovers(page, site_url, site_dir):
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "Uncaught" in m.text else None)
    wheel = next((site_dir / "pyodide").glob("*.whl"))
    truncated = wheel.read_bytes()[: wheel.stat().st_size // 2]
    page.route("**/*.whl", lambda route: route.fulfill(body=truncated, content_type="application/zip"))
    page.goto(f"{site_url}capitolo-1/ombrello/")
    lab = page.locator("[data-lab='ombrello']")
    message = lab.locator("[data-lab-message]")
    expect(message).to_contain_text("controllo di integrità del pacchetto dei laboratori", timeout=READY)
    text = message.text_content()
    assert not re.search(r"Error|Traceback|micropip|Failed|not loaded", text), text
    page.unroute("**/*.whl")
    lab.locator("[data-lab-retry]").click()
    ready(page, "ombrello")
    assert errors == []


def test_an_aborted_wasm_download_leaves_no_unhandled_rejection(page, site_url):
    uncaught = []
    page.on("pageerror", lambda e: uncaught.append(str(e)))
    page.on(
        "console",
        lambda m: (
            uncaught.append(m.text)
            if m.type == "error" and ("Uncaught" in m.text or "Failed to fetch" in m.text)
            else None
        ),
    )
    page.route("**/pyodide.asm.wasm", lambda route: route.abort())
    page.goto(f"{site_url}capitolo-1/ombrello/")
    expect(page.locator("[data-lab-message]")).to_contain_text("non è riuscito", timeout=READY)
    page.wait_for_timeout(1000)
    assert uncaught == []


def test_opened_from_disk_the_page_says_it_must_be_served(page, site_dir):
    page.goto((site_dir / "capitolo-1" / "ombrello" / "index.html").as_uri())
    message = page.locator("[data-lab-message]")
    expect(message).to_contain_text("va servito da un server web")
    expect(message).to_contain_text("make serve")


def test_missing_pages_get_the_sites_italian_404(page, site_url):
    response = page.goto(f"{site_url}non/esiste/proprio/")
    assert response.status == 404
    expect(page.locator("h1")).to_have_text("Pagina non trovata")
    assert page.evaluate("[...document.styleSheets].some(s => s.href && s.href.includes('main.'))")


def test_every_page_works_offline_after_one_visit(context, site_dir, goto_holding_the_wasm):
    """One visit registers sw.js; then the server is stopped (really offline, for
    the service worker too) and every lab page opens, with Python started again
    from the cache. The phases of the first load are shown on the way."""
    from serve import make_server, serve_in_background

    server = make_server(site_dir)  # its own server, to be switched off
    site_url = serve_in_background(server)
    context.add_init_script("""
        window.phases = new Set();
        new MutationObserver(() => {
          const m = document.querySelector('[data-lab-message]');
          if (m) window.phases.add(m.textContent.replace(/\\d+/g, '#'));
        }).observe(document, {subtree: true, childList: true, characterData: true});
    """)
    page = context.new_page()
    goto_holding_the_wasm(page, f"{site_url}capitolo-1/ombrello/")
    ready(page, "ombrello")
    phases = " ".join(page.evaluate("[...window.phases]"))
    for phase in ("download, #", "avvio di Python", "caricamento dei laboratori"):
        assert phase in phases, phases
    page.wait_for_function(
        "async () => (await navigator.serviceWorker.ready) && navigator.serviceWorker.controller", timeout=READY
    )
    cached = page.evaluate("""async () => {
        const names = (await caches.keys()).filter(n => n.startsWith('laboratori-llm-'));
        let bytes = 0, files = 0;
        for (const request of await (await caches.open(names[0])).keys()) {
          bytes += (await (await caches.open(names[0])).match(request)).headers.get('content-length') * 1 || 0;
          files += 1;
        }
        return {names, bytes, files};
    }""")
    print(f"\nservice worker: cache {cached['names']}, {cached['files']} file, {cached['bytes']} byte")
    assert len(cached["names"]) == 1 and cached["files"] > len(LABS)
    server.shutdown()
    server.server_close()
    # a full load (Python starts again from the cache), then every lab by instant navigation
    page.goto(f"{site_url}{LABS[-1].path}?seme=3")
    ready(page, LABS[-1].id)
    results = {}
    for lab in LABS:
        go(page, f"{site_url}{lab.path}")
        try:
            ready(page, lab.id, timeout=30_000)
            results[lab.id] = True
        except AssertionError:
            results[lab.id] = False
    for path in ("", "pagina/che/non/esiste/"):  # the home, and the 404 page for what is not in the cache
        page.goto(f"{site_url}{path}")
        results[path or "home"] = page.locator("h1").count() == 1
    print("offline:", results)
    assert all(results.values()), [k for k, ok in results.items() if not ok]


@pytest.fixture(scope="module")
def sub_path_site(tmp_path_factory):
    """The site built for https://host/sub/ and served at /sub/ by the test server."""
    from serve import make_server, serve_in_background

    work = tmp_path_factory.mktemp("sub")
    env = {
        **os.environ,
        "SITE_URL": "http://127.0.0.1:8000/sub/",
        "LABS_BUILD_DIR": str(work / "build"),
        "LABS_SITE_DIR": str(work / "site"),
    }
    subprocess.run([sys.executable, str(ROOT / "build.py")], env=env, check=True, capture_output=True)
    server = make_server(work / "site", base="/sub/")
    yield work / "site", serve_in_background(server)
    server.shutdown()


def test_a_deploy_under_a_sub_path_works(page, sub_path_site):
    site, url = sub_path_site
    failed = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(f"{url}capitolo-1/ombrello/")
    ready(page, "ombrello")
    set_value(page, "vento", 1)
    expect(page.locator('[data-part="rete"] [data-decision]')).to_have_attribute("data-decision", "no")
    go(page, f"{url}capitolo-9/vettori/")
    ready(page, "vettori", timeout=30_000)
    assert failed == []
    not_found = (site / "404.html").read_text(encoding="utf-8")
    assert 'href="/assets/' not in not_found and 'src="/assets/' not in not_found
    response = page.goto(f"{url}a/b/c/manca/")
    assert response.status == 404
    expect(page.locator("h1")).to_have_text("Pagina non trovata")
    assert failed == [response.url]  # the page itself; its styles and scripts all load under /sub/
