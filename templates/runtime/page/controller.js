// One lab on the page: it reads the lab's [data-param] inputs, asks Python for the view they
// give and morphs it in; the timeline (timeline.js), dragging (drag.js) and the status line
// (status.js) are its parts. It knows no lab.
import { python } from "./python.js";
import { formatNumber, keepEnds, put, readInput, writeInput } from "./inputs.js";
import { morphInto, rehearseLayout } from "./morph.js";
import { refreshHeats } from "./heat.js";
import { NUMBERS, putNumbers, switchesIn } from "./numbers.js";

import { FOLDS_PARAM, numbersFromQuery, paramsFromQuery, queryFor, writeUrlSoon } from "./url.js";
import { STEP_BUTTON, keepTallest, showSteps, step, stepInput, stopPlay, timelineKey } from "./timeline.js";
import { startDrag } from "./drag.js";
import { statusChanged } from "./status.js";
import { markPart, sameValue } from "./experiments.js";
import { mountDrawer } from "./drawer.js";
import { mineFor, showMine } from "./exercises.js";


// A view that takes longer than DIM_AFTER ms is dimmed until it comes (.is-waiting).
// Only then: dimming every change made the browser paint the dimmed view
// first, and the answer, back from Python meanwhile, waited behind that frame.
const DIM_AFTER = 150; // ms

// A stepped lab's default run, as the build ships it beside the page (labs/answers.py: Checkpoints, the lab's
// data-checkpoints): {url of its folder, every, last step with a file, training: the parameters at their defaults}.
function defaultRun(root) {
  if (!root.dataset.checkpoints) return null;
  const run = JSON.parse(root.dataset.checkpoints);
  return { ...run, url: new URL(run.url, location.href).href }; // the page's own URL, before a navigation moves it
}

// The default run's checkpoint at the multiple of its interval at or below the step asked, {url, step}, while every
// parameter of the training is at its default; null at step 0 or off the defaults.
function runCheckpoint(lab, params) {
  const run = lab.run;
  if (!run || !lab.stepInput) return null;
  const atDefault = (name) => sameValue(name, params[name], lab.inputs.find((i) => i.name === name)?.dataset.default);
  if (!run.training.every(atDefault)) return null;
  const step = Math.min(run.last, Math.floor(Number(params[lab.stepInput.name]) / run.every) * run.every);
  return step > 0 ? { url: `${run.url}${step}.bin`, step } : null;
}

export class LabController {
  constructor(root) {
    this.root = root;
    this.id = root.dataset.lab;
    this.module = root.dataset.module;
    this.view = root.querySelector("[data-lab-view]");
    this.errorBox = root.querySelector("[data-lab-error]");
    this.workingLine = root.querySelector("[data-lab-working]");
    this.live = root.querySelector("[data-lab-live]");
    this.fieldset = root.querySelector("[data-lab-fieldset]");
    this.timeline = root.querySelector("[data-lab-timeline]");
    this.inputs = [...root.querySelectorAll("[data-param]")];
    mountDrawer(root);
    this.stepInput = stepInput(this.inputs);
    this.run = defaultRun(root);
    this.busy = false;
    this.again = false;
    this.playing = false;
    // a shared link's folds, opened before readUrl and listen: Python's first view draws them
    this.openFolds(new URLSearchParams(location.search).get(FOLDS_PARAM));
    // and its «Mostra i numeri»: the prerendered matrices open now, those of later views in draw()
    this.numbers = numbersFromQuery(location.search);
    putNumbers(this.view, this.numbers);
    // values from the URL go to Python as they are written ("0,5", "abc"): Python cleans them (or falls
    // back to the lab's default), the browser's own sanitising of a range input would pick its midpoint instead
    this.fromUrl = paramsFromQuery(location.search, this.inputs.map((input) => input.name));
    this.page = location.pathname; // the URL this lab may write to
    if (this.fromUrl) this.view.classList.add("is-stale");
    this.listen();
    if (this.stepInput) this.height = keepTallest(this.view);
    this.showOutputs();
    this.onStatus = () => statusChanged(this);
    python.listeners.add(this.onStatus);
    python.start(root.dataset.package, this.module);
    statusChanged(this);
  }

  // the folds named in a text "embedding,matrice" (a shared link's ?sezioni=, a suggested edit's params)
  // opened; the next view Python draws has them (params() sends the open ones)
  openFolds(text) {
    const names = (text || "").split(",");
    for (const fold of this.view.querySelectorAll("details[data-fold]")) {
      if (names.includes(fold.dataset.fold)) fold.open = true;
    }
  }

  listen() {
    this.root.addEventListener("input", (event) => {
      if (event.target.matches("[data-param]")) {
        this.stopAt = null; // the reader's own move, not «Ferma qui»'s, is the one drawn next
        if (event.target === this.stepInput && !this.playing) stopPlay(this);
        this.showOutputs();
        this.update();
      }
    });
    this.root.addEventListener("submit", (event) => event.preventDefault());
    this.root.addEventListener("click", (event) => {
      // the timeline's buttons only: a lab's view may say its step in a data-step of its own (3.2, 2.6, 9G),
      // and a click there must not step by that much
      const button = event.target.closest(STEP_BUTTON);
      if (button) return step(this, button.dataset.step);
      if (event.target.closest("[data-lab-stop]")) return this.stopReplay();
      const retry = event.target.closest("[data-lab-retry]");
      if (retry) python.start(this.root.dataset.package, this.module);
      // a view element with data-set="name=value;other=value" sets controls when clicked
      const setter = event.target.closest("[data-set]");
      if (setter && !setter.disabled) this.set(setter);
    });
    this.root.addEventListener("keydown", (event) => this.key(event));
    // «toggle» does not bubble: caught on its way down
    // a fold (kit.fold) opened is drawn by Python then; any other <details> gets the last view's content
    this.view.addEventListener("toggle", (event) => {
      const numbers = event.target.matches(NUMBERS);
      if (numbers) this.numbers = event.target.open;
      const fold = event.target.matches("[data-fold]");
      // the URL says which are open (once ready: before, the controls do not hold the link's values yet)
      if ((fold || numbers) && this.root.dataset.ready === "true") writeUrlSoon(this);
      if (!event.target.open) return;
      if (fold) this.update();
      else if (this.html) { morphInto(this.view, this.html); refreshHeats(this.view); }
    }, true);
    this.root.addEventListener("pointerdown", (event) => startDrag(this, event));
  }

  set(setter) {
    if (this.stepInput && setter.dataset.set.startsWith(`${this.stepInput.name}=`)) stopPlay(this);
    this.setControls(setter.dataset.set.split(";").map((pair) => pair.split("=")));
  }

  key(event) {
    const setter = event.target.closest("[data-set]");
    if (setter && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      return this.set(setter); // SVG elements have no .click()
    }
    timelineKey(this, event);
  }

  setControls(pairs) {
    if (python.status !== "ready") return;
    let changed = false;
    for (const [name, value] of pairs) {
      const input = this.inputs.find((i) => i.name === name);
      if (input) { writeInput(input, value); changed = true; }
    }
    if (changed) { this.showOutputs(); this.update(); }
  }

  // the next step's view, sent by the worker just before «ready»: laid out once off screen (rehearseLayout) at
  // once, while the controls still wait (later, in an idle moment, it could stand in the way of a change made at once)
  rehearseNext(html) {
    if (this.html === undefined && !this.busy) rehearseLayout(this.view, html);
  }

  showOutputs() {
    for (const input of this.inputs) {
      put(this.root.querySelector(`[data-output="${input.name}"]`), "textContent", formatNumber(input.value));
    }
    showSteps(this);
  }

  params() {
    const values = Object.fromEntries(this.inputs.map((input) => [input.name, readInput(input)]));
    // the folds the reader has open (a lab's FOLDS, kit.fold): Python draws only those
    const folds = [...this.view.querySelectorAll("details[data-fold]")];
    if (folds.length) values[FOLDS_PARAM] = folds.filter((fold) => fold.open).map((fold) => fold.dataset.fold).join(",");
    return values;
  }

  async update(raw = null) {
    if (python.status !== "ready") return;
    if (this.busy) { // the answer on its way is for controls the reader has moved since
      this.again = true;
      python.unwant(this.asked);
      return;
    }
    this.busy = true;
    this.pending = raw; // a link's or a «Prova»'s values, not in the controls yet (stopReplay keeps them)
    this.root.dataset.busy = "true";
    this.view.setAttribute("aria-busy", "true");
    const asked = performance.now();
    // not dimmed when the build's answer to a «Prova» is on screen meanwhile: the worker's will be the same
    const waiting = setTimeout(() => { if (!(this.drawn?.at >= asked)) this.view.classList.add("is-waiting"); },
                               DIM_AFTER);
    const step = this.stepInput && { name: this.stepInput.name, max: Number(this.stepInput.max) };
    const params = { ...this.params(), ...raw };
    const code = this.code?.running ?? null;
    const mine = code === null ? mineFor(this) : null; // the reader's passed exercises, where no edit runs
    const answer = python.render({ lab: this.id, module: this.module, params, code, exercises: mine,
                                   step, checkpoint: this.checkpointFor(params) },
                                 (at, target) => this.working(at, target, asked));
    this.asked = python.lastId;
    const result = await answer;
    if (this.workingLine) this.workingLine.hidden = true;
    this.reached = undefined;
    // the reader may have left the page meanwhile: a late result must not touch the new one
    // (instant navigation moves the URL to the next page before it swaps the content:
    // a lab still on screen whose page is no longer the URL's is leaving too)
    clearTimeout(waiting);
    this.view.classList.remove("is-waiting");
    if (!this.root.isConnected || location.pathname !== this.page) {
      this.busy = this.again = false; // dropped, and ready again if the reader comes back before the swap
      delete this.root.dataset.busy;
      this.view.removeAttribute("aria-busy");
      return;
    }
    if (result.ok) showMine(this, mine, result);
    this.show(result, !raw); // raw: a link's or a «Prova»'s settings, drawn as they are (no keepEnds)
    this.busy = false;
    delete this.root.dataset.busy;
    this.view.removeAttribute("aria-busy");
    if (this.again) {
      this.again = false;
      const raw = this.stopAt;
      this.stopAt = null;
      await this.update(raw);
    }
  }

  // An answer on the page: the view, or what went wrong; the controls as Python cleaned them.
  // An unwanted one (the reader moved on) shows nothing: the update after it asks for what they want now.
  show(result, moved = false) {
    if (result.unwanted) return;
    // a control kept at the end of its range moved to the new end: asked again, the view in between not drawn
    if (result.ok && moved && keepEnds(this.inputs, result.controls || {})) {
      this.showOutputs();
      this.again = true;
      return;
    }
    if (result.ok) this.draw(result);
    else if (this.code?.running != null || result.stopped) this.code?.failed(result);
    else {
      this.errorBox.textContent = `Qualcosa non va: ${result.error}`;
      this.errorBox.hidden = false;
    }
    if (result.ok) this.code?.succeeded();
    if (result.params) {
      for (const input of this.inputs) {
        if (input.name in result.params && !this.again) writeInput(input, result.params[input.name]);
      }
      this.showOutputs();
      writeUrlSoon(this);
    }
  }

  // The machine the worker draws from instead of replaying the training, {url, step}, or null: the checkpoint of the
  // last «Prova» with a shipped answer (experiments.js) while the controls are still at its settings, else the
  // default run's at or below the step (a link, a jump, a drag; the worker fetches it only if it saves time).
  checkpointFor(params) {
    const answer = this.answer;
    if (answer?.checkpoint) {
      if (answer.pairs.every(([name, value]) => sameValue(name, params[name], value))) {
        return { url: answer.checkpoint, step: Number(params[this.stepInput.name]) };
      }
      this.answer = null; // the reader has moved on: the live machine is theirs
    }
    return runCheckpoint(this, params);
  }

  // The build's answer to a «Prova» (experiments.js), drawn as the worker's would be; the worker's, drawn from
  // the checkpoint, follows.
  drawAnswer(result) {
    this.draw(result);
    if (python.status === "ready") writeUrlSoon(this);
  }

  // A long answer (a retraining from the start) says how far it has got, in a line above the view
  // (not during Play: there the counter moves, and a line for each stride would blink; nor under the build's
  // answer to a «Prova», drawn meanwhile).
  // «Ferma qui» stops it at the step it has reached and draws that one (only where a replay can be stopped: a page
  // that shares a word of memory with the worker, python.unwant).
  working(at, target, asked) {
    const line = this.workingLine;
    if (!line || this.playing || this.drawn?.at >= asked) return;
    this.reached = at;
    line.querySelector("progress").max = target;
    line.querySelector("progress").value = at;
    line.querySelector("[data-lab-working-text]").textContent =
      `Calcolo i passi: ${formatNumber(at)} di ${formatNumber(target)}…`;
    put(line.querySelector("[data-lab-stop]"), "hidden", !this.stepInput || !python.unwanted);
    line.hidden = false;
  }

  // The replay under way stopped where it got: the step control set there, as if the reader had moved it (the
  // answer on its way is then unwanted, and the machine, left at that step, draws it at once).
  stopReplay() {
    if (!this.busy || this.reached === undefined || !this.stepInput) return;
    this.stopAt = { ...this.pending, [this.stepInput.name]: String(this.reached) };
    writeInput(this.stepInput, String(this.reached));
    this.showOutputs();
    this.update();
  }

  draw(result) {
    this.drawn = { at: performance.now(), params: result.params }; // what the view shows, since when
    this.html = result.html; // morphed again when the reader opens a <details> (see morphInto)
    const before = switchesIn(this.view);
    morphInto(this.view, result.html);
    refreshHeats(this.view);
    this.height?.trim();
    putNumbers(this.view, this.numbers, before); // a new screen's (3.1 after «Avanti») as the reader left the last
    if (this.timeline && result.timeline !== undefined) {
      morphInto(this.timeline, result.timeline);
      // the scrubber ends where the machine stopped (the counter's data-step-end) and reads as the counter
      const counter = this.timeline.querySelector("[data-step-counter]");
      put(this.stepInput, "max", counter?.dataset.stepEnd ?? this.stepInput.dataset.max);
      put(this.stepInput, "ariaValueText", counter?.textContent ?? null);
    }
    this.follow(result.controls || {});
    markPart(this); // the part a «Prova» of the prose points at, marked again in the new view
    this.view.classList.remove("is-stale");
    this.errorBox.hidden = true;
    this.errorBox.textContent = "";
    // one polite line with the key result, not the whole drawing, for screen readers
    if (this.live && result.summary) this.live.textContent = result.summary;
  }

  // What the lab's follow(state) says of each control: disabled with a reason, hidden, another range.
  follow(controls) {
    for (const input of this.inputs) {
      const f = controls[input.name] || {};
      const wrapper = input.closest("[data-control]");
      const reason = this.root.querySelector(`[data-reason="${input.name}"]`);
      put(input, "disabled", Boolean(f.disabled));
      put(reason, "textContent", f.disabled || "");
      put(reason, "hidden", !f.disabled);
      put(wrapper, "hidden", Boolean(f.hidden));
      if (input.dataset.range) {
        const [min, max] = input.dataset.range.split(" ");
        put(input, "min", String(f.min ?? min));
        put(input, "max", String(f.max ?? max));
      }
    }
  }

  // The URL reproduces what the reader sees, except texts too long for a
  // link (a pasted corpus): those stay in the page. While Play runs the URL
  // is written once, when it stops.
  writeUrl() {
    if (location.pathname !== this.page) return; // never into another page's URL
    if (this.playing) return;
    const controls = this.inputs.map((input) => ({ name: input.name, value: readInput(input),
                                                    fallback: input.dataset.default }));
    const search = queryFor(location.search, controls, this.params()[FOLDS_PARAM], this.numbers);
    history.replaceState(history.state, "", `${location.pathname}${search}${location.hash}`);
  }
}
