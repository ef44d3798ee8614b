// The Python side of every lab: one Pyodide per tab, started once. The messages it reads and
// sends are declared in ../protocol.js; downloads in network.js, our wheels in wheels.js, the
// order of the work in scheduler.js.
import { net, failed, phase, imported } from "./network.js";
import { wheels, DownloadError, install, needed, download, unpackAll, useLockfile, usePython } from "./wheels.js";
import { Queue, planAhead, isUnwanted, AFTER_A_JUMP_MS, IDLE_MS } from "./scheduler.js";
import { SHARED, STOPPED, sharedWord } from "../protocol.js";

const queue = new Queue();
const py = {}; // Python's functions the worker calls (labs.render_json, …), once Python has started
let unwanted = null; // Int32Array over a SharedArrayBuffer: [0] the id the page no longer wants
let lastStep = null; // what planAhead needs of the last stepped view asked for
let idleTimer = null;
let pending = []; // lab modules still to import when the reader is idle

// The other labs are imported one at a time, only after the reader has been
// idle for a while, so an import never stands in front of a change.
function importWhenIdle() {
  clearTimeout(idleTimer);
  if (!pending.length) return;
  idleTimer = setTimeout(() => {
    const module = pending.shift();
    queue.queued(async () => {
      try {
        await install(module);
        py.load(module);
      } catch (error) {
        console.warn(`${module}:`, error.message); // imported again when a page asks for it
      }
      importWhenIdle();
    });
  }, IDLE_MS);
}

// Where the page is cross-origin isolated, memory shared with it (protocol.js SHARED): a replay stops when the
// page no longer wants its answer, and «Ferma» interrupts Python (KeyboardInterrupt) before the worker is ended.
// Elsewhere (WebKitGTK has no SharedArrayBuffer even so) Python gets an interrupt word nobody writes: it still
// reads it through JavaScript every 50 jumps back or calls, and there a worker told to terminate ends, which WebKit
// does not do inside WebAssembly (a loop in Python kept a core busy until the tab closed).
function shareMemory(pyodide) {
  if (!self.crossOriginIsolated || typeof SharedArrayBuffer !== "function") {
    pyodide.setInterruptBuffer(new Int32Array(1));
    return;
  }
  const buffer = new SharedArrayBuffer(Object.keys(SHARED).length * Int32Array.BYTES_PER_ELEMENT);
  unwanted = sharedWord(buffer, "unwanted");
  pyodide.setInterruptBuffer(sharedWord(buffer, "interrupt"));
  self.postMessage({ type: "shared", buffer });
  pyodide.runPython("from labs.kit.stepping import on_unwanted; on_unwanted")(() => isUnwanted(queue.asking, unwanted));
}

// Where the start's time goes, for the benchmark (scripts/bench_load.py): each mark is the end of a stage, from
// the worker's start; «ready» carries them to the page (epoch ms), whose timeline any browser's driver can read.
const mark = (stage) => performance.mark(`labs:${stage}`);
const marks = () => Object.fromEntries(performance.getEntriesByType("mark").filter((m) => m.name.startsWith("labs:"))
  .map((m) => [m.name.slice(5), m.startTime + performance.timeOrigin]));

async function init({ indexURL, package: base, lockfile, module, known, stallSeconds, revalidate }) {
  net.stallSeconds = stallSeconds || net.stallSeconds;
  net.revalidate = Boolean(revalidate);
  net.lastByte = performance.now();
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
    mark("lockfile");
    useLockfile(lockFileContents, base, indexURL);
    const downloads = needed(wheels.packages[module] || base).map((name) => [name, download(name)]);
    for (const [, bytes] of downloads) bytes.catch(() => {}); // said by failed(); awaited below
    const pyodide = await loadPyodide({ indexURL, lockFileContents, packageBaseUrl: indexURL,
                                        createPyodideModule: (await runtime).default });
    mark("pyodide");
    phase("labs");
    usePython(pyodide);
    await unpackAll(downloads);
    mark("wheels");
    py.render = pyodide.runPython("import labs; labs.render_json");
    mark("import");
    net.started = true;
    py.load = pyodide.runPython("labs.load");
    py.renderAhead = pyodide.runPython("labs.render_ahead");
    py.renderEdited = pyodide.runPython("labs.render_edited_json");
    py.seed = pyodide.runPython("from labs.worker_api import seed_checkpoint; seed_checkpoint");
    py.wantsCheckpoint = pyodide.runPython("from labs.worker_api import wants_checkpoint; wants_checkpoint");
    py.editedSource = () => pyodide.runPython("import labs.code; labs.code.edited_source"); // the code panel's
    py.importExercises = () => ({ check: pyodide.runPython("import labs.code_exercises as e; e.check_json"),
                                  render: pyodide.runPython("import labs.code_exercises as e; e.render_exercises_json") });
    // a long replay (a retraining) says how far it got, to the page that asked (none while drawing ahead)
    pyodide.runPython("from labs.kit.stepping import on_progress; on_progress")((at, target) => {
      if (queue.asking) self.postMessage({ type: "working", id: queue.asking, at, target });
    });
    shareMemory(pyodide);
    // a device with little memory keeps fewer checkpoints of a slow training (labs.kit.stepping.fit_memory;
    // navigator.deviceMemory is Chromium's, in GiB, at most 8: elsewhere undefined, None in Python)
    const checkpointBytes = pyodide.runPython("from labs.kit.stepping import fit_memory; fit_memory")(
      navigator.deviceMemory);
    // the page's lab is imported and drawn once before «ready», and a stepped lab's next step too
    // (labs.warm_up), sent to the page to lay out once off screen: the reader's first change, an
    // «Avanti» most of all, then costs what every later one costs, and finds the worker idle
    // (drawn after «ready», the next step could stand in front of a change made at once); the page's drawing
    // takes what the build already computed for it (known: labs.kit.prerendered)
    const warmUp = pyodide.runPython("labs.warm_up");
    if (module) {
      py.load(module);
      mark("lab");
      warmUp(module, "page", known || "");
      mark("page");
      try {
        const html = warmUp(module, "next");
        if (html) self.postMessage({ type: "rehearse", module, html });
      } catch (error) { console.warn("warm_up:", error.message); }
    }
    mark("next");
    self.postMessage({ type: "ready", checkpointBytes, marks: marks() });
    pending = Object.keys(wheels.packages).filter((other) => other !== module);
    importWhenIdle();
  } catch (error) {
    failed("Python non è partito per un errore inatteso durante l'avvio. Premi «Riprova»; se si ripete, ricarica la pagina", error);
  }
}

// render: the lab as written; edited: with the reader's code (labs/code.py); exercised: with the reader's passed
// exercises, exercise: «Verifica» (labs/code_exercises.py); source: the edited module's text
function answer(data) {
  const lab = data.module ? py.load(data.module) : null;
  if (data.type === "render") return JSON.parse(py.render(data.lab, JSON.stringify(data.params)));
  if (data.type === "edited") return JSON.parse(py.renderEdited(data.lab, data.code, JSON.stringify(data.params)));
  if (data.type === "exercised" || data.type === "exercise") {
    py.exercises ??= py.importExercises(); // imported with the first exercise, not before
    if (data.type === "exercise") return { ok: true, check: JSON.parse(py.exercises.check(data.lab, data.function, data.code)) };
    return JSON.parse(py.exercises.render(data.lab, JSON.stringify(data.exercises), JSON.stringify(data.params)));
  }
  if (data.type === "source") {
    py.source ??= py.editedSource(); // imported with the code panel's first download, not before
    return { source: py.source(lab.module, data.code) };
  }
  throw new Error(`messaggio sconosciuto: ${data.type}`);
}

// A checkpoint the build shipped (labs/answers.py: a «Prova»'s, or the default run's for a link, a jump, a drag),
// {url, step}: fetched only when Python says it saves steps that cost more than the fetch (a cheap lab replays
// instead), then given to the lab's machine before the view is drawn. Its bytes are not kept here: the machine
// keeps what it needs, and a file asked for again comes from the browser's cache. A checkpoint that cannot be
// had is no error: the view is then drawn by replaying.
async function seed(data) {
  const { url, step } = data.checkpoint;
  const params = JSON.stringify(data.params);
  try {
    if (!py.wantsCheckpoint(data.lab, params, step)) return;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    py.seed(data.lab, params, new Uint8Array(await response.arrayBuffer()));
  } catch (error) {
    console.warn("checkpoint:", error.message);
  }
}

function drawAhead(data, result) {
  const { name } = data.step;
  const plan = planAhead(lastStep, data, Number(result.params[name]));
  lastStep = plan.last;
  if (plan.next === null) return;
  const draw = () => queue.whenFree(() => {
    try { py.renderAhead(data.lab, JSON.stringify({ ...data.params, [name]: String(plan.next) })); }
    catch (error) { console.warn("render_ahead:", error.message); } // asked again, it is drawn on demand
  });
  if (plan.regular) return draw();
  const after = queue.answered;
  setTimeout(() => { if (queue.answered === after) draw(); }, AFTER_A_JUMP_MS);
}

self.onmessage = ({ data }) => {
  if (data.type === "init") return init(data);
  clearTimeout(idleTimer);
  queue.fromPage(async () => {
    try {
      if (data.module) await install(data.module);
      if (data.checkpoint) await seed(data);
      const start = performance.now();
      queue.asking = data.id;
      let result;
      try { result = answer(data); } finally { queue.asking = null; }
      queue.answered += 1;
      self.postMessage({ type: "result", id: data.id, took: performance.now() - start, ...result });
      if (data.step && result.ok) drawAhead(data, result);
    } catch (error) {
      if (error && error.type === "Unwanted") {
        self.postMessage({ type: "result", id: data.id, ok: false, unwanted: true, params: data.params });
      } else if (error && error.type === "KeyboardInterrupt") { // «Ferma», heard by Python: no error of the code
        self.postMessage({ type: "result", id: data.id, ok: false, stopped: true, error: STOPPED, params: data.params });
      } else {
        self.postMessage({ type: "result", id: data.id, ok: false, params: data.params,
                           error: error instanceof DownloadError ? error.message
                             : `Errore inatteso in Python: ${error && error.message || error}` });
      }
    }
    importWhenIdle();
  });
};
