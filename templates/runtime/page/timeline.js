// A stepped lab's timeline: ⟲ ← → ▶, the scrubber, Play, the keys, and a view that keeps its height.
import { python } from "./python.js";
import { put } from "./inputs.js";

export const STEP_BUTTON = "button[data-step]"; // the timeline's ⟲ ← → ▶ (templates/controls.html.j2)
const TYPING = "textarea, select, input:not([type=range]):not([type=checkbox])";

/** The step control of a lab (the input with a data-max), or undefined. */
export function stepInput(inputs) {
  return inputs.find((input) => input.dataset.max !== undefined);
}

/** ⟲ (reset), ← (-1), → (+1) or ▶ (play) on a lab. */
export function step(lab, action) {
  if (python.status !== "ready") return;
  if (action === "play") return lab.playing ? stopPlay(lab) : play(lab);
  stopPlay(lab);
  const input = lab.stepInput;
  const max = Number(input.max);
  const now = Number(input.value);
  const next = action === "reset" ? 0 : Math.min(max, Math.max(0, now + Number(action)));
  if (next === now && action !== "reset") return;
  input.value = String(next);
  lab.showOutputs();
  lab.update();
}

// Play: after each view is drawn, the next stride of steps on the next
// frame. The fastest speed covers any lab in about a hundred frames.
function play(lab) {
  const input = lab.stepInput;
  const button = lab.root.querySelector(`${STEP_BUTTON}[data-step="play"]`);
  if (Number(input.value) >= Number(input.max)) input.value = "0";
  lab.playing = true;
  button.setAttribute("aria-pressed", "true");
  button.textContent = "⏸ Pausa";
  const tick = () => {
    if (!lab.playing) return;
    const max = Number(input.max); // where the machine stopped, once a view says so (draw)
    if (!lab.root.isConnected || Number(input.value) >= max) return stopPlay(lab);
    if (lab.busy) return requestAnimationFrame(tick);
    const speed = lab.root.querySelector("[data-play-speed]").value;
    const stride = speed === "max" ? Math.max(1, Math.ceil(max / 100)) : Number(speed);
    input.value = String(Math.min(max, Number(input.value) + stride));
    lab.showOutputs();
    lab.update().then(() => requestAnimationFrame(tick));
  };
  tick();
}

/** Play stops (the URL, not written while it ran, says where). */
export function stopPlay(lab) {
  if (!lab.playing) return;
  lab.playing = false;
  const button = lab.root.querySelector(`${STEP_BUTTON}[data-step="play"]`);
  button.setAttribute("aria-pressed", "false");
  button.textContent = "▶ Play";
  lab.writeUrl();
}

/** The step buttons that would go past an end, disabled; the bar's copy of the step counter. */
export function showSteps(lab) {
  const input = lab.stepInput;
  if (!input) return;
  const counter = lab.timeline?.querySelector("[data-step-counter]");
  put(lab.root.querySelector("[data-bar-counter]"), "textContent", counter?.textContent ?? "");
  const at = Number(input.value);
  const max = Number(input.max);
  for (const button of lab.root.querySelectorAll(STEP_BUTTON)) {
    const action = button.dataset.step;
    put(button, "disabled", (action === "-1" && at <= 0) || (action === "+1" && at >= max));
  }
}

/** The timeline's keys: ←/→ one step, space plays; not while typing, on another control or on a figure that took the key. */
export function timelineKey(lab, event) {
  if (!lab.stepInput || python.status !== "ready" || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.defaultPrevented) return; // a key a figure of the view has taken (a heat picture's arrows)
  const onOtherControl = event.target.matches(TYPING) ||
    (event.target.matches("input[type=range]") && event.target !== lab.stepInput);
  if (onOtherControl) return;
  if (event.target !== lab.stepInput && (event.key === "ArrowRight" || event.key === "ArrowLeft")) {
    event.preventDefault();
    step(lab, event.key === "ArrowRight" ? "+1" : "-1");
  } else if (event.key === " " && !event.target.matches("button, summary, a")) {
    event.preventDefault();
    step(lab, "play");
  }
}

// A stepped view keeps the tallest height it has had: the page does not jump
// between steps. Watched after the browser's own layout, so a step adds no
// layout of its own (and none when the view is no taller than before).
// At another width (a window narrowed and widened again, a phone turned,
// printing) the view's height is another: the kept one is let go, on the
// next frame, and the view's own height is the tallest from there.
// Kept only as far as the screen's bottom edge: past it, the height kept
// moves nothing the reader sees, and left there it opens an empty gap under a
// short step (A.6 on a phone: 1,500 px of nothing after the tall «Q, K, V»,
// between the view and the controls under it). trim(), after each view drawn,
// lets the height below the screen go: what is on screen (the view's top, a
// bar stuck at the bottom) stays where it was.
export function keepTallest(view) {
  let width;
  let tallest = 0;
  let asked = false;
  new ResizeObserver(([entry]) => {
    const { inlineSize, blockSize: height } = entry.borderBoxSize[0];
    if (width !== undefined && Math.abs(inlineSize - width) > 1) {
      width = inlineSize;
      tallest = Infinity; // nothing kept until the view has its own height at this width
      requestAnimationFrame(() => { tallest = 0; view.style.minHeight = ""; });
      return;
    }
    width = inlineSize;
    if (height <= tallest) return;
    tallest = height;
    view.style.minHeight = `${height}px`;
  }).observe(view);
  const trim = () => {
    asked = false;
    if (!view.style.minHeight || !Number.isFinite(tallest)) return;
    const box = view.getBoundingClientRect();
    const floor = Math.max(0, Math.ceil(innerHeight - box.top)); // the view down to the screen's bottom edge
    if (box.bottom <= innerHeight || tallest <= floor) return; // its end in sight, or nothing kept below the screen
    tallest = floor; // a view taller than that on its own is kept at its own height by the observer
    view.style.minHeight = `${floor}px`;
  };
  return { trim: () => { if (!asked) { asked = true; requestAnimationFrame(trim); } } };
}
