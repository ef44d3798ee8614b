// Every message between the page (runtime.js), the boot script and Python's worker, named and shaped
// once: each side builds what it sends with the functions below, and the tests check every message
// that crosses (tests/browser/test_protocol.py, tests/js/protocol.test.js) against MESSAGES.

// type → [fields always there, fields that may be there]
export const MESSAGES = {
  // page or boot script → worker
  // the worker's start: where Pyodide is, the base package, the lockfile, the page's lab module;
  // stallSeconds: a download with no new byte for that long fails; revalidate: after «Riprova»
  // known: the answers the first drawing of the page's lab takes from the build (labs.kit.prerendered)
  init: [["indexURL", "package", "lockfile", "module", "stallSeconds", "revalidate"], ["known"]],
  // a lab's view; step: a stepped lab's {name, max}, so the worker can draw the next step ahead; checkpoint:
  // {url, step} of a machine the build shipped (labs/answers.py: a «Prova»'s, the default run's), to draw from
  render: [["id", "lab", "module", "params"], ["step", "checkpoint"]],
  edited: [["id", "lab", "module", "params", "code"], []], // with the reader's code (labs/code.py)
  // with the functions of the reader's passed exercises, {name: code} (labs/code_exercises.py)
  exercised: [["id", "lab", "module", "params", "exercises"], []],
  exercise: [["id", "lab", "module", "function", "code"], []], // «Verifica»: the reader's function on the cases
  source: [["id", "lab", "module", "code"], []], // the edited module's text, to download
  // worker → page
  progress: [["loaded"], []], // bytes downloaded so far
  phase: [["phase"], []], // download | python | labs
  // checkpointBytes: the bound of a slow training's checkpoints (kit.stepping.fit_memory); marks: when each stage
  // of the worker's start ended, {stage: epoch ms} (scripts/bench_load.py reads them off the page's timeline)
  ready: [["checkpointBytes", "marks"], []],
  failed: [["error", "detail"], []], // error: the Italian line for the reader; detail: for the console
  shared: [["buffer"], []], // a SharedArrayBuffer of the words in SHARED, written by the page (sharedWord)
  rehearse: [["module", "html"], []], // a stepped lab's next step, for the page to lay out once off screen
  working: [["id", "at", "target"], []], // how far a long replay has got
  // the answer to id: took (ms in Python), ahead (drawn before it was asked), unwanted (stopped: nothing else)
  result: [["id"], ["ok", "took", "html", "error", "params", "controls", "timeline", "summary", "ahead",
                          "unwanted", "source", "line", "stopped", "fallback", "check"]],
};

export const STALL_SECONDS = 15;

// The words of memory a cross-origin isolated worker shares with the page («shared»): the page writes them
// while Python runs, which no message can reach then. unwanted: the id of an answer the page no longer wants;
// interrupt: Pyodide's interrupt buffer (setInterruptBuffer), where SIGINT makes Python raise KeyboardInterrupt
// at its next check (every 50 jumps back or calls), and Python puts 0 back as it reads it.
export const SHARED = { unwanted: 0, interrupt: 1 };
export const SIGINT = 2;

// What a call stopped by «Ferma» answers, whether Python heard the interrupt or the worker was ended first.
export const STOPPED = "calcolo fermato";

/** One word of the shared memory, as an Int32Array of length 1 over it. */
export function sharedWord(buffer, name) {
  return new Int32Array(buffer, SHARED[name] * Int32Array.BYTES_PER_ELEMENT, 1);
}

/** The init message: what the boot script and the page (a retry, a page without a boot script) send. */
export function initMessage({ indexURL, pkg, lockfile, module, known = "", revalidate = false }) {
  return { type: "init", indexURL, package: pkg, lockfile, module, stallSeconds: STALL_SECONDS, revalidate,
           ...(known ? { known } : {}) };
}

/** The message that asks for a lab's view: as written (code null), with the reader's code, or with the
 * functions of the reader's passed exercises. */
export function viewMessage(id, { lab, module, params, code = null, exercises = null, step = null, checkpoint = null }) {
  if (code !== null) return { type: "edited", id, lab, module, params, code };
  if (exercises) return { type: "exercised", id, lab, module, params, exercises };
  return { type: "render", id, lab, module, params, ...(step ? { step } : {}), ...(checkpoint ? { checkpoint } : {}) };
}

/** «Verifica»: the message that runs the reader's function on the exercise's cases. */
export function exerciseMessage(id, { lab, module, function: name, code }) {
  return { type: "exercise", id, lab, module, function: name, code };
}

/** The message that asks for the edited module's text. */
export function sourceMessage(id, { lab, module, code }) {
  return { type: "source", id, lab, module, code };
}

/** What is wrong with a message (a type not declared, a field missing or not declared), or "". */
export function problem(message) {
  const shape = MESSAGES[message?.type];
  if (!shape) return `messaggio non dichiarato: ${message?.type}`;
  const [required, optional] = shape;
  const fields = Object.keys(message).filter((key) => key !== "type");
  const missing = required.filter((key) => !fields.includes(key));
  const unknown = fields.filter((key) => !required.includes(key) && !optional.includes(key));
  if (missing.length) return `${message.type}: mancano ${missing.join(", ")}`;
  return unknown.length ? `${message.type}: campi non dichiarati ${unknown.join(", ")}` : "";
}
