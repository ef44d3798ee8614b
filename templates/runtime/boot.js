// Starts a lab page's Python worker as early as the page allows. The theme's block site_meta
// (templates/overrides/main.html) writes this script, bundled by the build (sitebuild/bundle.py),
// inline at the top of a lab page's <head>, after the Content-Security-Policy (which allows it by
// its hash) and before the stylesheets, so it runs as soon as the parser reaches it: its tag says the
// lab's module, package and lockfile, and where worker.js and Pyodide are. runtime.js, which runs much
// later, takes the worker over with the messages it has sent meanwhile (self.labsEarly).
import { initMessage } from "./protocol.js";

const tag = document.currentScript.dataset;
if (location.protocol !== "file:") {
  const worker = new Worker(new URL(tag.worker, location.href), { type: "module" });
  const early = self.labsEarly = { worker, module: tag.module, events: [], started: performance.now() };
  worker.onmessage = worker.onerror = (event) => early.events.push(event);
  worker.postMessage(initMessage({ indexURL: new URL(tag.pyodide, location.href).href, pkg: tag.package,
                                   lockfile: tag.lockfile, module: tag.module, known: tag.known }));
}
