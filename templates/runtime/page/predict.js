// «Prevedi»: a question before a «Prova» (labs/kit/exercises.py writes it in the experiment's item). The reader
// picks, «Rispondi e prova» shows the correction and runs the experiment, so the figure answers too; «Rispondi di
// nuovo» asks again. The «Prova» button stays, for a reader who would rather not guess. Answers are kept in
// this browser (progress.js). It knows no lab.
import { progress } from "./progress.js";

function chosen(box) {
  return [...box.querySelectorAll("input:checked")].map((input) => Number(input.value));
}

function verdict(box, picked) {
  const right = box.dataset.right.split(",").map(Number);
  const correct = picked.length === right.length && picked.every((i) => right.includes(i));
  const options = [...box.querySelectorAll(".lab-predict-options li")];
  options.forEach((item, i) => {
    item.classList.toggle("is-right", right.includes(i));
    item.classList.toggle("is-wrong", picked.includes(i) && !right.includes(i));
  });
  const names = right.map((i) => `«${options[i].textContent.trim()}»`).join(" e ");
  return correct ? "Giusto!" : `Non proprio: ${right.length > 1 ? "le risposte giuste sono" : "la risposta giusta è"} ${names}.`;
}

function answer(box, picked, run) {
  box.querySelector("[data-predict-verdict]").textContent = verdict(box, picked);
  box.querySelector("[data-predict-result]").hidden = false;
  for (const input of box.querySelectorAll("input")) input.disabled = true;
  box.querySelector("[data-predict-check]").hidden = true;
  box.querySelector("[data-predict-again]").hidden = false;
  const prova = box.parentElement.querySelector("[data-experiment]");
  reveal(box);
  if (run && prova) prova.click();
}

// the experiment's sentence tells the answer: shown once the reader has guessed, or has pressed «Prova» instead
function reveal(box) {
  const sentence = box.parentElement.querySelector("[data-predict-sentence]");
  if (sentence) sentence.hidden = false;
}

function again(box) {
  for (const item of box.querySelectorAll("li")) item.classList.remove("is-right", "is-wrong");
  for (const input of box.querySelectorAll("input")) { input.disabled = false; input.checked = false; }
  box.querySelector("[data-predict-result]").hidden = true;
  box.querySelector("[data-predict-check]").hidden = false;
  box.querySelector("[data-predict-check]").disabled = true;
  box.querySelector("[data-predict-again]").hidden = true;
  box.querySelector("input")?.focus();
}

/** The «Prevedi» questions of the page, listened to once; one answered before shows its correction. */
export function mountQuestions() {
  for (const box of document.querySelectorAll("[data-predict]")) {
    if (box.predictMounted) continue;
    box.predictMounted = true;
    const key = box.dataset.predict;
    const saved = progress.question(key);
    if (saved?.picked) {
      for (const input of box.querySelectorAll("input")) input.checked = saved.picked.includes(Number(input.value));
      answer(box, saved.picked, false);
    }
    box.parentElement.querySelector("[data-experiment]")?.addEventListener("click", () => reveal(box));
    box.addEventListener("change", () => {
      box.querySelector("[data-predict-check]").disabled = !chosen(box).length;
    });
    box.addEventListener("click", (event) => {
      if (event.target.closest("[data-predict-check]")) {
        const picked = chosen(box);
        if (!picked.length) return;
        answer(box, picked, true);
        const right = box.dataset.right.split(",").map(Number);
        progress.saveQuestion(key, { picked, right: picked.length === right.length && picked.every((i) => right.includes(i)) });
      } else if (event.target.closest("[data-predict-again]")) again(box);
    });
  }
}
