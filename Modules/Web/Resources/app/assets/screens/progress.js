// Progress: the analyst's recommendations (accept / reject, auto-pilot), its summary, a lift's e1RM over time,
// weekly sets per muscle group, and the history (list, detail, edit, delete).
import { call, ApiError } from "../lib/api.js";
import { h, replace, confirmAction, toast, uid } from "../lib/dom.js";
import { icon } from "../lib/icons.js";
import { lineChart, barChart } from "../lib/chart.js";
import * as fmt from "../lib/format.js";

const optional = (promise, fallback) => promise.catch((error) => (error instanceof ApiError && error.status !== 0 ? fallback : Promise.reject(error)));

// A change as the lifter reads it: first weights ("start at 60 kg"), a new rep range ("8 × 60 kg → 5 × 67.5 kg"),
// or a step ("60 kg → 62.5 kg").
function changeText(change) {
  if (change.action === "calibrate" || change.from_weight_kg == null) return `start at ${fmt.weight(change.to_weight_kg)}`;
  if (change.action === "rep_range" && change.from_reps != null && change.to_reps != null) {
    return `${change.from_reps} × ${fmt.weight(change.from_weight_kg)} → ${change.to_reps} × ${fmt.weight(change.to_weight_kg)}`;
  }
  return `${fmt.weight(change.from_weight_kg)} → ${fmt.weight(change.to_weight_kg)}`;
}

function recommendationCard(ctx, rec) {
  const element = h("article", { class: "card accent", "aria-labelledby": `rec-${rec.id}` });
  const target = rec.target?.template_name || rec.changes?.[0]?.exercise_name || "Your training";
  const review = async (action, button) => {
    button.disabled = true;
    try {
      await call("reviewRecommendation", { recommendation_id: rec.id, action });
      element.replaceChildren(h("p", { role: "status" }, action === "accept" ? `Applied to ${target}.` : "Recommendation rejected."));
    } catch (error) {
      button.disabled = false;
      toast(error.message);
    }
  };
  element.append(
    h("h3", { id: `rec-${rec.id}` }, `${target}: ${rec.changes?.length === 1 ? "1 change" : `${rec.changes?.length ?? 0} changes`}`),
    h("ul", { class: "exercise-lines" }, (rec.changes || []).map((change) => h("li", {},
      h("span", {}, change.exercise_name || change.exercise_id),
      h("span", { class: "numeric" }, changeText(change))))),
    rec.changes?.[0]?.reason ? h("p", { class: "caption" }, rec.changes[0].reason) : null,
    h("div", { class: "row" },
      h("button", { class: "button primary small", type: "button", onclick: (e) => review("accept", e.currentTarget) }, "Accept"),
      h("button", { class: "button small ghost", type: "button", onclick: (e) => review("reject", e.currentTarget) }, "Reject")));
  return element;
}

async function recommendations(ctx) {
  const [page, settings] = await Promise.all([
    optional(call("getRecommendations", { status: "pending_review", limit: 10 }), { items: [] }),
    optional(call("getRecommendationSettings", {}), null),
  ]);
  const id = uid("autopilot");
  const autopilot = settings ? h("div", { class: "switch card" },
    h("label", { for: id }, h("strong", {}, "Auto-pilot"), h("span", { class: "caption" }, " — apply the analyst's weight changes to your routine as they come")),
    h("input", { id, type: "checkbox", role: "switch", checked: settings.auto_pilot_enabled, disabled: settings.premium === false, onchange: async (event) => {
      try {
        await call("updateRecommendationSettings", { auto_pilot_enabled: event.target.checked });
        toast(event.target.checked ? "Auto-pilot on." : "Auto-pilot off.");
      } catch (error) {
        event.target.checked = !event.target.checked;
        toast(error.message);
      }
    } })) : null;
  const items = page.items || [];
  return h("section", { class: "stack", "aria-labelledby": "recs-title" },
    h("h2", { id: "recs-title" }, "Recommendations"),
    items.length ? items.map((rec) => recommendationCard(ctx, rec)) : h("p", { class: "muted" }, "Nothing to review. Finish a workout and the analyst looks at it."),
    autopilot);
}

async function summary() {
  const data = await optional(call("getAnalysisSummary", { limit: 3 }), null);
  if (!data) return null;
  const notes = [...(data.insights || []), data.daily_brief, data.weekly_review].filter(Boolean);
  if (!notes.length) return null;
  return h("section", { class: "stack", "aria-labelledby": "summary-title" },
    h("h2", { id: "summary-title" }, "The analyst's summary"),
    notes.map((note) => h("article", { class: "card" },
      h("h3", {}, note.headline || note.title || "Summary"),
      (note.findings || note.highlights || []).length ? h("ul", {}, (note.findings || note.highlights).map((line) => h("li", {}, typeof line === "string" ? line : line.text))) : null,
      note.summary ? h("p", {}, note.summary) : null)));
}

async function charts(history) {
  const lifts = [];
  for (const workout of history) for (const exercise of workout.exercises || []) {
    if (!lifts.some((l) => l.id === exercise.exercise_id)) lifts.push({ id: exercise.exercise_id, name: exercise.name });
  }
  const stats = await optional(call("getWeeklyStats", { weeks: 8 }), { items: [] });
  const latest = (stats.items || []).at(-1);
  const muscles = latest ? Object.entries(latest.sets_by_muscle || {}).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([label, value]) => ({ label, value })) : [];
  const liftChart = h("div", {});
  const selectId = uid("lift");
  const showLift = async (id) => {
    const progress = await call("getExerciseProgress", { exercise_id: id, weeks: 12 });
    const name = lifts.find((l) => l.id === id)?.name || id;
    liftChart.replaceChildren(lineChart(`${name}: estimated 1RM (${fmt.units()})`,
      (progress.points || []).filter((p) => p.e1rm_kg != null).map((p) => ({ label: fmt.shortDate(p.week_start), value: fmt.weightValue(p.e1rm_kg) }))));
  };
  if (lifts.length) showLift(lifts[0].id).catch(() => liftChart.replaceChildren(h("p", { class: "muted" }, "The chart needs a connection.")));
  return h("section", { class: "stack", "aria-labelledby": "charts-title" },
    h("h2", { id: "charts-title" }, "Lifts and volume"),
    lifts.length ? h("div", { class: "card" },
      h("div", { class: "field" }, h("label", { for: selectId }, "Lift"),
        h("select", { class: "input", id: selectId, onchange: (e) => showLift(e.target.value) }, lifts.map((l) => h("option", { value: l.id }, l.name)))),
      liftChart) : h("p", { class: "muted" }, "Log a workout to see your lifts over time."),
    muscles.length ? h("div", { class: "card" },
      barChart(`Sets per muscle group, week of ${fmt.shortDate(latest.week_start)}`, muscles, (v) => String(Math.round(v * 10) / 10))) : null);
}

function historyList(history) {
  return h("section", { class: "stack", "aria-labelledby": "history-title" },
    h("h2", { id: "history-title" }, "History"),
    history.length ? h("ul", { class: "list" }, history.map((workout) => h("li", {},
      h("a", { class: "list-item", href: `#/progress/workout/${encodeURIComponent(workout.id)}` },
        h("div", { class: "grow" },
          h("div", {}, workout.name || "Workout"),
          h("div", { class: "caption" }, `${fmt.dateTime(workout.end_time || workout.start_time)} · ${fmt.count(workout.analytics?.totals?.sets ?? workout.totals?.sets)} sets · ${fmt.volume(workout.analytics?.totals?.volume ?? workout.totals?.volume)}`)),
        icon("next"))))) : h("p", { class: "muted" }, "No workouts yet."));
}

async function workoutDetail(ctx, id) {
  const workout = await call("getWorkout", { workout_id: id });
  const container = h("div", { class: "stack-l" });
  let editing = false;
  const draft = structuredClone(workout);
  function draw() {
    replace(container,
      h("a", { class: "button ghost small", href: "#/progress" }, icon("back"), "Progress"),
      h("div", {}, h("h2", {}, workout.name || "Workout"), h("p", { class: "muted" }, fmt.dateTime(workout.end_time || workout.start_time))),
      h("div", { class: "totals card" },
        h("div", {}, h("div", { class: "caption" }, "Sets"), h("div", { class: "numeric" }, fmt.count(workout.analytics?.totals?.sets ?? workout.totals?.sets))),
        h("div", {}, h("div", { class: "caption" }, "Reps"), h("div", { class: "numeric" }, fmt.count(workout.analytics?.totals?.reps ?? workout.totals?.reps))),
        h("div", {}, h("div", { class: "caption" }, "Volume"), h("div", { class: "numeric" }, fmt.volume(workout.analytics?.totals?.volume ?? workout.totals?.volume)))),
      ...draft.exercises.map((exercise) => h("section", { class: "card", "aria-label": exercise.name },
        h("h3", {}, exercise.name),
        editing
          ? h("ol", { class: "sets" }, exercise.sets.filter((s) => s.completed_at).map((set, i) => h("li", { class: "set-row" }, h("span", { class: "set-index" }, i + 1),
            h("input", { class: "input", type: "number", step: "0.5", "aria-label": `${exercise.name} set ${i + 1} weight (${fmt.units()})`, value: fmt.weightValue(set.weight_kg) ?? "", onchange: (e) => { set.weight_kg = fmt.toKg(e.target.value); } }),
            h("input", { class: "input", type: "number", "aria-label": `${exercise.name} set ${i + 1} reps`, value: set.reps ?? "", onchange: (e) => { set.reps = Number(e.target.value); } }),
            h("span", {}), h("span", {}))))
          : h("ol", { class: "exercise-lines" }, exercise.sets.filter((s) => s.completed_at).map((set, i) => h("li", {},
            h("span", { class: "muted" }, `Set ${i + 1}`), h("span", { class: "numeric" }, fmt.setLine(set))))))),
      h("div", { class: "row" },
        editing
          ? h("button", { class: "button primary", type: "button", onclick: save }, "Save changes")
          : h("button", { class: "button", type: "button", onclick: () => { editing = true; draw(); } }, icon("edit"), "Edit workout"),
        h("button", { class: "button ghost", type: "button", onclick: remove }, icon("trash"), "Delete workout")));
  }
  async function save() {
    try {
      await call("updateWorkout", { workout_id: id, changes: { exercises: draft.exercises.map((e) => ({ instance_id: e.instance_id, sets: e.sets.filter((s) => s.completed_at).map((s) => ({ id: s.id, weight_kg: s.weight_kg, reps: s.reps, ...(s.rir == null ? {} : { rir: s.rir }) })) })) } });
      toast("Workout updated.");
      ctx.navigate(`progress/workout/${encodeURIComponent(id)}`);
    } catch (error) {
      toast(error.message);
    }
  }
  async function remove() {
    if (!(await confirmAction("Delete workout?", "It leaves your history and your progress.", "Delete", { destructive: true }))) return;
    await call("deleteWorkout", { workout_id: id });
    ctx.navigate("progress");
  }
  draw();
  return container;
}

export async function render(ctx) {
  ctx.setTitle("Progress");
  const [section, id] = ctx.route.params;
  if (section === "workout" && id) return workoutDetail(ctx, id);
  const history = (await call("getRecentWorkouts", { limit: 20 })).items || [];
  const [recs, notes, chartSection] = await Promise.all([recommendations(ctx), summary(), charts(history)]);
  return [recs, chartSection, notes, historyList(history)];
}
