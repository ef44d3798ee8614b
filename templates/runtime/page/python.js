// The Python client: the page's one worker (kept across instant navigation), the calls made
// to it and their answers, what it says while it loads. The messages are ../protocol.js's.
import { initMessage, viewMessage, sourceMessage, sharedWord, SIGINT, STOPPED } from "../protocol.js";
import { noteActivity } from "./offline.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const PYODIDE_URL = new URL("../../pyodide/", import.meta.url);

// How long a worker stopped by «Ferma» has to answer its interrupt before it is ended anyway (Python hears none
// inside one long C call, or in code that catches KeyboardInterrupt)
const INTERRUPT_GRACE_MS = 1000;

// Ends a worker that may be running Python. WebKit does not stop a worker told to terminate inside WebAssembly
// (a loop in Python then keeps a core busy until the tab closes): where the worker shares memory (interrupt: its
// word), Python is interrupted first and the worker ended once it has answered; elsewhere it ends where Python
// next reads its interrupt word (worker/main.js, shareMemory). Whatever it says meanwhile is for nobody.
function endWorker(worker, interrupt) {
  if (!interrupt) return worker.terminate();
  Atomics.store(interrupt, 0, SIGINT);
  const end = () => { clearTimeout(timer); worker.terminate(); };
  const timer = setTimeout(end, INTERRUPT_GRACE_MS);
  worker.onmessage = ({ data }) => { if (data.type === "result") end(); };
  worker.onerror = null;
}

// The worker that the <head>'s boot script (templates/runtime/boot.js) started for this lab module, with what it
// has said so far; null if none, or if it was for another page (instant navigation) or is taken.
function takeEarlyWorker(module) {
  const early = self.labsEarly;
  self.labsEarly = null;
  if (!early || early.module === module) return early;
  early.worker.terminate();
  return null;
}

// The worker's start, stage by stage, on the page's own timeline (marks «labs:worker:<stage>»): what the
// benchmark reads in every browser, whose drivers reach a page but not always its worker.
function startMarks(marks = {}) {
  for (const [stage, at] of Object.entries(marks)) {
    performance.mark(`labs:worker:${stage}`, { startTime: Math.max(0, at - performance.timeOrigin) });
  }
}

export const python = {
  worker: null,
  status: "idle", // idle | loading | ready | failed
  loaded: 0,
  error: "",
  calls: new Map(),
  working: new Map(), // id → what hears the progress of a long answer
  nextId: 1,
  listeners: new Set(), // the labs on the page (mountLabs renews them at each page)
  watchers: new Set(), // the page's own (the theme's start, the offline copy): for the whole visit
  package: "",
  phase: "download", // while loading: download | python | labs
  theme: "none", // the theme's script: none | waiting | loading | started | failed (theme.js)

  start(pkg, module) {
    if (this.worker && this.status !== "failed") return;
    if (this.worker) this.worker.terminate();
    this.unwanted = null;
    this.interrupt = null;
    const retrying = this.status === "failed";
    this.package = pkg;
    this.status = "loading";
    this.phase = "download";
    this.loaded = 0;
    // the worker that the boot script started from the page's <head>, if any: it has been loading for a while
    const early = retrying ? null : takeEarlyWorker(module);
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
    // a download with no new byte for a while fails with «Riprova»; a retry revalidates every file
    const known = document.querySelector("script[data-lab-boot]")?.dataset.known;
    this.worker.postMessage(initMessage({ indexURL: PYODIDE_URL.href, pkg, lockfile: this.lockfile, module, known,
                                          revalidate: retrying }));
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
    if (message.type === "shared") {
      this.unwanted = sharedWord(message.buffer, "unwanted");
      this.interrupt = sharedWord(message.buffer, "interrupt");
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
    if (message.type === "phase") this.phase = message.phase;
    // the reader's first changes come right after «ready»: the site's copy waits for quiet from there
    if (message.type === "ready") { this.status = "ready"; noteActivity(); startMarks(message.marks); }
    if (message.type === "failed") {
      if (message.detail) console.warn("Python:", message.detail); // for developers; the reader gets the Italian line
      this.status = "failed";
      this.error = message.error;
      for (const call of this.calls.values()) call({ ok: false, error: message.error });
      this.calls.clear();
      this.working.clear();
    }
    this.notify();
  },

  // The answer to message `id` is no longer wanted (the reader moved on): a replay stops at its next step,
  // keeping the steps made, and answers {unwanted: true}. Only where the worker shared a word of memory
  // (a cross-origin isolated page); elsewhere the answer comes whole, as before.
  unwant(id) {
    if (this.unwanted && id) Atomics.store(this.unwanted, 0, id);
  },

  // build(id) makes the message; working(at, target) hears how far a long replay has got (a retraining),
  // while it runs; lastId is the id of the message just sent (for unwant)
  call(build, working = null) {
    noteActivity(); // Play asks for views without any input: the site's copy waits for it too
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.lastId = id;
      this.calls.set(id, resolve);
      if (working) this.working.set(id, working);
      this.worker.postMessage(build(id));
    });
  },

  // view: {lab, module, params, code (null: the lab as written), step (a stepped lab's {name, max})}
  render(view, working = null) {
    return this.call((id) => viewMessage(id, view), working);
  },

  source(edit) {
    return this.call((id) => sourceMessage(id, edit));
  },

  // «Ferma»: the worker is ended (Python interrupted first, see endWorker) and a new one started at once, so
  // Python starts again clean wherever the stop fell (a cache half filled, an import half done); pending
  // calls end with «calcolo fermato».
  restart() {
    const module = document.querySelector("[data-lab]")?.dataset.module;
    endWorker(this.worker, this.interrupt);
    for (const call of this.calls.values()) call({ ok: false, stopped: true, error: STOPPED });
    this.calls.clear();
    this.working.clear();
    this.worker = null;
    this.start(this.package, module);
  },

  notify() {
    for (const listener of [...this.listeners, ...this.watchers]) listener();
  },
};
