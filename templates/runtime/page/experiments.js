// «Prova»: the experiments a lab's prose suggests. The build puts their buttons after the paragraph that
// suggests them, outside the lab (labs/kit/experiments.py: a [data-experiments="<lab id>"] box, each button
// with data-set="name=value;…" as a view's setters have, and data-look, the part to look at: its id or data-part).
// A click sets the controls (those it names, every other one to its default), opens the closed groups that hold
// the named ones, scrolls to the part and marks it;
// «Ripristina» puts the controls back as the reader had them. It knows no lab.
// A costly experiment (a long training) has its answer shipped beside the page (labs/answers.py): its button's
// data-answer names the view drawn by the build, fetched on the click and morphed in at once if the controls are
// then the answer's, and data-checkpoint the machine at that step, which the worker takes (controller.update)
// so that it draws from there and «Avanti» goes on from there.
import { python } from "./python.js";
import { writeInput } from "./inputs.js";
import { stopPlay } from "./timeline.js";
import { FOLDS_PARAM } from "./url.js";

export const LOOKED_AT = "lab-looked-at"; // the class of the part an experiment points at (labs.css)

/** The boxes of «Prova» buttons of this lab's prose, listened to once. */
export function mountExperiments(lab) {
  for (const box of document.querySelectorAll("[data-experiments]")) {
    if (box.dataset.experiments !== lab.id || box.experimentsLab === lab) continue;
    box.experimentsLab = lab;
    box.addEventListener("click", (event) => {
      const button = event.target.closest("[data-experiment]");
      if (button) tryExperiment(lab, box, button);
      else if (event.target.closest("[data-experiment-undo]")) undo(lab);
    });
  }
  // a control the reader moves by hand ends the mark (what it changes is theirs to look at now)
  if (!lab.experimentsListening) {
    lab.experimentsListening = true;
    lab.root.addEventListener("input", () => unmark(lab));
  }
}

function pairsOf(text) {
  return text.split(";").filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]);
}

// The controls set as the view's data-set setters set them (controller.setControls); before Python is
// ready, written into the inputs and kept for the first view, as a link's values are.
function setValues(lab, pairs) {
  if (lab.playing) stopPlay(lab);
  if (python.status === "ready") return lab.setControls(pairs);
  for (const [name, value] of pairs) {
    const input = lab.inputs.find((i) => i.name === name);
    if (input) writeInput(input, value);
  }
  lab.fromUrl = { ...lab.fromUrl, ...Object.fromEntries(pairs) };
  lab.view.classList.add("is-stale");
  lab.showOutputs();
}

// Every closed <details> around an element opened; the ones opened here are remembered for «Ripristina».
function openAround(element, opened) {
  for (let details = element.closest("details"); details; details = details.parentElement.closest("details")) {
    if (!details.open) { details.open = true; opened.push(details); }
  }
}

/** The pairs a «Prova» sets: the whole state it was written for, whatever the reader did before it. Every
 *  control it names takes its value, every other one its default (labs/kit/experiments.py: after_click).
 *  named: [[name, value]] of data-set; defaults: [[name, default]] of the lab's inputs. */
function wholeState(named, defaults) {
  const names = new Set(named.map(([name]) => name));
  return [...named, ...defaults.filter(([name]) => !names.has(name))];
}

function tryExperiment(lab, box, button) {
  const named = pairsOf(button.dataset.set);
  const pairs = wholeState(named, lab.inputs.map((i) => [i.name, i.dataset.default]));
  const shown = new Set(named.map(([name]) => name)); // the controls the sentence is about: their groups opened
  const before = lab.params();
  // what the reader had before the first experiment: «Ripristina» goes back there, past any later one
  const saved = lab.experimentSaved ??= { values: new Map(), opened: [] };
  saved.button = button;
  const controls = [];
  for (const [name, value] of pairs) {
    if (name === FOLDS_PARAM) { // the sections where the effect shows, opened
      for (const fold of lab.view.querySelectorAll("details[data-fold]")) {
        if (value.split(",").includes(fold.dataset.fold)) openAround(fold.querySelector("summary") || fold, saved.opened);
      }
      continue;
    }
    const input = lab.inputs.find((i) => i.name === name);
    if (!input) continue;
    if (!saved.values.has(name)) saved.values.set(name, before[name]);
    if (shown.has(name)) openAround(input, saved.opened);
    controls.push([name, value]);
  }
  for (const line of document.querySelectorAll(`[data-experiments="${lab.id}"] .lab-experiments-undo`)) line.hidden = line.parentElement !== box;
  unmark(lab);
  // pairs: the values the view that answers will show (scrolled to again once drawn); none when it shows them now
  const changes = controls.some(([name, value]) => !sameValue(name, before[name], value));
  lab.look = { id: button.dataset.look, scroll: true, pairs: changes ? controls : null };
  const look = lab.look; // the reader who scrolls or types meanwhile keeps the page where they take it
  for (const type of ["wheel", "touchstart", "keydown"]) {
    addEventListener(type, () => { look.pairs = null; }, { once: true, passive: true });
  }
  const answer = button.dataset.answer;
  lab.answer = answer ? { pairs: controls, at: performance.now(), checkpoint: button.dataset.checkpoint
    ? new URL(button.dataset.checkpoint, location.href).href : null } : null;
  setValues(lab, controls);
  markPart(lab);
  if (answer) showAnswer(lab, lab.answer, new URL(answer, location.href).href);
}

const numeric = (text) => text !== "" && Number.isFinite(Number(text));

/** Whether a control's value as the page holds it and one as the build wrote it are the same. */
export function sameValue(name, mine, theirs) {
  if (typeof mine === "boolean") mine = mine ? "1" : "0"; // a toggle as a drawn view's params hold it
  if (name === FOLDS_PARAM) return String(mine ?? "").split(",").filter(Boolean).sort().join() ===
    String(theirs).split(",").filter(Boolean).sort().join();
  mine = String(mine ?? "");
  theirs = String(theirs);
  return mine === theirs || (numeric(mine) && numeric(theirs) && Number(mine) === Number(theirs));
}

// The answer the build drew for the experiment, morphed in as a worker's answer is, unless the reader has
// clicked again since, the worker has answered first, the controls are not the ones it was drawn at (the
// reader's own text, an open section: then the worker answers, from the checkpoint) or the lab runs the
// reader's edited code.
async function showAnswer(lab, asked, url) {
  let answer;
  try {
    const response = await fetch(url);
    if (!response.ok) return;
    answer = await response.json();
  } catch {
    return; // the worker answers anyway
  }
  if (lab.answer !== asked || !lab.root.isConnected || (lab.drawn && lab.drawn.at >= asked.at)) return;
  if (lab.code?.running != null) return; // the reader's edited code draws its own view: not the build's
  const params = lab.params();
  if (!Object.entries(answer.raw).every(([name, value]) => sameValue(name, params[name], value))) return;
  lab.drawAnswer(answer.result);
}

/** The part the last experiment points at, marked (after every view: a morph drops the class) and, the first
 *  time it is there, opened if a closed section holds it and scrolled to; scrolled to once more when the view
 *  that answers the experiment is drawn, if what stands above the part grew or shrank with it. */
export function markPart(lab) {
  if (!lab.look) return;
  const name = CSS.escape(lab.look.id);
  const part = lab.view.querySelector(`[id="${name}"], [data-part="${name}"]`);
  if (!part) return;
  part.classList.add(LOOKED_AT);
  if (lab.look.scroll) {
    lab.look.scroll = false;
    openAround(part, lab.experimentSaved?.opened ?? []); // a part inside a closed section: opened to be seen
    scrollTo(part);
    return;
  }
  const drawn = lab.drawn?.params;
  if (!lab.look.pairs || !drawn || !lab.look.pairs.every(([key, value]) => sameValue(key, drawn[key], value))) return;
  lab.look.pairs = null;
  const margin = parseFloat(getComputedStyle(part).scrollMarginTop) || 0;
  if (Math.abs(part.getBoundingClientRect().top - margin) > 4) scrollTo(part);
}

function scrollTo(part) {
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  part.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
}

function unmark(lab) {
  lab.look = null;
  for (const part of lab.view.querySelectorAll(`.${LOOKED_AT}`)) part.classList.remove(LOOKED_AT);
}

function undo(lab) {
  const saved = lab.experimentSaved;
  if (!saved) return;
  lab.experimentSaved = null;
  unmark(lab);
  for (const details of saved.opened) details.open = false;
  setValues(lab, [...saved.values]);
  for (const line of document.querySelectorAll(`[data-experiments="${lab.id}"] .lab-experiments-undo`)) line.hidden = true;
  if (saved.button?.isConnected) saved.button.focus(); // the «Ripristina» pressed is hidden now
}
