// The Python side of every lab: one Pyodide per tab, started once.
// Messages in:  {type: "init", indexURL, package (the base wheel's), lockfile, module, stallSeconds, revalidate}
//               {type: "render", id, lab, module, params, step?: {name, max} (a stepped lab's step control)}
// Messages out: {type: "progress", loaded} · {type: "phase", phase: "download" | "python" | "labs"}
//               {type: "ready", checkpointBytes (the bound of a slow training's checkpoints: fit_memory)}
//               {type: "failed", error (Italian), detail?}
//               {type: "unwanted", buffer} (a SharedArrayBuffer: see «Answers nobody waits for» below)
//               {type: "result", id, ok, html?, error?, params, controls?, timeline?, summary?,
//                took (ms in Python), ahead (true if it was drawn before it was asked: labs.render_ahead),
//                unwanted (true if the page said it no longer wanted it: nothing else then)}

let pyodide = null;
let render = null;
let load = null;
let renderAhead = null;
let renderEdited = null;
let editedSource = null;
let loaded = 0;
let idleTimer = null;
let pending = []; // lab modules still to import when the reader is idle
let gaveUp = false;
let stallSeconds = 15;
let revalidate = false; // after «Riprova»: ask the server again instead of trusting the HTTP cache
let lastByte = 0; // when the last downloaded byte arrived (performance.now())
const runtimeFiles = new Set(["pyodide.asm.wasm", "python_stdlib.zip"]); // downloaded before Python starts

// The first failure is the one the reader is told about, in Italian; what
// Pyodide says next (an English traceback, say) goes to the console only.
function failed(message, detail = "") {
  if (render || gaveUp) return;
  gaveUp = true;
  self.postMessage({ type: "failed", error: message, detail: String(detail && detail.message || detail) });
}

function phase(name) {
  self.postMessage({ type: "phase", phase: name });
}

// Once we have said what failed, the rejections that Pyodide leaves behind
// (an aborted download's «Failed to fetch») are expected: not an error more.
self.addEventListener("unhandledrejection", (event) => {
  failed("Python non è partito per un errore inatteso durante il caricamento", event.reason);
  event.preventDefault();
});

// What the reader is told when a download (a fetch or a module import) stops or fails.
const stalled = (name) => failed(`il download di ${name} si è fermato: nessun dato da ${stallSeconds} secondi. ` +
  "Controlla la connessione e premi «Riprova»");
const brokeOff = (name, error) => failed(`il download di ${name} non è riuscito. Controlla la connessione e premi «Riprova»`, error);

const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

// Read a download's copy to its end: each chunk moves the progress bar and puts off the stall timeout.
async function count(name, reader, watch, done) {
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (error) {
      done();
      return failed(`il download di ${name} si è interrotto. Controlla la connessione e premi «Riprova»`, error);
    }
    if (chunk.done) {
      done();
      if (runtimeFiles.delete(name) && runtimeFiles.size === 0) phase("python");
      return;
    }
    watch();
    lastByte = performance.now();
    loaded += chunk.value.byteLength;
    self.postMessage({ type: "progress", loaded });
  }
}

// Count the bytes Pyodide downloads, for the page's progress bar; give up at
// the first download that fails or stalls (Pyodide itself would wait
// forever); check the labs package against the lockfile's sha256 ourselves,
// so that a corrupted copy is named as such.
const plainFetch = self.fetch.bind(self);
self.fetch = async (input, init = {}) => {
  const url = String(input && input.url || input);
  const name = decodeURIComponent(url.split("/").pop());
  // crypto.subtle exists only on https and localhost: elsewhere the browser checks the integrity itself
  const ourCheck = Boolean(init.integrity && self.crypto && crypto.subtle);
  const { integrity, ...rest } = init;
  const options = ourCheck ? rest : init;
  const abort = new AbortController();
  let timer = null;
  const watch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled(name);
      abort.abort();
    }, stallSeconds * 1000);
  };
  watch();
  let response;
  try {
    response = await plainFetch(input, { ...options, signal: abort.signal, ...(revalidate ? { cache: "no-cache" } : {}) });
  } catch (error) {
    clearTimeout(timer);
    brokeOff(name, error);
    throw error;
  }
  if (!response.ok) {
    clearTimeout(timer);
    failed(`il sito ha risposto ${response.status} per ${name}: forse è pubblicato a metà. Premi «Riprova» tra poco`);
    return response;
  }
  if (!response.body) { clearTimeout(timer); return response; }
  // counted on a copy of the body (teed inside the browser): Pyodide reads the original as the
  // browser gave it, so the wasm compiles while it streams in (a JS stream in between: «ready» ~0.3 s later)
  count(name, response.clone().body.getReader(), watch, () => clearTimeout(timer));
  if (!ourCheck) return response;
  const bytes = await response.arrayBuffer();
  const [algorithm, expected] = integrity.split("-");
  const digest = await crypto.subtle.digest(algorithm.replace("sha", "SHA-"), bytes);
  if (btoa(String.fromCharCode(...new Uint8Array(digest))) !== expected) {
    failed(`il controllo di integrità del pacchetto dei laboratori (${name}) non è riuscito: il file ricevuto ` +
      "non è quello che questa versione del sito si aspetta (è danneggiato, incompleto o di una versione " +
      "precedente). Premi «Riprova»; se si ripete, ricarica la pagina con Ctrl+Maiusc+R e, se pubblichi tu il " +
      "sito, ricostruiscilo con «make build» e caricalo di nuovo per intero", `sha256 ${hex(digest)}`);
    throw new Error(`integrity check failed for ${name}`);
  }
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
};

// The other labs are imported one at a time, only after the reader has been
// idle for a while, so an import never stands in front of a change.
function importWhenIdle() {
  clearTimeout(idleTimer);
  if (!pending.length) return;
  idleTimer = setTimeout(() => {
    const module = pending.shift();
    queued(async () => {
      try {
        await install(module);
        load(module);
      } catch (error) {
        console.warn(`${module}:`, error.message); // imported again when a page asks for it
      }
      importWhenIdle();
    });
  }, 800);
}

// A module import() has no stall timeout of its own: a server that holds it
// open would keep Python from starting for ever. It fails like a stalled
// download when no byte of any download has arrived for stallSeconds
// (the runtime's other files download beside it: while they flow, the
// connection is alive).
function imported(url) {
  const name = url.split("/").pop();
  let timer = null;
  const held = new Promise((_, reject) => {
    const check = () => {
      if (performance.now() - lastByte < stallSeconds * 1000) return (timer = setTimeout(check, 1000));
      stalled(name);
      reject(new Error(`${name} stalled`));
    };
    timer = setTimeout(check, stallSeconds * 1000);
  });
  const module = import(url).catch((error) => {
    brokeOff(name, error);
    throw error;
  });
  return Promise.race([module, held]).finally(() => clearTimeout(timer));
}

// Each lab module has its own small wheel, on its chapter's, on those of the
// modules of core/ it imports and on the base one (the kit): the lockfile says
// which under "tool", and what each stands on ("depends"). A lab whose wheels
// are not in yet (instant navigation, the idle imports) has them put in first.
// Our wheels are zips of .py files: the worker downloads them (checked against
// the lockfile's sha256) and Python unpacks them with zipfile, already imported
// at its start, into site-packages. Pyodide's loadPackage would first import
// importlib.metadata, email and tarfile for its own bookkeeping: 0.1 s before
// «ready» that no lab needs.
let packages = {}; // lab module → its package
let wheels = {}; // package → the lockfile's entry (file_name, sha256, depends)
let baseURL = "";
let unpack = null;
const installed = new Set();
class DownloadError extends Error {}

// a package and those it stands on, down to the base, that are not in yet
function needed(name) {
  const found = [];
  for (const todo = [name]; todo.length;) {
    const next = todo.pop();
    if (found.includes(next) || installed.has(next)) continue;
    found.push(next);
    todo.push(...wheels[next].depends);
  }
  return found;
}

// a package's wheel, checked against the lockfile's sha256 (the fetch above says what fails, in Italian)
async function download(name) {
  const { file_name: file, sha256 } = wheels[name];
  const integrity = `sha256-${btoa(String.fromCharCode(...sha256.match(/../g).map((h) => parseInt(h, 16))))}`;
  const response = await fetch(new URL(file, baseURL).href, { integrity });
  if (!response.ok) throw new Error(`${file}: ${response.status}`); // failed() has said it
  return new Uint8Array(await response.arrayBuffer());
}

// [[package, promise of its bytes]] into site-packages, in one call to Python
async function unpackAll(downloads) {
  const paths = [];
  for (const [name, bytes] of downloads) {
    paths.push(`/tmp/${name}.whl`);
    pyodide.FS.writeFile(paths.at(-1), await bytes);
  }
  unpack(paths.join("\n"));
  for (const [name] of downloads) installed.add(name);
}

async function install(module) {
  const name = packages[module];
  if (!name || installed.has(name)) return;
  try {
    await unpackAll(needed(name).map((other) => [other, download(other)]));
  } catch (error) {
    throw new DownloadError(`Il codice di questo laboratorio (${name}) non si è scaricato: controlla la connessione e ricarica la pagina.`);
  }
}

const UNPACK = `
import importlib, os, sys, zipfile
def unpack(paths):
    """Unpacks the wheels at these paths (one a line) into site-packages, and deletes them."""
    folder = next(p for p in sys.path if p.endswith("site-packages"))
    for path in paths.splitlines():
        with zipfile.ZipFile(path) as wheel:
            wheel.extractall(folder)
        os.remove(path)
    importlib.invalidate_caches()
unpack`;

async function init({ indexURL, package: base, lockfile, module, stallSeconds: seconds, revalidate: again }) {
  stallSeconds = seconds || stallSeconds;
  revalidate = Boolean(again);
  lastByte = performance.now();
  try {
    phase("download");
    // both modules and the lockfile at once; the lab's wheels are downloaded while the
    // runtime compiles and Python starts, not after it
    const runtime = imported(new URL("pyodide.asm.mjs", indexURL).href);
    runtime.catch(() => {}); // said by failed(); awaited below
    const lock = fetch(new URL(lockfile || "pyodide-lock.json", indexURL).href).then((response) => response.json());
    lock.catch(() => {});
    const { loadPyodide } = await imported(new URL("pyodide.mjs", indexURL).href);
    const lockFileContents = await lock;
    packages = lockFileContents.tool?.[base]?.modules || {};
    wheels = lockFileContents.packages;
    baseURL = indexURL;
    const downloads = needed(packages[module] || base).map((name) => [name, download(name)]);
    for (const [, bytes] of downloads) bytes.catch(() => {}); // said by failed(); awaited below
    pyodide = await loadPyodide({ indexURL, lockFileContents, packageBaseUrl: indexURL,
                                  createPyodideModule: (await runtime).default });
    phase("labs");
    unpack = pyodide.runPython(UNPACK);
    await unpackAll(downloads);
    render = pyodide.runPython("import labs; labs.render_json");
    load = pyodide.runPython("labs.load");
    renderAhead = pyodide.runPython("labs.render_ahead");
    renderEdited = pyodide.runPython("labs.render_edited_json");
    // a long replay (a retraining) says how far it got, to the page that asked (none while drawing ahead)
    pyodide.runPython("from labs.kit.stepping import on_progress; on_progress")((at, target) => {
      if (asking) self.postMessage({ type: "working", id: asking, at, target });
    });
    listenForUnwanted();
    // a device with little memory keeps fewer checkpoints of a slow training (labs.kit.stepping.fit_memory;
    // navigator.deviceMemory is Chromium's, in GiB, at most 8: elsewhere undefined, None in Python)
    const checkpointBytes = pyodide.runPython("from labs.kit.stepping import fit_memory; fit_memory")(
      navigator.deviceMemory);
    // the page's lab is imported and drawn once before «ready», and a stepped lab's next step too
    // (labs.warm_up), sent to the page to lay out once off screen: the reader's first change, an
    // «Avanti» most of all, then costs what every later one costs, and finds the worker idle
    // (drawn after «ready», the next step could stand in front of a change made at once)
    const warmUp = pyodide.runPython("labs.warm_up");
    if (module) {
      warmUp(module, "page");
      try {
        const html = warmUp(module, "next");
        if (html) self.postMessage({ type: "rehearse", module, html });
      } catch (error) { console.warn("warm_up:", error.message); }
    }
    self.postMessage({ type: "ready", checkpointBytes });
    pending = Object.keys(packages).filter((other) => other !== module);
    importWhenIdle();
  } catch (error) {
    failed("Python non è partito per un errore inatteso durante l'avvio. Premi «Riprova»; se si ripete, ricarica la pagina", error);
  }
}

// render: the lab as written; edited: with the reader's code (labs/code.py); source: the edited module's text
function answer(data) {
  const lab = data.module ? load(data.module) : null;
  if (data.type === "render") return JSON.parse(render(data.lab, JSON.stringify(data.params)));
  if (data.type === "edited") return JSON.parse(renderEdited(data.lab, data.code, JSON.stringify(data.params)));
  if (data.type === "source") {
    editedSource ??= pyodide.runPython("import labs.code; labs.code.edited_source"); // the code panel's, not before
    return { source: editedSource(lab.module, data.code) };
  }
  throw new Error(`messaggio sconosciuto: ${data.type}`);
}

// Answers nobody waits for. A message is answered to its end before the next
// is read, and a retraining can take seconds (3.2 at step 300 with another
// learning rate: 300 steps): a reader who moves the slider again would wait
// for it before theirs even starts. Where the page is cross-origin isolated
// (the site's _headers), page and worker share a word of memory: the page
// writes there the id of an answer it no longer wants, and the step machine
// (labs.kit.stepping.on_unwanted) reads it after every step of a replay and
// stops, keeping the steps made. Elsewhere every answer runs to its end.
let unwanted = null; // Int32Array over a SharedArrayBuffer: [0] the id the page no longer wants

function listenForUnwanted() {
  if (!self.crossOriginIsolated || typeof SharedArrayBuffer !== "function") return;
  unwanted = new Int32Array(new SharedArrayBuffer(4));
  self.postMessage({ type: "unwanted", buffer: unwanted.buffer });
  pyodide.runPython("from labs.kit.stepping import on_unwanted; on_unwanted")(
    () => asking !== null && Atomics.load(unwanted, 0) === asking);
}

// One message at a time, in order: a lab's wheel may have to be loaded first.
let queue = Promise.resolve();
let waiting = 0; // messages from the page not answered yet
let asking = null; // the id of the message being answered
const queued = (task) => (queue = queue.then(task));

// The view a stepped lab is most likely to ask for next, drawn while the page
// shows the last one (the page's morph and layout run on the other core):
// after «Avanti» or «Indietro» the next step the same way, during Play (the
// same stride twice) the next stride, after any other change or jump the
// step after it. Python keeps it (labs.render_ahead) and answers from it
// when it is asked; none is drawn while a message from the page waits.
// After a jump it waits AFTER_A_JUMP_MS first: a reader dragging the scrubber
// sends the next jump at once, and on 3.2 drawing the step after each one
// (a training step, ~35 ms) would stand in front of it; one who stops and
// presses «Avanti» is far slower than that.
let lastStep = null; // {lab, rest (the other params), at, stride}
const AFTER_A_JUMP_MS = 30;
let answered = 0; // messages answered: a wait after a jump is void once another one is

function drawAhead(data, result) {
  const { name, max } = data.step;
  const at = Number(result.params[name]);
  const rest = JSON.stringify([data.lab, { ...data.params, [name]: null }]);
  const moved = lastStep && lastStep.lab === data.lab && lastStep.rest === rest ? at - lastStep.at : 0;
  const regular = Math.abs(moved) === 1 || (moved !== 0 && moved === lastStep.stride);
  lastStep = { lab: data.lab, rest, at, stride: moved };
  const next = at + (regular ? moved : 1);
  if (next < 0 || next > max) return;
  const draw = () => queued(() => {
    if (waiting) return;
    try { renderAhead(data.lab, JSON.stringify({ ...data.params, [name]: String(next) })); }
    catch (error) { console.warn("render_ahead:", error.message); } // asked again, it is drawn on demand
  });
  if (regular) return draw();
  const after = answered;
  setTimeout(() => { if (answered === after) draw(); }, AFTER_A_JUMP_MS);
}

self.onmessage = ({ data }) => {
  if (data.type === "init") return init(data);
  clearTimeout(idleTimer);
  waiting += 1;
  queued(async () => {
    waiting -= 1;
    try {
      if (data.module) await install(data.module);
      const start = performance.now();
      asking = data.id;
      let result;
      try { result = answer(data); } finally { asking = null; }
      answered += 1;
      self.postMessage({ type: "result", id: data.id, took: performance.now() - start, ...result });
      if (data.step && result.ok) drawAhead(data, result);
    } catch (error) {
      if (error && error.type === "Unwanted") {
        self.postMessage({ type: "result", id: data.id, ok: false, unwanted: true, params: data.params });
      } else {
        self.postMessage({ type: "result", id: data.id, ok: false, params: data.params,
                           error: error instanceof DownloadError ? error.message
                             : `Errore inatteso in Python: ${error && error.message || error}` });
      }
    }
    importWhenIdle();
  });
};
