// «I tuoi esercizi»: the page that lists every exercise and question of the site (built by sitebuild/pages.py)
// with the reader's status read from progress.js; export, import and «Cancella i miei dati».
import { progress } from "./progress.js";

const STATUS = { passed: "risolto", tried: "provato", new: "da fare" };

function fill(page) {
  const data = progress.read();
  let solved = 0;
  const rows = page.querySelectorAll("[data-progress-exercise]");
  for (const row of rows) {
    const entry = data.exercises[row.dataset.progressExercise];
    const status = entry?.passed ? "passed" : entry?.tries ? "tried" : "new";
    if (status === "passed") solved += 1;
    const tries = entry?.tries ? ` (${entry.tries} ${entry.tries === 1 ? "verifica" : "verifiche"})` : "";
    row.querySelector("[data-progress-status]").textContent = STATUS[status] + tries;
    row.dataset.status = status;
  }
  for (const row of page.querySelectorAll("[data-progress-question]")) {
    const entry = data.questions[row.dataset.progressQuestion];
    const status = !entry ? "da fare" : entry.right ? "risposta giusta" : "risposta sbagliata";
    row.querySelector("[data-progress-status]").textContent = status;
    row.dataset.status = entry ? (entry.right ? "passed" : "tried") : "new";
  }
  page.querySelector("[data-progress-summary]").textContent = `Esercizi risolti: ${solved} su ${rows.length}.`;
}

function say(page, text) {
  const line = page.querySelector("[data-progress-message]");
  line.hidden = !text;
  line.textContent = text;
}

export function mountProgressPage() {
  const page = document.querySelector("[data-progress-page]");
  if (!page || page.progressMounted) return;
  page.progressMounted = true;
  fill(page);
  page.addEventListener("click", (event) => {
    const action = event.target.closest("[data-progress]")?.dataset.progress;
    if (action === "export") {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([progress.exported()], { type: "application/json" }));
      link.download = "laboratori-llm-progressi.json";
      link.click();
      URL.revokeObjectURL(link.href);
      say(page, `Scaricato: ${link.download}.`);
    } else if (action === "clear") {
      const button = event.target.closest("[data-progress]");
      if (button.dataset.confirm !== "true") {
        button.dataset.confirm = "true";
        button.textContent = "Sicuro? Premi di nuovo per cancellare tutto";
        return;
      }
      progress.clear();
      button.dataset.confirm = "false";
      button.textContent = "Cancella i miei dati";
      fill(page);
      say(page, "Cancellato: il codice e i risultati di tutti gli esercizi non sono più in questo browser.");
    }
  });
  page.querySelector("[data-progress=import]").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    const problem = progress.imported(await file.text());
    event.target.value = "";
    fill(page);
    say(page, problem || `Caricato: ${file.name}.`);
  });
}
