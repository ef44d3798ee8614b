// Dragging: an element with data-drag="xname yname" inside an
// <svg data-plane="xmin xmax ymin ymax"> (the plane fills the viewBox)
// sets the two controls to the point under the pointer.
import { python } from "./python.js";

/** Follows the pointer from this pointerdown until it is let go, setting the lab's two controls. */
export function startDrag(lab, event) {
  const handle = event.target.closest("[data-drag]");
  if (!handle || python.status !== "ready") return;
  event.preventDefault();
  const [xName, yName] = handle.dataset.drag.split(" ");
  // the view is redrawn while dragging: find the plane again by its position
  const planes = () => [...lab.view.querySelectorAll("svg[data-plane]")];
  const index = planes().indexOf(handle.closest("svg[data-plane]"));
  const move = (e) => {
    const svg = planes()[index];
    if (!svg) return;
    const [xmin, xmax, ymin, ymax] = svg.dataset.plane.split(" ").map(Number);
    const box = svg.viewBox.baseVal;
    const point = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    const x = xmin + (point.x - box.x) / box.width * (xmax - xmin);
    const y = ymax - (point.y - box.y) / box.height * (ymax - ymin);
    lab.setControls([[xName, x.toFixed(4)], [yName, y.toFixed(4)]]);
  };
  const stop = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", stop);
    window.removeEventListener("pointercancel", stop);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", stop);
  window.addEventListener("pointercancel", stop);
  move(event);
}
