// «Mostra i numeri», a big matrix's switch between its picture and its numbers (kit.matrix): each one a view
// brings opens or stays closed as the reader left the last one (or as a shared link says, ?numeri=1).
import { put } from "./inputs.js";

export const NUMBERS = "details.lab-mx-numbers";

/** The switches in view now, to tell the new ones after a morph. */
export function switchesIn(view) {
  return new Set(view.querySelectorAll(NUMBERS));
}

/** Every switch in view but those of `kept` (already there) put open or closed; `open` undefined: as drawn. */
export function putNumbers(view, open, kept = new Set()) {
  if (open === undefined) return;
  for (const details of view.querySelectorAll(NUMBERS)) if (!kept.has(details)) put(details, "open", open);
}
