import Contracts
import Foundation
import Platform

/// The fast lane: set commands against the workout in progress, with no model. A message here with no workout in
/// progress is `FAILED_PRECONDITION`.
struct FastLane {
    let services: CoachServices

    func answer(
        _ command: SetCommand, userId: String, workoutId: String?, key: String, say: @Sendable (String) async throws -> Void
    ) async throws {
        guard let workout = try await services.workouts.activeWorkout(userId: userId), workoutId == nil || workout.id == workoutId else {
            throw ServiceError(.failedPrecondition, "No workout is in progress. Start one, then log your sets here.")
        }
        if command == .next {
            try await say(WorkoutBrief(workout).state.next.map { "Next: \($0.sentence)." } ?? "Every set of this workout is logged.")
            return
        }
        let entry: SetEntry?
        switch command {
        case .log(let value): entry = value
        default: entry = nil
        }
        let logged = try await SetLogger(workouts: services.workouts).logNext(
            userId: userId, workout: workout, entry: entry, pair: command, idempotencyKey: key)
        try await say(Self.sentence(logged))
    }

    /// "Logged Bench Press set 2: 8 × 100 kg. Next: Bench Press, set 3: 8 reps at 100 kg."
    static func sentence(_ logged: SetLogger.Logged) -> String {
        var text = "Logged \(logged.exercise) set \(logged.setNumber): \(logged.reps) × \(WorkoutBrief.NextSet.kilograms(logged.weightKg))"
        if let rir = logged.rir { text += ", \(rir) in reserve" }
        text += "."
        text += logged.next.map { " Next: \($0.sentence)." } ?? " That was the last set. Finish the workout when you are ready."
        return text
    }
}

/// The functional lane: a JSON intent from the app (`{"intent": "LOG_SET", ...}`), executed directly with no
/// model. Intents: `LOG_SET` {reps, weight_kg?, rir?}, `ADD_EXERCISE` {exercise_id, sets?}, `SWAP_EXERCISE`
/// {exercise_instance_id, new_exercise_id}. A malformed intent is `INVALID_ARGUMENT` naming the field.
struct FunctionalLane {
    let services: CoachServices

    struct Intent: Decodable {
        var intent: String
        var reps: Int?
        var weightKg: Double?
        var rir: Int?
        var exerciseId: String?
        var sets: Int?
        var exerciseInstanceId: String?
        var newExerciseId: String?

        enum CodingKeys: String, CodingKey {
            case intent, reps
            case weightKg = "weight_kg"
            case rir
            case exerciseId = "exercise_id"
            case sets
            case exerciseInstanceId = "exercise_instance_id"
            case newExerciseId = "new_exercise_id"
        }
    }

    func answer(_ message: String, userId: String, workoutId: String?, key: String, say: @Sendable (String) async throws -> Void)
        async throws
    {
        let intent: Intent
        do {
            intent = try JSONCoding.makeDecoder().decode(Intent.self, from: Data(message.utf8))
        } catch let error as DecodingError {
            throw ErrorMapper.decodingError(error)
        }
        guard let workout = try await services.workouts.activeWorkout(userId: userId), workoutId == nil || workout.id == workoutId else {
            throw ServiceError(.failedPrecondition, "No workout is in progress. Start one first.")
        }
        switch intent.intent {
        case "LOG_SET":
            guard let reps = intent.reps else { throw ServiceError.invalidArgument(field: "reps", reason: "is required for LOG_SET") }
            let logged = try await SetLogger(workouts: services.workouts).logNext(
                userId: userId, workout: workout, entry: SetEntry(reps: reps, weightKg: intent.weightKg, rir: intent.rir),
                idempotencyKey: key)
            try await say(FastLane.sentence(logged))
        case "ADD_EXERCISE":
            guard let exerciseId = intent.exerciseId else {
                throw ServiceError.invalidArgument(field: "exercise_id", reason: "is required for ADD_EXERCISE")
            }
            let after = try await services.workouts.addExercise(
                userId: userId, workoutId: workout.id, exerciseId: exerciseId, sets: intent.sets ?? 3, idempotencyKey: key)
            try await say("Added \(after.exercises.last?.name ?? exerciseId) with \(intent.sets ?? 3) sets.")
        case "SWAP_EXERCISE":
            guard let instance = intent.exerciseInstanceId else {
                throw ServiceError.invalidArgument(field: "exercise_instance_id", reason: "is required for SWAP_EXERCISE")
            }
            guard let newId = intent.newExerciseId else {
                throw ServiceError.invalidArgument(field: "new_exercise_id", reason: "is required for SWAP_EXERCISE")
            }
            let after = try await services.workouts.swapExercise(
                userId: userId, workoutId: workout.id, exerciseInstanceId: instance, newExerciseId: newId, idempotencyKey: key)
            try await say("Swapped in \(after.exercises.first { $0.instanceId == instance }?.name ?? newId).")
        default:
            throw ServiceError.invalidArgument(
                field: "intent",
                reason: "must be LOG_SET, ADD_EXERCISE or SWAP_EXERCISE (PRESCRIBE_SET and COMPLETE_WORKOUT are not built yet)")
        }
    }
}
