// Browser runtime of the labs. It knows no lab: it finds [data-lab] roots,
// reads their [data-param] inputs, asks the Python worker for the new view
// and morphs it in. One worker per tab, kept across instant navigation.

import morphdom from "./vendor/morphdom.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const PYODIDE_URL = new URL("../../pyodide/", import.meta.url);

// The worker that the <head>'s boot script (templates/boot.js) started for this lab module, with what it
// has said so far; null if none, or if it was for another page (instant navigation) or is taken.
function takeEarlyWorker(module) {
  const early = self.labsEarly;
  self.labsEarly = null;
  if (!early || early.module === module) return early;
  early.worker.terminate();
  return null;
}

const python = {
  worker: null,
  status: "idle", // idle | loading | ready | failed
  loaded: 0,
  error: "",
  calls: new Map(),
  working: new Map(), // id → what hears the progress of a long answer
  nextId: 1,
  unwantedAnswers: 0, // replays stopped because the reader had moved on (see unwant), for the tests
  listeners: new Set(),
  package: "",
  phase: "download", // while loading: download | python | labs
  stallSeconds: 15,

  start(pkg, module) {
    if (this.worker && this.status !== "failed") return;
    if (this.worker) this.worker.terminate();
    this.unwanted = null;
    const retrying = this.status === "failed";
    this.package = pkg;
    this.status = "loading";
    this.phase = "download";
    this.loaded = 0;
    // the worker that the boot script started from the page's <head>, if any: it has been loading for a while
    const early = retrying ? null : takeEarlyWorker(module);
    this.times = { start: early ? early.started : performance.now() }; // when each phase began, for scripts/bench.py
    this.worker = early ? early.worker : new Worker(WORKER_URL, { type: "module" });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => this.receive({ type: "failed", detail: event.message,
      error: "il programma che fa girare Python (worker.js) non è partito. Premi «Riprova»; se si ripete, ricarica la pagina" });
    // the lockfile's name carries its content hash: the page names the one of its own build
    this.lockfile = document.querySelector("[data-lab][data-lockfile]")?.dataset.lockfile || this.lockfile;
    if (early) {
      this.notify();
      for (const event of early.events) event.type === "error" ? this.worker.onerror(event) : this.receive(event.data);
      return;
    }
    // a download with no new byte for stallSeconds fails with «Riprova»; a retry revalidates every file
    this.worker.postMessage({ type: "init", indexURL: PYODIDE_URL.href, package: pkg, lockfile: this.lockfile, module,
                              stallSeconds: this.stallSeconds, revalidate: retrying });
    this.notify();
  },

  receive(message) {
    if (message.type === "rehearse") {
      for (const root of document.querySelectorAll(`[data-lab][data-module="${message.module}"]`)) {
        root.labController?.rehearseNext(message.html);
      }
      return;
    }
    if (message.type === "working") {
      this.working.get(message.id)?.(message.at, message.target);
      return;
    }
    if (message.type === "unwanted") {
      this.unwanted = new Int32Array(message.buffer);
      return;
    }
    if (message.type === "result") {
      const call = this.calls.get(message.id);
      this.calls.delete(message.id);
      this.working.delete(message.id);
      if (call) call(message);
      return;
    }
    if (message.type === "progress") this.loaded = message.loaded;
    if (message.type === "phase" || message.type === "ready") this.times[message.phase || "ready"] ??= performance.now();
    if (message.type === "phase") this.phase = message.phase;
    // the reader's first changes come right after «ready»: the site's copy waits for quiet from there
    if (message.type === "ready") { this.status = "ready"; lastActivity = performance.now(); }
    if (message.type === "failed") {
      if (message.detail) console.warn("Python:", message.detail); // for developers; the reader gets the Italian line
      this.status = "failed";
      this.error = message.error;
      for (const call of this.calls.values()) call({ ok: false, error: message.error });
      this.calls.clear();
      this.working.clear();
    }
    this.notify();
    if (this.phase === "labs" || this.status !== "loading") startTheme();
    if (this.status !== "loading") keepOffline();
  },

  // The answer to message `id` is no longer wanted (the reader moved on): a replay stops at its next step,
  // keeping the steps made, and answers {unwanted: true}. Only where the worker shared a word of memory
  // (worker.js: a cross-origin isolated page); elsewhere the answer comes whole, as before.
  unwant(id) {
    if (this.unwanted && id) Atomics.store(this.unwanted, 0, id);
  },

  // working(at, target) hears how far a long replay has got (a retraining), while it runs;
  // lastId is the id of the message just sent (for unwant)
  call(message, working = null) {
    lastActivity = performance.now(); // Play asks for views without any input: the site's copy waits for it too
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.lastId = id;
      this.calls.set(id, resolve);
      if (working) this.working.set(id, working);
      this.worker.postMessage({ ...message, id });
    });
  },

  // step: a stepped lab's {name, max}, so that the worker can draw the next step ahead
  render(lab, module, params, code = null, step = null, working = null) {
    return this.call(code === null ? { type: "render", lab, module, params, step }
      : { type: "edited", lab, module, params, code }, working);
  },

  // «Ferma»: a runaway edit cannot be interrupted inside Python, so the
  // worker is ended and a new one started; pending calls end with a message.
  restart() {
    const module = document.querySelector("[data-lab]")?.dataset.module;
    this.worker.terminate();
    for (const call of this.calls.values()) call({ ok: false, stopped: true, error: "calcolo fermato" });
    this.calls.clear();
    this.working.clear();
    this.worker = null;
    this.start(this.package, module);
  },

  notify() {
    for (const listener of this.listeners) listener();
  },
};

// The theme's script (instant navigation, search, palette, sidebars, «Torna su»).
// On a lab page build.py leaves it as <link rel="prefetch" data-theme-script>:
// run with the page, its quarter second of work on the main thread and the
// search index it builds in a worker of its own compete with Pyodide's start
// for the machine's cores (on two cores «ready» came ~0.45 s later). It starts
// once Python has (phase «labs»: our imports then run in the worker meanwhile),
// if Python fails or cannot start, after THEME_LATEST ms whatever happens, and
// at once if the reader reaches for the header or the keyboard before.
const THEME_LATEST = 10000;
const themeScript = document.querySelector("link[data-theme-script]");
python.theme = window.document$ ? "started" : themeScript ? "waiting" : "none"; // then loading, started or failed
function startTheme() {
  if (python.theme !== "waiting") return;
  python.theme = "loading";
  const script = document.createElement("script");
  script.src = themeScript.href;
  script.onerror = () => { python.theme = "failed"; };
  script.onload = () => {
    if (!window.document$) return (python.theme = "failed");
    window.document$.subscribe(mountLabs);
    // the theme starts on DOMContentLoaded, by now long past (unless the page is still being read)
    if (document.readyState !== "loading") document.dispatchEvent(new Event("DOMContentLoaded"));
    python.theme = "started";
  };
  document.body.append(script);
}
if (python.theme === "waiting") {
  setTimeout(startTheme, THEME_LATEST);
  addEventListener("keydown", startTheme, { capture: true, once: true });
  for (const type of ["pointerdown", "focusin"]) {
    document.querySelector(".md-header")?.addEventListener(type, startTheme, { capture: true, once: true });
  }
}

// After one visit every page works offline: sw.js, written by the build at the
// site's root (its scope is the whole site, under any sub-path), keeps this
// build's files. Registered on every page once it has loaded and the browser
// is idle; on a lab page, also not before Python's first start has ended
// (ready or failed), so its copies never compete with that download (they
// then come from the browser's cache), and only once the reader has left the
// page alone for QUIET ms since «ready» and since the last change: copying and
// checking the site's 20 MB keeps a core busy for about half a second, which
// the reader's first changes must not wait for.
const SITE_ROOT = new URL("../../", import.meta.url);
const QUIET = 3000;
let pageLoaded = document.readyState === "complete";
let offlineAsked = false;
let lastActivity = performance.now(); // the reader's last input, the last view asked of Python, or «ready»
for (const type of ["pointerdown", "keydown", "input", "click"]) {
  addEventListener(type, () => { lastActivity = performance.now(); }, { capture: true, passive: true });
}
function whenQuiet(callback) {
  const wait = lastActivity + QUIET - performance.now();
  if (wait > 0) setTimeout(() => whenQuiet(callback), wait);
  else if (self.requestIdleCallback) requestIdleCallback(callback, { timeout: 2000 });
  else callback();
}
function keepOffline() {
  if (offlineAsked || !pageLoaded || python.status === "loading") return; // asked again when these change
  offlineAsked = true;
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  const register = () => navigator.serviceWorker.register(new URL("sw.js", SITE_ROOT), { scope: SITE_ROOT.pathname })
    .catch((error) => console.warn("sw.js:", error.message));
  if (document.querySelector("[data-lab]")) whenQuiet(register);
  else if (self.requestIdleCallback) requestIdleCallback(register, { timeout: 5000 });
  else setTimeout(register, 500);
}
if (!pageLoaded) addEventListener("load", () => { pageLoaded = true; keepOffline(); }, { once: true });
else setTimeout(keepOffline); // after the labs of the page have been mounted

// Python starts as soon as this module runs (the page is parsed by then), not
// when the theme's document$ mounts the labs: that waits for the theme's own
// start, and every millisecond before the worker starts adds to the reader's wait.
// Not before the declarations above: the <head>'s worker may have said «failed»
// already, and taking it over replays that at once (keepOffline, lastActivity).
const firstLab = document.querySelector("[data-lab]");
if (firstLab && location.protocol !== "file:") python.start(firstLab.dataset.package, firstLab.dataset.module);
else startTheme();

const FORMATS = new Map(); // by decimals: making an Intl.NumberFormat costs a tenth of a millisecond
const formatNumber = (value) => {
  const number = Number(value);
  if (!Number.isFinite(number)) return String(value);
  const digits = (String(value).split(".")[1] || "").length;
  if (!FORMATS.has(digits)) {
    FORMATS.set(digits, new Intl.NumberFormat("it-IT", { minimumFractionDigits: digits, maximumFractionDigits: digits }));
  }
  return FORMATS.get(digits).format(number).replace("-", "−");
};

// A property written only when it changes: the same value written again
// still makes the browser restyle and lay out what it touches.
function put(element, key, value) {
  if (element && element[key] !== value) element[key] = value;
}

function readInput(input) {
  return input.type === "checkbox" ? (input.checked ? "1" : "0") : input.value;
}

// (a value left as it is costs nothing: a 4,000-character corpus is not written back at every step)
function writeInput(input, value) {
  if (input.type === "checkbox") input.checked = value === true || value === "1" || value === "true";
  else if (input.value !== String(value)) input.value = String(value);
}

// An element with data-screen is one screen of a lab (3.1's «Forward», «Loss», …): another screen in
// its place shares no more than its tags, so it is put in whole rather than morphed element by element
// (3.1: 450–600 table cells each «Avanti»). Keyed like morphdom's ids, which stay keys.
// Asked of every node at every morph: getAttribute, not dataset (a new object each time: 1.3 ms a step on 9A).
function screenKey(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return undefined;
  if (node.id) return node.id;
  const screen = node.getAttribute("data-screen");
  return screen ? `screen ${screen}` : undefined;
}

// Morph the old markup into the new: what the reader opened, scrolled or
// focused survives (an open <details> stays open, a table keeps its scroll).
// A closed <details> gets its attributes and its summary only: what it hides
// is brought up to date when the reader opens it (the controller morphs the
// last view again on «toggle»), so a hidden section costs nothing per step.
function morphInto(element, html) {
  const next = element.cloneNode(false);
  next.innerHTML = html;
  morphdom(element, next, {
    childrenOnly: true,
    getNodeKey: screenKey,
    onBeforeElUpdated(from, to) {
      if (from.isEqualNode(to)) return false;
      if (from.tagName !== "DETAILS") return true;
      to.open = from.open;
      if (from.open) return true;
      for (const { name, value } of to.attributes) if (from.getAttribute(name) !== value) from.setAttribute(name, value);
      for (const { name } of [...from.attributes]) if (!to.hasAttribute(name)) from.removeAttribute(name);
      const [summary, nextSummary] = [from, to].map((d) => d.querySelector(":scope > summary"));
      if (summary && nextSummary && !summary.isEqualNode(nextSummary)) morphdom(summary, nextSummary);
      return false;
    },
  });
}

// The first morph of a page is slow (20–30 ms against 5–10: morphdom's code not
// compiled yet): it is rehearsed once, off the page, when Python is ready, on
// a copy of the view morphed into itself with every digit changed.
function rehearse(element) {
  const copy = element.cloneNode(true);
  morphInto(copy, element.innerHTML.replace(/\d/g, (d) => String((Number(d) + 1) % 10)));
}

// The first layout of a stepped lab's next step is slow too (3.1: 15–30 ms
// against 5–10 for the same view laid out again: the browser's caches of
// text shaped and styles matched are cold): the worker sends that view once
// it has drawn it ahead, before «ready», and the page lays it out once,
// hidden, in a copy of the view beside it.
function rehearseLayout(view, html) {
  const copy = view.cloneNode(true);
  copy.removeAttribute("data-lab-view");
  copy.setAttribute("aria-hidden", "true");
  copy.inert = true;
  copy.style.cssText = `position: absolute; left: 0; top: 0; width: ${view.offsetWidth}px; visibility: hidden`;
  morphInto(copy, html);
  view.after(copy);
  void copy.offsetHeight; // laid out now, then gone before any paint
  copy.remove();
}

const URL_TEXT_LIMIT = 2000; // characters: a longer text is not written into the URL
// The URL is written when the reader pauses, not at every change: history.replaceState
// costs about 1 ms in Chromium and, now and then, 15 ms (a slider dragged writes it once).
const URL_PAUSE = 300; // ms
let urlWaiting = null; // the lab whose URL is still to be written
function writeWaitingUrl() {
  const lab = urlWaiting;
  urlWaiting = null;
  if (lab) { clearTimeout(lab.urlTimer); lab.writeUrl(); }
}
// before a link is followed or the page left, the URL says what the reader last saw
document.addEventListener("click", (event) => { if (event.target.closest?.("a[href]")) writeWaitingUrl(); }, true);
addEventListener("pagehide", writeWaitingUrl);
// A view that takes longer than DIM_AFTER ms is dimmed until it comes (.is-waiting).
// Only then: dimming every change made the browser paint the dimmed view
// first, and the answer, back from Python meanwhile, waited behind that frame
// (12–21 ms of a 40 ms «Avanti» on the BPE lab).
const DIM_AFTER = 150; // ms
const STEP_BUTTON = "button[data-step]"; // the timeline's ⟲ ← → ▶ (templates/controls.html.j2)
const FOLDS_PARAM = "sezioni"; // the folds a reader has open (labs/kit/contract.py)
const TYPING = "textarea, select, input:not([type=range]):not([type=checkbox])";

class LabController {
  constructor(root) {
    this.root = root;
    this.id = root.dataset.lab;
    this.module = root.dataset.module;
    this.view = root.querySelector("[data-lab-view]");
    this.errorBox = root.querySelector("[data-lab-error]");
    this.workingLine = root.querySelector("[data-lab-working]");
    this.live = root.querySelector("[data-lab-live]");
    this.fieldset = root.querySelector("[data-lab-fieldset]");
    this.timeline = root.querySelector("[data-lab-timeline]");
    this.inputs = [...root.querySelectorAll("[data-param]")];
    this.busy = false;
    this.again = false;
    this.playing = false;
    this.tallest = 0;
    // a shared link's folds, opened before readUrl and listen: Python's first view draws them
    this.openFolds(new URLSearchParams(location.search).get(FOLDS_PARAM));
    this.fromUrl = this.readUrl();
    this.page = location.pathname; // the URL this lab may write to
    if (this.fromUrl) this.view.classList.add("is-stale");
    this.listen();
    if (this.stepInput) this.keepTallest();
    this.showOutputs();
    this.onStatus = () => this.statusChanged();
    python.listeners.add(this.onStatus);
    python.start(root.dataset.package, this.module);
    this.statusChanged();
  }

  // Values from the URL go to Python as they are written ("0,5", "abc"):
  // Python cleans them (or falls back to the lab's default), the browser's
  // own sanitising of a range input would pick its midpoint instead.
  readUrl() {
    const query = new URLSearchParams(location.search);
    const raw = {};
    for (const input of this.inputs) {
      if (query.has(input.name)) raw[input.name] = query.get(input.name);
    }
    return Object.keys(raw).length ? raw : null;
  }

  // the folds named in a text "embedding,matrice" (a shared link's ?sezioni=, a suggested edit's params)
  // opened; the next view Python draws has them (params() sends the open ones)
  openFolds(text) {
    const names = (text || "").split(",");
    for (const fold of this.view.querySelectorAll("details[data-fold]")) {
      if (names.includes(fold.dataset.fold)) fold.open = true;
    }
  }

  listen() {
    this.root.addEventListener("input", (event) => {
      if (event.target.matches("[data-param]")) {
        if (event.target === this.stepInput && !this.playing) this.stopPlay();
        this.showOutputs();
        this.update();
      }
    });
    this.root.addEventListener("submit", (event) => event.preventDefault());
    this.root.addEventListener("click", (event) => {
      // the timeline's buttons only: a lab's view may say its step in a data-step of its own (3.2, 2.6, 9G),
      // and a click there must not step by that much
      const button = event.target.closest(STEP_BUTTON);
      if (button) return this.step(button.dataset.step);
      const retry = event.target.closest("[data-lab-retry]");
      if (retry) python.start(this.root.dataset.package, this.module);
      // a view element with data-set="name=value;other=value" sets controls when clicked
      const setter = event.target.closest("[data-set]");
      if (setter && !setter.disabled) this.set(setter);
    });
    this.root.addEventListener("keydown", (event) => this.key(event));
    // «toggle» does not bubble: caught on its way down
    // a fold (kit.fold) opened is drawn by Python then; any other <details> gets the last view's content
    this.view.addEventListener("toggle", (event) => {
      const fold = event.target.matches("[data-fold]");
      // the URL says which are open (once ready: before, the controls do not hold the link's values yet)
      if (fold && this.root.dataset.ready === "true") this.writeUrlSoon();
      if (!event.target.open) return;
      if (fold) this.update();
      else if (this.html) morphInto(this.view, this.html);
    }, true);
    this.root.addEventListener("pointerdown", (event) => this.startDrag(event));
  }

  set(setter) {
    if (this.stepInput && setter.dataset.set.startsWith(`${this.stepInput.name}=`)) this.stopPlay();
    this.setControls(setter.dataset.set.split(";").map((pair) => pair.split("=")));
  }

  key(event) {
    const setter = event.target.closest("[data-set]");
    if (setter && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      return this.set(setter); // SVG elements have no .click()
    }
    // timeline keys: ←/→ one step, space plays; not while typing or on another control
    if (!this.stepInput || python.status !== "ready" || event.altKey || event.ctrlKey || event.metaKey) return;
    const onOtherControl = event.target.matches(TYPING) ||
      (event.target.matches("input[type=range]") && event.target !== this.stepInput);
    if (onOtherControl) return;
    if (event.target !== this.stepInput && (event.key === "ArrowRight" || event.key === "ArrowLeft")) {
      event.preventDefault();
      this.step(event.key === "ArrowRight" ? "+1" : "-1");
    } else if (event.key === " " && !event.target.matches("button, summary, a")) {
      event.preventDefault();
      this.step("play");
    }
  }

  setControls(pairs) {
    if (python.status !== "ready") return;
    let changed = false;
    for (const [name, value] of pairs) {
      const input = this.inputs.find((i) => i.name === name);
      if (input) { writeInput(input, value); changed = true; }
    }
    if (changed) { this.showOutputs(); this.update(); }
  }

  // Dragging: an element with data-drag="xname yname" inside an
  // <svg data-plane="xmin xmax ymin ymax"> (the plane fills the viewBox)
  // sets the two controls to the point under the pointer.
  startDrag(event) {
    const handle = event.target.closest("[data-drag]");
    if (!handle || python.status !== "ready") return;
    event.preventDefault();
    const [xName, yName] = handle.dataset.drag.split(" ");
    // the view is redrawn while dragging: find the plane again by its position
    const planes = () => [...this.view.querySelectorAll("svg[data-plane]")];
    const index = planes().indexOf(handle.closest("svg[data-plane]"));
    const move = (e) => {
      const svg = planes()[index];
      if (!svg) return;
      const [xmin, xmax, ymin, ymax] = svg.dataset.plane.split(" ").map(Number);
      const box = svg.viewBox.baseVal;
      const point = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
      const x = xmin + (point.x - box.x) / box.width * (xmax - xmin);
      const y = ymax - (point.y - box.y) / box.height * (ymax - ymin);
      this.setControls([[xName, x.toFixed(4)], [yName, y.toFixed(4)]]);
    };
    const stop = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", stop);
      window.removeEventListener("pointercancel", stop);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", stop);
    window.addEventListener("pointercancel", stop);
    move(event);
  }

  // the next step's view, sent by the worker just before «ready»: laid out once off screen (rehearseLayout) at
  // once, while the controls still wait (later, in an idle moment, it could stand in the way of a change made at once)
  rehearseNext(html) {
    if (this.html === undefined && !this.busy) rehearseLayout(this.view, html);
  }

  // A stepped view keeps the tallest height it has had: the page does not jump
  // between steps. Watched after the browser's own layout, so a step adds no
  // layout of its own (and none when the view is no taller than before).
  // At another width (a window narrowed and widened again, a phone turned,
  // printing) the view's height is another: the kept one is let go, on the
  // next frame, and the view's own height is the tallest from there.
  keepTallest() {
    new ResizeObserver(([entry]) => {
      const { inlineSize: width, blockSize: height } = entry.borderBoxSize[0];
      if (this.width !== undefined && Math.abs(width - this.width) > 1) {
        this.width = width;
        this.tallest = Infinity; // nothing kept until the view has its own height at this width
        requestAnimationFrame(() => { this.tallest = 0; this.view.style.minHeight = ""; });
        return;
      }
      this.width = width;
      if (height <= this.tallest) return;
      this.tallest = height;
      this.view.style.minHeight = `${height}px`;
    }).observe(this.view);
  }

  get stepInput() {
    return this.inputs.find((input) => input.dataset.max !== undefined);
  }

  get playButton() {
    return this.root.querySelector(`${STEP_BUTTON}[data-step="play"]`);
  }

  step(action) {
    if (python.status !== "ready") return;
    if (action === "play") return this.playing ? this.stopPlay() : this.play();
    this.stopPlay();
    const input = this.stepInput;
    const max = Number(input.dataset.max);
    const now = Number(input.value);
    const next = action === "reset" ? 0 : Math.min(max, Math.max(0, now + Number(action)));
    if (next === now && action !== "reset") return;
    input.value = String(next);
    this.showOutputs();
    this.update();
  }

  // Play: after each view is drawn, the next stride of steps on the next
  // frame. The fastest speed covers any lab in about a hundred frames.
  play() {
    const input = this.stepInput;
    const max = Number(input.dataset.max);
    if (Number(input.value) >= max) input.value = "0";
    this.playing = true;
    this.playButton.setAttribute("aria-pressed", "true");
    this.playButton.textContent = "⏸ Pausa";
    const tick = () => {
      if (!this.playing) return;
      if (!this.root.isConnected || Number(input.value) >= max) return this.stopPlay();
      if (this.busy) return requestAnimationFrame(tick);
      const speed = this.root.querySelector("[data-play-speed]").value;
      const stride = speed === "max" ? Math.max(1, Math.ceil(max / 100)) : Number(speed);
      input.value = String(Math.min(max, Number(input.value) + stride));
      this.showOutputs();
      this.update().then(() => requestAnimationFrame(tick));
    };
    tick();
  }

  stopPlay() {
    if (!this.playing) return;
    this.playing = false;
    this.playButton.setAttribute("aria-pressed", "false");
    this.playButton.textContent = "▶ Play";
    this.writeUrl();
  }

  showOutputs() {
    for (const input of this.inputs) {
      put(this.root.querySelector(`[data-output="${input.name}"]`), "textContent", formatNumber(input.value));
    }
    const input = this.stepInput;
    if (!input) return;
    const at = Number(input.value);
    const max = Number(input.dataset.max);
    for (const button of this.root.querySelectorAll(STEP_BUTTON)) {
      const action = button.dataset.step;
      put(button, "disabled", (action === "-1" && at <= 0) || (action === "+1" && at >= max));
    }
  }

  params() {
    const values = Object.fromEntries(this.inputs.map((input) => [input.name, readInput(input)]));
    // the folds the reader has open (a lab's FOLDS, kit.fold): Python draws only those
    const folds = [...this.view.querySelectorAll("details[data-fold]")];
    if (folds.length) values[FOLDS_PARAM] = folds.filter((fold) => fold.open).map((fold) => fold.dataset.fold).join(",");
    return values;
  }

  statusChanged() {
    const status = this.root.querySelector("[data-lab-status]");
    const bar = this.root.querySelector("[data-lab-progress]");
    const message = this.root.querySelector("[data-lab-message]");
    const retry = this.root.querySelector("[data-lab-retry]");
    const total = Number(this.root.dataset.bytes) || 1;
    if (python.status === "loading") {
      status.hidden = false;
      retry.hidden = true;
      bar.hidden = false;
      // the bar counts bytes while they arrive; starting Python and the labs has no size: the bar says «in corso»
      if (python.phase === "download") bar.value = Math.min(1, python.loaded / total);
      else bar.removeAttribute("value");
      const doing = {
        download: `download, ${Math.round(100 * bar.value)} % di ${formatNumber((total / 1e6).toFixed(1))} MB`,
        python: "avvio di Python",
        labs: "caricamento dei laboratori",
      }[python.phase];
      message.textContent = `Python si sta caricando nel browser (${doing}): intanto vedi i numeri calcolati in anticipo.`;
    } else if (python.status === "failed") {
      status.hidden = false;
      bar.hidden = true;
      retry.hidden = false;
      message.textContent = `Non è stato possibile avviare Python nel browser (${python.error}). I numeri mostrati restano quelli calcolati in anticipo, con i valori iniziali.`;
    } else if (python.status === "ready" && this.root.dataset.ready !== "true") {
      rehearse(this.view);
      if (this.timeline) rehearse(this.timeline);
      status.hidden = true;
      this.fieldset.disabled = false;
      this.showOutputs();
      this.root.dataset.ready = "true";
      if (this.fromUrl) this.update(this.fromUrl);
      else if (this.restarted || this.view.querySelector("details[data-fold][open]")) this.update(); // opened while Python loaded
    }
    if (python.status === "loading" && this.root.dataset.ready === "true") {
      // a new worker after «Ferma»: the controls wait for it, then the view is drawn again
      this.root.dataset.ready = "false";
      this.fieldset.disabled = true;
      this.restarted = true;
    }
  }

  async update(raw = null) {
    if (python.status !== "ready") return;
    if (this.busy) { // the answer on its way is for controls the reader has moved since
      this.again = true;
      python.unwant(this.asked);
      return;
    }
    this.busy = true;
    this.root.dataset.busy = "true";
    this.view.setAttribute("aria-busy", "true");
    const asked = performance.now();
    const waiting = setTimeout(() => this.view.classList.add("is-waiting"), DIM_AFTER);
    const step = this.stepInput && { name: this.stepInput.name, max: Number(this.stepInput.dataset.max) };
    const answer = python.render(this.id, this.module, { ...this.params(), ...raw }, this.code?.running ?? null, step,
                                 (at, target) => this.working(at, target));
    this.asked = python.lastId;
    const result = await answer;
    if (this.workingLine) this.workingLine.hidden = true;
    // the reader may have left the page meanwhile: a late result must not touch the new one
    // (instant navigation moves the URL to the next page before it swaps the content:
    // a lab still on screen whose page is no longer the URL's is leaving too)
    clearTimeout(waiting);
    this.view.classList.remove("is-waiting");
    if (!this.root.isConnected || location.pathname !== this.page) {
      this.busy = this.again = false; // dropped, and ready again if the reader comes back before the swap
      delete this.root.dataset.busy;
      this.view.removeAttribute("aria-busy");
      return;
    }
    const answered = performance.now();
    if (result.unwanted) python.unwantedAnswers += 1; // the reader moved on: the update below asks for what they want now
    else if (result.ok) this.draw(result);
    else if (this.code?.running != null || result.stopped) this.code?.failed(result);
    else {
      this.errorBox.textContent = `Qualcosa non va: ${result.error}`;
      this.errorBox.hidden = false;
    }
    if (result.ok) this.code?.succeeded();
    if (result.params && !result.unwanted) {
      for (const input of this.inputs) {
        if (input.name in result.params && !this.again) writeInput(input, result.params[input.name]);
      }
      this.showOutputs();
      this.writeUrlSoon();
    }
    // where the last update's time went, for scripts/bench.py: in Python (little if the worker had
    // drawn the view ahead), waiting for the worker and in the messages, on the page (morph, controls)
    const inPython = result.took || 0;
    this.root.labTiming = { ahead: Boolean(result.ahead), python: inPython, wait: answered - asked - inPython,
                            page: performance.now() - answered };
    this.busy = false;
    delete this.root.dataset.busy;
    this.view.removeAttribute("aria-busy");
    if (this.again) {
      this.again = false;
      await this.update();
    }
  }

  // A long answer (a retraining from the start) says how far it has got, in a line above the view
  // (not during Play: there the counter moves, and a line for each stride would blink).
  working(at, target) {
    const line = this.workingLine;
    if (!line || this.playing) return;
    line.querySelector("progress").max = target;
    line.querySelector("progress").value = at;
    line.querySelector("span").textContent = `Calcolo i passi: ${formatNumber(at)} di ${formatNumber(target)}…`;
    line.hidden = false;
  }

  draw(result) {
    this.html = result.html; // morphed again when the reader opens a <details> (see morphInto)
    morphInto(this.view, result.html);
    if (this.timeline && result.timeline !== undefined) morphInto(this.timeline, result.timeline);
    this.follow(result.controls || {});
    this.view.classList.remove("is-stale");
    this.errorBox.hidden = true;
    this.errorBox.textContent = "";
    // one polite line with the key result, not the whole drawing, for screen readers
    if (this.live && result.summary) this.live.textContent = result.summary;
  }

  // What the lab's follow(state) says of each control: disabled with a reason, hidden, another range.
  follow(controls) {
    for (const input of this.inputs) {
      const f = controls[input.name] || {};
      const wrapper = input.closest("[data-control]");
      const reason = this.root.querySelector(`[data-reason="${input.name}"]`);
      put(input, "disabled", Boolean(f.disabled));
      put(reason, "textContent", f.disabled || "");
      put(reason, "hidden", !f.disabled);
      put(wrapper, "hidden", Boolean(f.hidden));
      if (input.dataset.range) {
        const [min, max] = input.dataset.range.split(" ");
        put(input, "min", String(f.min ?? min));
        put(input, "max", String(f.max ?? max));
      }
    }
  }

  // The URL reproduces what the reader sees, except texts too long for a
  // link (a pasted corpus): those stay in the page. While Play runs the URL
  // is written once, when it stops.
  writeUrlSoon() {
    if (urlWaiting && urlWaiting !== this) writeWaitingUrl();
    clearTimeout(this.urlTimer);
    urlWaiting = this;
    this.urlTimer = setTimeout(writeWaitingUrl, URL_PAUSE);
  }

  writeUrl() {
    if (location.pathname !== this.page) return; // never into another page's URL
    if (this.playing) return;
    const query = new URLSearchParams(location.search);
    for (const input of this.inputs) {
      const value = readInput(input);
      if (value === input.dataset.default || value.length > URL_TEXT_LIMIT) query.delete(input.name);
      else query.set(input.name, value);
    }
    const folds = this.params()[FOLDS_PARAM];
    if (folds) query.set(FOLDS_PARAM, folds);
    else query.delete(FOLDS_PARAM);
    const search = query.toString();
    const url = `${location.pathname}${search ? "?" + search : ""}${location.hash}`;
    history.replaceState(history.state, "", url);
  }
}

// «Il codice Python»: the panel below a lab. «Modifica» loads the editor
// (CodeMirror, bundled by the build) only when asked; «Esegui» runs the
// edited functions in the worker, in a module of their own; the controls
// keep working on the edited code until «Ripristina».
const EDITOR_URL = new URL("./vendor/editor.js", import.meta.url);
const SHARE_LIMIT = 6000; // characters of compressed code in a link

async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

async function unpack(data) {
  const binary = atob(data.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

class CodePanel {
  constructor(panel, controller) {
    this.panel = panel;
    this.controller = controller;
    this.original = panel.querySelector("[data-lab-source]").value;
    this.status = panel.querySelector("[data-lab-code-status]");
    this.editor = null;
    this.running = null; // the edited text the lab runs on, or null for the original
    this.slow = null;
    this.expected = panel.querySelector("[data-lab-code-expected]");
    this.saved = null; // the controls a suggested edit changed, as they were before it
    panel.addEventListener("click", (event) => {
      const button = event.target.closest("[data-code]");
      if (button?.dataset.code === "try") this.tryEdit(button.closest("[data-edit]"));
      else if (button) this[button.dataset.code]();
    });
    const shared = new URLSearchParams(location.hash.slice(1)).get("codice");
    if (shared) this.openShared(shared);
  }

  button(name) { return this.panel.querySelector(`[data-code="${name}"]`); }

  say(text, tone = "info") {
    this.status.hidden = !text;
    this.status.className = `lab-code-status is-${tone}`;
    this.status.textContent = text;
  }

  async edit(text = null) {
    if (!this.editor) {
      this.say("Carico l'editor…");
      const { createEditor } = await import(EDITOR_URL.href);
      const host = this.panel.querySelector("[data-lab-code-editor]");
      host.hidden = false;
      this.editor = createEditor(host, this.original, { run: () => this.run(), label: "Il codice Python del laboratorio" });
      this.say("Cambia il codice e premi «Esegui» (o Ctrl+Invio).");
    }
    if (text !== null) this.editor.text = text;
    this.panel.open = true;
    this.panel.querySelector("[data-lab-code-listing]").hidden = true;
    this.button("edit").hidden = true;
    for (const name of ["run", "reset", "stop", "share", "download"]) this.button(name).hidden = false;
    this.panel.dataset.editing = "true";
  }

  run() {
    if (!this.editor || python.status !== "ready") return;
    this.running = this.editor.text;
    this.say("Eseguo il codice modificato…");
    clearTimeout(this.slow);
    this.slow = setTimeout(() => this.say("Il codice sta ancora girando: se non finisce, premi «Ferma».", "warn"), 1500);
    this.controller.update();
  }

  succeeded() {
    if (this.running === null) return;
    clearTimeout(this.slow);
    this.say(this.running === this.original ? "Il laboratorio usa il codice originale."
      : "Il laboratorio ora usa il tuo codice: muovi i comandi per provarlo.", "ok");
    this.panel.dataset.edited = this.running === this.original ? "false" : "true";
  }

  failed(result) {
    clearTimeout(this.slow);
    if (result.stopped) return this.say("Calcolo fermato: Python riparte con il codice originale.", "warn");
    this.say(`${result.error} La vista mostra l'ultimo risultato buono.`, "error");
    if (result.line && this.editor) this.editor.goToLine(result.line);
  }

  // «Prova: …»: the editor opens with the lab's suggested edit made, the controls where its effect
  // shows, the edited code running and the changed line in sight; «Ripristina» undoes all of it.
  async tryEdit(item) {
    const old = item.querySelector("[data-edit-old]").value;
    const at = this.original.indexOf(old);
    if (at < 0) return this.say("Questa modifica non si applica più al codice della pagina: ricaricala.", "error");
    await this.edit(this.original.slice(0, at) + item.querySelector("[data-edit-new]").value
      + this.original.slice(at + old.length));
    const pairs = item.dataset.editParams.split(";").filter(Boolean).map((pair) => pair.split("="));
    const before = this.controller.params();
    this.saved ??= [];
    for (const [name, value] of pairs) {
      if (name === FOLDS_PARAM) { // the sections where the effect shows, opened (and left open)
        this.controller.openFolds(value);
        continue;
      }
      const input = this.controller.inputs.find((i) => i.name === name);
      if (!input) continue;
      if (!this.saved.some(([saved]) => saved === name)) this.saved.push([name, before[name]]);
      writeInput(input, value);
    }
    this.controller.showOutputs();
    const title = item.querySelector("[data-code=try]").textContent;
    this.expected.textContent = `${title}. Che cosa aspettarsi: ${item.querySelector(".lab-code-expect").textContent}`;
    this.expected.hidden = false;
    if (python.status === "ready") this.run();
    else this.say("La modifica è nell'editor: premi «Esegui» quando Python è pronto.", "warn");
    this.editor.goToLine(Number(item.dataset.editLine));
    this.panel.querySelector("[data-lab-code-editor]").scrollIntoView({ block: "center" });
  }

  restoreControls() {
    if (!this.saved) return;
    for (const [name, value] of this.saved) {
      const input = this.controller.inputs.find((i) => i.name === name);
      if (input) writeInput(input, value);
    }
    this.saved = null;
    this.expected.hidden = true;
    this.controller.showOutputs();
  }

  reset() {
    this.restoreControls();
    if (this.editor) this.editor.text = this.original;
    this.running = null;
    this.panel.dataset.edited = "false";
    document.querySelector("[data-code-banner]")?.remove();
    if (location.hash.includes("codice=")) history.replaceState(history.state, "", location.pathname + location.search);
    this.say("Codice originale ripristinato.", "ok");
    this.controller.update();
  }

  stop() {
    clearTimeout(this.slow);
    this.running = null;
    this.panel.dataset.edited = "false";
    python.restart();
    this.say("Calcolo fermato: Python riparte con il codice originale (il tuo resta nell'editor).", "warn");
  }

  async share() {
    const data = await pack(this.editor.text);
    if (data.length > SHARE_LIMIT) {
      return this.say(`Il codice è troppo lungo per un link (${data.length} caratteri compressi, al massimo ${SHARE_LIMIT}): scarica il .py.`, "warn");
    }
    const url = `${location.origin}${location.pathname}${location.search}#codice=${data}`;
    history.replaceState(history.state, "", url);
    try { await navigator.clipboard.writeText(url); this.say("Link copiato: chi lo apre vede il tuo codice e decide se eseguirlo.", "ok"); }
    catch { this.say("Il link è nella barra degli indirizzi: copialo da lì.", "ok"); }
  }

  async download() {
    const result = await python.call({ type: "source", lab: this.controller.id, module: this.controller.module, code: this.editor.text });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([result.source], { type: "text/x-python" }));
    link.download = `${this.controller.id.replaceAll("-", "_")}_modificato.py`;
    link.click();
    URL.revokeObjectURL(link.href);
    this.say(`Scaricato: ${link.download}. Si esegue con «python -m labs run --file ${link.download}».`, "ok");
  }

  async openShared(data) {
    let text;
    try { text = await unpack(data); }
    catch { return this.say("Il codice nel link è rovinato: resta il codice originale.", "error"); }
    const banner = document.createElement("div");
    banner.className = "lab-code-banner";
    banner.dataset.codeBanner = "";
    banner.setAttribute("role", "status");
    banner.innerHTML = `<strong>Questa pagina usa codice modificato</strong> da un link: è nell'editor qui sotto e gira solo se premi «Esegui». <button type="button" class="md-button">Torna al codice originale</button>`;
    banner.querySelector("button").addEventListener("click", () => this.reset());
    this.controller.root.before(banner);
    await this.edit(text);
  }
}

function mountLabs() {
  for (const listener of [...python.listeners]) python.listeners.delete(listener);
  for (const root of document.querySelectorAll("[data-lab]")) {
    if (!root.labController) root.labController = new LabController(root);
    else python.listeners.add(root.labController.onStatus);
    const panel = document.querySelector(`[data-lab-code="${root.dataset.lab}"]`);
    if (panel && !panel.codePanel) panel.codePanel = root.labController.code = new CodePanel(panel, root.labController);
  }
}

// mkdocs-material emits document$ on the first load and after every instant navigation.
// (On a lab page the theme starts later: mountLabs then runs on DOMContentLoaded, and from the theme's start on document$.)
if (window.document$) window.document$.subscribe(mountLabs);
else document.addEventListener("DOMContentLoaded", mountLabs, { once: true });

// A link to the lab's own page (the sidebar, a search result) keeps the lab as
// the reader left it: instant navigation would redraw it from the defaults
// and drop the settings from the URL.
document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[href]");
  if (!link || !document.querySelector("[data-lab]") || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || url.pathname !== location.pathname || url.search || url.hash) return;
  event.preventDefault();
  event.stopPropagation();
  const search = document.getElementById("__search"); // a search result: close the search
  if (search) search.checked = false;
}, true);

// A skip link («Vai al contenuto», «Vai al laboratorio») moves the focus here, at once, and leaves
// the URL alone. Through the URL's hash the theme's instant navigation would click it again a turn
// later (also after the browser's own jump, on its popstate), and a keyboard reader who has already
// pressed Tab would be sent back to the heading.
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a.md-skip");
  const target = link && document.getElementById(decodeURIComponent(link.hash.slice(1)));
  if (!target) return;
  event.preventDefault();
  event.stopPropagation();
  if (!target.hasAttribute("tabindex")) target.tabIndex = -1;
  target.scrollIntoView({ block: "start" });
  target.focus({ preventScroll: true });
}, true);

window.labsRuntime = python; // for tests and monitoring
