// The pure parts of a heat picture's readout (templates/runtime/page/heat.js), in node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cellAt, moved, parseGeometry, readout } from "../../templates/runtime/page/heat.js";

const geometry = parseGeometry("40 4 16 14 3 5"); // left top cell-width cell-height rows cols

test("the geometry is read from data-heat", () => {
  assert.deepEqual(geometry, { left: 40, top: 4, width: 16, height: 14, rows: 3, cols: 5 });
});

test("a point is in the cell whose square holds it, edges included at the top left", () => {
  assert.deepEqual(cellAt(geometry, 40, 4), [0, 0]);
  assert.deepEqual(cellAt(geometry, 55.9, 17.9), [0, 0]);
  assert.deepEqual(cellAt(geometry, 56, 18), [1, 1]);
  assert.deepEqual(cellAt(geometry, 40 + 16 * 4.5, 4 + 14 * 2.5), [2, 4]);
});

test("outside the cells (the names, the margins) there is no cell", () => {
  assert.equal(cellAt(geometry, 39.9, 10), null);
  assert.equal(cellAt(geometry, 50, 3.9), null);
  assert.equal(cellAt(geometry, 40 + 16 * 5, 10), null);
  assert.equal(cellAt(geometry, 50, 4 + 14 * 3), null);
});

test("the arrows move one cell and stop at the edges; Home and End go along the row", () => {
  assert.deepEqual(moved(geometry, null, "ArrowDown"), [0, 0]);
  assert.deepEqual(moved(geometry, [0, 0], "ArrowDown"), [1, 0]);
  assert.deepEqual(moved(geometry, [0, 0], "ArrowUp"), [0, 0]);
  assert.deepEqual(moved(geometry, [2, 4], "ArrowRight"), [2, 4]);
  assert.deepEqual(moved(geometry, [2, 4], "ArrowLeft"), [2, 3]);
  assert.deepEqual(moved(geometry, [1, 2], "End"), [1, 4]);
  assert.deepEqual(moved(geometry, [1, 2], "Home"), [1, 0]);
  assert.equal(moved(geometry, [1, 2], "a"), null);
});

test("the readout says the row, the column and the value as Python wrote it", () => {
  const data = { values: "0,5;−1,2;;3;4;5;6;7;8;9;10;11;12;1,23 × 10⁻⁵;14", rowNames: '["gatto","«il»"]' };
  assert.equal(readout(data, geometry, [0, 1]), "riga gatto, colonna 2: −1,2");
  assert.equal(readout(data, geometry, [0, 2]), "riga gatto, colonna 3: vuota");
  assert.equal(readout(data, geometry, [2, 3]), "riga 3, colonna 4: 1,23 × 10⁻⁵");
  assert.equal(readout({ ...data, colNames: '["a","b"]' }, geometry, [1, 1]), "riga «il», colonna b: 6");
});
