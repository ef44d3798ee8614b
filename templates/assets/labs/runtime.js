// Browser runtime of the labs. It knows no lab: it finds [data-lab] roots,
// reads their [data-param] inputs, asks the Python worker for the new view
// and swaps it in. One worker per tab, kept across instant navigation.

const WORKER_URL = new URL("./worker.js", import.meta.url);
const PYODIDE_URL = new URL("../../pyodide/", import.meta.url);

const python = {
  worker: null,
  status: "idle", // idle | loading | ready | failed
  loaded: 0,
  error: "",
  calls: new Map(),
  nextId: 1,
  listeners: new Set(),
  package: "",

  start(pkg) {
    if (this.worker && this.status !== "failed") return;
    if (this.worker) this.worker.terminate();
    this.package = pkg;
    this.status = "loading";
    this.loaded = 0;
    this.worker = new Worker(WORKER_URL, { type: "module" });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => this.receive({ type: "failed", error: event.message || "il worker non è partito" });
    this.worker.postMessage({ type: "init", indexURL: PYODIDE_URL.href, package: pkg });
    this.notify();
  },

  receive(message) {
    if (message.type === "result") {
      const call = this.calls.get(message.id);
      this.calls.delete(message.id);
      if (call) call(message);
      return;
    }
    if (message.type === "progress") this.loaded = message.loaded;
    if (message.type === "ready") this.status = "ready";
    if (message.type === "failed") {
      this.status = "failed";
      this.error = message.error;
      for (const call of this.calls.values()) call({ ok: false, error: message.error });
      this.calls.clear();
    }
    this.notify();
  },

  render(lab, params) {
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.calls.set(id, resolve);
      this.worker.postMessage({ type: "render", id, lab, params });
    });
  },

  notify() {
    for (const listener of this.listeners) listener();
  },
};

const formatNumber = (value) => String(value).replace(".", ",").replace("-", "−");

function readInput(input) {
  return input.type === "checkbox" ? (input.checked ? "1" : "0") : input.value;
}

function writeInput(input, value) {
  if (input.type === "checkbox") input.checked = value === true || value === "1" || value === "true";
  else input.value = String(value);
}

class LabController {
  constructor(root) {
    this.root = root;
    this.id = root.dataset.lab;
    this.view = root.querySelector("[data-lab-view]");
    this.errorBox = root.querySelector("[data-lab-error]");
    this.fieldset = root.querySelector("[data-lab-fieldset]");
    this.inputs = [...root.querySelectorAll("[data-param]")];
    this.busy = false;
    this.again = false;
    this.playing = null;
    this.fromUrl = this.applyUrl();
    if (this.fromUrl) this.view.classList.add("is-stale");
    this.listen();
    this.showOutputs();
    this.onStatus = () => this.statusChanged();
    python.listeners.add(this.onStatus);
    python.start(root.dataset.package);
    this.statusChanged();
  }

  applyUrl() {
    const query = new URLSearchParams(location.search);
    let found = false;
    for (const input of this.inputs) {
      if (query.has(input.name)) {
        writeInput(input, query.get(input.name));
        found = true;
      }
    }
    return found;
  }

  listen() {
    this.root.addEventListener("input", (event) => {
      if (event.target.matches("[data-param]")) {
        this.showOutputs();
        this.update();
      }
    });
    this.root.addEventListener("submit", (event) => event.preventDefault());
    this.root.addEventListener("click", (event) => {
      const button = event.target.closest("[data-step]");
      if (button) return this.step(button.dataset.step);
      const retry = event.target.closest("[data-lab-retry]");
      if (retry) python.start(this.root.dataset.package);
      // a view element with data-set="name=value;other=value" sets controls when clicked
      const setter = event.target.closest("[data-set]");
      if (setter) this.setControls(setter.dataset.set.split(";").map((pair) => pair.split("=")));
    });
    this.root.addEventListener("keydown", (event) => {
      const setter = event.target.closest("[data-set]");
      if (setter && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        setter.click();
      }
    });
    this.root.addEventListener("pointerdown", (event) => this.startDrag(event));
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

  get stepInput() {
    return this.inputs.find((input) => input.dataset.max !== undefined);
  }

  step(action) {
    const input = this.stepInput;
    const max = Number(input.dataset.max);
    const now = Number(input.value);
    if (action === "play") return this.togglePlay();
    if (action !== "+1") this.stopPlay();
    const next = action === "reset" ? 0 : Math.min(max, Math.max(0, now + Number(action)));
    if (next === now && action !== "reset") return;
    input.value = String(next);
    this.showOutputs();
    this.update();
  }

  togglePlay() {
    if (this.playing) return this.stopPlay();
    const button = this.root.querySelector('[data-step="play"]');
    button.setAttribute("aria-pressed", "true");
    button.textContent = "⏸ Pausa";
    this.playing = setInterval(() => {
      const input = this.stepInput;
      if (!this.root.isConnected || Number(input.value) >= Number(input.dataset.max)) return this.stopPlay();
      if (!this.busy) this.step("+1");
    }, 900);
  }

  stopPlay() {
    if (!this.playing) return;
    clearInterval(this.playing);
    this.playing = null;
    const button = this.root.querySelector('[data-step="play"]');
    button.setAttribute("aria-pressed", "false");
    button.textContent = "▶ Play";
  }

  showOutputs() {
    for (const input of this.inputs) {
      const output = this.root.querySelector(`[data-output="${input.name}"]`);
      if (!output) continue;
      output.textContent = input.dataset.max !== undefined
        ? `Passo ${input.value} di ${input.dataset.max}`
        : formatNumber(input.value);
    }
    const input = this.stepInput;
    if (!input) return;
    const at = Number(input.value);
    const max = Number(input.dataset.max);
    for (const button of this.root.querySelectorAll("[data-step]")) {
      const action = button.dataset.step;
      button.disabled = (action === "-1" && at <= 0) || (action === "+1" && at >= max);
    }
  }

  params() {
    return Object.fromEntries(this.inputs.map((input) => [input.name, readInput(input)]));
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
      bar.value = Math.min(1, python.loaded / total);
      message.textContent = `Python si sta caricando nel browser (${Math.round(100 * bar.value)} %): intanto vedi i numeri calcolati in anticipo.`;
    } else if (python.status === "failed") {
      status.hidden = false;
      bar.hidden = true;
      retry.hidden = false;
      message.textContent = `Non è stato possibile avviare Python nel browser (${python.error}). I numeri mostrati restano quelli calcolati in anticipo, con i valori iniziali.`;
    } else if (python.status === "ready" && this.root.dataset.ready !== "true") {
      status.hidden = true;
      this.fieldset.disabled = false;
      this.showOutputs();
      this.root.dataset.ready = "true";
      if (this.fromUrl) this.update();
    }
  }

  async update() {
    if (python.status !== "ready") return;
    if (this.busy) { this.again = true; return; }
    this.busy = true;
    this.root.dataset.busy = "true";
    this.view.setAttribute("aria-busy", "true");
    const result = await python.render(this.id, this.params());
    if (result.ok) {
      this.view.innerHTML = result.html;
      this.view.classList.remove("is-stale");
      this.errorBox.hidden = true;
      this.errorBox.textContent = "";
    } else {
      this.errorBox.textContent = `Qualcosa non va: ${result.error}`;
      this.errorBox.hidden = false;
    }
    if (result.params) {
      for (const input of this.inputs) {
        if (input.name in result.params && !this.again) writeInput(input, result.params[input.name]);
      }
      this.showOutputs();
      this.writeUrl();
    }
    this.busy = false;
    delete this.root.dataset.busy;
    this.view.removeAttribute("aria-busy");
    if (this.again) {
      this.again = false;
      this.update();
    }
  }

  writeUrl() {
    const query = new URLSearchParams(location.search);
    for (const input of this.inputs) {
      const value = readInput(input);
      if (value === input.dataset.default) query.delete(input.name);
      else query.set(input.name, value);
    }
    const search = query.toString();
    const url = `${location.pathname}${search ? "?" + search : ""}${location.hash}`;
    history.replaceState(history.state, "", url);
  }
}

function mountLabs() {
  for (const listener of [...python.listeners]) python.listeners.delete(listener);
  for (const root of document.querySelectorAll("[data-lab]")) {
    if (!root.labController) root.labController = new LabController(root);
    else python.listeners.add(root.labController.onStatus);
  }
}

// mkdocs-material emits document$ on the first load and after every instant navigation.
if (window.document$) window.document$.subscribe(mountLabs);
else document.addEventListener("DOMContentLoaded", mountLabs);

window.labsRuntime = python; // for tests and monitoring
