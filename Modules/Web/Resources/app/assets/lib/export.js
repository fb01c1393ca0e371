// Exports the user's data: everything as JSON, or the workout history as a Strong-style CSV (which the import
// reads back).
import { call } from "./api.js";
import { toast } from "./dom.js";

async function all(name, body = {}) {
  const items = [];
  let cursor = null;
  do {
    const page = await call(name, { ...body, limit: 50, ...(cursor ? { cursor } : {}) });
    items.push(...(page.items || []));
    cursor = page.next_cursor || null;
  } while (cursor && items.length < 100_000);
  return items;
}

async function history() {
  const list = await all("getRecentWorkouts");
  const workouts = [];
  for (const item of list) workouts.push(item.exercises ? item : await call("getWorkout", { workout_id: item.id }));
  return workouts;
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function busy(button, work) {
  button.disabled = true;
  try { await work(); } catch (error) { toast(error.message); } finally { button.disabled = false; }
}

export function exportJSON(ctx, button) {
  return busy(button, async () => {
    const [profile, workouts, templates, routines] = await Promise.all([call("getUser", {}), history(), all("getTemplates"), all("getRoutines")]);
    const stamp = new Date().toISOString().slice(0, 10);
    download(`povver-export-${stamp}.json`, "application/json", JSON.stringify({ exported_at: new Date().toISOString(), profile, workouts, templates, routines }, null, 2));
    toast("Export ready.");
  });
}

const cell = (value) => {
  const text = value == null ? "" : String(value);
  return /[",\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

function localDateTime(iso) {
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Strong's columns; weights in kg (the `Weight (kg)` column), RPE from RIR (10 − RIR). */
export function strongCSV(workouts) {
  const rows = [["Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight (kg)", "Reps", "Distance", "Seconds", "Notes", "Workout Notes", "RPE"]];
  for (const workout of workouts) {
    const start = workout.start_time || workout.created_at;
    const minutes = workout.end_time ? Math.max(0, Math.round((new Date(workout.end_time) - new Date(start)) / 60000)) : 0;
    for (const exercise of workout.exercises || []) {
      let order = 0;
      for (const set of exercise.sets || []) {
        if (!set.completed_at && set.reps == null) continue;
        order += 1;
        rows.push([localDateTime(start), workout.name || "Workout", `${minutes}m`, exercise.name, order, set.weight_kg ?? 0, set.reps ?? 0, "", "", "", "", set.rir == null ? "" : 10 - set.rir]);
      }
    }
  }
  return rows.map((row) => row.map(cell).join(",")).join("\n") + "\n";
}

export function exportStrongCSV(ctx, button) {
  return busy(button, async () => {
    const workouts = await history();
    download(`povver-strong-${new Date().toISOString().slice(0, 10)}.csv`, "text/csv", strongCSV(workouts));
    toast("Export ready.");
  });
}
