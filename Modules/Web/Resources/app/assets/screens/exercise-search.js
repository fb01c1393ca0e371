// Exercise search over the catalog, with its filters (muscle, equipment, category); used by Plans and the workout.
import { call } from "../lib/api.js";
import { h, openDialog, uid } from "../lib/dom.js";

export const MUSCLES = ["abdominals", "abductors", "adductors", "biceps", "calves", "chest", "forearms", "glutes", "hamstrings", "lats",
  "lower back", "middle back", "neck", "quadriceps", "shoulders", "traps", "triceps"];
export const EQUIPMENT = ["bands", "barbell", "body only", "cable", "dumbbell", "e-z curl bar", "exercise ball", "foam roll", "kettlebells",
  "machine", "medicine ball", "other"];
export const CATEGORIES = ["cardio", "olympic weightlifting", "plyometrics", "powerlifting", "strength", "stretching", "strongman"];

function select(label, name, values) {
  const id = uid("filter");
  return h("div", { class: "field grow" }, h("label", { for: id }, label),
    h("select", { class: "input", id, name }, h("option", { value: "" }, "Any"), values.map((v) => h("option", { value: v }, v))));
}

/**
 * The search form and its results. `onPick(exercise)` makes each result a button labelled `pickLabel` (a dialog);
 * without it, results are listed.
 */
export function exerciseSearch({ onPick = null, pickLabel = "Choose" } = {}) {
  const results = h("ul", { class: "list", "aria-live": "polite" });
  const queryId = uid("query");
  const form = h("form", { class: "stack", role: "search" },
    h("div", { class: "field" }, h("label", { for: queryId }, "Search exercises"), h("input", { class: "input", id: queryId, name: "query", type: "search", autocomplete: "off" })),
    h("div", { class: "row" }, select("Muscle", "muscle", MUSCLES), select("Equipment", "equipment", EQUIPMENT), select("Category", "category", CATEGORIES)),
    h("button", { class: "button", type: "submit" }, "Search"));
  let cursor = null;
  let lastQuery = {};

  async function run(more = false) {
    const data = new FormData(form);
    const query = more ? lastQuery : Object.fromEntries([...data.entries()].filter(([, v]) => String(v).trim() !== ""));
    lastQuery = query;
    const page = await call("searchExercises", { ...query, limit: 20, ...(more && cursor ? { cursor } : {}) });
    cursor = page.next_cursor || null;
    const items = (page.items || []).map((exercise) => h("li", {},
      h("div", { class: "list-item" },
        h("div", { class: "grow" }, h("div", {}, exercise.name), h("div", { class: "caption" }, [exercise.equipment, ...(exercise.primary_muscles || [])].filter(Boolean).join(" · "))),
        onPick ? h("button", { class: "button small", type: "button", "aria-label": `${pickLabel} ${exercise.name}`, onclick: () => onPick(exercise) }, pickLabel) : null)));
    if (!more) results.replaceChildren();
    results.querySelector(".more")?.remove();
    results.append(...items);
    if (!items.length && !more) results.append(h("li", { class: "muted" }, "No exercise matches."));
    if (cursor) results.append(h("li", { class: "more" }, h("button", { class: "button block", type: "button", onclick: () => run(true) }, "More results")));
  }
  form.addEventListener("submit", (event) => { event.preventDefault(); run(); });
  for (const control of form.querySelectorAll("select")) control.addEventListener("change", () => run());
  return { element: h("div", { class: "stack" }, form, results), run };
}

/** A dialog to pick one exercise; resolves with it or null. */
export function pickExercise(title, pickLabel = "Add") {
  return openDialog(title, (close) => {
    const search = exerciseSearch({ onPick: (exercise) => close(exercise), pickLabel });
    search.run();
    return h("div", { class: "stack" }, search.element, h("button", { class: "button", type: "button", onclick: () => close(null) }, "Close"));
  });
}
