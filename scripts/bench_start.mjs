// Two ways to start a lab page's Python faster, measured in Pyodide under Node against their bytes (issue 48):
//
//     node scripts/bench_start.mjs [--lab labs.ch3.transformer_allenato] [--runs 2]
//
// - bytecode: the lab imported from our wheels as they are (.py, compiled at every start) and from .pyc files
//   that this Pyodide compiled (sourceless, unchecked hash: no source needed), and the gzip bytes of each;
// - snapshot: Pyodide's memory snapshot (loadPyodide's _makeSnapshot / _loadSnapshot, this version's private
//   options), made once labs and the lab are imported: its bytes, gzip, and a start from it against a plain one.
// It needs the built site (site/pyodide: our wheels). Times are wall clock (a start is mostly one thread's
// work): run it twice on a quiet machine.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, otherwise) => (args.includes(name) ? args[args.indexOf(name) + 1] : otherwise);
const lab = option("--lab", "labs.ch3.transformer_allenato");
const runs = Number(option("--runs", "2"));
const site = resolve(process.env.LABS_SITE_DIR || `${root}/site`);
const indexURL = `${root}/node_modules/pyodide/`;
const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
const wheels = readdirSync(`${site}/pyodide`).filter((name) => name.startsWith("laboratori_llm") && name.endsWith(".whl"));
const IMPORT = `import labs; labs.render_json; labs.load(${JSON.stringify(lab)})`;

const timed = async (work) => { const t0 = performance.now(); const value = await work(); return [performance.now() - t0, value]; };
const ms = (values) => values.map((v) => `${v.toFixed(0)} ms`).join(", ");
const kB = (bytes) => `${(bytes / 1000).toFixed(0)} kB`;
const gzipped = (files) => files.reduce((sum, bytes) => sum + gzipSync(bytes).length, 0);

// every wheel of ours unpacked into site-packages, as the worker does (templates/runtime/worker/unpack.py)
function unpack(py) {
  for (const name of wheels) py.FS.writeFile(`/tmp/${name}`, readFileSync(`${site}/pyodide/${name}`));
  py.runPython(`
import importlib, sys, zipfile
folder = next(p for p in sys.path if p.endswith("site-packages"))
for name in ${JSON.stringify(wheels)}:
    zipfile.ZipFile("/tmp/" + name).extractall(folder)
importlib.invalidate_caches()`);
}

// our modules compiled by this Pyodide: [[source path, source bytes, .pyc bytes]]
function compiled(py) {
  const paths = JSON.parse(py.runPython(`
import json, os, py_compile, sys
folder = next(p for p in sys.path if p.endswith("site-packages"))
paths = []
for base, _, names in os.walk(folder):
    for name in names:
        path = os.path.join(base, name)
        if name.endswith(".py") and path[len(folder):].split("/")[1] in ("labs", "core"):
            py_compile.compile(path, cfile=path + "c", doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            paths.append(path)
json.dumps(paths)`));
  return paths.map((path) => [path, py.FS.readFile(path), py.FS.readFile(`${path}c`)]);
}

// V8 compiles the same wasm bytes once per process: a first start, not counted, so that every start below
// (plain or from the snapshot) finds pyodide.asm.wasm compiled and times Python's own start alone
await loadPyodide({ indexURL });
const plain = [], fromPy = [], fromPyc = [];
let files = null;
for (let run = 0; run < runs; run++) {
  const [start, py] = await timed(() => loadPyodide({ indexURL }));
  plain.push(start);
  unpack(py);
  fromPy.push((await timed(() => py.runPython(IMPORT)))[0]);
  files ??= compiled(py);
  const [, bare] = await timed(() => loadPyodide({ indexURL }));
  for (const [path, , pyc] of files) {
    bare.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    bare.FS.writeFile(`${path}c`, pyc);
  }
  bare.runPython("import importlib; importlib.invalidate_caches()");
  fromPyc.push((await timed(() => bare.runPython(IMPORT)))[0]);
}
console.log(`Pyodide ${(await loadPyodide({ indexURL })).version}, ${lab}, ${runs} misure`);
console.log(`avvio di Pyodide (il wasm già compilato): ${ms(plain)}`);
console.log(`import dai .py (compilati a ogni avvio): ${ms(fromPy)} · dai .pyc: ${ms(fromPyc)}`);
console.log(`tutti i moduli di labs e core (${files.length}), gzip: .py ${kB(gzipped(files.map((f) => f[1])))} · ` +
  `.pyc ${kB(gzipped(files.map((f) => f[2])))}`);

const maker = await loadPyodide({ indexURL, _makeSnapshot: true });
unpack(maker);
maker.runPython(IMPORT);
const snapshot = maker.makeMemorySnapshot();
const fromSnapshot = [], importAfter = [];
for (let run = 0; run < runs; run++) {
  const [start, py] = await timed(() => loadPyodide({ indexURL, _loadSnapshot: snapshot }));
  fromSnapshot.push(start);
  importAfter.push((await timed(() => py.runPython(IMPORT)))[0]);
}
console.log(`snapshot dopo l'import del laboratorio: ${kB(snapshot.length)}, gzip ${kB(gzipSync(snapshot).length)} · ` +
  `avvio da lì ${ms(fromSnapshot)} (poi l'import: ${ms(importAfter)}) contro ${ms(plain)}`);
