"""The site under its strict CSP (served by the test server from site/_headers), with axe-core on
every lab light and dark, the theme's search and instant navigation under the policy, and the
skip link to the lab. One browser for all; pages are walked with instant navigation."""

from pathlib import Path

import pytest
from lab_pages import go, ready, search, set_value
from playwright.sync_api import expect

import labs

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
LABS = labs.all_labs()

# every CSP violation of the page, as the browser reports it
WATCH_CSP = """
window.cspViolations = [];
document.addEventListener('securitypolicyviolation',
  e => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.fixture
def csp_page(context, site_url):
    context.add_init_script(WATCH_CSP)
    context.route("**/__axe.js", lambda route: route.fulfill(path=str(AXE), content_type="text/javascript"))
    return context.new_page()


def test_the_server_sends_the_strict_policy_and_every_page_carries_it(csp_page, site_url):
    response = csp_page.goto(f"{site_url}{LABS[0].path}")
    policy = response.headers["content-security-policy"]
    for part in (
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval' 'sha256-",
        "style-src 'self';",
        "img-src 'self' data:",
        "worker-src 'self'",
        "connect-src 'self'",
    ):
        assert part in policy, part
    assert "unsafe-inline" not in policy and "'unsafe-eval'" not in policy and "blob:" not in policy
    meta = csp_page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    assert meta == policy


def test_axe_finds_nothing_serious_on_any_lab_light_or_dark_and_csp_is_never_violated(csp_page, site_url):
    """axe-core (npm) on every lab page once Python has drawn it, and on «I tuoi esercizi»: every rule in the
    light scheme, the contrast again in the dark one. Also: no CSP violation on any page."""
    page = csp_page
    page.goto(f"{site_url}{LABS[0].path}")
    page.add_script_tag(url=f"{site_url}__axe.js")  # same origin: allowed by script-src 'self'
    found = {"light": {}, "dark": {}}
    for scheme, options in (("light", "{}"), ("dark", "{runOnly: ['color-contrast']}")):
        # the scheme a reader picks with the toggle; its colour transitions last 0.25 s
        page.evaluate(f"""async () => {{ localStorage.setItem('__palette', JSON.stringify({{index: {int(scheme == "dark")}}}));
            document.body.dataset.mdColorScheme = '{"default" if scheme == "light" else "slate"}';
            await new Promise(r => setTimeout(r, 400)); }}""")
        for path, lab_id in [*((lab.path, lab.id) for lab in LABS), ("i-tuoi-esercizi/", None)]:
            go(page, f"{site_url}{path}")
            if lab_id:
                ready(page, lab_id)
            else:
                page.wait_for_url(f"**/{path}")
            violations = page.evaluate(f"""async () => (await axe.run(document, {options})).violations
                .filter(v => v.impact === 'critical' || v.impact === 'serious')
                .map(v => `${{v.id}} ×${{v.nodes.length}}: ${{v.nodes[0].target.join(' ')}}`)""")
            if violations:
                found[scheme][lab_id or path] = violations
    print("\naxe-core, pagine con violazioni gravi:", found)
    assert found == {"light": {}, "dark": {}}
    assert page.evaluate("window.cspViolations") == []


def test_palette_search_and_instant_navigation_work_under_the_policy(csp_page, site_url):
    page = csp_page
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site_url)
    page.evaluate("window.sameDocument = true")
    scheme = page.evaluate("document.body.dataset.mdColorScheme")
    page.locator("form[data-md-component=palette] label:visible").first.click()
    expect(page.locator("body")).not_to_have_attribute("data-md-color-scheme", scheme)
    search(page, "softmax")
    result = page.locator(".md-search-result__item a").first
    expect(result).to_be_visible(timeout=15_000)
    result.click()
    lab = ready(page, "softmax-temperatura")
    go(page, f"{site_url}capitolo-1/ombrello/")
    ready(page, "ombrello", timeout=30_000)
    set_value(page, "vento", 1)
    expect(page.locator("[data-lab-live]")).to_contain_text("Neurone dell'ombrello")
    assert page.evaluate("window.sameDocument") is True, "la navigazione istantanea ha ricaricato la pagina"
    assert lab.count() == 0
    assert page.evaluate("window.cspViolations") == []
    assert errors == []


def test_the_skip_link_leads_to_the_lab_and_focus_is_visible(page, site_url):
    page.goto(f"{site_url}capitolo-1/ombrello/")
    ready(page, "ombrello")
    page.keyboard.press("Tab")
    skip = page.locator("a.md-skip", has_text="Vai al laboratorio")
    expect(skip).to_be_focused()
    page.keyboard.press("Enter")
    # at once, not on a later turn of the theme's instant navigation, which would take it back from the next Tab
    assert page.evaluate("document.activeElement.id") == "laboratorio"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('[data-lab]') !== null")
    page.wait_for_timeout(500)
    assert page.evaluate("document.activeElement.closest('[data-lab]') !== null"), "il focus è tornato indietro"
    header = page.locator(".md-header").bounding_box()
    assert page.locator("[data-lab='ombrello']").bounding_box()["y"] >= header["y"] + header["height"] - 1
    slider = page.locator('[data-param="vento"]')
    slider.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    outline = slider.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline not in ("none", ""), "il cursore non mostra il focus"
