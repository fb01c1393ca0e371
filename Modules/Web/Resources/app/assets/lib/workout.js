// The active workout (the iOS app's FocusModeWorkoutService): the document is kept in localStorage, every set is
// applied on screen at once and its write queued with its idempotency key (queue.js), so a reload or a lost
// signal loses nothing. Finishing first drains the queue, then completes.
import { call, newKey, ApiError } from "./api.js";
import { createQueue } from "./queue.js";
import { toast } from "./dom.js";

export function createWorkoutService(userId, store) {
  const docKey = `povver.workout.${userId}`;
  const listeners = new Set();
  let doc = JSON.parse(localStorage.getItem(docKey) || "null");
  let finished = null;
  const queue = createQueue(`povver.queue.${userId}`, {
    onChange: (items) => store.set({ pending: items.length }),
    onRefused: (item, error) => {
      toast(`Not saved: ${error.message}`);
      if (item.name === "completeActiveWorkout" || item.name === "cancelActiveWorkout") return;
      reload();
    },
    onSent: (item, data) => {
      if (item.name === "logSet" && doc) {
        mutate((next) => {
          for (const exercise of next.exercises) for (const set of exercise.sets) if (set.id === item.body.set_id) delete set.pending;
        });
      } else if (item.name === "completeActiveWorkout") {
        finished = data;
        save(null);
      } else if (item.name === "cancelActiveWorkout") {
        save(null);
      }
    },
  });
  store.set({ pending: queue.size });

  function save(next) {
    doc = next;
    if (doc) localStorage.setItem(docKey, JSON.stringify(doc));
    else localStorage.removeItem(docKey);
    for (const listener of listeners) listener(doc);
  }

  function totals(workout) {
    let sets = 0, reps = 0, volume = 0;
    for (const exercise of workout.exercises) {
      for (const set of exercise.sets) {
        if (!set.completed_at) continue;
        sets += 1;
        reps += set.reps || 0;
        volume += (set.weight_kg || 0) * (set.reps || 0);
      }
    }
    return { sets, reps, volume };
  }

  function mutate(change) {
    const next = structuredClone(doc);
    change(next);
    next.totals = totals(next);
    save(next);
  }

  async function reload() {
    if (queue.size) return doc;
    try {
      save(await call("getActiveWorkout"));
    } catch (error) {
      if (!(error instanceof ApiError && error.offline)) throw error;
    }
    return doc;
  }

  /** Writes that need the server's answer (new ids): refused while offline. */
  async function online(name, body) {
    await queue.drain();
    if (queue.size) throw new ApiError("NETWORK", "This needs a connection. Your logged sets are safe and will sync.");
    save(await call(name, { workout_id: doc.id, idempotency_key: newKey(), ...body }));
    return doc;
  }

  return {
    get doc() { return doc; },
    get pending() { return queue.pending(); },
    hasActive: () => doc !== null,
    subscribe(listener) { listeners.add(listener); return () => listeners.delete(listener); },
    /** The server's document when nothing waits to be sent; else the local one. */
    load: reload,
    /** Sends what waits, then reads the document again. */
    async sync() {
      const done = await queue.drain();
      if (done && doc) await reload();
    },
    /** Starts a workout (`template_id`, `routine_id` or neither for an empty one); an open one is resumed. */
    async start(params = {}) {
      try {
        save(await call("startActiveWorkout", { ...params, idempotency_key: newKey() }));
      } catch (error) {
        if (error.code !== "CONFLICT") throw error;
        await reload();
      }
      finished = null;
      return doc;
    },
    /** Logs a set: on screen now, sent in order. */
    logSet(instanceId, setId, { weight_kg, reps, rir }) {
      mutate((next) => {
        const set = next.exercises.find((e) => e.instance_id === instanceId)?.sets.find((s) => s.id === setId);
        if (!set) return;
        Object.assign(set, { weight_kg, reps, rir, completed_at: new Date().toISOString(), pending: true });
      });
      queue.enqueue("logSet", {
        workout_id: doc.id, exercise_instance_id: instanceId, set_id: setId, weight_kg, reps,
        ...(rir == null ? {} : { rir }), idempotency_key: newKey(),
      });
    },
    /** Removes a set or an exercise (queued: they are named by their ids). */
    remove(op) {
      mutate((next) => {
        const exercise = next.exercises.find((e) => e.instance_id === op.exercise_instance_id);
        if (op.op === "remove_exercise") next.exercises = next.exercises.filter((e) => e !== exercise);
        else if (exercise) exercise.sets = exercise.sets.filter((s) => s.id !== op.set_id);
      });
      queue.enqueue("patchActiveWorkout", { workout_id: doc.id, ops: [op], idempotency_key: newKey() });
    },
    addSet: (instanceId, target) => online("patchActiveWorkout", { ops: [{ op: "add_set", exercise_instance_id: instanceId, ...target }] }),
    reorder: (order) => online("patchActiveWorkout", { ops: [{ op: "reorder_exercises", order }] }),
    addExercise: (exerciseId, sets = 3) => online("addExercise", { exercise_id: exerciseId, sets }),
    swapExercise: (instanceId, exerciseId) => online("swapExercise", { exercise_instance_id: instanceId, new_exercise_id: exerciseId }),
    /** Finishes: what waits is sent first, then the completion. Resolves with the archived workout, or null while offline. */
    async finish() {
      queue.enqueue("completeActiveWorkout", { workout_id: doc.id, idempotency_key: newKey() });
      await queue.drain();
      return queue.size ? null : finished;
    },
    async cancel() {
      queue.enqueue("cancelActiveWorkout", { workout_id: doc.id, idempotency_key: newKey() });
      await queue.drain();
      return queue.size === 0;
    },
    /** Whether a finish waits in the queue. */
    get finishing() { return queue.pending().some((item) => item.name === "completeActiveWorkout"); },
    get lastFinished() { return finished; },
  };
}
