// Browser runtime of the labs, bundled by the build into assets/labs/runtime.js. It knows no lab:
// it finds [data-lab] roots and gives each a LabController (controller.js), which asks the Python
// worker (python.js) for the new view and morphs it in (morph.js). One worker per tab, kept across
// instant navigation. Here: the order things start in, and the page-wide listeners.
import { python } from "./python.js";
import { LabController } from "./controller.js";
import { CodePanel } from "./code-panel.js";
import { mountExperiments } from "./experiments.js";
import { mountExercises } from "./exercises.js";
import { mountQuestions } from "./predict.js";
import { startTheme, watchTheme } from "./theme.js";
import { keepOffline, keepOfflineWhenLoaded } from "./offline.js";
import { writeUrlOnLeaving } from "./url.js";
import { watchHeats } from "./heat.js";
import { releaseLeftPage } from "./leaving.js";

// A page of another build than the worker's (published while the reader was on the site, with no service
// worker keeping the old build whole) needs that build's Python: the page loads anew, once, which starts the
// worker its own <head> names. Were it still another build after that reload, the worker restarts on it.
const RELOADED = "labs-reloaded-for";

// «I tuoi esercizi» is a script of its own (sitebuild/bundle.py), which no lab page downloads
const PROGRESS_PAGE_URL = new URL("./progress-page.js", import.meta.url);

function mountProgressPage() {
  import(PROGRESS_PAGE_URL.href).then((module) => module.mountProgressPage());
}

function ownBuild() {
  const root = document.querySelector("[data-lab][data-lockfile]");
  const lockfile = root?.dataset.lockfile;
  if (!lockfile || !python.worker || !python.lockfile || lockfile === python.lockfile) return true;
  let reloaded = null;
  try { reloaded = sessionStorage.getItem(RELOADED); } catch { /* storage blocked: reload anyway */ }
  if (reloaded !== lockfile) {
    try { sessionStorage.setItem(RELOADED, lockfile); } catch { /* as above */ }
    const message = document.querySelector("[data-lab-message]");
    if (message) message.textContent = "Il sito è stato aggiornato mentre leggevi: ricarico la pagina…";
    location.reload();
    return false;
  }
  python.package = root.dataset.package;
  python.restart();
  return true;
}

function mountLabs() {
  releaseLeftPage();
  if (document.querySelector("[data-progress-page]")) mountProgressPage();
  mountQuestions();
  if (!ownBuild()) return;
  python.listeners.clear();
  for (const root of document.querySelectorAll("[data-lab]")) {
    if (!root.labController) root.labController = new LabController(root);
    else python.listeners.add(root.labController.onStatus);
    mountExperiments(root.labController);
    mountExercises(root.labController);
    const panel = document.querySelector(`[data-lab-code="${root.dataset.lab}"]`);
    if (panel && !panel.codePanel) panel.codePanel = root.labController.code = new CodePanel(panel, root.labController);
  }
}

const status = () => python.status;
watchTheme(mountLabs);
// the theme's script and the site's offline copy start once Python is no longer loading: «pronto» or failed
python.watchers.add(() => {
  if (python.status !== "loading") {
    startTheme();
    keepOffline(status);
  }
});
keepOfflineWhenLoaded(status);
writeUrlOnLeaving();
watchHeats();

// Python starts as soon as this module runs (the page is parsed by then), not
// when the theme's document$ mounts the labs: that waits for the theme's own
// start, and every millisecond before the worker starts adds to the reader's wait.
// After the watchers above: the <head>'s worker may have said «failed» already,
// and taking it over replays that at once.
const firstLab = document.querySelector("[data-lab]");
if (firstLab && location.protocol !== "file:") python.start(firstLab.dataset.package, firstLab.dataset.module);
else startTheme();

// mkdocs-material emits document$ on the first load and after every instant navigation.
// (On a lab page the theme starts later: mountLabs then runs on DOMContentLoaded, and from the theme's start on document$.)
if (window.document$) window.document$.subscribe(mountLabs);
else document.addEventListener("DOMContentLoaded", mountLabs, { once: true });

// A link to the lab's own page (the sidebar, a search result) keeps the lab as
// the reader left it: instant navigation would redraw it from the defaults
// and drop the settings from the URL.
document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[href]");
  if (!link || !document.querySelector("[data-lab]") || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || url.pathname !== location.pathname || url.search || url.hash) return;
  event.preventDefault();
  event.stopPropagation();
  const search = document.getElementById("__search"); // a search result: close the search
  if (search) search.checked = false;
}, true);

// A skip link («Vai al contenuto», «Vai al laboratorio») moves the focus here, at once, and leaves
// the URL alone. Through the URL's hash the theme's instant navigation would click it again a turn
// later (also after the browser's own jump, on its popstate), and a keyboard reader who has already
// pressed Tab would be sent back to the heading.
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a.md-skip");
  const target = link && document.getElementById(decodeURIComponent(link.hash.slice(1)));
  if (!target) return;
  event.preventDefault();
  event.stopPropagation();
  if (!target.hasAttribute("tabindex")) target.tabIndex = -1;
  target.scrollIntoView({ block: "start" });
  target.focus({ preventScroll: true });
}, true);

window.labsRuntime = python; // for tests and monitoring
