// scripts/bench_compute.py inside Pyodide (the browser's Python) under Node, without a browser:
//
//     node scripts/bench_pyodide.mjs [--labs id,id] [--repeat 3] [--json out.json]
//
// The source tree is mounted as it is (no build needed) and times are this
// process's CPU time (process.cpuUsage), so a loaded machine adds little
// noise. What it leaves out is the browser's own share: the message to the
// worker and back, and morphing the view into the page.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { loadPyodide } = await import(`${root}/node_modules/pyodide/pyodide.mjs`);
const py = await loadPyodide({ indexURL: `${root}/node_modules/pyodide/` });
py.FS.mkdirTree("/app");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, "/app");
py.globals.set("cpu_microseconds", () => { const u = process.cpuUsage(); return u.user + u.system; });
const args = process.argv.slice(2);
const json = args.includes("--json") ? resolve(args[args.indexOf("--json") + 1]) : null;
if (json) { args[args.indexOf("--json") + 1] = json; py.FS.mkdirTree(dirname(json)); }  // written in Pyodide's files first
py.globals.set("ARGS", py.toPy(args));
try {
  py.runPython(`
import runpy, sys, time
time.process_time = lambda: cpu_microseconds() / 1e6
sys.argv = ["bench_compute.py", *ARGS]
sys.path.insert(0, "/app")
try:
    runpy.run_path("/app/scripts/bench_compute.py", run_name="__main__")
except SystemExit as stop:
    if stop.code:
        raise
`);
} catch (error) {
  console.error(error.message);  // the Python traceback, not Pyodide's own source
  process.exit(1);
}
if (json) {
  mkdirSync(dirname(json), { recursive: true });
  writeFileSync(json, py.FS.readFile(json));
}
