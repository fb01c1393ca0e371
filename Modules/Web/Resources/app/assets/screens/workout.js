// The workout: start the next one, a template or an empty one; then one screen per exercise with its targets
// prefilled, one tap to log a set as planned, quick edits, a rest timer, add / swap / remove, finish or cancel, and
// the coach in workout mode on the same screen. Writes go through the offline queue (lib/workout.js).
import { call, ApiError } from "../lib/api.js";
import { h, replace, confirmAction, toast } from "../lib/dom.js";
import { icon } from "../lib/icons.js";
import * as fmt from "../lib/format.js";
import { pickExercise } from "./exercise-search.js";
import { chatPanel } from "./coach.js";

const REST_SECONDS = 90;

function elapsed(doc) { return (Date.now() - new Date(doc.start_time || doc.created_at).getTime()) / 1000; }

async function startScreen(ctx, container) {
  const service = ctx.workout;
  const last = service.lastFinished;
  let next = null;
  let templates = [];
  try {
    [next, templates] = await Promise.all([
      call("getNextWorkout", {}).catch((error) => (error.code === "NOT_FOUND" || error.code === "FAILED_PRECONDITION" ? null : Promise.reject(error))),
      call("getTemplates", { limit: 50 }).then((page) => page.items || []),
    ]);
  } catch (error) {
    if (!(error instanceof ApiError && error.offline)) throw error;
  }
  const start = async (params, button) => {
    button.disabled = true;
    try {
      await service.start(params);
      draw(ctx, container);
    } catch (error) {
      button.disabled = false;
      toast(error.message);
    }
  };
  return [
    last ? h("div", { class: "banner", role: "status" }, `Workout saved: ${fmt.count(last.totals?.sets ?? last.analytics?.totals?.sets)} sets. `,
      h("a", { href: `#/progress/workout/${encodeURIComponent(last.id)}` }, "See it in your history")) : null,
    next?.template ? h("section", { class: "card accent", "aria-labelledby": "next-title" },
      h("p", { class: "section-title" }, "Next in your routine"),
      h("h2", { id: "next-title" }, next.template.name),
      h("p", { class: "muted" }, `${next.template.exercises.length} exercises · ${next.template.exercises.reduce((n, e) => n + e.sets.length, 0)} sets`),
      h("button", { class: "button primary big block", type: "button", onclick: (e) => start({ routine_id: next.routine_id }, e.currentTarget) }, "Start workout"))
      : h("section", { class: "card" }, h("h2", {}, "No routine yet"), h("p", { class: "muted" }, "Ask the coach for a plan, or start from a template or an empty workout.")),
    templates.length ? h("section", { class: "stack", "aria-labelledby": "templates-title" },
      h("h2", { id: "templates-title", class: "section-title" }, "From a template"),
      h("ul", { class: "list" }, templates.map((template) => h("li", {}, h("div", { class: "list-item" },
        h("span", { class: "grow" }, template.name),
        h("button", { class: "button small", type: "button", "aria-label": `Start ${template.name}`, onclick: (e) => start({ template_id: template.id }, e.currentTarget) }, "Start")))))) : null,
    h("button", { class: "button block", type: "button", onclick: (e) => start({}, e.currentTarget) }, icon("plus"), "Empty workout"),
  ];
}

function setRow(ctx, exercise, set, index, state, redraw) {
  const service = ctx.workout;
  const done = Boolean(set.completed_at) && !state.editing.has(set.id);
  const current = !done && state.current === set.id;
  const label = `Set ${index + 1}`;
  if (done) {
    return h("li", { class: `set-row done${set.pending ? " pending-sync" : ""}` },
      h("span", { class: "set-index" }, index + 1),
      h("span", { class: "numeric", "aria-label": fmt.weight(set.weight_kg) }, fmt.weightValue(set.weight_kg) ?? "—"),
      h("span", { class: "numeric", "aria-label": `${set.reps ?? 0} reps` }, set.reps ?? "—"),
      h("span", { class: "numeric muted", "aria-label": set.rir != null ? `RIR ${set.rir}` : "" }, set.rir ?? ""),
      h("span", { class: "row" },
        set.pending ? h("span", { class: "badge warning", title: "Not synced yet" }, icon("cloud"), h("span", { class: "visually-hidden" }, "Not synced")) : h("span", { class: "badge accent" }, icon("check"), h("span", { class: "visually-hidden" }, "Logged")),
        h("button", { class: "icon-button", type: "button", "aria-label": `Edit ${label}`, onclick: () => { state.editing.add(set.id); state.current = set.id; redraw(); } }, icon("edit"))));
  }
  const previous = exercise.sets.slice(0, index).reverse().find((s) => s.completed_at);
  const planned = {
    weight: set.weight_kg ?? set.target_weight_kg ?? previous?.weight_kg ?? null,
    reps: set.reps ?? set.target_reps ?? previous?.reps ?? null,
    rir: set.rir ?? set.target_rir ?? null,
  };
  const draft = state.drafts[set.id] || {};
  const weightInput = h("input", { class: "input", type: "number", inputmode: "decimal", step: "0.5", min: 0, "aria-label": `${label} weight (${fmt.units()})`, value: draft.weight ?? fmt.weightValue(planned.weight) ?? "" });
  const repsInput = h("input", { class: "input", type: "number", inputmode: "numeric", min: 0, max: 1000, "aria-label": `${label} reps`, value: draft.reps ?? planned.reps ?? "" });
  const rirInput = h("input", { class: "input", type: "number", inputmode: "numeric", min: 0, max: 10, "aria-label": `${label} RIR`, value: draft.rir ?? planned.rir ?? "" });
  for (const [key, input] of [["weight", weightInput], ["reps", repsInput], ["rir", rirInput]]) {
    input.addEventListener("input", () => { state.drafts[set.id] = { ...(state.drafts[set.id] || {}), [key]: input.value }; });
  }
  const log = () => {
    const reps = Number(repsInput.value);
    if (weightInput.value === "" || !Number.isFinite(reps) || repsInput.value === "") {
      toast("Enter the weight and reps of this set.");
      (weightInput.value === "" ? weightInput : repsInput).focus();
      return;
    }
    state.editing.delete(set.id);
    delete state.drafts[set.id];
    state.restUntil = Date.now() + REST_SECONDS * 1000;
    state.advance = true;
    service.logSet(exercise.instance_id, set.id, {
      weight_kg: fmt.toKg(weightInput.value), reps: Math.round(reps), rir: rirInput.value === "" ? null : Math.round(Number(rirInput.value)),
    });
  };
  const row = h("li", { class: "set-row" },
    h("span", { class: "set-index" }, index + 1), weightInput, repsInput, rirInput,
    current
      ? h("button", { class: "button primary small", type: "button", onclick: log }, state.editing.has(set.id) ? "Save set" : "Log set")
      : h("button", { class: "icon-button", type: "button", "aria-label": `Remove ${label}`, onclick: () => service.remove({ op: "remove_set", exercise_instance_id: exercise.instance_id, set_id: set.id }) }, icon("trash")));
  if (current) row.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); log(); } });
  return row;
}

function restTimer(state, redraw) {
  if (!state.restUntil) return null;
  const remaining = Math.ceil((state.restUntil - Date.now()) / 1000);
  if (remaining <= 0) { state.restUntil = null; return null; }
  return h("div", { class: "rest-timer", role: "timer", "aria-label": "Rest timer" },
    h("span", { class: "row" }, icon("timer"), h("span", { class: "numeric" }, `Rest ${fmt.clock(remaining)}`)),
    h("span", { class: "row" },
      h("button", { class: "button small", type: "button", onclick: () => { state.restUntil += 30_000; redraw(); } }, "+30 s"),
      h("button", { class: "button small ghost", type: "button", onclick: () => { state.restUntil = null; redraw(); } }, "Skip rest")));
}

function activeScreen(ctx, container, state) {
  const service = ctx.workout;
  const doc = service.doc;
  if (state.index >= doc.exercises.length) state.index = Math.max(0, doc.exercises.length - 1);
  let exercise = doc.exercises[state.index];
  const redraw = () => draw(ctx, container);
  const isOpen = (e) => e.sets.some((s) => !s.completed_at || state.editing.has(s.id));
  if (state.advance && exercise && !isOpen(exercise)) {
    // The exercise is done: on to the next one with sets to log.
    const next = doc.exercises.findIndex((e, i) => i > state.index && isOpen(e));
    if (next >= 0) state.index = next;
  }
  state.advance = false;
  exercise = doc.exercises[state.index];
  if (exercise) {
    const open = exercise.sets.filter((s) => !s.completed_at || state.editing.has(s.id));
    if (!open.some((s) => s.id === state.current)) state.current = open[0]?.id ?? null;
  }
  const doneSets = doc.exercises.reduce((n, e) => n + e.sets.filter((s) => s.completed_at).length, 0);
  const allSets = doc.exercises.reduce((n, e) => n + e.sets.length, 0);

  const finish = async (button) => {
    const remaining = allSets - doneSets;
    if (!(await confirmAction("Finish workout?", remaining ? `${remaining} planned sets are not logged; they will be left out.` : "Great work. Save this workout to your history?", "Finish workout"))) return;
    button.disabled = true;
    try {
      const archived = await service.finish();
      if (!archived) {
        toast("You are offline: the workout finishes as soon as the connection is back.");
        redraw();
        return;
      }
      ctx.navigate(`progress/workout/${encodeURIComponent(archived.id)}`);
    } catch (error) {
      button.disabled = false;
      toast(error.message);
    }
  };
  const cancel = async () => {
    if (!(await confirmAction("Cancel workout?", "Nothing of this workout will be saved.", "Cancel workout", { destructive: true }))) return;
    await service.cancel();
    redraw();
  };
  const onlineAction = async (run) => {
    try { await run(); redraw(); } catch (error) { toast(error.message); }
  };

  const exerciseSection = exercise ? h("section", { class: "card", "aria-labelledby": "exercise-title" },
    h("div", { class: "exercise-nav" },
      h("button", { class: "icon-button", type: "button", "aria-label": "Previous exercise", disabled: state.index === 0, onclick: () => { state.index -= 1; redraw(); } }, icon("back")),
      h("div", { class: "grow" },
        h("p", { class: "caption" }, `Exercise ${state.index + 1} of ${doc.exercises.length}`),
        h("h2", { id: "exercise-title" }, exercise.name)),
      h("button", { class: "icon-button", type: "button", "aria-label": "Next exercise", disabled: state.index >= doc.exercises.length - 1, onclick: () => { state.index += 1; redraw(); } }, icon("next"))),
    h("div", { class: "set-head caption", "aria-hidden": "true" }, h("span", {}, "#"), h("span", {}, fmt.units()), h("span", {}, "Reps"), h("span", {}, "RIR"), h("span", {})),
    h("ol", { class: "sets", "aria-label": `${exercise.name} sets` }, exercise.sets.map((set, i) => setRow(ctx, exercise, set, i, state, redraw))),
    h("div", { class: "row" },
      h("button", { class: "button small", type: "button", onclick: () => onlineAction(() => service.addSet(exercise.instance_id, { target_reps: exercise.sets.at(-1)?.target_reps ?? null })) }, icon("plus"), "Add set"),
      h("button", { class: "button small", type: "button", onclick: async () => {
        const picked = await pickExercise(`Swap ${exercise.name}`, "Swap to");
        if (picked) onlineAction(() => service.swapExercise(exercise.instance_id, picked.id));
      } }, icon("swap"), "Swap"),
      h("button", { class: "button small ghost", type: "button", onclick: async () => {
        if (await confirmAction(`Remove ${exercise.name}?`, "Its sets leave this workout.", "Remove", { destructive: true })) {
          service.remove({ op: "remove_exercise", exercise_instance_id: exercise.instance_id });
          redraw();
        }
      } }, icon("trash"), "Remove exercise")))
    : h("section", { class: "card" }, h("h2", {}, "Empty workout"), h("p", { class: "muted" }, "Add your first exercise."));

  return [
    h("div", { class: "row spread" },
      h("div", {}, h("p", { class: "caption" }, "In progress"), h("h2", {}, doc.name || "Workout")),
      h("span", { class: "metric numeric", role: "timer", "aria-label": "Workout time", "data-elapsed": "" }, fmt.clock(elapsed(doc)))),
    h("div", { class: "totals card" },
      h("div", {}, h("div", { class: "caption" }, "Sets"), h("div", { class: "numeric" }, `${doneSets} / ${allSets}`)),
      h("div", {}, h("div", { class: "caption" }, "Reps"), h("div", { class: "numeric" }, fmt.count(doc.totals?.reps))),
      h("div", {}, h("div", { class: "caption" }, "Volume"), h("div", { class: "numeric" }, fmt.volume(doc.totals?.volume)))),
    restTimer(state, redraw),
    service.finishing ? h("div", { class: "banner", role: "status" }, "Finishing: waiting for the connection to send your sets.") : null,
    exerciseSection,
    doc.exercises.length > 1 ? h("nav", { "aria-label": "Exercises" }, h("ol", { class: "list" }, doc.exercises.map((e, i) =>
      h("li", {}, h("button", { class: "list-item", type: "button", "aria-current": i === state.index ? "step" : null, onclick: () => { state.index = i; redraw(); } },
        h("span", { class: "grow" }, e.name),
        h("span", { class: "caption numeric" }, `${e.sets.filter((s) => s.completed_at).length}/${e.sets.length}`)))))) : null,
    h("button", { class: "button block", type: "button", onclick: async () => {
      const picked = await pickExercise("Add exercise", "Add");
      if (picked) onlineAction(async () => { await service.addExercise(picked.id); state.index = service.doc.exercises.length - 1; });
    } }, icon("plus"), "Add exercise"),
    state.chat.element,
    h("div", { class: "stack" },
      h("button", { class: "button primary big block", type: "button", onclick: (e) => finish(e.currentTarget) }, "Finish workout"),
      h("button", { class: "button ghost block", type: "button", onclick: cancel }, "Cancel workout")),
  ];
}

const states = new WeakMap();

function draw(ctx, container) {
  const service = ctx.workout;
  const doc = service.doc;
  if (!doc) {
    startScreen(ctx, container).then((nodes) => replace(container, nodes)).catch((error) => replace(container, h("div", { class: "banner error", role: "alert" }, error.message)));
    return;
  }
  let state = states.get(service);
  if (!state || state.workoutId !== doc.id) {
    state = { workoutId: doc.id, index: 0, current: null, editing: new Set(), drafts: {}, restUntil: null };
    // A set the coach logged ("8 @ 100", "done") moves the screen on like one logged here.
    state.chat = chatPanel(ctx, { workoutId: doc.id, compact: true, onTurnEnd: () => { state.advance = true; service.sync().then(() => draw(ctx, container)); } });
    state.index = Math.max(0, doc.exercises.findIndex((e) => e.sets.some((s) => !s.completed_at)));
    states.set(service, state);
  }
  const focused = document.activeElement;
  const focusKey = focused?.getAttribute?.("aria-label");
  replace(container, activeScreen(ctx, container, state));
  // Keeps the keyboard where it was: the next set's Log set button after a set is logged.
  const again = focusKey && [...container.querySelectorAll("[aria-label]")].find((el) => el.getAttribute("aria-label") === focusKey);
  if (again) again.focus();
  else if (focused && container.contains(focused)) focused.focus();
  else if (focused && container.contains(focused) === false && focused.tagName === "BUTTON" && focused.textContent === "Log set") container.querySelector(".set-row .button.primary")?.focus();
}

export async function render(ctx) {
  ctx.setTitle("Workout");
  const container = h("div", { class: "stack-l" });
  if (!ctx.workout) return h("p", {}, "Sign in to train.");
  await ctx.workout.load();
  const unsubscribe = ctx.workout.subscribe(() => draw(ctx, container));
  const ticker = setInterval(() => {
    const clock = container.querySelector("[data-elapsed]");
    if (clock && ctx.workout.doc) clock.textContent = fmt.clock(elapsed(ctx.workout.doc));
    const timer = container.querySelector(".rest-timer .numeric");
    const state = states.get(ctx.workout);
    if (timer && state?.restUntil) {
      const remaining = Math.ceil((state.restUntil - Date.now()) / 1000);
      if (remaining <= 0) draw(ctx, container);
      else timer.textContent = `Rest ${fmt.clock(remaining)}`;
    }
  }, 1000);
  ctx.onLeave(() => { unsubscribe(); clearInterval(ticker); });
  ctx.onLeave(() => ctx.workout?.sync());
  draw(ctx, container);
  return container;
}
