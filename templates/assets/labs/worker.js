// The Python side of every lab: one Pyodide per tab, started once.
// Messages in:  {type: "init", indexURL, package, module} · {type: "render", id, lab, module, params}
// Messages out: {type: "progress", loaded} · {type: "ready"} · {type: "failed", error}
//               {type: "result", id, ok, html?, error?, params, controls?, timeline?}

let pyodide = null;
let render = null;
let load = null;
let loaded = 0;
let idleTimer = null;
let pending = []; // lab modules still to import when the reader is idle

function failed(error) {
  if (!render) self.postMessage({ type: "failed", error: String(error && error.message || error) });
}

// Count the bytes Pyodide downloads, for the page's progress bar, and give
// up at the first download that fails (Pyodide itself would wait forever).
const plainFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const url = String(input && input.url || input).split("/").pop();
  let response;
  try {
    response = await plainFetch(input, init);
  } catch (error) {
    failed(`download di ${url} non riuscito`);
    throw error;
  }
  if (!response.ok) failed(`${url}: risposta ${response.status}`);
  if (!response.body) return response;
  const reader = response.body.getReader();
  const counted = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      loaded += value.byteLength;
      self.postMessage({ type: "progress", loaded });
      controller.enqueue(value);
    },
    cancel(reason) { return reader.cancel(reason); },
  });
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
};

// The other labs are imported one at a time, only after the reader has been
// idle for a while, so an import never stands in front of a change.
function importWhenIdle() {
  clearTimeout(idleTimer);
  if (!pending.length) return;
  idleTimer = setTimeout(() => {
    load(pending.shift());
    importWhenIdle();
  }, 800);
}

async function init({ indexURL, package: name, module }) {
  try {
    const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
    pyodide = await loadPyodide({ indexURL, lockFileURL: new URL("pyodide-lock.json", indexURL).href });
    await pyodide.loadPackage(name, { messageCallback: () => {} });
    render = pyodide.runPython("import labs; labs.render_json");
    load = pyodide.runPython("labs.load");
    // the page's lab is imported and drawn once before «ready»: the reader's
    // first change then costs what every later one costs
    if (module) pyodide.runPython(`labs.render(labs.load(${JSON.stringify(module)}).id, {})`);
    self.postMessage({ type: "ready" });
    pending = pyodide.runPython(`
import pkgutil, labs
[f"labs.{c.name}.{m.name}" for c in pkgutil.iter_modules(labs.__path__) if c.name.startswith("ch")
 for m in pkgutil.iter_modules([f"{labs.__path__[0]}/{c.name}"]) if not m.name.startswith("_")]`).toJs();
    importWhenIdle();
  } catch (error) {
    failed(error);
  }
}

self.onmessage = ({ data }) => {
  if (data.type === "init") return init(data);
  if (data.type !== "render") return;
  try {
    if (data.module) load(data.module);
    self.postMessage({ type: "result", id: data.id, ...JSON.parse(render(data.lab, JSON.stringify(data.params))) });
  } catch (error) {
    self.postMessage({ type: "result", id: data.id, ok: false, params: data.params,
                       error: `Errore inatteso in Python: ${error && error.message || error}` });
  }
  importWhenIdle();
};
