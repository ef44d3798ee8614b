// The controls' values as the page reads, writes and shows them.

const FORMATS = new Map(); // by decimals: making an Intl.NumberFormat costs a tenth of a millisecond

/** A number as the page shows it: Italian grouping and comma, as many decimals as written, a real minus. */
export function formatNumber(value) {
  const number = Number(value);
  if (!Number.isFinite(number)) return String(value);
  const digits = (String(value).split(".")[1] || "").length;
  if (!FORMATS.has(digits)) {
    // useGrouping "always": Italian leaves a four-digit number ungrouped (2000), the views write 2.000
    FORMATS.set(digits, new Intl.NumberFormat("it-IT", { minimumFractionDigits: digits, maximumFractionDigits: digits,
                                                          useGrouping: "always" }));
  }
  return FORMATS.get(digits).format(number).replace("-", "−");
}

// A property written only when it changes: the same value written again
// still makes the browser restyle and lay out what it touches.
export function put(element, key, value) {
  if (element && element[key] !== value) element[key] = value;
}

export function readInput(input) {
  return input.type === "checkbox" ? (input.checked ? "1" : "0") : input.value;
}

// (a value left as it is costs nothing: a 4,000-character corpus is not written back at every step)
// A range narrowed by the lab's follow(state) belongs to the state before: a setter that sets several
// controls at once («Aggiungi il token previsto»: one more token, and the chosen position at the new end) may
// go past it, and the browser would clamp the value silently. The declared range (data-range) takes it;
// the next follow narrows the range again.
export function writeInput(input, value) {
  if (input.type === "checkbox") {
    input.checked = value === true || value === "1" || value === "true";
    return;
  }
  if (input.dataset.range && Number.isFinite(Number(value))) {
    const [min, max] = input.dataset.range.split(" ");
    if (Number(value) > Number(input.max)) input.max = max;
    if (Number(value) < Number(input.min)) input.min = min;
  }
  if (input.value !== String(value)) input.value = String(value);
}

// Follow(keep_end=True): a control that stood at the end of its range (as the last view narrowed it) goes to
// the end of the longer one (1.4: the chosen token is still the last as the sentence grows). True if one moved.
export function keepEnds(inputs, controls) {
  let moved = false;
  for (const input of inputs) {
    const f = controls[input.name];
    if (!f?.keep_end || f.max == null || Number(input.value) !== Number(input.max)) continue;
    if (Number(f.max) > Number(input.max)) { writeInput(input, f.max); moved = true; }
  }
  return moved;
}
