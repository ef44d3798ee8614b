// The messages between page, boot script and worker (templates/runtime/protocol.js), in node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MESSAGES, initMessage, viewMessage, sourceMessage, problem } from "../../templates/runtime/protocol.js";

test("the init message is built once, with every field it declares, for the boot script and a retry alike", () => {
  const boot = initMessage({ indexURL: "http://x/pyodide/", pkg: "laboratori-llm", lockfile: "l.json", module: "labs.a" });
  const retry = initMessage({ indexURL: "http://x/pyodide/", pkg: "laboratori-llm", lockfile: "l.json", module: "labs.a",
                              revalidate: true });
  assert.deepEqual(Object.keys(boot), Object.keys(retry));
  assert.equal(problem(boot), "");
  assert.equal(boot.revalidate, false);
  assert.equal(retry.revalidate, true);
});

test("what the page asks for is declared: a view, a stepped view, an edited one, the edited source", () => {
  const view = { lab: "ombrello", module: "labs.ch1.ombrello", params: { vento: "1" } };
  assert.equal(problem(viewMessage(1, view)), "");
  assert.equal(problem(viewMessage(2, { ...view, step: { name: "passo", max: 9 } })), "");
  assert.equal(viewMessage(3, { ...view, code: "def f(): pass" }).type, "edited");
  assert.equal(problem(viewMessage(3, { ...view, code: "def f(): pass" })), "");
  assert.equal(problem(sourceMessage(4, { lab: "ombrello", module: "labs.ch1.ombrello", code: "x" })), "");
});

test("a message of a type not declared, with a field missing or one not declared, is named", () => {
  assert.match(problem({ type: "hello" }), /non dichiarato: hello/);
  assert.match(problem({ type: "progress" }), /progress: mancano loaded/);
  assert.match(problem({ type: "ready", checkpointBytes: 1, marks: {}, extra: 2 }), /campi non dichiarati extra/);
  assert.match(problem(null), /non dichiarato/);
});

test("every type declares its fields once: none both required and optional", () => {
  for (const [type, [required, optional]] of Object.entries(MESSAGES)) {
    assert.deepEqual(required.filter((field) => optional.includes(field)), [], type);
  }
});
