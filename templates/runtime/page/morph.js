// The view is updated by morphing the DOM (morphdom): what the reader opened, scrolled or focused survives.
import morphdom from "./vendor/morphdom.js";

// An element with data-screen is one screen of a lab (3.1's «Forward», «Loss», …): another screen in
// its place shares no more than its tags, so it is put in whole rather than morphed element by element
// (a screen of big tables at each «Avanti»). Keyed like morphdom's ids, which stay keys.
// Asked of every node at every morph: getAttribute, not dataset (which makes a new object each time).
function screenKey(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return undefined;
  if (node.id) return node.id;
  const screen = node.getAttribute("data-screen");
  return screen ? `screen ${screen}` : undefined;
}

// Morph the old markup into the new: what the reader opened, scrolled or
// focused survives (an open <details> stays open, a table keeps its scroll).
// A closed <details> gets its attributes and its summary only: what it hides
// is brought up to date when the reader opens it (the controller morphs the
// last view again on «toggle»), so a hidden section costs nothing per step.
// An element with data-page-owned is written by the page, not by Python (a
// heat picture's mark and readout, heat.js): it is left as the page wrote it.
export function morphInto(element, html) {
  const next = element.cloneNode(false);
  next.innerHTML = html;
  morphdom(element, next, {
    childrenOnly: true,
    getNodeKey: screenKey,
    onBeforeElUpdated(from, to) {
      if (from.isEqualNode(to) || from.hasAttribute("data-page-owned")) return false;
      if (from.tagName !== "DETAILS") return true;
      to.open = from.open;
      if (from.open) return true;
      for (const { name, value } of to.attributes) if (from.getAttribute(name) !== value) from.setAttribute(name, value);
      for (const { name } of [...from.attributes]) if (!to.hasAttribute(name)) from.removeAttribute(name);
      const [summary, nextSummary] = [from, to].map((d) => d.querySelector(":scope > summary"));
      if (summary && nextSummary && !summary.isEqualNode(nextSummary)) morphdom(summary, nextSummary);
      return false;
    },
  });
}

// The first morph of a page is slow (morphdom's code is not
// compiled yet): it is rehearsed once, off the page, when Python is ready, on
// a copy of the view morphed into itself with every digit changed.
export function rehearse(element) {
  const copy = element.cloneNode(true);
  morphInto(copy, element.innerHTML.replace(/\d/g, (d) => String((Number(d) + 1) % 10)));
}

// The first layout of a stepped lab's next step is slow too (the browser's
// caches of text shaped and styles matched are cold): the worker sends that view once
// it has drawn it ahead, before «ready», and the page lays it out once,
// hidden, in a copy of the view beside it.
export function rehearseLayout(view, html) {
  const copy = view.cloneNode(true);
  copy.removeAttribute("data-lab-view");
  copy.setAttribute("aria-hidden", "true");
  copy.inert = true;
  copy.style.cssText = `position: absolute; left: 0; top: 0; width: ${view.offsetWidth}px; visibility: hidden`;
  morphInto(copy, html);
  view.after(copy);
  void copy.offsetHeight; // laid out now, then gone before any paint
  copy.remove();
}
