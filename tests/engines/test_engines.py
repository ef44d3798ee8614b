"""Every lab page in Firefox ESR and in WebKitGTK, at a phone's size, as a reader meets it: it reaches
«ready» by instant navigation, Python's arrival changes no number, a control changes the view, a stepped
lab goes forward, back, plays and pauses, the code panel's «Prova» runs its edit and «Ripristina» undoes
it, nothing scrolls sideways, no error and no CSP violation is logged. Then the engine's own differences:
the memory bound without navigator.deviceMemory, and the site offline after one visit.

The waits run inside the page (drivers.Page.wait_for), so the times kept (the tests' user_properties,
their medians printed at the end of the run: tests/conftest.py) are the page's own: from the link's click
to «ready», and from a control's change to its view drawn."""

import drivers
import pytest
from reader import CHANGE, GO_AND_WAIT_READY, MINE, VERIFY, check_lab

import labs
from labs.code_exercises import exercise_of

LABS = labs.all_labs()
SMALL_PHONE_BYTES = 48 * 1024 * 1024  # labs.kit.stepping.fit_memory when the device's memory is unknown


@pytest.mark.parametrize("lab", LABS, ids=lambda lab: lab.id)
def test_every_lab_in_every_engine(request, engine, engine_site, engine_page, lab):
    ready_ms, change_ms = check_lab(engine_page, engine_site[1], lab)
    request.node.user_properties += [("engine", engine.name), ("ready_ms", ready_ms), ("change_ms", change_ms)]


def test_without_device_memory_the_checkpoints_are_bounded_as_on_a_small_phone(engine, engine_site, engine_page):
    """navigator.deviceMemory is Chromium's: elsewhere the worker passes nothing and labs.kit.stepping.fit_memory
    bounds a slow training's checkpoints as on a phone with 2 GiB. Python is restarted to read its «ready»."""
    page = engine_page
    assert page.evaluate("() => navigator.deviceMemory === undefined")
    page.evaluate(GO_AND_WAIT_READY, f"{engine_site[1]}capitolo-3/transformer-allenato/", "transformer-allenato")
    page.evaluate("""() => { const runtime = window.labsRuntime, receive = runtime.receive.bind(runtime);
        runtime.receive = (data) => { if (data.type === "ready") window.__ready = data; receive(data); };
        window.__ready = null; runtime.restart(); }""")
    # a hang guard, not a time limit (as every wait here): on a loaded machine WebKit took minutes to start Python
    assert page.wait_for("() => window.__ready?.checkpointBytes", timeout=600) == SMALL_PHONE_BYTES


def test_a_runaway_exercise_is_stopped_and_the_progress_comes_back(engine, engine_site, engine_page):
    """«Verifica» of a `while True: pass` stops within 5 s, Python restarts and a control answers, and the
    stopped worker's thread stops using the CPU (WebKitGTK does not stop a worker told to terminate inside
    WebAssembly: Python is interrupted first); then a correct softmax passes, and after a full reload the lab
    is drawn with it again (the offline test below finds it too)."""
    page, url = engine_page, engine_site[1]
    lab = labs.get("softmax-temperatura")
    page.evaluate(GO_AND_WAIT_READY, f"{url}{lab.path}", lab.id)
    code = "def softmax(logits, temperature=1.0):\n    while True:\n        pass\n"
    page.evaluate(
        f"(...args) => {{ window.__verified = null; ({VERIFY})(...args).then((v) => {{ window.__verified = v; }}); }}",
        lab.id,
        "softmax",
        code,
    )
    # the worker in the loop: the busiest worker thread while «Verifica» waits for its 5 s (2 of them)
    during = drivers.worker_shares(engine, seconds=2)
    looping = max(during, key=during.get)
    runaway = page.wait_for("() => window.__verified", timeout=60)
    assert "Fermato dopo 5 secondi" in runaway["said"], runaway
    assert runaway["ms"] < 8000, runaway
    page.wait_for(f"() => document.querySelector('[data-lab=\"{lab.id}\"]').dataset.ready === 'true'", timeout=600)
    assert page.evaluate(CHANGE, lab.id, "set", "temperatura", "2")["error"] is None
    after = drivers.worker_shares(engine, seconds=2).get(looping, 0.0)  # its thread may be gone
    print(f"{engine.name}: il worker nel ciclo usava {during[looping]:.0%} di un core, dopo «Ferma» {after:.0%}")
    # the loop against itself, not against a core: on a loaded machine it gets a small share, before as after
    assert during[looping] > 0
    assert after < during[looping] / 3
    solution = exercise_of(lab, "softmax").solution()
    assert page.evaluate(VERIFY, lab.id, "softmax", solution)["said"].startswith("Giusto")
    page.goto(f"{url}{lab.path}")
    page.wait_for(f"() => document.querySelector('[data-lab=\"{lab.id}\"]')?.dataset.ready === 'true'", timeout=600)
    assert page.wait_for(MINE, lab.id, timeout=60) == "Calcolato con la tua softmax."


def test_offline_after_one_visit(engine, engine_site, engine_page):
    """After the visit above, sw.js controls the page; with the server switched off, a full load of a
    lab page starts Python again from the cache, and every lab opens by instant navigation."""
    page = engine_page
    server, url = engine_site
    controlled = page.wait_for(
        "async () => (await navigator.serviceWorker.ready) && Boolean(navigator.serviceWorker.controller)", timeout=120
    )
    assert controlled
    server.shutdown()
    server.server_close()
    page.goto(f"{url}{LABS[-1].path}")
    page.wait_for(
        f"() => document.querySelector('[data-lab=\"{LABS[-1].id}\"]')?.dataset.ready === 'true'", timeout=300
    )  # Python starts again from the cache: in WebKit, up to minutes on a loaded machine
    missed = []
    for lab in LABS:
        try:
            page.evaluate(GO_AND_WAIT_READY, f"{url}{lab.path}", lab.id)
        except RuntimeError as error:
            missed.append(f"{lab.id}: {error}")
    assert missed == []
    # the reader's passed softmax (the test above), back from the browser's storage offline
    lab = labs.get("softmax-temperatura")
    page.evaluate(GO_AND_WAIT_READY, f"{url}{lab.path}", lab.id)
    assert page.wait_for(MINE, lab.id, timeout=60) == "Calcolato con la tua softmax."
