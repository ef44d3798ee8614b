// Opened from disk (file://), the browser runs no module script: runtime.js
// and Python never start. This classic script says so where the lab waits.
if (location.protocol === "file:") {
  for (const status of document.querySelectorAll("[data-lab-status]")) {
    status.querySelector("[data-lab-progress]").hidden = true;
    status.querySelector("[data-lab-message]").textContent =
      "Il sito va servito da un server web: aperto come file, il browser non avvia Python. " +
      "Dalla cartella del progetto esegui «make serve» (oppure servi la cartella site/ con un " +
      "qualsiasi server statico, per esempio «python3 -m http.server -d site») e apri l'indirizzo " +
      "che ti indica. Intanto vedi i numeri calcolati in anticipo, con i valori iniziali.";
  }
}
