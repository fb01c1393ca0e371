// Plans: routines (the active one marked, its next workout), templates (view, edit exercises, sets, targets and
// weights, reorder) and the exercise catalog with its filters.
import { call, newKey, ApiError } from "../lib/api.js";
import { h, replace, confirmAction, toast, field } from "../lib/dom.js";
import { icon } from "../lib/icons.js";
import * as fmt from "../lib/format.js";
import { exerciseSearch, pickExercise } from "./exercise-search.js";

function tabs(active) {
  const links = [["plans", "Routines"], ["plans/templates", "Templates"], ["plans/exercises", "Exercises"]];
  return h("nav", { class: "tabs", "aria-label": "Plans" }, links.map(([route, label]) =>
    h("a", { href: `#/${route}`, "aria-current": route === active ? "page" : null }, label)));
}

async function routines(ctx) {
  const [page, next] = await Promise.all([
    call("getRoutines", { limit: 50 }),
    call("getNextWorkout", {}).catch(() => null),
  ]);
  const items = page.items || [];
  if (!items.length) return [h("p", { class: "muted" }, "No routine yet. Ask the coach for one: “Make me a 3-day plan”.")];
  return [h("ul", { class: "list" }, items.map((routine) => h("li", {},
    h("a", { class: "list-item", href: `#/plans/routine/${encodeURIComponent(routine.id)}` },
      h("div", { class: "grow" },
        h("div", { class: "row" }, h("strong", {}, routine.name), routine.is_active ? h("span", { class: "badge accent" }, "Active") : null),
        h("div", { class: "caption" }, `${routine.template_ids.length} workouts${routine.frequency ? ` · ${routine.frequency}× a week` : ""}`),
        routine.is_active && next?.template ? h("div", { class: "caption" }, `Next: ${next.template.name}`) : null),
      icon("next")))))];
}

async function routineDetail(ctx, id) {
  const routine = await call("getRoutine", { routine_id: id });
  const templates = await Promise.all(routine.template_ids.map((tid) => call("getTemplate", { template_id: tid }).catch(() => ({ id: tid, name: "Removed template", exercises: [] }))));
  const save = async (ids) => {
    await call("patchRoutine", { routine_id: id, changes: { template_ids: ids }, ...(routine.version ? { expected_version: routine.version } : {}) });
    ctx.navigate(`plans/routine/${encodeURIComponent(id)}`);
  };
  const move = (index, delta) => {
    const ids = [...routine.template_ids];
    const [item] = ids.splice(index, 1);
    ids.splice(index + delta, 0, item);
    save(ids).catch((error) => toast(error.message));
  };
  return [
    h("a", { class: "button ghost small", href: "#/plans" }, icon("back"), "Routines"),
    h("div", { class: "stack" },
      h("div", { class: "row" }, h("h2", {}, routine.name), routine.is_active ? h("span", { class: "badge accent" }, "Active") : null),
      routine.description ? h("p", { class: "muted" }, routine.description) : null),
    h("ol", { class: "list", "aria-label": "Workouts in order" }, templates.map((template, index) => h("li", {}, h("div", { class: "list-item" },
      h("a", { class: "grow", href: `#/plans/template/${encodeURIComponent(template.id)}` }, template.name),
      h("button", { class: "icon-button", type: "button", "aria-label": `Move ${template.name} up`, disabled: index === 0, onclick: () => move(index, -1) }, icon("up")),
      h("button", { class: "icon-button", type: "button", "aria-label": `Move ${template.name} down`, disabled: index === templates.length - 1, onclick: () => move(index, 1) }, icon("down")))))),
    h("div", { class: "row" },
      routine.is_active
        ? h("button", { class: "button", type: "button", onclick: async () => { await call("setActiveRoutine", { routine_id: null }); ctx.navigate(`plans/routine/${encodeURIComponent(id)}`); } }, "Stop using this routine")
        : h("button", { class: "button primary", type: "button", onclick: async () => { await call("setActiveRoutine", { routine_id: id }); ctx.navigate(`plans/routine/${encodeURIComponent(id)}`); } }, "Make active"),
      h("button", { class: "button ghost", type: "button", onclick: async () => {
        if (!(await confirmAction("Delete routine?", `${routine.name} is removed; its templates stay.`, "Delete", { destructive: true }))) return;
        await call("deleteRoutine", { routine_id: id });
        ctx.navigate("plans");
      } }, icon("trash"), "Delete routine")),
  ];
}

async function templates() {
  const page = await call("getTemplates", { limit: 50 });
  const items = page.items || [];
  return [
    h("button", { class: "button", type: "button", onclick: async (event) => {
      event.currentTarget.disabled = true;
      const created = await call("createTemplate", { name: "New template", exercises: [], idempotency_key: newKey() });
      location.hash = `#/plans/template/${encodeURIComponent(created.id)}`;
    } }, icon("plus"), "New template"),
    items.length ? h("ul", { class: "list" }, items.map((template) => h("li", {},
      h("a", { class: "list-item", href: `#/plans/template/${encodeURIComponent(template.id)}` },
        h("div", { class: "grow" }, h("div", {}, template.name), h("div", { class: "caption" }, `${template.analytics?.total_sets ?? ""} sets · about ${template.analytics?.estimated_duration_minutes ?? "?"} min`)),
        icon("next"))))) : h("p", { class: "muted" }, "No templates yet."),
  ];
}

async function templateEditor(ctx, id) {
  const template = await call("getTemplate", { template_id: id });
  const draft = structuredClone(template);
  const container = h("div", { class: "stack-l" });
  const status = h("p", { class: "caption", role: "status" });

  const numberInput = (label, value, onchange, props = {}) => {
    const input = h("input", { class: "input", type: "number", min: 0, "aria-label": label, value: value ?? "", ...props });
    input.addEventListener("change", () => { onchange(input.value === "" ? null : Number(input.value)); status.textContent = "Unsaved changes"; });
    return input;
  };

  function draw() {
    replace(container,
      h("a", { class: "button ghost small", href: "#/plans/templates" }, icon("back"), "Templates"),
      field("Template name", { value: draft.name, onchange: (e) => { draft.name = e.target.value; status.textContent = "Unsaved changes"; } }),
      ...draft.exercises.map((exercise, index) => h("section", { class: "card", "aria-label": exercise.name },
        h("div", { class: "row spread" },
          h("h3", { class: "grow" }, exercise.name),
          h("button", { class: "icon-button", type: "button", "aria-label": `Move ${exercise.name} up`, disabled: index === 0, onclick: () => { draft.exercises.splice(index - 1, 0, draft.exercises.splice(index, 1)[0]); draw(); } }, icon("up")),
          h("button", { class: "icon-button", type: "button", "aria-label": `Move ${exercise.name} down`, disabled: index === draft.exercises.length - 1, onclick: () => { draft.exercises.splice(index + 1, 0, draft.exercises.splice(index, 1)[0]); draw(); } }, icon("down")),
          h("button", { class: "icon-button", type: "button", "aria-label": `Remove ${exercise.name}`, onclick: () => { draft.exercises.splice(index, 1); draw(); } }, icon("trash"))),
        h("div", { class: "set-head caption", "aria-hidden": "true" }, h("span", {}, "#"), h("span", {}, "Reps"), h("span", {}, fmt.units()), h("span", {}, "RIR"), h("span", {})),
        h("ol", { class: "sets" }, exercise.sets.map((set, s) => h("li", { class: "set-row" },
          h("span", { class: "set-index" }, s + 1),
          numberInput(`${exercise.name} set ${s + 1} reps`, set.target_reps, (v) => { set.target_reps = v; }),
          numberInput(`${exercise.name} set ${s + 1} weight (${fmt.units()})`, fmt.weightValue(set.target_weight_kg), (v) => { set.target_weight_kg = v == null ? null : fmt.toKg(v); }, { step: "0.5" }),
          numberInput(`${exercise.name} set ${s + 1} RIR`, set.target_rir, (v) => { set.target_rir = v; }, { max: 10 }),
          h("button", { class: "icon-button", type: "button", "aria-label": `Remove ${exercise.name} set ${s + 1}`, onclick: () => { exercise.sets.splice(s, 1); draw(); } }, icon("trash"))))),
        h("button", { class: "button small", type: "button", onclick: () => { exercise.sets.push({ ...(exercise.sets.at(-1) || { target_reps: 8, target_rir: 2, target_weight_kg: null }) }); draw(); } }, icon("plus"), "Add set"))),
      h("button", { class: "button block", type: "button", onclick: async () => {
        const picked = await pickExercise("Add exercise", "Add");
        if (picked) { draft.exercises.push({ exercise_id: picked.id, name: picked.name, sets: [1, 2, 3].map(() => ({ target_reps: 8, target_rir: 2, target_weight_kg: null })) }); draw(); }
      } }, icon("plus"), "Add exercise"),
      status,
      h("div", { class: "row" },
        h("button", { class: "button primary", type: "button", onclick: save }, "Save template"),
        h("button", { class: "button", type: "button", onclick: async () => { await ctx.workout.start({ template_id: id }); ctx.navigate("workout"); } }, "Start this workout"),
        h("button", { class: "button ghost", type: "button", onclick: remove }, icon("trash"), "Delete template")));
  }

  async function save() {
    try {
      const saved = await call("patchTemplate", {
        template_id: id, expected_version: draft.version,
        changes: { name: draft.name, exercises: draft.exercises.map((e) => ({ exercise_id: e.exercise_id, sets: e.sets.map((s) => ({ target_reps: s.target_reps, target_rir: s.target_rir, target_weight_kg: s.target_weight_kg })) })) },
      });
      draft.version = saved.version;
      status.textContent = "Saved.";
      toast("Template saved.");
    } catch (error) {
      status.textContent = error instanceof ApiError && error.code === "CONFLICT" ? "This template changed elsewhere: reload to see it." : error.message;
    }
  }
  async function remove() {
    if (!(await confirmAction("Delete template?", `${draft.name} is removed.`, "Delete", { destructive: true }))) return;
    await call("deleteTemplate", { template_id: id });
    ctx.navigate("plans/templates");
  }
  draw();
  return container;
}

export async function render(ctx) {
  ctx.setTitle("Plans");
  const [section, id] = ctx.route.params;
  if (section === "routine" && id) return routineDetail(ctx, id);
  if (section === "template" && id) return templateEditor(ctx, id);
  if (section === "templates") return [tabs("plans/templates"), ...(await templates(ctx))];
  if (section === "exercises") {
    const search = exerciseSearch();
    search.run();
    return [tabs("plans/exercises"), search.element];
  }
  return [tabs("plans"), ...(await routines(ctx))];
}
