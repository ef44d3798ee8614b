// The worker's order of work (templates/runtime/worker/scheduler.js), in node: one message at a time,
// nothing drawn ahead while a message waits, which step is drawn ahead, which answer nobody wants.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Queue, planAhead, isUnwanted } from "../../templates/runtime/worker/scheduler.js";

const tick = () => new Promise((resolve) => setTimeout(resolve));

test("messages are answered one at a time, in order, and a view ahead waits for them all", async () => {
  const queue = new Queue();
  const done = [];
  let release;
  queue.fromPage(() => new Promise((resolve) => { release = resolve; done.push("a start"); }));
  queue.whenFree(() => done.push("ahead while b waits"));
  queue.fromPage(() => done.push("b"));
  queue.whenFree(() => done.push("ahead after b"));
  await tick();
  assert.deepEqual(done, ["a start"]);
  assert.equal(queue.waiting, 1); // b: a view ahead now would stand in front of it
  release();
  await queue.tail;
  assert.deepEqual(done, ["a start", "b", "ahead after b"]);
  assert.equal(queue.waiting, 0);
});

const ask = (at, params = { lr: "0.01" }) => ({ lab: "transformer-allenato", params: { ...params, passo: String(at) },
                                              step: { name: "passo", max: 10 } });

test("after «Avanti» the next step is drawn ahead, after «Indietro» the one before, during Play the next stride", () => {
  let plan = planAhead(null, ask(3), 3);
  assert.deepEqual([plan.next, plan.regular], [4, false]); // a first view: the step after it
  plan = planAhead(plan.last, ask(4), 4);
  assert.deepEqual([plan.next, plan.regular], [5, true]);
  plan = planAhead(plan.last, ask(3), 3);
  assert.deepEqual([plan.next, plan.regular], [2, true]);
  plan = planAhead(planAhead(plan.last, ask(5), 5).last, ask(7), 7); // +2 once: a jump; +2 again: Play's stride
  assert.deepEqual([plan.next, plan.regular], [9, true]);
});

test("a jump, another setting or the last step draws the step after it, or nothing past the end", () => {
  let plan = planAhead(planAhead(null, ask(1), 1).last, ask(8), 8);
  assert.deepEqual([plan.next, plan.regular], [9, false]);
  plan = planAhead(plan.last, ask(9, { lr: "0.02" }), 9); // another learning rate: not a step from 8
  assert.deepEqual([plan.next, plan.regular], [10, false]);
  plan = planAhead(plan.last, ask(10, { lr: "0.02" }), 10);
  assert.equal(plan.next, null);
});

test("an answer is unwanted only while it is made and the page wrote its id", () => {
  const word = new Int32Array(new SharedArrayBuffer(4));
  assert.equal(isUnwanted(7, word), false);
  Atomics.store(word, 0, 7);
  assert.equal(isUnwanted(7, word), true);
  assert.equal(isUnwanted(8, word), false); // the page no longer wants 7, not the one now made
  assert.equal(isUnwanted(null, word), false); // drawing ahead: nobody asked, nothing to stop
  assert.equal(isUnwanted(7, null), false); // not cross-origin isolated: every answer runs to its end
});
