// The line above a lab while Python loads (a progress bar, the phase), fails («Riprova») or restarts.
import { python } from "./python.js";
import { formatNumber } from "./inputs.js";
import { rehearse } from "./morph.js";
import { mineFor } from "./exercises.js";

/** The lab's status line, controls and first view as Python's status says. */
export function statusChanged(lab) {
  const { root } = lab;
  const status = root.querySelector("[data-lab-status]");
  const bar = root.querySelector("[data-lab-progress]");
  const message = root.querySelector("[data-lab-message]");
  const retry = root.querySelector("[data-lab-retry]");
  const total = Number(root.dataset.bytes) || 1;
  if (python.status === "loading") {
    status.hidden = false;
    retry.hidden = true;
    bar.hidden = false;
    // the bar counts bytes while they arrive; starting Python and the labs has no size: the bar stays full and
    // the line says what is going on. Never an indeterminate bar: that is an animation the browser paints on
    // the page's main thread the whole time Python starts, and the start waits on that thread (scripts/bench_limits.py)
    bar.value = python.phase === "download" ? Math.min(1, python.loaded / total) : 1;
    const doing = {
      // a number never wraps away from its unit (the layout check's rule): no-break spaces
      download: `download, ${Math.round(100 * bar.value)}\u00a0% di ${formatNumber((total / 1e6).toFixed(1))}\u00a0MB`,
      python: "avvio di Python",
      labs: "caricamento dei laboratori",
    }[python.phase];
    message.textContent = `Python si sta caricando nel browser (${doing}): intanto vedi i numeri calcolati in anticipo.`;
  } else if (python.status === "failed") {
    status.hidden = false;
    bar.hidden = true;
    retry.hidden = false;
    message.textContent = `Non è stato possibile avviare Python nel browser (${python.error}). I numeri mostrati restano quelli calcolati in anticipo, con i valori iniziali.`;
  } else if (python.status === "ready" && root.dataset.ready !== "true") {
    rehearse(lab.view);
    if (lab.timeline) rehearse(lab.timeline);
    status.hidden = true;
    lab.fieldset.disabled = false;
    lab.showOutputs();
    root.dataset.ready = "true";
    if (lab.fromUrl) lab.update(lab.fromUrl);
    // a fold opened while Python loaded, or the reader's passed exercises: the prerendered view is not theirs
    else if (lab.restarted || mineFor(lab) || lab.view.querySelector("details[data-fold][open]")) lab.update();
  }
  if (python.status === "loading" && root.dataset.ready === "true") {
    // a new worker after «Ferma»: the controls wait for it, then the view is drawn again
    root.dataset.ready = "false";
    lab.fieldset.disabled = true;
    lab.restarted = true;
  }
}
