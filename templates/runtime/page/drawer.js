// On a screen narrower than the column layout (labs.css) the lab's controls are a drawer stuck to the bottom of
// the screen while the lab is in view: the controls the lab marks primary and the step buttons, and above them the
// others, scrolled inside a box of at most a third of the screen, so that a control and the part of the view it
// changes are on screen together. A button folds the others away (the bar stays) and unfolds them. It knows no lab.
const FOLDED = "is-folded";
const WORDS = { open: "Nascondi gli altri comandi", folded: "Mostra tutti i comandi" };

/** The fold button of the lab's drawer, made once (none for a lab whose controls are all in the bar). */
export function mountDrawer(root) {
  const form = root.querySelector("[data-lab-controls]");
  const more = form?.querySelector(".lab-more");
  if (!form || !more || !more.children.length || form.querySelector("[data-lab-drawer]")) return;
  more.id ||= `${root.dataset.lab}-altri-comandi`;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "lab-drawer-toggle";
  button.dataset.labDrawer = "";
  button.setAttribute("aria-controls", more.id);
  const show = (folded) => {
    form.classList.toggle(FOLDED, folded);
    button.setAttribute("aria-expanded", String(!folded));
    button.textContent = folded ? WORDS.folded : WORDS.open;
  };
  button.addEventListener("click", () => show(!form.classList.contains(FOLDED)));
  show(false);
  form.prepend(button); // outside the fieldset: it works while Python loads, when the controls wait
}
