// Live reload for `make dev`, served by scripts/serve.py --dev and never written into site/.
// The server tells this page, over Server-Sent Events (same origin: the CSP's connect-src 'self'):
// - «hello» with the id of the last good build: a page served before a rebuild it missed reloads;
// - «reload» after a good rebuild: location.reload() keeps the URL, so the lab keeps its parameters;
// - «failed» with the Italian line (file and line) of a rebuild that failed: drawn over the page,
//   which stays the last good one, until the next good save reloads it.
(() => {
  const script = document.currentScript;
  const events = new EventSource(new URL("events", script.src));
  const build = script.dataset.build; // the build this page was served from

  events.addEventListener("hello", (event) => {
    const message = JSON.parse(event.data);
    if (message.build !== build) location.reload();
    else if (message.failed) show(message.failed);
  });
  events.addEventListener("reload", () => location.reload());
  events.addEventListener("failed", (event) => show(JSON.parse(event.data).line));

  // Styles through the CSSOM: the CSP (style-src 'self') refuses style attributes in markup, not these.
  function show(line) {
    let box = document.getElementById("labs-dev-error");
    if (!box) {
      box = document.createElement("div");
      box.id = "labs-dev-error";
      box.setAttribute("role", "alert");
      Object.assign(box.style, {
        position: "fixed", left: "1rem", right: "1rem", bottom: "1rem", zIndex: "10000",
        padding: "1rem 1.2rem", borderRadius: "6px", background: "#3b0d0d", color: "#fff",
        font: "0.9rem/1.5 ui-monospace, monospace", boxShadow: "0 4px 24px rgba(0,0,0,.4)",
        whiteSpace: "pre-wrap", maxHeight: "50vh", overflow: "auto",
      });
      const title = document.createElement("strong");
      title.textContent = "Il build non è riuscito: la pagina è quella dell'ultimo build buono.";
      const text = document.createElement("p");
      text.dataset.labsDevLine = "";
      Object.assign(text.style, { margin: "0.5rem 0" });
      const close = document.createElement("button");
      close.type = "button";
      close.textContent = "Chiudi";
      Object.assign(close.style, { color: "inherit", background: "transparent", border: "1px solid", padding: "0 .6rem" });
      close.addEventListener("click", () => box.remove());
      box.append(title, text, close);
      document.body.append(box);
    }
    box.querySelector("[data-labs-dev-line]").textContent = line; // text, never markup
  }
})();
