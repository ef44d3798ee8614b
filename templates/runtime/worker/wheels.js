// Each lab module has its own small wheel, on its chapter's, on those of the
// modules of core/ it imports and on the base one (the kit): the lockfile says
// which under "tool", and what each stands on ("depends"). A lab whose wheels
// are not in yet (instant navigation, the idle imports) has them put in first.
// Our wheels are zips of .py files: the worker downloads them (checked against
// the lockfile's sha256, network.js) and Python unpacks them with zipfile, already
// imported at its start, into site-packages (unpack.py). Pyodide's loadPackage would
// first import importlib.metadata, email and tarfile for its own bookkeeping: 0.1 s
// before «ready» that no lab needs.
import UNPACK from "./unpack.py";

export class DownloadError extends Error {}

export const wheels = {
  packages: {}, // lab module → its package
  entries: {}, // package → the lockfile's entry (file_name, sha256, depends)
  baseURL: "",
  pyodide: null,
  unpack: null,
  installed: new Set(),
};

/** The lockfile's packages and modules, and where the wheels are. */
export function useLockfile(lock, base, baseURL) {
  wheels.packages = lock.tool?.[base]?.modules || {};
  wheels.entries = lock.packages;
  wheels.baseURL = baseURL;
}

/** Python is running: our wheels are unpacked by unpack.py's function from now on. */
export function usePython(pyodide) {
  wheels.pyodide = pyodide;
  wheels.unpack = pyodide.runPython(UNPACK);
}

// a package and those it stands on, down to the base, that are not in yet
export function needed(name) {
  const found = [];
  for (const todo = [name]; todo.length;) {
    const next = todo.pop();
    if (found.includes(next) || wheels.installed.has(next)) continue;
    found.push(next);
    todo.push(...wheels.entries[next].depends);
  }
  return found;
}

// a package's wheel, checked against the lockfile's sha256 (network.js says what fails, in Italian)
export async function download(name) {
  const { file_name: file, sha256 } = wheels.entries[name];
  const integrity = `sha256-${btoa(String.fromCharCode(...sha256.match(/../g).map((h) => parseInt(h, 16))))}`;
  const response = await fetch(new URL(file, wheels.baseURL).href, { integrity });
  if (!response.ok) throw new Error(`${file}: ${response.status}`); // failed() has said it
  return new Uint8Array(await response.arrayBuffer());
}

// [[package, promise of its bytes]] into site-packages, in one call to Python
export async function unpackAll(downloads) {
  const paths = [];
  for (const [name, bytes] of downloads) {
    paths.push(`/tmp/${name}.whl`);
    wheels.pyodide.FS.writeFile(paths.at(-1), await bytes);
  }
  wheels.unpack(paths.join("\n"));
  for (const [name] of downloads) wheels.installed.add(name);
}

export async function install(module) {
  const name = wheels.packages[module];
  if (!name || wheels.installed.has(name)) return;
  try {
    await unpackAll(needed(name).map((other) => [other, download(other)]));
  } catch {
    throw new DownloadError(`Il codice di questo laboratorio (${name}) non si è scaricato: controlla la connessione e ricarica la pagina.`);
  }
}
