// «Esercizio»: a block below a lab (sitebuild/pages.py writes it) where the reader writes a function the lab
// uses. «Verifica» runs the hidden cases in the worker (labs/code_exercises.py); a check that has not answered
// after LIMIT_MS is a runaway loop: the worker is restarted and the page goes on. Once the function passes,
// the lab draws with it («Usa la tua funzione»), and the lab says so above its view. The code and the status
// are kept in this browser (progress.js). It knows no lab.
import { python } from "./python.js";
import { progress } from "./progress.js";
import { exerciseMessage } from "../protocol.js";
import { loadListing } from "./listing.js";

const EDITOR_URL = new URL("./vendor/editor.js", import.meta.url);
export const LIMIT_MS = 5000;
const SOLUTION_AFTER = 3; // failed checks before «Soluzione» is offered without asking

export class Exercise {
  constructor(block, lab) {
    this.block = block;
    this.lab = lab;
    this.name = block.dataset.exercise;
    this.key = `${lab.id}/${this.name}`;
    this.starter = block.querySelector("[data-exercise-starter]").value;
    this.resultBox = block.querySelector("[data-exercise-result]");
    this.useBox = block.querySelector("[data-exercise-use]");
    this.editor = null;
    const saved = progress.exercise(this.key) || {};
    this.passed = saved.passed || null; // the code that passed: the lab runs on it
    this.failures = saved.failures || 0;
    this.tries = saved.tries || 0;
    this.useBox.checked = saved.use ?? true;
    this.hintsShown = 0;
    block.addEventListener("click", (event) => {
      const action = event.target.closest("[data-exercise-action]")?.dataset.exerciseAction;
      if (action) this.act(action);
    });
    this.useBox.addEventListener("change", () => {
      progress.saveExercise(this.key, { use: this.useBox.checked });
      lab.update();
    });
    if (saved.code && saved.code !== this.starter) this.showCode(saved.code);
    if (this.passed) this.sayPassed(saved.total);
    this.setUseLine();
  }

  button(name) { return this.block.querySelector(`[data-exercise-action="${name}"]`); }

  act(action) {
    if (action === "write") return this.open();
    if (action === "check") return this.check();
    if (action === "hint") return this.hint();
    if (action === "solution") return this.askSolution();
    if (action === "show-solution") return this.showSolution();
    if (action === "keep-trying") { this.block.querySelector("[data-exercise-confirm]").hidden = true; return null; }
    if (action === "reset") return this.reset();
    return null;
  }

  // the reader's text, before the editor is open too (shown in place of the starter)
  get text() { return this.editor ? this.editor.text : (this.shown ?? this.starter); }

  showCode(text) {
    this.shown = text;
    const pre = document.createElement("pre");
    pre.className = "lab-exercise-saved";
    pre.textContent = text;
    this.block.querySelector("[data-exercise-code]").replaceChildren(pre);
    this.button("write").textContent = "Riprendi il tuo codice";
  }

  async open(text = null) {
    if (!this.editor) {
      const host = this.block.querySelector("[data-exercise-editor]");
      this.say("Carico l'editor…");
      const { createEditor } = await import(EDITOR_URL.href);
      host.hidden = false;
      this.editor = createEditor(host, this.text, { run: () => this.check(),
                                                    label: `Il tuo codice per ${this.name}` });
      this.block.querySelector("[data-exercise-code]").hidden = true;
      this.button("write").hidden = true;
      this.button("check").hidden = false;
      this.button("reset").hidden = false;
      this.say("Scrivi il corpo della funzione e premi «Verifica» (o Ctrl+Invio).");
      if (progress.noticeOnce()) this.block.querySelector("[data-exercise-privacy]").hidden = false;
    }
    if (text !== null) this.editor.text = text;
    this.editor.goToLine(3);
  }

  say(text, tone = "info", remark = "") {
    const box = this.resultBox;
    box.hidden = !text;
    box.className = `lab-exercise-result is-${tone}`;
    box.replaceChildren();
    const line = document.createElement("p");
    line.textContent = text;
    box.append(line);
    if (remark) {
      const note = document.createElement("p");
      note.className = "lab-exercise-remark";
      note.textContent = remark;
      box.append(note);
    }
  }

  sayPassed(total) {
    const cases = total || Number(this.block.dataset.cases);
    this.say(`Giusto: ${cases} casi su ${cases}. Ora il laboratorio qui sopra usa la tua ${this.name}.`, "ok");
    this.block.dataset.passed = "true";
  }

  setUseLine() {
    this.block.querySelector("[data-exercise-use-line]").hidden = !this.passed;
  }

  async check() {
    if (!this.editor) await this.open();
    if (python.status !== "ready") return this.say("Python si sta ancora caricando: riprova tra un attimo.", "warn");
    if (this.checking) return null;
    this.checking = true;
    const code = this.editor.text;
    this.say("Verifico la tua funzione sui casi nascosti…");
    this.tries += 1;
    let stopped = false;
    const started = performance.now();
    const timer = setTimeout(() => { stopped = true; python.restart(); }, LIMIT_MS);
    const result = await python.call((id) => exerciseMessage(id, { lab: this.lab.id, module: this.lab.module,
                                                                  function: this.name, code }));
    clearTimeout(timer);
    this.checking = false;
    this.block.dataset.took = String(Math.round(performance.now() - started)); // read by the timing script
    if (stopped || result.stopped) {
      this.fail(code);
      return this.say(`Fermato dopo ${LIMIT_MS / 1000} secondi: la tua funzione non finiva (un ciclo senza fine?). `
        + "Python riparte da capo; il tuo codice resta qui.", "error");
    }
    const check = result.check;
    if (!check) return this.say(`Non sono riuscito a verificare: ${result.error || "errore inatteso"}.`, "error");
    if (check.ok) {
      this.passed = code;
      progress.saveExercise(this.key, { code, passed: code, tries: this.tries, total: check.total,
                                        use: this.useBox.checked });
      this.sayPassed(check.total);
      this.setUseLine();
      this.lab.update();
      return null;
    }
    this.fail(code);
    const before = this.passed && this.useBox.checked
      ? " Il laboratorio usa ancora la tua versione che aveva passato le verifiche." : "";
    const right = check.passed === 1 ? ` (1 caso su ${check.total} era giusto.)`
      : check.passed ? ` (${check.passed} casi su ${check.total} erano giusti.)` : "";
    this.say(`${check.message}${right}${before}`, "error", check.remark);
    if (check.line) this.editor.goToLine(check.line);
    if (this.failures >= SOLUTION_AFTER) this.button("solution").classList.add("md-button--primary");
    return null;
  }

  fail(code) {
    this.failures += 1;
    progress.saveExercise(this.key, { code, tries: this.tries, failures: this.failures });
  }

  hint() {
    const hidden = [...this.block.querySelectorAll("[data-exercise-hints] li[hidden]")];
    if (!hidden.length) return;
    hidden[0].hidden = false;
    if (hidden.length === 1) this.button("hint").disabled = true;
  }

  // after SOLUTION_AFTER failed checks the solution comes at once; before, the reader confirms
  askSolution() {
    if (this.failures >= SOLUTION_AFTER) return this.showSolution();
    this.block.querySelector("[data-exercise-confirm]").hidden = false;
    return null;
  }

  // the solution is the reference itself, as the code panel lists it
  async showSolution() {
    this.block.querySelector("[data-exercise-confirm]").hidden = true;
    const panel = document.querySelector(`[data-lab-code="${this.lab.id}"]`);
    let text;
    try {
      await loadListing(panel);
      text = panel.querySelector(`[data-lab-code-name="${this.name}"] pre`)?.textContent ?? "";
    } catch (error) {
      text = error.message;
    }
    const box = this.block.querySelector("[data-exercise-solution]");
    const heading = document.createElement("p");
    heading.textContent = "La funzione del sito (la stessa del pannello «Il codice Python»):";
    const pre = document.createElement("pre");
    pre.textContent = text;
    box.replaceChildren(heading, pre);
    box.hidden = false;
  }

  reset() {
    if (this.editor) this.editor.text = this.starter;
    this.shown = null;
    this.passed = null;
    this.failures = 0;
    this.tries = 0;
    progress.saveExercise(this.key, { code: this.starter, passed: null, tries: 0, failures: 0 });
    delete this.block.dataset.passed;
    this.block.querySelector("[data-exercise-solution]").hidden = true;
    this.setUseLine();
    this.say("Si ricomincia dal codice di partenza.");
    this.lab.update();
  }
}

/** The exercise blocks of this lab, each given its Exercise once. */
export function mountExercises(lab) {
  lab.exercises ??= [];
  for (const block of document.querySelectorAll(`[data-exercise-lab="${lab.id}"]`)) {
    if (!block.exercise) lab.exercises.push(block.exercise = new Exercise(block, lab));
  }
  // Python already there (instant navigation): the prerendered view is redrawn with the reader's functions
  if (python.status === "ready" && lab.root.dataset.ready === "true" && mineFor(lab)) lab.update();
}

/** {function name: code} of the exercises the lab runs on now (passed, «Usa la tua funzione» on), or null. */
export function mineFor(lab) {
  const used = (lab.exercises || []).filter((exercise) => exercise.passed && exercise.useBox.checked);
  return used.length ? Object.fromEntries(used.map((exercise) => [exercise.name, exercise.passed])) : null;
}

/** The line above the view: which functions are the reader's, or why this state fell back to the site's. */
export function showMine(lab, mine, result) {
  const line = lab.root.querySelector("[data-lab-mine]");
  if (!line) return;
  const names = Object.keys(mine || {});
  line.hidden = !names.length;
  if (!names.length) return;
  const yours = names.map((name) => `la tua ${name}`).join(" e ");
  if (result.fallback) {
    line.className = "lab-mine is-warn";
    line.textContent = `Con questi comandi ${yours} si ferma (${result.fallback}): la figura usa la funzione del sito.`;
  } else {
    line.className = "lab-mine is-ok";
    line.textContent = `Calcolato con ${yours}.`;
  }
}
