"""A long «Prova» in Chromium (labs/answers.py): 3.2's experiments at the end of a training show the answer
the build shipped as soon as it is fetched, the worker takes the shipped checkpoint and draws from it, and
«Avanti» then goes on from that step with one training step, to the numbers CPython gives. Times are
printed, not asserted (scripts/experiment_times.py measures every lab)."""

import pytest
from lab_pages import READY, open_ready
from playwright.sync_api import expect

import labs

LAB = labs.get("transformer-allenato")

# Clicks the n-th «Prova» (or the selector's button) and waits for the first view drawn after the click whose
# parameters include `want`: the ms from the click to it.
CLICK_AND_WAIT = """async ({ selector, index, want }) => {
  const root = document.querySelector("[data-lab]");
  const lab = root.labController;
  const button = document.querySelectorAll(selector)[index];
  const start = performance.now();
  button.click();
  return await new Promise((resolve, reject) => {
    const check = () => {
      const drawn = lab.drawn;
      if (drawn && drawn.at >= start && Object.entries(want).every(([k, v]) => String(drawn.params[k]) === v)) {
        return resolve(drawn.at - start);
      }
      if (performance.now() - start > 120000) return reject(new Error("nessuna vista"));
      requestAnimationFrame(check);
    };
    check();
  });
}"""

# Whether the «Calcolo i passi» line (a replay) shows from now on.
WATCH_WORKING = """() => {
  const line = document.querySelector("[data-lab-working]");
  window.replayed = false;
  new MutationObserver(() => { if (!line.hidden) window.replayed = true; })
    .observe(line, { attributes: true, attributeFilter: ["hidden"] });
}"""


def idle(page):
    page.wait_for_function("() => document.querySelector('[data-lab]').dataset.busy === undefined", timeout=120_000)


def index_of(settings):
    return next(i for i, e in enumerate(LAB.experiments) if all(e.settings.get(k) == v for k, v in settings.items()))


@pytest.mark.browser
def test_a_long_prova_is_answered_at_once_and_avanti_goes_on_from_there(page, site_url, capsys):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    open_ready(page, f"{site_url}{LAB.path}")
    button = page.locator("[data-experiment]").nth(index_of({"seme": 1}))
    assert button.get_attribute("data-answer") and button.get_attribute("data-checkpoint")
    shown = page.evaluate(
        CLICK_AND_WAIT,
        {"selector": "[data-experiment]", "index": index_of({"seme": 1}), "want": {"passo": "300", "seme": "1"}},
    )
    expect(page.locator("[data-step-counter]")).to_contain_text("300")
    idle(page)  # the worker's own view, drawn from the checkpoint
    page.evaluate(WATCH_WORKING)
    step = page.evaluate(
        CLICK_AND_WAIT,
        {"selector": '[data-lab] button[data-step="+1"]', "index": 0, "want": {"passo": "301", "seme": "1"}},
    )
    idle(page)
    assert not page.evaluate("window.replayed")  # one step from the checkpoint, not 301 from step 0
    expected = labs.render(LAB.id, {"passo": "301", "seme": "1"})
    assert page.locator("[data-lab-live]").text_content() == expected["summary"]
    with capsys.disabled():
        print(f"\n3.2 «Prova» seme 1, passo 300: risultato in {shown:.0f} ms; «Avanti» al passo 301 in {step:.0f} ms")
    assert not errors, errors


@pytest.mark.browser
def test_every_prova_at_the_end_of_the_training_has_its_answer(page, site_url, capsys):
    open_ready(page, f"{site_url}{LAB.path}")
    times = []
    for index, experiment in enumerate(LAB.experiments):
        if experiment.settings["passo"] != LAB.module.STEPS:
            continue
        want = {"passo": str(LAB.module.STEPS)}
        times.append(page.evaluate(CLICK_AND_WAIT, {"selector": "[data-experiment]", "index": index, "want": want}))
        expect(page.locator("[data-step-counter]")).to_contain_text("1.000")
        look = experiment.look
        expect(
            page.locator(f'[data-lab-view] [id="{look}"], [data-lab-view] [data-part="{look}"]').first
        ).to_have_class(__import__("re").compile(r"\blab-looked-at\b"))
        idle(page)
        page.locator("[data-experiment-undo]:visible").click()
        idle(page)
    with capsys.disabled():
        print("\n3.2 «Prova» alla fine del training, dal clic al risultato: " + ", ".join(f"{t:.0f} ms" for t in times))
    assert len(times) == 5


@pytest.mark.browser
def test_a_long_prova_before_python_is_ready_shows_the_answer_then_python_goes_on_from_it(page, site_url):
    held = []
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(f"{site_url}{LAB.path}")
    page.wait_for_function("() => document.querySelector('[data-lab]')?.labController")
    index = index_of({"seme": 1})
    page.locator("[data-experiment]").nth(index).click()
    expect(page.locator("[data-step-counter]")).to_contain_text("300")  # the build's answer, Python still loading
    assert page.locator("[data-lab]").get_attribute("data-ready") != "true"
    page.evaluate(WATCH_WORKING)
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(100)
    held[0].continue_()
    page.unroute("**/pyodide.asm.wasm")
    expect(page.locator("[data-lab]")).to_have_attribute("data-ready", "true", timeout=READY)
    idle(page)
    assert not page.evaluate("window.replayed")  # Python's first view came from the checkpoint
    page.evaluate(
        CLICK_AND_WAIT,
        {"selector": '[data-lab] button[data-step="+1"]', "index": 0, "want": {"passo": "301", "seme": "1"}},
    )
    assert not page.evaluate("window.replayed")
