// The reader's progress, kept in this browser only (localStorage): each exercise's code and status, keyed by
// lab id and function name (not by a build's file names, so it survives a new build), and each «Prevedi»
// answered. Nothing here leaves the browser; export and import move it as one JSON file.
const KEY = "laboratori-llm:progressi";
const VERSION = 1;

function empty() { return { version: VERSION, exercises: {}, questions: {}, noticed: false }; }

function valid(data) {
  return data && typeof data === "object" && data.version === VERSION
    && data.exercises && typeof data.exercises === "object" && data.questions && typeof data.questions === "object";
}

export const progress = {
  read() {
    try {
      const data = JSON.parse(localStorage.getItem(KEY));
      return valid(data) ? data : empty();
    } catch { return empty(); } // storage blocked or spoiled: start afresh, the page still works
  },

  write(data) {
    try { localStorage.setItem(KEY, JSON.stringify(data)); return true; } catch { return false; }
  },

  exercise(key) { return this.read().exercises[key] || null; },

  saveExercise(key, patch) {
    const data = this.read();
    data.exercises[key] = { ...data.exercises[key], ...patch, updated: new Date().toISOString() };
    return this.write(data);
  },

  question(key) { return this.read().questions[key] || null; },

  saveQuestion(key, patch) {
    const data = this.read();
    data.questions[key] = { ...data.questions[key], ...patch, updated: new Date().toISOString() };
    return this.write(data);
  },

  // whether the page has said once that progress stays in the browser (then it says it no more)
  noticeOnce() {
    const data = this.read();
    if (data.noticed) return false;
    data.noticed = true;
    this.write(data);
    return true;
  },

  exported() { return JSON.stringify(this.read(), null, 2); },

  // a file of progress read back: its exercises and questions join what is here (the file's win); "" or an
  // Italian line saying why it was refused
  imported(text) {
    let data;
    try { data = JSON.parse(text); } catch { return "Il file non è un JSON leggibile."; }
    if (!valid(data)) return "Il file non è un file di progressi di questo sito (manca «version»: 1, o le sue parti).";
    const here = this.read();
    const merged = { ...here, exercises: { ...here.exercises, ...data.exercises },
                     questions: { ...here.questions, ...data.questions } };
    return this.write(merged) ? "" : "Il browser non lascia salvare i dati di questo sito.";
  },

  clear() { try { localStorage.removeItem(KEY); } catch { /* nothing kept */ } },
};
