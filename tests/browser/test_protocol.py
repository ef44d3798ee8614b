"""The protocol between the page, the boot script and Python's worker (templates/runtime/protocol.js):
every message that crosses, in either direction, is one the module declares, with the fields it declares,
and every type it declares crosses at least once here."""

import json
import subprocess
from pathlib import Path

from playwright.sync_api import expect

import labs

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 120_000
# every message to and from our worker, with its field names (values left out: a SharedArrayBuffer is not JSON)
RECORD = """(() => {
  const seen = (window.__messages = []);
  const shape = (m) => (m && typeof m === "object")
    ? Object.fromEntries(Object.keys(m).map((key) => [key, key === "type" ? m.type : 0])) : { type: String(m) };
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, ...rest) {
      super(url, ...rest);
      this.ours = String(url).endsWith("/assets/labs/worker.js"); // not the theme's search worker
      if (this.ours) this.addEventListener("message", ({ data }) => seen.push(shape(data)));
    }
    postMessage(message, ...rest) {
      if (this.ours) seen.push(shape(message));
      return super.postMessage(message, ...rest);
    }
  };
})();"""
CHECK = """import { MESSAGES, problem } from "./templates/runtime/protocol.js";
let text = "";
process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
  const seen = JSON.parse(text);
  const problems = [...new Set(seen.map(problem).filter(Boolean))];
  const missing = Object.keys(MESSAGES).filter((type) => !seen.some((m) => m.type === type));
  console.log(JSON.stringify({ problems, missing }));
});"""


def checked(messages):
    """protocol.js's verdict on the messages: {problems: [...], missing: [declared types never seen]}."""
    result = subprocess.run(
        ["node", "--input-type=module", "-e", CHECK],
        input=json.dumps(messages),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def wait_idle(page, lab):
    page.wait_for_function("el => el.dataset.busy === undefined", arg=lab.element_handle())


def set_value(lab, name, value):
    lab.locator(f'[data-param="{name}"]').evaluate(
        f"el => {{ el.value = '{value}'; el.dispatchEvent(new Event('input', {{bubbles: true}})); }}"
    )


def test_every_message_between_page_and_worker_is_declared_and_each_declared_one_crosses(browser, site_url):
    context = browser.new_context(accept_downloads=True)
    context.add_init_script(RECORD)
    page = context.new_page()
    # a start that fails: Pyodide's wasm refused
    page.route("**/pyodide.asm.wasm", lambda route: route.abort())
    page.goto(f"{site_url}capitolo-1/ombrello/")
    expect(page.locator("[data-lab-retry]")).to_be_visible(timeout=READY_TIMEOUT)
    messages = page.evaluate("window.__messages")
    page.close()

    # 3.2: a stepped lab (the next step rehearsed, «Avanti» drawn ahead), a retraining that says how far it got
    # and one the reader leaves (the page is cross-origin isolated), the code panel run and downloaded
    lab_page = labs.get("transformer-allenato")
    page = context.new_page()
    page.goto(f"{site_url}{lab_page.path}")
    lab = page.locator("[data-lab]")
    expect(lab).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    lab.locator('[data-step="+1"]').click()
    wait_idle(page, lab)
    lab.locator("input.lab-scrubber").evaluate(
        "el => { el.value = 40; el.dispatchEvent(new Event('input', {bubbles: true})); }"
    )
    wait_idle(page, lab)
    set_value(lab, "lr", "0.02")
    expect(lab.locator("[data-lab-working]")).to_be_visible()
    set_value(lab, "lr", "0.015")
    wait_idle(page, lab)
    panel = page.locator("[data-lab-code]")
    panel.locator("summary").click()
    panel.locator('[data-code="edit"]').click()
    panel.locator('[data-code="run"]').click()
    expect(panel.locator("[data-lab-code-status]")).to_contain_text("codice originale", timeout=READY_TIMEOUT)
    with page.expect_download():
        panel.locator('[data-code="download"]').click()
    messages += page.evaluate("window.__messages")

    # an exercise: «Verifica» of a correct function, then the lab drawn with it
    exercise_lab = labs.get("softmax-temperatura")
    page = context.new_page()
    page.goto(f"{site_url}{exercise_lab.path}")
    expect(page.locator("[data-lab]")).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    exercise = page.locator("[data-exercise]").first
    exercise.locator("[data-exercise-action=write]").click()
    expect(exercise.locator(".cm-editor")).to_be_visible()
    solution = exercise_lab.module.EXERCISES[0].solution()
    page.evaluate("code => { document.querySelector('[data-exercise]').exercise.editor.text = code; }", solution)
    exercise.locator("[data-exercise-action=check]").click()
    expect(page.locator("[data-lab-mine]")).to_be_visible(timeout=READY_TIMEOUT)
    messages += page.evaluate("window.__messages")
    context.close()

    verdict = checked(messages)
    assert verdict == {"problems": [], "missing": []}, verdict


def test_the_check_names_a_message_the_protocol_does_not_declare():
    verdict = checked(
        [
            {"type": "ready", "checkpointBytes": 0, "marks": {}},
            {"type": "hello"},
            {"type": "result", "id": 0, "ok": 0, "colour": 0},
        ]
    )
    assert verdict["problems"] == ["messaggio non dichiarato: hello", "result: campi non dichiarati colour"]
    assert "init" in verdict["missing"] and "ready" not in verdict["missing"]
