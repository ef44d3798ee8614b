// Lab state lives in the URL's query, so a link reproduces what the reader sees. The pure part
// (reading and writing a query) is tested in node (tests/js/url.test.js); the writing waits for a pause.

export const URL_TEXT_LIMIT = 2000; // characters: a longer text is not written into the URL
export const FOLDS_PARAM = "sezioni"; // the folds a reader has open (no control may take these names: kit.controls.PAGE_NAMES)
// «Mostra i numeri» of a big matrix (kit.matrix) open: the reader's choice of numbers over the picture, kept for every
// matrix of the page (controller.js) and so in its link; the picture, the kit's default, is said by no parameter
export const NUMBERS_PARAM = "numeri";
// The URL is written when the reader pauses, not at every change: history.replaceState
// is not free and now and then slow (a slider dragged writes it once).
const URL_PAUSE = 300; // ms

/** {name: value} of the controls named that the query sets, as written ("0,5", "abc"), or null if none. */
export function paramsFromQuery(search, names) {
  const query = new URLSearchParams(search);
  const raw = {};
  for (const name of names) {
    if (query.has(name)) raw[name] = query.get(name);
  }
  return Object.keys(raw).length ? raw : null;
}

/** Whether the query asks for the matrices' numbers (true) or says nothing of them (undefined: the picture). */
export function numbersFromQuery(search) {
  return new URLSearchParams(search).get(NUMBERS_PARAM) === "1" ? true : undefined;
}

/** The query that says these controls ([{name, value, fallback}]), open folds and the matrices' numbers, the rest
 *  of search kept: a control at its default, or a text too long for a link, is left out. */
export function queryFor(search, controls, folds, numbers = false) {
  const query = new URLSearchParams(search);
  for (const { name, value, fallback } of controls) {
    if (value === fallback || value.length > URL_TEXT_LIMIT) query.delete(name);
    else query.set(name, value);
  }
  if (folds) query.set(FOLDS_PARAM, folds);
  else query.delete(FOLDS_PARAM);
  if (numbers) query.set(NUMBERS_PARAM, "1");
  else query.delete(NUMBERS_PARAM);
  const text = query.toString();
  return text ? `?${text}` : "";
}

let waiting = null; // the lab whose URL is still to be written

/** Writes the URL of the lab that waits for it, now. */
export function writeWaitingUrl() {
  const lab = waiting;
  waiting = null;
  if (lab) { clearTimeout(lab.urlTimer); lab.writeUrl(); }
}

/** The lab's URL written at the reader's next pause (another lab's, waiting, at once). */
export function writeUrlSoon(lab) {
  if (waiting && waiting !== lab) writeWaitingUrl();
  clearTimeout(lab.urlTimer);
  waiting = lab;
  lab.urlTimer = setTimeout(writeWaitingUrl, URL_PAUSE);
}

/** Before a link is followed or the page left, the URL says what the reader last saw. */
export function writeUrlOnLeaving() {
  document.addEventListener("click", (event) => { if (event.target.closest?.("a[href]")) writeWaitingUrl(); }, true);
  addEventListener("pagehide", writeWaitingUrl);
}
