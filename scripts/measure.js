// Measurement of the built site, for scripts/bench.py and the browser tests only: injected before
// the page's own scripts (Playwright's add_init_script), never served to readers. It watches the
// messages between the page and Python's worker (templates/runtime/protocol.js) and says:
// - window.labsMeasure.times: when the worker started and when each phase began (download, python,
//   labs) and «ready», in performance.now() ms;
// - window.labsMeasure.unwantedAnswers: answers stopped because the reader had moved on;
// - window.labsMeasure.stoppedAnswers: answers a worker gave when «Ferma» interrupted Python, {error, at};
// - root.labTiming on each lab: where its last update's time went, in Python (little if the worker
//   had drawn the view ahead), waiting for the worker and in the messages, on the page (morph, controls).
(() => {
  const measure = (window.labsMeasure = { times: {}, unwantedAnswers: 0, stoppedAnswers: [] });
  const asked = new Map(); // message id → {lab, at}
  const drawn = new WeakMap(); // lab root → the answer it is drawing: {ahead, python, wait, answered}

  // the page's update ends when the lab's data-busy goes: the page's part ends there
  function watch(root) {
    new MutationObserver(() => {
      const answer = drawn.get(root);
      if (!answer) return;
      drawn.delete(root);
      const { answered, ...timing } = answer;
      root.labTiming = { ...timing, page: performance.now() - answered };
    }).observe(root, { attributes: true, attributeFilter: ["data-busy"] });
  }

  function answered(data) {
    const question = asked.get(data.id);
    asked.delete(data.id);
    if (data.unwanted) measure.unwantedAnswers += 1;
    const root = question && document.querySelector(`[data-lab="${question.lab}"]`);
    if (!root || data.unwanted) return;
    if (!root.labMeasured) { root.labMeasured = true; watch(root); }
    const now = performance.now();
    const python = data.took || 0;
    drawn.set(root, { ahead: Boolean(data.ahead), python, wait: now - question.at - python, answered: now });
  }

  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, ...rest) {
      super(url, ...rest);
      this.ours = String(url).endsWith("/assets/labs/worker.js"); // not the theme's search worker
      if (!this.ours) return;
      measure.times = { start: performance.now() };
      this.addEventListener("message", ({ data }) => {
        if (data.type === "phase" || data.type === "ready") measure.times[data.phase || "ready"] ??= performance.now();
        if (data.type === "result" && data.stopped) measure.stoppedAnswers.push({ error: data.error, at: performance.now() });
        if (data.type === "result") answered(data);
      });
    }

    postMessage(message, ...rest) {
      if (this.ours && message?.id && message.lab) asked.set(message.id, { lab: message.lab, at: performance.now() });
      return super.postMessage(message, ...rest);
    }
  };
})();
