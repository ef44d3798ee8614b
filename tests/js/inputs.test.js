// The controls' values as the page shows them (templates/runtime/page/inputs.js), in node: the same digits as
// the views' num() (labs/kit/html.py) and the build's prerendered outputs (labs/kit/italian.py: control_value).
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatNumber } from "../../templates/runtime/page/inputs.js";

test("every integer from 1.000 up has its thousands point, decimals as written, a true minus", () => {
  assert.equal(formatNumber("2000"), "2.000");
  assert.equal(formatNumber("500000"), "500.000");
  assert.equal(formatNumber("999"), "999");
  assert.equal(formatNumber("-1500"), "−1.500");
  assert.equal(formatNumber("0.05"), "0,05");
  assert.equal(formatNumber("1234.50"), "1.234,50");
  assert.equal(formatNumber("abc"), "abc");
});
