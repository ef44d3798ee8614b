// The worker's downloads: every byte counted for the page's progress bar, a download that stalls or
// fails ends Python's start with an Italian line (Pyodide itself would wait for ever), and our wheels
// are checked against the lockfile's sha256 here, so that a corrupted copy is named as such.
import { STALL_SECONDS } from "../protocol.js";

export const net = {
  loaded: 0,
  stallSeconds: STALL_SECONDS,
  revalidate: false, // after «Riprova»: ask the server again instead of trusting the HTTP cache
  lastByte: 0, // when the last downloaded byte arrived (performance.now())
  gaveUp: false,
  started: false, // once Python runs, a failure is an answer's, not the start's
  runtimeFiles: new Set(["pyodide.asm.wasm", "python_stdlib.zip"]), // downloaded before Python starts
};

// The first failure is the one the reader is told about, in Italian; what
// Pyodide says next (an English traceback, say) goes to the console only.
export function failed(message, detail = "") {
  if (net.started || net.gaveUp) return;
  net.gaveUp = true;
  self.postMessage({ type: "failed", error: message, detail: String(detail && detail.message || detail) });
}

export function phase(name) {
  self.postMessage({ type: "phase", phase: name });
}

// Once we have said what failed, the rejections that Pyodide leaves behind
// (an aborted download's «Failed to fetch») are expected: not an error more.
self.addEventListener("unhandledrejection", (event) => {
  failed("Python non è partito per un errore inatteso durante il caricamento", event.reason);
  event.preventDefault();
});

// What the reader is told when a download (a fetch or a module import) stops or fails.
const stalled = (name) => failed(`il download di ${name} si è fermato: nessun dato da ${net.stallSeconds} secondi. ` +
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
      if (net.runtimeFiles.delete(name) && net.runtimeFiles.size === 0) phase("python");
      return;
    }
    watch();
    net.lastByte = performance.now();
    net.loaded += chunk.value.byteLength;
    self.postMessage({ type: "progress", loaded: net.loaded });
  }
}

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
    }, net.stallSeconds * 1000);
  };
  watch();
  let response;
  try {
    response = await plainFetch(input, { ...options, signal: abort.signal, ...(net.revalidate ? { cache: "no-cache" } : {}) });
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

// A module import() has no stall timeout of its own: a server that holds it
// open would keep Python from starting for ever. It fails like a stalled
// download when no byte of any download has arrived for stallSeconds
// (the runtime's other files download beside it: while they flow, the
// connection is alive).
export function imported(url) {
  const name = url.split("/").pop();
  let timer = null;
  const held = new Promise((_, reject) => {
    const check = () => {
      if (performance.now() - net.lastByte < net.stallSeconds * 1000) return (timer = setTimeout(check, 1000));
      stalled(name);
      reject(new Error(`${name} stalled`));
    };
    timer = setTimeout(check, net.stallSeconds * 1000);
  });
  const module = import(url).catch((error) => {
    brokeOff(name, error);
    throw error;
  });
  return Promise.race([module, held]).finally(() => clearTimeout(timer));
}
