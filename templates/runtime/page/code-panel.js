// «Il codice Python»: the panel below a lab. «Modifica» loads the editor
// (CodeMirror, bundled by the build) only when asked; «Esegui» runs the
// edited functions in the worker, in a module of their own; the controls
// keep working on the edited code until «Ripristina».
import { python } from "./python.js";
import { writeInput } from "./inputs.js";
import { FOLDS_PARAM } from "./url.js";
import { loadListing } from "./listing.js";

const EDITOR_URL = new URL("./vendor/editor.js", import.meta.url);
const SHARE_LIMIT = 6000; // characters of compressed code in a link

async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

async function unpack(data) {
  const binary = atob(data.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

export class CodePanel {
  constructor(panel, controller) {
    this.panel = panel;
    this.controller = controller;
    this.original = null; // the listing's text, once fetched (listing.js)
    this.status = panel.querySelector("[data-lab-code-status]");
    this.editor = null;
    this.running = null; // the edited text the lab runs on, or null for the original
    this.slow = null;
    this.expected = panel.querySelector("[data-lab-code-expected]");
    this.saved = null; // the controls a suggested edit changed, as they were before it
    panel.addEventListener("click", (event) => {
      const button = event.target.closest("[data-code]");
      if (button?.dataset.code === "try") this.tryEdit(button.closest("[data-edit]"));
      else if (button) this[button.dataset.code]();
    });
    panel.addEventListener("toggle", () => { if (panel.open) this.source(); });
    const shared = new URLSearchParams(location.hash.slice(1)).get("codice");
    if (shared) this.openShared(shared);
  }

  button(name) { return this.panel.querySelector(`[data-code="${name}"]`); }

  say(text, tone = "info") {
    this.status.hidden = !text;
    this.status.className = `lab-code-status is-${tone}`;
    this.status.textContent = text;
  }

  // the listing's text, fetched the first time; null (and the reason said) if it cannot be
  async source() {
    try {
      this.original ??= await loadListing(this.panel);
    } catch (error) {
      this.say(error.message, "error");
    }
    return this.original;
  }

  async edit(text = null) {
    if (!this.editor) {
      this.say("Carico l'editor…");
      const [original, { createEditor }] = await Promise.all([this.source(), import(EDITOR_URL.href)]);
      if (original === null) return;
      if (!this.editor) { // else a second «Modifica» made it meanwhile
        const host = this.panel.querySelector("[data-lab-code-editor]");
        host.hidden = false;
        this.editor = createEditor(host, original, { run: () => this.run(), label: "Il codice Python del laboratorio" });
        this.say("Cambia il codice e premi «Esegui» (o Ctrl+Invio).");
      }
    }
    if (text !== null) this.editor.text = text;
    this.panel.open = true;
    this.panel.querySelector("[data-lab-code-listing]").hidden = true;
    this.button("edit").hidden = true;
    for (const name of ["run", "reset", "stop", "share", "download"]) this.button(name).hidden = false;
    this.panel.dataset.editing = "true";
  }

  run() {
    if (!this.editor || python.status !== "ready") return;
    this.running = this.editor.text;
    this.say("Eseguo il codice modificato…");
    clearTimeout(this.slow);
    this.slow = setTimeout(() => this.say("Il codice sta ancora girando: se non finisce, premi «Ferma».", "warn"), 1500);
    this.controller.update();
  }

  succeeded() {
    if (this.running === null) return;
    clearTimeout(this.slow);
    this.say(this.running === this.original ? "Il laboratorio usa il codice originale."
      : "Il laboratorio ora usa il tuo codice: muovi i comandi per provarlo.", "ok");
    this.panel.dataset.edited = this.running === this.original ? "false" : "true";
  }

  failed(result) {
    clearTimeout(this.slow);
    if (result.stopped) return this.say("Calcolo fermato: Python riparte con il codice originale.", "warn");
    this.say(`${result.error} La vista mostra l'ultimo risultato buono.`, "error");
    if (result.line && this.editor) this.editor.goToLine(result.line);
  }

  // «Prova: …»: the editor opens with the lab's suggested edit made, the controls where its effect
  // shows, the edited code running and the changed line in sight; «Ripristina» undoes all of it.
  async tryEdit(item) {
    const original = await this.source();
    if (original === null) return;
    const old = item.querySelector("[data-edit-old]").value;
    const at = original.indexOf(old);
    if (at < 0) return this.say("Questa modifica non si applica più al codice della pagina: ricaricala.", "error");
    await this.edit(original.slice(0, at) + item.querySelector("[data-edit-new]").value + original.slice(at + old.length));
    if (!this.editor) return;
    const pairs = item.dataset.editParams.split(";").filter(Boolean).map((pair) => pair.split("="));
    const before = this.controller.params();
    this.saved ??= [];
    for (const [name, value] of pairs) {
      if (name === FOLDS_PARAM) { // the sections where the effect shows, opened (and left open)
        this.controller.openFolds(value);
        continue;
      }
      const input = this.controller.inputs.find((i) => i.name === name);
      if (!input) continue;
      if (!this.saved.some(([saved]) => saved === name)) this.saved.push([name, before[name]]);
      writeInput(input, value);
    }
    this.controller.showOutputs();
    const title = item.querySelector("[data-code=try]").textContent;
    this.expected.textContent = `${title}. Che cosa aspettarsi: ${item.querySelector(".lab-code-expect").textContent}`;
    this.expected.hidden = false;
    if (python.status === "ready") this.run();
    else this.say("La modifica è nell'editor: premi «Esegui» quando Python è pronto.", "warn");
    this.editor.goToLine(Number(item.dataset.editLine));
    this.panel.querySelector("[data-lab-code-editor]").scrollIntoView({ block: "center" });
  }

  restoreControls() {
    if (!this.saved) return;
    for (const [name, value] of this.saved) {
      const input = this.controller.inputs.find((i) => i.name === name);
      if (input) writeInput(input, value);
    }
    this.saved = null;
    this.expected.hidden = true;
    this.controller.showOutputs();
  }

  reset() {
    this.restoreControls();
    if (this.editor) this.editor.text = this.original;
    this.running = null;
    this.panel.dataset.edited = "false";
    document.querySelector("[data-code-banner]")?.remove();
    if (location.hash.includes("codice=")) history.replaceState(history.state, "", location.pathname + location.search);
    this.say("Codice originale ripristinato.", "ok");
    this.controller.update();
  }

  stop() {
    clearTimeout(this.slow);
    this.running = null;
    this.panel.dataset.edited = "false";
    python.restart();
    this.say("Calcolo fermato: Python riparte con il codice originale (il tuo resta nell'editor).", "warn");
  }

  async share() {
    const data = await pack(this.editor.text);
    if (data.length > SHARE_LIMIT) {
      return this.say(`Il codice è troppo lungo per un link (${data.length} caratteri compressi, al massimo ${SHARE_LIMIT}): scarica il .py.`, "warn");
    }
    const url = `${location.origin}${location.pathname}${location.search}#codice=${data}`;
    history.replaceState(history.state, "", url);
    try { await navigator.clipboard.writeText(url); this.say("Link copiato: chi lo apre vede il tuo codice e decide se eseguirlo.", "ok"); }
    catch { this.say("Il link è nella barra degli indirizzi: copialo da lì.", "ok"); }
  }

  async download() {
    const result = await python.source({ lab: this.controller.id, module: this.controller.module, code: this.editor.text });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([result.source], { type: "text/x-python" }));
    link.download = `${this.controller.id.replaceAll("-", "_")}_modificato.py`;
    link.click();
    URL.revokeObjectURL(link.href);
    this.say(`Scaricato: ${link.download}. Si esegue con «python -m labs run --file ${link.download}».`, "ok");
  }

  async openShared(data) {
    let text;
    try { text = await unpack(data); }
    catch { return this.say("Il codice nel link è rovinato: resta il codice originale.", "error"); }
    const banner = document.createElement("div");
    banner.className = "lab-code-banner";
    banner.dataset.codeBanner = "";
    banner.setAttribute("role", "status");
    banner.innerHTML = `<strong>Questa pagina usa codice modificato</strong> da un link: è nell'editor qui sotto e gira solo se premi «Esegui». <button type="button" class="md-button">Torna al codice originale</button>`;
    banner.querySelector("button").addEventListener("click", () => this.reset());
    this.controller.root.before(banner);
    await this.edit(text);
  }
}

