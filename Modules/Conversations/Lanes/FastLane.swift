import Contracts
import Foundation
import Platform

/// The fast lane: set commands against the workout in progress, with no model. A message here with no workout in
/// progress is `FAILED_PRECONDITION`. It answers with weights in the user's unit (`unit`), as the command's bare
/// weights were read.
struct FastLane {
    let services: CoachServices

    func answer(
        _ command: SetCommand, userId: String, workoutId: String?, key: String, unit: WeightUnit,
        say: @Sendable (String) async throws -> Void
    ) async throws {
        guard let workout = try await services.workouts.activeWorkout(userId: userId), workoutId == nil || workout.id == workoutId else {
            throw ServiceError(.failedPrecondition, "No workout is in progress. Start one, then log your sets here.")
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
}
