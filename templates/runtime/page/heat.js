// A heat picture of the kit (labs/kit/heat_pictures.py): the cell under the pointer or the finger, or moved
// to with the arrow keys, is marked and read aloud as «riga, colonna: valore». It knows no lab: all it needs is
// on the <svg data-heat>, read when an event comes (the view is morphed at every step). The mark and the
// readout line are the page's (data-page-owned, left alone by the morph); the marked cell is the mark's
// data-i / data-j, and its value is read again after each morph (refreshHeats).

const FIGURE = "svg[data-heat]";
const MOVES = {
  ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
};

/** The geometry of data-heat="left top cellWidth cellHeight rows cols", in the SVG's user units. */
export function parseGeometry(text) {
  const [left, top, width, height, rows, cols] = String(text).trim().split(/\s+/).map(Number);
  return { left, top, width, height, rows, cols };
}

/** The cell [i, j] at the point (x, y) of the SVG's user units, or null outside the cells. */
export function cellAt(geometry, x, y) {
  const { left, top, width, height, rows, cols } = geometry;
  const i = Math.floor((y - top) / height);
  const j = Math.floor((x - left) / width);
  return i >= 0 && i < rows && j >= 0 && j < cols ? [i, j] : null;
}

/** The cell a key moves to from [i, j] (arrows, Home / End along the row), kept inside; null for another key. */
export function moved(geometry, cell, key) {
  const [i, j] = cell ?? [0, 0];
  const last = (n) => Math.max(0, n - 1);
  if (key === "Home") return [i, 0];
  if (key === "End") return [i, last(geometry.cols)];
  const step = MOVES[key];
  if (!step) return null;
  if (!cell) return [0, 0]; // the first arrow marks the first cell
  return [Math.min(last(geometry.rows), Math.max(0, i + step[0])), Math.min(last(geometry.cols), Math.max(0, j + step[1]))];
}

/** «riga gatto, colonna 3: 0,123» from the figure's data: values row by row joined by «;», names as JSON lists. */
export function readout(data, geometry, [i, j]) {
  const values = String(data.values ?? "").split(";");
  const names = (json) => { try { return JSON.parse(json || "[]"); } catch { return []; } };
  const row = names(data.rowNames)[i] ?? String(i + 1);
  const col = names(data.colNames)[j] ?? String(j + 1);
  const value = values[i * geometry.cols + j] || "vuota";
  return `riga ${row}, colonna ${col}: ${value}`;
}

function parts(svg) {
  return {
    geometry: parseGeometry(svg.dataset.heat),
    mark: svg.querySelector(".lab-heat-mark"),
    line: svg.closest(".lab-heat-box")?.querySelector(".lab-heat-readout"),
  };
}

function markedCell(mark) {
  if (!mark || !mark.classList.contains("is-on")) return null;
  return [Number(mark.dataset.i), Number(mark.dataset.j)];
}

// Written only when it changes: the same value written again still costs a restyle, and a live region says it again.
function setAttr(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function show(svg, cell) {
  const { geometry, mark, line } = parts(svg);
  if (!mark || !cell) return;
  const [i, j] = cell;
  setAttr(mark, "x", String(geometry.left + j * geometry.width));
  setAttr(mark, "y", String(geometry.top + i * geometry.height));
  setAttr(mark, "width", String(geometry.width));
  setAttr(mark, "height", String(geometry.height));
  setAttr(mark, "data-i", String(i));
  setAttr(mark, "data-j", String(j));
  mark.classList.add("is-on");
  if (!line) return;
  const text = readout(svg.dataset, geometry, cell);
  if (line.textContent !== text) line.textContent = text;
  line.classList.add("is-on");
}

function fromPointer(event) {
  const svg = event.target.closest?.(FIGURE);
  if (!svg) return;
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const cell = cellAt(parts(svg).geometry, point.x, point.y);
  if (cell) show(svg, cell);
}

function fromKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const svg = event.target.closest?.(FIGURE);
  if (!svg || event.target !== svg) return;
  if (event.key === " ") { event.preventDefault(); return; } // reading a picture: the space does not start Play
  const { geometry, mark } = parts(svg);
  const cell = moved(geometry, markedCell(mark), event.key);
  if (!cell) return;
  event.preventDefault(); // the arrows are the figure's here, not the timeline's
  show(svg, cell);
}

/** After a morph: each marked cell is read again (a new step, new values), and kept inside a smaller matrix. */
export function refreshHeats(view) {
  for (const svg of view.querySelectorAll(FIGURE)) {
    const { geometry, mark } = parts(svg);
    const cell = markedCell(mark);
    if (cell) show(svg, [Math.min(cell[0], geometry.rows - 1), Math.min(cell[1], geometry.cols - 1)]);
  }
}

/** The page-wide listeners, once: delegated from the document, so figures drawn later need nothing. */
export function watchHeats() {
  document.addEventListener("pointermove", fromPointer, { passive: true });
  document.addEventListener("pointerdown", fromPointer, { passive: true });
  // in the capture phase: before the lab's own keys (the timeline's ← →), which leave a key already taken
  document.addEventListener("keydown", fromKey, true);
  document.addEventListener("focusin", (event) => {
    if (event.target.matches?.(FIGURE) && !markedCell(parts(event.target).mark)) show(event.target, [0, 0]);
  });
}
