// The coach's cards (docs/api.md "Cards"): one renderer per type, with the card's actions. Tolerant of the shapes a
// server sent before the card contract (status `proposed`, lane `slow`, no `actions`): they are read as pending
// cards of the type's canvas lane, offering the type's usual actions.
import { call, newKey, ApiError } from "../lib/api.js";
import { h, replace, openDialog, toast } from "../lib/dom.js";
import { lineChart, barChart } from "../lib/chart.js";
import * as fmt from "../lib/format.js";

const STATUS = { proposed: "pending", dismissed: "rejected" };
const LANES = {
  session_plan: "planning", routine_summary: "planning", template_update: "planning", routine_update: "planning",
  visualization: "analysis", analysis_summary: "analysis",
};
const DEFAULT_ACTIONS = {
  session_plan: ["start_workout", "save_as_template", "edit", "reject"],
  routine_summary: ["accept", "edit", "reject"],
  template_update: ["accept", "edit", "reject"],
  routine_update: ["accept", "edit", "reject"],
  suggestion: ["accept", "reject"],
};
const LABELS = {
  accept: "Accept", reject: "Reject", save_routine: "Save routine", start_workout: "Start workout",
  save_as_template: "Save as template", edit: "Edit", swap: "Swap",
};

/** A card as docs/api.md describes it, whatever the server's vintage. */
export function normalize(card) {
  const status = STATUS[card.status] || card.status || "pending";
  const lane = ["planning", "analysis", "execution"].includes(card.lane) ? card.lane : LANES[card.type] || "planning";
  const actions = Array.isArray(card.actions)
    ? card.actions.map((a) => (typeof a === "string" ? a : a.type || a.action)).filter(Boolean)
    : DEFAULT_ACTIONS[card.type] || [];
  return { ...card, status, lane, actions, data: card.data || {}, meta: card.meta || {} };
}

/**
 * The card's element. `context`: `conversationId`, `ask(text)` (answers a clarifying question), `app` (navigation
 * and the workout service), `onChange(card)` (a new status).
 */
export function renderCard(raw, context) {
  let card = normalize(raw);
  const body = h("div", { class: "stack" });
  const actions = h("div", { class: "row" });
  const element = h("article", { class: "card", "aria-labelledby": `card-${card.id}` });

  function draw() {
    element.className = `card${card.status === "pending" ? " accent" : ""}`;
    const header = h("div", { class: "row spread" },
      h("div", { class: "grow" },
        h("h3", { id: `card-${card.id}` }, card.title || "Coach"),
        card.subtitle ? h("p", { class: "caption" }, card.subtitle) : null),
      card.status !== "pending" ? h("span", { class: `badge${card.status === "accepted" || card.status === "completed" ? " accent" : ""}` }, statusText(card.status)) : null);
    replace(body, content(card, context));
    actions.replaceChildren(...(card.status === "pending" ? card.actions.map((action) => button(action)) : []));
    element.replaceChildren(header, body, actions);
  }

  function button(action) {
    const primary = action === "accept" || action === "start_workout";
    return h("button", {
      class: `button small ${primary ? "primary" : action === "reject" ? "ghost" : ""}`, type: "button",
      onclick: (event) => run(action, event.currentTarget),
    }, LABELS[action] || action);
  }

  async function run(action, control, edited) {
    if (action === "edit") {
      const data = await editCard(card);
      if (data) await run(card.type === "session_plan" ? "start_workout" : "accept", control, data);
      return;
    }
    control.disabled = true;
    try {
      const answer = await call("artifactAction", {
        action: action === "reject" ? "dismiss" : action, artifact_id: card.id, conversation_id: context.conversationId,
        idempotency_key: newKey(), ...(edited ? { data: edited } : {}),
      });
      card = normalize({ ...card, ...(answer.artifact || {}), status: answer.artifact?.status || (action === "reject" ? "rejected" : "accepted") });
      draw();
      context.onChange?.(card);
      if (action === "start_workout" && context.app.workout) {
        await context.app.workout.load();
        context.app.navigate("workout");
      } else if (action === "accept" && answer.result?.routine_id) {
        toast("Routine saved and made active.");
      }
    } catch (error) {
      control.disabled = false;
      toast(error instanceof ApiError ? error.message : "Something went wrong. Please try again.");
    }
  }

  draw();
  return element;
}

function statusText(status) {
  return { accepted: "Accepted", rejected: "Rejected", active: "In progress", completed: "Completed" }[status] || status;
}

function content(card, context) {
  const data = card.data;
  switch (card.type) {
    case "session_plan":
    case "template_update":
      return exerciseList(data.exercises || data.template?.exercises || []);
    case "routine_summary":
    case "routine_update":
      return routine(data);
    case "visualization":
      return visualization(card);
    case "clarify_questions":
      return questions(data, card, context);
    case "analysis_summary":
      return analysis(data);
    default:
      return h("p", {}, data.text || data.message || data.summary || card.subtitle || "");
  }
}

function setsText(exercise) {
  if (Array.isArray(exercise.sets)) {
    const sets = exercise.sets;
    const first = sets[0] || {};
    const reps = first.target_reps ?? first.reps;
    const weight = first.target_weight_kg ?? first.weight_kg;
    return `${sets.length} × ${reps ?? "—"}${weight != null ? ` · ${fmt.weight(weight)}` : ""}`;
  }
  // A day as the card shows it: sets × reps, the first set's weight when the plan has one, and the effort.
  const weight = exercise.weight_kg != null ? ` @ ${fmt.weight(exercise.weight_kg)}` : "";
  return `${exercise.sets ?? "—"} × ${exercise.reps ?? "—"}${weight}${exercise.rir != null ? ` · RIR ${exercise.rir}` : ""}`;
}

function exerciseList(exercises) {
  return h("ul", { class: "exercise-lines" }, exercises.map((exercise) =>
    h("li", {}, h("span", {}, exercise.name || exercise.exercise_id), h("span", { class: "muted numeric" }, setsText(exercise)))));
}

function routine(data) {
  const days = data.days || (data.templates || []).map((t) => ({ name: t.name, exercises: t.exercises }));
  return [
    data.routine?.description ? h("p", { class: "muted" }, data.routine.description) : null,
    ...days.map((day) => h("section", { class: "stack" }, h("p", { class: "section-title" }, day.name), exerciseList(day.exercises || []))),
  ];
}

function visualization(card) {
  const data = card.data;
  const unit = data.unit === "kg" || /_kg$/.test(data.metric || "");
  const points = (data.points || []).map((p) => ({
    label: p.label || (p.week_start ? fmt.shortDate(p.week_start) : String(p.x ?? "")),
    value: unit ? fmt.weightValue(p.value ?? p.y) : Number(p.value ?? p.y ?? 0),
  }));
  const format = (v) => (unit ? `${Math.round(v)}` : String(Math.round(v)));
  const title = `${card.title}${unit ? ` (${fmt.units()})` : ""}`;
  if (data.chart === "table" && Array.isArray(data.rows)) {
    // The lifts ranked: each row is a lift with its e1RM and change, in kilograms; shown in the user's unit.
    const columns = Array.isArray(data.columns) ? data.columns : ["Lift", "Estimated 1RM", "Change (4 weeks)"];
    const change = (kg) => (kg == null ? "—" : `${kg > 0 ? "+" : ""}${fmt.weight(kg)}`);
    return h("table", { class: "table" },
      h("thead", {}, h("tr", {}, columns.map((column) => h("th", { scope: "col" }, String(column))))),
      h("tbody", {}, data.rows.map((row) => h("tr", {},
        h("th", { scope: "row" }, String(row.name ?? row.exercise_id ?? "")),
        h("td", { class: "numeric" }, fmt.weight(row.e1rm_kg)),
        h("td", { class: "numeric" }, change(row.change_kg))))));
  }
  return data.chart === "bar" ? barChart(title, points, format) : lineChart(title, points, format);
}

function questions(data, card, context) {
  return (data.questions || []).map((question) => h("fieldset", { class: "stack" },
    h("legend", {}, question.text),
    h("div", { class: "choices" }, (question.options || []).map((option) =>
      h("button", {
        class: "button small", type: "button", disabled: card.status !== "pending" || !context.ask,
        onclick: (event) => {
          // One answer per question: the choice stays marked, the others are put away.
          const chosen = event.currentTarget;
          for (const other of chosen.parentElement.querySelectorAll("button")) other.disabled = true;
          chosen.setAttribute("aria-pressed", "true");
          context.ask(option);
        },
      }, option)))));
}

function analysis(data) {
  const lines = data.findings || data.highlights || data.items || [];
  return [
    data.headline || data.summary ? h("p", {}, data.headline || data.summary) : null,
    lines.length ? h("ul", {}, lines.map((line) => h("li", {}, typeof line === "string" ? line : line.text || JSON.stringify(line)))) : null,
  ];
}

/** Lets the user change sets, reps and weights before accepting; resolves with the edited data or null. */
function editCard(card) {
  const data = structuredClone(card.data);
  const groups = data.days ? data.days.map((d) => ({ name: d.name, exercises: d.exercises })) : [{ name: card.title, exercises: data.exercises || [] }];
  return openDialog(`Edit ${card.title}`, (close) => {
    const rows = [];
    const form = h("form", { class: "stack" }, groups.map((group) => h("section", { class: "stack" },
      h("p", { class: "section-title" }, group.name),
      group.exercises.map((exercise) => {
        const count = Array.isArray(exercise.sets) ? exercise.sets.length : exercise.sets;
        const first = Array.isArray(exercise.sets) ? exercise.sets[0] || {} : exercise;
        const sets = h("input", { class: "input", type: "number", min: 1, max: 20, value: count ?? 3, "aria-label": `${exercise.name} sets` });
        const reps = h("input", { class: "input", type: "number", min: 1, max: 100, value: first.target_reps ?? first.reps ?? 8, "aria-label": `${exercise.name} reps` });
        const weight = h("input", { class: "input", type: "number", min: 0, step: "0.5", value: fmt.weightValue(first.target_weight_kg) ?? "", "aria-label": `${exercise.name} weight (${fmt.units()})` });
        rows.push({ exercise, sets, reps, weight });
        return h("div", { class: "stack" }, h("span", { class: "label" }, exercise.name), h("div", { class: "row" }, sets, "×", reps, weight));
      }))),
    h("div", { class: "row" },
      h("button", { class: "button primary", type: "submit" }, "Accept"),
      h("button", { class: "button", type: "button", onclick: () => close(null) }, "Cancel")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      for (const { exercise, sets, reps, weight } of rows) {
        const n = Math.max(1, Number(sets.value) || 1);
        const r = Math.max(1, Number(reps.value) || 1);
        const w = weight.value === "" ? null : fmt.toKg(weight.value);
        if (Array.isArray(exercise.sets)) {
          const template = exercise.sets[0] || {};
          exercise.sets = Array.from({ length: n }, () => ({ ...template, target_reps: r, target_weight_kg: w }));
        } else {
          exercise.sets = n;
          exercise.reps = r;
        }
      }
      close(data);
    });
    return form;
  });
}
