// After one visit every page works offline: sw.js, written by the build at the
// site's root (its scope is the whole site, under any sub-path), keeps this
// build's files. Registered on every page once it has loaded and the browser
// is idle; on a lab page, also not before Python's first start has ended
// (ready or failed), so its copies never compete with that download (they
// then come from the browser's cache), and only once the reader has left the
// page alone for QUIET ms since «ready» and since the last change: copying and
// checking the site's 20 MB keeps a core busy for about half a second, which
// the reader's first changes must not wait for.
const SITE_ROOT = new URL("../../", import.meta.url);
const QUIET = 3000;
const state = {
  pageLoaded: document.readyState === "complete",
  asked: false,
  lastActivity: performance.now(), // the reader's last input, the last view asked of Python, or «ready»
};

/** The reader did something, or Python was asked or became ready: the copy waits for quiet again. */
export function noteActivity() {
  state.lastActivity = performance.now();
}

for (const type of ["pointerdown", "keydown", "input", "click"]) {
  addEventListener(type, noteActivity, { capture: true, passive: true });
}

function whenQuiet(callback) {
  const wait = state.lastActivity + QUIET - performance.now();
  if (wait > 0) setTimeout(() => whenQuiet(callback), wait);
  else if (self.requestIdleCallback) requestIdleCallback(callback, { timeout: 2000 });
  else callback();
}

/** Registers sw.js once the page has loaded and Python's status (loading: wait) allows. */
export function keepOffline(pythonStatus) {
  if (state.asked || !state.pageLoaded || pythonStatus() === "loading") return; // asked again when these change
  state.asked = true;
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  const register = () => navigator.serviceWorker.register(new URL("sw.js", SITE_ROOT), { scope: SITE_ROOT.pathname })
    .catch((error) => console.warn("sw.js:", error.message));
  if (document.querySelector("[data-lab]")) whenQuiet(register);
  else if (self.requestIdleCallback) requestIdleCallback(register, { timeout: 5000 });
  else setTimeout(register, 500);
}

/** keepOffline once the page has loaded (and at once if it has: after the page's labs are mounted). */
export function keepOfflineWhenLoaded(pythonStatus) {
  if (!state.pageLoaded) {
    addEventListener("load", () => { state.pageLoaded = true; keepOffline(pythonStatus); }, { once: true });
  } else setTimeout(() => keepOffline(pythonStatus));
}
