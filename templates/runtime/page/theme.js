// The theme's script (instant navigation, search, palette, sidebars, «Torna su»).
// On a lab page the theme's block «scripts» (templates/overrides/main.html) leaves it as
// <link rel="prefetch" data-theme-script>: run with the page, its quarter second of work on
// the main thread and the search index it builds in a worker of its own compete for the
// machine's cores with Pyodide's start (on two cores «ready» came ~0.45 s later) and, run once
// Python had started, with our own imports and the lab's first drawing before «pronto»
// (scripts/bench_trace.py). It starts once the lab is «pronto», if Python fails or cannot start,
// after THEME_LATEST ms whatever happens, and at once if the reader reaches for the header or
// the keyboard before.
import { python } from "./python.js";

const THEME_LATEST = 10000;
const themeScript = document.querySelector("link[data-theme-script]");
let mount = () => {};

/** Runs the theme's script now, if it is waiting; mountLabs is subscribed to its document$. */
export function startTheme() {
  if (python.theme !== "waiting") return;
  python.theme = "loading";
  const script = document.createElement("script");
  script.src = themeScript.href;
  script.onerror = () => { python.theme = "failed"; };
  script.onload = () => {
    if (!window.document$) return (python.theme = "failed");
    window.document$.subscribe(mount);
    // the theme starts on DOMContentLoaded, by now long past (unless the page is still being read)
    if (document.readyState !== "loading") document.dispatchEvent(new Event("DOMContentLoaded"));
    python.theme = "started";
  };
  document.body.append(script);
}

/** Whether the theme runs already, waits for Python, or is not on the page; the waiting one starts at the latest
 *  after THEME_LATEST ms, or at the reader's first key or reach for the header. */
export function watchTheme(mountLabs) {
  mount = mountLabs;
  python.theme = window.document$ ? "started" : themeScript ? "waiting" : "none";
  if (python.theme !== "waiting") return;
  setTimeout(startTheme, THEME_LATEST);
  addEventListener("keydown", startTheme, { capture: true, once: true });
  for (const type of ["pointerdown", "focusin"]) {
    document.querySelector(".md-header")?.addEventListener(type, startTheme, { capture: true, once: true });
  }
}
