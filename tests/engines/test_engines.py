"""Every lab page in Firefox ESR and in WebKitGTK, at a phone's size, as a reader meets it: it reaches
«ready» by instant navigation, Python's arrival changes no number, a control changes the view, a stepped
lab goes forward, back, plays and pauses, the code panel's «Prova» runs its edit and «Ripristina» undoes
it, nothing scrolls sideways, no error and no CSP violation is logged. Then the engine's own differences:
the memory bound without navigator.deviceMemory, and the site offline after one visit.

The waits run inside the page (drivers.Page.wait_for), so the times kept (build/engine-times.json,
printed at the end of the run) are the page's own: from the link's click to «ready», and from a control's
change to its view drawn."""

import json
from pathlib import Path

import pytest

import labs

LABS = labs.all_labs()
TIMES = Path(__file__).resolve().parents[2] / "build" / "engine-times.json"
SMALL_PHONE_BYTES = 48 * 1024 * 1024  # labs.kit.stepping.fit_memory when the device's memory is unknown

# instant navigation (a click on a link of the page), then «ready»: ms from the click, and the view as
# prerendered (read before Python drew anything) and as drawn at «ready»
GO_AND_WAIT_READY = """async (url, id) => {
  const start = performance.now();
  const a = document.createElement("a"); a.href = url; document.body.append(a); a.click(); a.remove();
  let prerendered = null;
  for (;;) {
    const root = document.querySelector(`[data-lab="${id}"]`);
    if (root && prerendered === null && root.dataset.ready !== "true") {
      prerendered = root.querySelector("[data-lab-view]").innerHTML;
    }
    if (root?.dataset.ready === "true") {
      return { ms: performance.now() - start, prerendered, ready: root.querySelector("[data-lab-view]").innerHTML };
    }
    if (performance.now() - start > 120000) throw new Error(`${id}: «ready» non arriva`);
    await new Promise((r) => setTimeout(r, 10));
  }
}"""

# a change made as a reader makes it, then ms until the view differs and the lab is idle again
CHANGE = """async (id, action, name, value) => {
  const root = document.querySelector(`[data-lab="${id}"]`);
  const view = root.querySelector("[data-lab-view]");
  const before = view.innerHTML;
  const start = performance.now();
  const control = name && root.querySelector(`[data-param="${name}"]`);
  if (action === "click") root.querySelector(value).click();
  else if (action === "toggle") control.click();
  else {
    control.value = value;
    control.dispatchEvent(new Event("input", { bubbles: true }));
    control.dispatchEvent(new Event("change", { bubbles: true }));
  }
  while (view.innerHTML === before || root.dataset.busy !== undefined) {
    if (performance.now() - start > 60000) throw new Error(`${id}: la vista non cambia`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const error = root.querySelector("[data-lab-error]");
  return { ms: performance.now() - start, error: error && !error.hidden ? error.textContent : null };
}"""

IDLE = "id => document.querySelector(`[data-lab=\"${id}\"]`).dataset.busy === undefined"


def first_change(lab):
    """(action, control, value): the first control set to a value a reader would pick."""
    for c in lab.params_list:
        if c.kind == "steps":
            return "click", None, '[data-step="+1"]'
        if c.kind == "slider":
            return "set", c.name, str(c.max if c.default != c.max else c.min)
        if c.kind == "choice":
            return "set", c.name, str(next(v for v, _ in c.options if v != c.default))
        if c.kind == "toggle":
            return "toggle", c.name, None
        if c.kind == "text":
            return "set", c.name, c.default[::-1] + " testo nuovo"
    pytest.fail(f"{lab.id} non ha controlli")


def keep_time(engine, kind, lab_id, ms):
    times = json.loads(TIMES.read_text()) if TIMES.exists() else {}
    times.setdefault(engine, {}).setdefault(kind, {})[lab_id] = round(ms, 1)
    TIMES.parent.mkdir(exist_ok=True)
    TIMES.write_text(json.dumps(times, indent=1))


def steps(page, lab_id):
    """«Avanti», «Indietro», Play and Pause on a stepped lab."""
    counter = f"() => document.querySelector('[data-lab=\"{lab_id}\"] [data-step-counter]').textContent"
    start = page.evaluate(counter)
    page.evaluate(CHANGE, lab_id, "click", None, '[data-step="+1"]')
    assert page.evaluate(counter) != start, "«Avanti» non ha cambiato il passo"
    page.evaluate(CHANGE, lab_id, "click", None, '[data-step="-1"]')
    assert page.evaluate(counter) == start, "«Indietro» non è tornato al passo di prima"
    page.evaluate("""id => { const speed = document.querySelector(`[data-lab="${id}"] [data-play-speed]`);
        if (speed) { speed.value = "1"; speed.dispatchEvent(new Event("change", { bubbles: true })); }
        document.querySelector(`[data-lab="${id}"] [data-step="play"]`).click(); }""", lab_id)
    page.wait_for(f"() => ({counter})() !== {json.dumps(start)}", timeout=30)
    pressed = f"document.querySelector('[data-lab=\"{lab_id}\"] [data-step=\"play\"]').getAttribute('aria-pressed')"
    page.evaluate(f"() => {{ if ({pressed} === 'true') document.querySelector('[data-lab=\"{lab_id}\"] [data-step=\"play\"]').click(); }}")
    page.wait_for(f"() => {pressed} === 'false'", timeout=30)
    page.wait_for(IDLE, lab_id, timeout=60)


def code_panel(page, lab_id):
    """The first «Prova: …» of the lab's code panel (the editor loads, the edit runs: the lab uses it,
    or shows the error it is meant to show, with its line), then «Ripristina»."""
    panel = f"document.querySelector('[data-lab-code=\"{lab_id}\"]')"
    page.evaluate(f"() => {panel}.querySelector('[data-code=\"try\"]').click()")
    outcome = page.wait_for(f"""() => {{ const p = {panel}, s = p.querySelector('[data-lab-code-status]');
        return p.codePanel.editor
          && (/is-ok/.test(s.className) || /is-error/.test(s.className)) && s.className + ' ' + s.textContent; }}""",
                            timeout=90)
    assert "is-ok" in outcome or "riga" in outcome, outcome
    page.wait_for(IDLE, lab_id, timeout=60)
    page.evaluate(f"() => {panel}.querySelector('[data-code=\"reset\"]').click()")
    page.wait_for(f"() => /ripristinato/.test({panel}.querySelector('[data-lab-code-status]').textContent)")
    page.wait_for(IDLE, lab_id, timeout=60)
    error = page.evaluate(f"() => {{ const e = document.querySelector('[data-lab=\"{lab_id}\"] [data-lab-error]');"
                          " return e && !e.hidden ? e.textContent : null; }")
    assert error is None, error


@pytest.mark.parametrize("lab", LABS, ids=lambda lab: lab.id)
def test_every_lab_in_every_engine(engine, engine_site, engine_page, lab):
    page = engine_page
    page.clear_errors()
    loaded = page.evaluate(GO_AND_WAIT_READY, f"{engine_site[1]}{lab.path}", lab.id)
    keep_time(engine.name, "ready", lab.id, loaded["ms"])
    if loaded["prerendered"] is not None:
        assert loaded["ready"] == loaded["prerendered"], f"{lab.id}: la vista è cambiata all'arrivo di Python"
    assert page.evaluate("() => crossOriginIsolated"), "la pagina non è isolata (COOP/COEP di _headers)"
    wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], f"la pagina scorre di lato: larga {wide[0]} px in {wide[1]}"

    action, name, value = first_change(lab)
    changed = page.evaluate(CHANGE, lab.id, action, name, value)
    keep_time(engine.name, "change", lab.id, changed["ms"])
    assert changed["error"] is None, changed["error"]
    if page.evaluate(f"() => Boolean(document.querySelector('[data-lab=\"{lab.id}\"] [data-step=\"play\"]'))"):
        steps(page, lab.id)
    code_panel(page, lab.id)
    assert page.errors() == []


def test_without_device_memory_the_checkpoints_are_bounded_as_on_a_small_phone(engine, engine_site, engine_page):
    """navigator.deviceMemory is Chromium's: elsewhere the worker passes nothing and labs.kit.stepping.fit_memory
    bounds a slow training's checkpoints as on a phone with 2 GiB. Python is restarted to read its «ready»."""
    page = engine_page
    assert page.evaluate("() => navigator.deviceMemory === undefined")
    page.evaluate(GO_AND_WAIT_READY, f"{engine_site[1]}capitolo-3/transformer-allenato/", "transformer-allenato")
    page.evaluate("""() => { const runtime = window.labsRuntime, receive = runtime.receive.bind(runtime);
        runtime.receive = (data) => { if (data.type === "ready") window.__ready = data; receive(data); };
        window.__ready = null; runtime.restart(); }""")
    assert page.wait_for("() => window.__ready?.checkpointBytes") == SMALL_PHONE_BYTES


def test_offline_after_one_visit(engine, engine_site, engine_page):
    """After the visit above, sw.js controls the page; with the server switched off, a full load of a
    lab page starts Python again from the cache, and every lab opens by instant navigation."""
    page = engine_page
    server, url = engine_site
    controlled = page.wait_for("async () => (await navigator.serviceWorker.ready) && Boolean(navigator.serviceWorker.controller)",
                               timeout=120)
    assert controlled
    server.shutdown()
    server.server_close()
    page.goto(f"{url}{LABS[-1].path}")
    page.wait_for(f"() => document.querySelector('[data-lab=\"{LABS[-1].id}\"]')?.dataset.ready === 'true'")
    missed = []
    for lab in LABS:
        try:
            page.evaluate(GO_AND_WAIT_READY, f"{url}{lab.path}", lab.id)
        except RuntimeError as error:
            missed.append(f"{lab.id}: {error}")
    assert missed == []
