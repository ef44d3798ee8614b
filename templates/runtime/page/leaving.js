// What a page left by instant navigation may keep alive. The theme (mkdocs-material 9.8, watchMedia) listens to
// its media queries once per page and never stops: each listener keeps the sidebar it was for, and through it, by
// the links between nodes, the whole page the reader left, lab and all (about 0.4 MB a visit over a long
// session). The rule: once the theme has put the next page's container in, every element of the one left is
// taken out of its parent, so whatever still holds one of them holds that element and its text, not the page.
// Done when the browser is idle: a big page takes some milliseconds, which the next page's start does not wait for.
// The code editors (CodeMirror) the reader opened there listen to the window until they are destroyed, and hold
// their lab: they are destroyed first.
//
// The media listeners themselves: the theme's two media queries (its watchMedia) are one MediaQueryList each for
// the whole visit, and every page's sidebars add a listener to them (MediaQueryList.addListener, never removed:
// its rxjs fromEventPattern has no remove handler), each holding its page's subscriptions (about 11 kB a visit,
// measured by scripts/bench_soak.py). The theme mounts a page's components before mountLabs (main.js) hears of the
// page, so the listeners added between two navigations are the newer page's: they are removed when it is left
// (were the order ever the other way round, they would go one page late, never while their page is on screen).
// Those added at the theme's start or within the first page (its header, search, palette: the whole visit's)
// stay.

const CONTAINER = "[data-md-component=container]";
let shown = null; // the container on screen at the last navigation
const whenIdle = self.requestIdleCallback?.bind(self) ?? ((work) => setTimeout(work, 200)); // Safari has no requestIdleCallback
let added = []; // [MediaQueryList, listener] added since the last navigation
let shownListeners = []; // those of the page on screen

if (self.MediaQueryList?.prototype.addListener) {
  const addListener = MediaQueryList.prototype.addListener;
  MediaQueryList.prototype.addListener = function (listener) {
    if (listener) added.push([this, listener]);
    return addListener.call(this, listener);
  };
}

/** The container of the page on screen, remembered; the one of the page left, taken apart, and its media
 *  listeners removed. */
export function releaseLeftPage() {
  const now = document.querySelector(CONTAINER);
  const left = shown;
  if (left && left !== now && !left.isConnected) {
    closeEditors(left);
    for (const [query, listener] of shownListeners) query.removeListener(listener);
    shownListeners = added;
    whenIdle(() => takeApart(left), { timeout: 2000 });
  }
  added = [];
  shown = now;
}

/** The editors of the code panels and exercises below root, destroyed (code-panel.js, exercises.js). */
function closeEditors(root) {
  for (const host of root.querySelectorAll("[data-lab-code], [data-exercise]")) {
    (host.codePanel ?? host.exercise)?.editor?.destroy();
  }
}

/** Every element below root out of its parent, the deepest first: each keeps only its own text. */
export function takeApart(root) {
  const elements = root.querySelectorAll("*");
  for (let i = elements.length - 1; i >= 0; i -= 1) elements[i].remove();
}
