// One message at a time, in order (a lab's wheel may have to be put in first), and what is done
// between them: the view drawn ahead, the other labs imported while the reader is idle, and the
// answers nobody waits for any more. Pure of Pyodide: tests/js/scheduler.test.js runs it in node.

export const AFTER_A_JUMP_MS = 30;
export const IDLE_MS = 800;

export class Queue {
  constructor() {
    this.tail = Promise.resolve();
    this.waiting = 0; // messages from the page not answered yet
    this.asking = null; // the id of the message being answered
    this.answered = 0; // messages answered: a wait after a jump is void once another one is
  }

  /** Runs task after every task queued before it. */
  queued(task) {
    return (this.tail = this.tail.then(task));
  }

  /** A message from the page: counted as waiting until its turn comes. */
  fromPage(task) {
    this.waiting += 1;
    return this.queued(async () => {
      this.waiting -= 1;
      await task();
    });
  }

  /** Something drawn for nobody yet (a view ahead): only when no message from the page waits. */
  whenFree(task) {
    return this.queued(() => (this.waiting ? undefined : task()));
  }
}

// The view a stepped lab is most likely to ask for next, drawn while the page
// shows the last one (the page's morph and layout run on the other core):
// after «Avanti» or «Indietro» the next step the same way, during Play (the
// same stride twice) the next stride, after any other change or jump the
// step after it. Python keeps it (labs.render_ahead) and answers from it
// when it is asked; none is drawn while a message from the page waits.
// After a jump it waits AFTER_A_JUMP_MS first: a reader dragging the scrubber
// sends the next jump at once, and on 3.2 drawing the step after each one
// (a real training step) would stand in front of it; one who stops and
// presses «Avanti» is far slower than that.

/** {last, next, regular}: the step to draw ahead (null past the ends) after the page asked for step `at`
 *  of `data` (a render message with its step {name, max}); last is what the next call needs of this one. */
export function planAhead(last, data, at) {
  const { name, max } = data.step;
  const rest = JSON.stringify([data.lab, { ...data.params, [name]: null }]);
  const moved = last && last.lab === data.lab && last.rest === rest ? at - last.at : 0;
  const regular = Math.abs(moved) === 1 || (moved !== 0 && moved === last.stride);
  const next = at + (regular ? moved : 1);
  return { last: { lab: data.lab, rest, at, stride: moved }, next: next < 0 || next > max ? null : next, regular };
}

// Answers nobody waits for. A message is answered to its end before the next
// is read, and a retraining can take seconds (3.2 at step 300 with another
// learning rate: 300 steps): a reader who moves the slider again would wait
// for it before theirs even starts. Where the page is cross-origin isolated
// (the site's _headers), page and worker share a word of memory: the page
// writes there the id of an answer it no longer wants, and the step machine
// (labs.kit.stepping.on_unwanted) reads it after every step of a replay and
// stops, keeping the steps made. Elsewhere every answer runs to its end.

/** Whether the answer being made is one the page no longer wants (word: [0] the id it wrote). */
export function isUnwanted(asking, word) {
  return asking !== null && word !== null && Atomics.load(word, 0) === asking;
}
