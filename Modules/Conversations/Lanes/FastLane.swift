import Contracts
import Foundation
import Platform

/// The fast lane: set commands against the workout in progress, with no model, in workout mode or in any chat while a
/// workout is in progress. With none in progress a set command gets a sentence saying how to start one, never an
/// error. "finished" / "I'm done" never log a set: they propose finishing the workout (a `suggestion` card the user
/// accepts). It answers with weights in the user's unit (`unit`), as the command's bare weights were read.
struct FastLane {
    let services: CoachServices

    static let noWorkout = """
        There is no workout in progress, so nothing was logged. Start one from Plans, or ask me "what should I do today?", \
        then tell me your sets here, like "8 @ 100".
        """

    func answer(
        _ command: SetCommand, userId: String, workoutId: String?, key: String, unit: WeightUnit, toolbox: CoachToolbox,
        say: @Sendable (String) async throws -> Void
    ) async throws {
        guard let workout = try await services.workouts.activeWorkout(userId: userId), workoutId == nil || workout.id == workoutId else {
            try await say(command == .finish ? "There is no workout in progress to finish." : Self.noWorkout)
            return
        }
        if command == .finish {
            try await proposeFinishing(workout, toolbox: toolbox, say: say)
            return
        }
        if command == .next {
            try await say(
                WorkoutBrief(workout).state.next.map { "Next: \($0.sentence(in: unit))." } ?? "Every set of this workout is logged.")
            return
        }
        if command == .skip {
            guard let (exercise, set) = WorkoutBrief.nextSet(of: workout) else {
                throw ServiceError(.failedPrecondition, "Every set of this workout is logged; there is no set to skip.")
            }
            let after = try await services.workouts.removeSet(
                userId: userId, workoutId: workout.id, exerciseInstanceId: exercise.instanceId, setId: set.id, idempotencyKey: key)
            let next = WorkoutBrief(after).state.next.map { " Next: \($0.sentence(in: unit))." } ?? " That was the last set."
            try await say("Skipped \(exercise.name) set \(set.setIndex + 1).\(next)")
            return
        }
        let entry: SetEntry?
        switch command {
        case .log(let value): entry = value
        default: entry = nil
        }
        let logged = try await SetLogger(workouts: services.workouts).logNext(
            userId: userId, workout: workout, entry: entry, pair: command, unit: unit, idempotencyKey: key)
        try await say(Self.sentence(logged, unit: unit))
    }

    /// "Logged Bench Press set 2: 8 × 100 kg. Next: Bench Press, set 3: 8 reps at 100 kg.", weights in `unit`
    /// ("8 × 225 lb").
    static func sentence(_ logged: SetLogger.Logged, unit: WeightUnit) -> String {
        var text = "Logged \(logged.exercise) set \(logged.setNumber): \(logged.reps) × \(unit.text(kilograms: logged.weightKg))"
        if let rir = logged.rir { text += ", \(rir) in reserve" }
        text += "."
        text += logged.next.map { " Next: \($0.sentence(in: unit))." } ?? " That was the last set. Finish the workout when you are ready."
        return text
    }

    /// "Finish Push? 12 of 15 sets logged.": a `suggestion` card whose acceptance finishes the workout; with nothing
    /// logged, a sentence instead (an empty workout is cancelled, not finished).
    func proposeFinishing(_ workout: ActiveWorkout, toolbox: CoachToolbox, say: @Sendable (String) async throws -> Void) async throws {
        let state = WorkoutBrief(workout).state
        let logged = state.exercises.reduce(0) { $0 + $1.logged }
        let planned = state.exercises.reduce(0) { $0 + $1.sets }
        let name = state.name ?? "your workout"
        guard logged > 0 else {
            try await say("Nothing is logged in \(name) yet. Log a set first, or cancel the workout from the workout screen.")
            return
        }
        let text = "\(logged) of \(planned) sets logged."
        _ = try await toolbox.propose(
            .suggestion, title: "Finish \(name)?",
            data: ["action": "complete_workout", "workout_id": .string(workout.id), "text": .string(text)])
        try await say("Finish \(name)? \(text) Accept to save it to your history.")
    }
}
