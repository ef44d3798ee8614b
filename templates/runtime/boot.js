// Starts a lab page's Python worker as early as the page allows. build.py
// writes this script inline at the top of a lab page's <head>, right after
// the Content-Security-Policy (which allows it by its hash) and before the
// stylesheets, so it runs as soon as the parser reaches it: its tag says the
// lab's module, package and lockfile, and where worker.js and Pyodide are.
// runtime.js, which runs much later, takes the worker over with the messages
// it has sent meanwhile (self.labsEarly). The comment lines stay out of the page.
(() => {
  const tag = document.currentScript.dataset;
  if (location.protocol === "file:") return;
  const worker = new Worker(new URL(tag.worker, location.href), { type: "module" });
  const early = self.labsEarly = { worker, module: tag.module, events: [], started: performance.now() };
  worker.onmessage = worker.onerror = (event) => early.events.push(event);
  worker.postMessage({ type: "init", indexURL: new URL(tag.pyodide, location.href).href, package: tag.package,
                       lockfile: tag.lockfile, module: tag.module });
})();
