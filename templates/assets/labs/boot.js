// Starts a lab page's Python worker as early as the page allows. A lab page
// loads this module async from its <head> (templates/overrides/main.html):
// it runs while the body is still being parsed, before the theme's script at
// the end of the body has run, and starts the worker at once: its tag says
// the lab's module, package and lockfile (build.py). runtime.js, which runs
// later, takes the worker over with the messages it has sent meanwhile (the
// same module instance: it imports this file).

export const WORKER_URL = new URL("./worker.js", import.meta.url);
export const PYODIDE_URL = new URL("../../pyodide/", import.meta.url);

// The first message to a new worker: where Pyodide and the lockfile are, and the page's lab.
export function initMessage(root, { stallSeconds = 15, revalidate = false } = {}) {
  return { type: "init", indexURL: PYODIDE_URL.href, package: root.dataset.package, lockfile: root.dataset.lockfile,
           module: root.dataset.module, stallSeconds, revalidate };
}

let early = null; // {worker, module, events, started}

function start(root) {
  if (early || location.protocol === "file:") return;
  const worker = new Worker(WORKER_URL, { type: "module" });
  early = { worker, module: root.dataset.module, events: [], started: performance.now() };
  worker.onmessage = worker.onerror = (event) => early.events.push(event);
  worker.postMessage(initMessage(root));
}

// The worker started here for this lab module, with what it said so far; null if none (or taken).
export function takeEarlyWorker(module) {
  if (!early || early.module !== module) return null;
  const taken = early;
  early = { taken: true };
  return taken;
}

const found = document.querySelector("script[data-lab-boot]");
if (found) start(found);
