"""A reader's walk through one lab page, the same in every engine and behind every host: drivers.Page
only (a JS function evaluated in the page, its waits inside the page), so the times are the page's own."""

import json

import pytest

# instant navigation (a click on a link of the page), then «ready»: ms from the click, and the view as
# prerendered (read before Python drew anything) and as drawn at «ready»
GO_AND_WAIT_READY = """async (url, id) => {
  // instant navigation is the theme's: on a lab page its script starts when the lab is «pronto»
  const asked = performance.now();
  while (window.document$ === undefined && performance.now() - asked < 60000) await new Promise((r) => setTimeout(r, 10));
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
    if (performance.now() - start > 600000) throw new Error(`${id}: «ready» non arriva`);
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

IDLE = 'id => document.querySelector(`[data-lab="${id}"]`).dataset.busy === undefined'

# an exercise's code typed in and «Verifica» pressed (page/exercises.js): the result line and the ms it took
VERIFY = """async (id, name, code) => {
  const block = document.querySelector(`[data-exercise-lab="${id}"][data-exercise="${name}"]`);
  if (!block.exercise.editor) await block.exercise.open();
  block.exercise.editor.text = code;
  await block.exercise.check();
  return { said: block.querySelector("[data-exercise-result]").textContent, ms: Number(block.dataset.took) };
}"""
MINE = """id => { const line = document.querySelector(`[data-lab="${id}"] [data-lab-mine]`);
  return Boolean(line) && !line.hidden && line.textContent; }"""


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


def steps(page, lab_id):
    """«Avanti», «Indietro», Play and Pause on a stepped lab."""
    counter = f"() => document.querySelector('[data-lab=\"{lab_id}\"] [data-step-counter]').textContent"
    start = page.evaluate(counter)
    page.evaluate(CHANGE, lab_id, "click", None, '[data-step="+1"]')
    assert page.evaluate(counter) != start, "«Avanti» non ha cambiato il passo"
    page.evaluate(CHANGE, lab_id, "click", None, '[data-step="-1"]')
    assert page.evaluate(counter) == start, "«Indietro» non è tornato al passo di prima"
    page.evaluate(
        """id => { const speed = document.querySelector(`[data-lab="${id}"] [data-play-speed]`);
        if (speed) { speed.value = "1"; speed.dispatchEvent(new Event("change", { bubbles: true })); }
        document.querySelector(`[data-lab="${id}"] [data-step="play"]`).click(); }""",
        lab_id,
    )
    page.wait_for(f"() => ({counter})() !== {json.dumps(start)}", timeout=30)
    pressed = f"document.querySelector('[data-lab=\"{lab_id}\"] [data-step=\"play\"]').getAttribute('aria-pressed')"
    page.evaluate(
        f"() => {{ if ({pressed} === 'true') document.querySelector('[data-lab=\"{lab_id}\"] [data-step=\"play\"]').click(); }}"
    )
    page.wait_for(f"() => {pressed} === 'false'", timeout=30)
    page.wait_for(IDLE, lab_id, timeout=60)


def code_panel(page, lab_id):
    """The first «Prova: …» of the lab's code panel (the editor loads, the edit runs: the lab uses it,
    or shows the error it is meant to show, with its line), then «Ripristina»."""
    panel = f"document.querySelector('[data-lab-code=\"{lab_id}\"]')"
    page.evaluate(f"() => {panel}.querySelector('[data-code=\"try\"]').click()")
    outcome = page.wait_for(
        f"""() => {{ const p = {panel}, s = p.querySelector('[data-lab-code-status]');
        return p.codePanel.editor
          && (/is-ok/.test(s.className) || /is-error/.test(s.className)) && s.className + ' ' + s.textContent; }}""",
        timeout=90,
    )
    assert "is-ok" in outcome or "riga" in outcome, outcome
    page.wait_for(IDLE, lab_id, timeout=60)
    page.evaluate(f"() => {panel}.querySelector('[data-code=\"reset\"]').click()")
    page.wait_for(f"() => /ripristinato/.test({panel}.querySelector('[data-lab-code-status]').textContent)")
    page.wait_for(IDLE, lab_id, timeout=60)
    error = page.evaluate(
        f"() => {{ const e = document.querySelector('[data-lab=\"{lab_id}\"] [data-lab-error]');"
        " return e && !e.hidden ? e.textContent : null; }"
    )
    assert error is None, error


def exercises(page, lab):
    """Each exercise of the lab: every declared wrong answer gets its remark, the reference passes and the lab
    is drawn with it (its mark), «Ricomincia» gives the lab back its own function."""
    from labs.code_exercises import exercises_of

    for exercise in exercises_of(lab):
        for wrong in exercise.wrong:
            said = page.evaluate(VERIFY, lab.id, exercise.name, wrong.code)["said"]
            assert said.startswith(f"Con {exercise.name}(") and wrong.remark in said, said
        said = page.evaluate(VERIFY, lab.id, exercise.name, exercise.solution())["said"]
        assert said.startswith("Giusto"), said
        assert page.wait_for(MINE, lab.id, timeout=60).startswith("Calcolato con la tua")
        page.wait_for(IDLE, lab.id, timeout=60)
        page.evaluate(
            """([id, name]) => document.querySelector(`[data-exercise-lab="${id}"][data-exercise="${name}"]`)
              .exercise.reset()""",
            [lab.id, exercise.name],
        )
        page.wait_for(f"() => !({MINE})({json.dumps(lab.id)})")
        page.wait_for(IDLE, lab.id, timeout=60)


def check_lab(page, site_url, lab, isolated=True):
    """The lab opened by instant navigation as a reader meets it: «ready», Python's arrival changing no
    number, no sideways scroll, the first control changing the view, a stepped lab's «Avanti», «Indietro»,
    Play and Pause, the code panel's «Prova» and «Ripristina», each exercise's wrong answers and solution, no
    error and no CSP violation.
    Returns the ms from the link's click to «ready» and from the change to its view."""
    page.clear_errors()
    loaded = page.evaluate(GO_AND_WAIT_READY, f"{site_url}{lab.path}", lab.id)
    if loaded["prerendered"] is not None:
        assert loaded["ready"] == loaded["prerendered"], f"{lab.id}: la vista è cambiata all'arrivo di Python"
    assert page.evaluate("() => crossOriginIsolated") is isolated
    wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], f"la pagina scorre di lato: larga {wide[0]} px in {wide[1]}"
    action, name, value = first_change(lab)
    changed = page.evaluate(CHANGE, lab.id, action, name, value)
    assert changed["error"] is None, changed["error"]
    if page.evaluate(f'() => Boolean(document.querySelector(\'[data-lab="{lab.id}"] [data-step="play"]\'))'):
        steps(page, lab.id)
    code_panel(page, lab.id)
    exercises(page, lab)
    assert page.errors() == []
    return loaded["ms"], changed["ms"]
