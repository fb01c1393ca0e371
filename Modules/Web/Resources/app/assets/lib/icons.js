// Line icons (24×24, stroked with currentColor), drawn as SVG paths. Decorative: hidden from assistive tech.
import { svg } from "./dom.js";

const PATHS = {
  coach: "M4 5h16v11H8l-4 4z M8 9h8 M8 12h5",
  plans: "M6 3h12v18H6z M9 7h6 M9 11h6 M9 15h4",
  workout: "M3 10v4 M6 7v10 M18 7v10 M21 10v4 M6 12h12",
  progress: "M4 20V4 M4 20h16 M8 16l4-5 3 3 5-7",
  profile: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z M4 21c1-4 4-6 8-6s7 2 8 6",
  back: "M15 5l-7 7 7 7",
  next: "M9 5l7 7-7 7",
  plus: "M12 5v14 M5 12h14",
  check: "M5 12l5 5 9-10",
  close: "M6 6l12 12 M18 6L6 18",
  send: "M4 12l16-8-6 16-3-7z",
  swap: "M7 7h12l-3-3 M17 17H5l3 3",
  trash: "M4 7h16 M9 7V4h6v3 M6 7l1 13h10l1-13",
  timer: "M12 8v5l3 2 M9 2h6 M12 22a9 9 0 1 0 0-18 9 9 0 0 0 0 18z",
  cloud: "M7 18h10a4 4 0 0 0 0-8 6 6 0 0 0-11.5 1.5A3.5 3.5 0 0 0 7 18z",
  up: "M6 15l6-6 6 6",
  down: "M6 9l6 6 6-6",
  edit: "M4 20h4L19 9l-4-4L4 16z",
};

/** The named icon, decorative. */
export function icon(name, className = "icon") {
  return svg("svg", { class: className, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: PATHS[name] || PATHS.plus }));
}
