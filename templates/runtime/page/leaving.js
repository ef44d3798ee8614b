// What a page left by instant navigation may keep alive. The theme (mkdocs-material 9.8, watchMedia) listens to
// its media queries once per page and never stops: each listener keeps the sidebar it was for, and through it, by
// the links between nodes, the whole page the reader left, lab and all (about 0.4 MB a visit over a long
// session). The rule: once the theme has put the next page's container in, every element of the one left is
// taken out of its parent, so whatever still holds one of them holds that element and its text, not the page.
// Done when the browser is idle: a big page takes some milliseconds, which the next page's start does not wait for.
// The code editors (CodeMirror) the reader opened there listen to the window until they are destroyed, and hold
// their lab: they are destroyed first.

const CONTAINER = "[data-md-component=container]";
let shown = null; // the container on screen at the last navigation
const whenIdle = self.requestIdleCallback?.bind(self) ?? ((work) => setTimeout(work, 200)); // Safari has no requestIdleCallback

/** The container of the page on screen, remembered; the one of the page left, taken apart. */
export function releaseLeftPage() {
  const now = document.querySelector(CONTAINER);
  const left = shown;
  if (left && left !== now && !left.isConnected) {
    closeEditors(left);
    whenIdle(() => takeApart(left), { timeout: 2000 });
  }
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
