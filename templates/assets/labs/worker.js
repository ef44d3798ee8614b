// The Python side of every lab: one Pyodide per tab, started once.
// Messages in:  {type: "init", indexURL, package} · {type: "render", id, lab, params}
// Messages out: {type: "progress", loaded} · {type: "ready"} · {type: "failed", error}
//               {type: "result", id, ok, html?, error?, params}

let render = null;
let loaded = 0;

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

async function init({ indexURL, package: name }) {
  try {
    const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
    const pyodide = await loadPyodide({ indexURL, lockFileURL: new URL("pyodide-lock.json", indexURL).href });
    await pyodide.loadPackage(name, { messageCallback: () => {} });
    render = pyodide.runPython("import labs; labs.render_json");
    self.postMessage({ type: "ready" });
    // import every lab now, while the reader is still reading, not at the first click
    setTimeout(() => pyodide.runPython("labs.all_labs()"), 50);
  } catch (error) {
    failed(error);
  }
}

self.onmessage = ({ data }) => {
  if (data.type === "init") return init(data);
  if (data.type !== "render") return;
  try {
    self.postMessage({ type: "result", id: data.id, ...JSON.parse(render(data.lab, JSON.stringify(data.params))) });
  } catch (error) {
    self.postMessage({ type: "result", id: data.id, ok: false, params: data.params,
                       error: `Errore inatteso in Python: ${error && error.message || error}` });
  }
};
