import Contracts
import Foundation
import Platform

/// The functional lane: a JSON intent from the app (`{"intent": "LOG_SET", ...}`), executed directly with no
/// model. A malformed intent is `INVALID_ARGUMENT` naming the field.
struct FunctionalLane {
    let services: CoachServices

    func answer(
        _ message: String, userId: String, workoutId: String?, key: String, unit: WeightUnit, say: @Sendable (String) async throws -> Void
    ) async throws {
        let intent: Intent
        do {
            intent = try JSONCoding.makeDecoder().decode(Intent.self, from: Data(message.utf8))
        } catch let error as DecodingError {
            throw ErrorMapper.decodingError(error)
        } catch {
            throw ServiceError.invalidArgument(field: "message", reason: "not a JSON intent")
        }
        try await say(
            try await WorkoutActions(services: services).run(intent, userId: userId, workoutId: workoutId, key: key, unit: unit).sentence)
    }
}

/// A workout intent, as the app sends it in the functional lane and as the workout tools take their arguments:
/// - `LOG_SET` {`reps`, `weight_kg`?, `rir`?}: the next unlogged set;
/// - `ADD_EXERCISE` {`exercise_id`, `sets`? (3)};
/// - `SWAP_EXERCISE` {`exercise_instance_id`, `new_exercise_id`};
/// - `PRESCRIBE_SET` {`target_reps`?, `target_weight_kg`?, `target_rir`?}: the next unlogged set's targets;
/// - `COMPLETE_WORKOUT` {};
/// - `CANCEL_WORKOUT` {}: ends it with nothing saved to the history.
struct Intent: Codable, Sendable {
    var intent: String
    var reps: Int? = nil
    var weightKg: Double? = nil
    var rir: Int? = nil
    var exerciseId: String? = nil
    var sets: Int? = nil
    var exerciseInstanceId: String? = nil
    var newExerciseId: String? = nil
    var targetReps: Int? = nil
    var targetWeightKg: Double? = nil
    var targetRir: Int? = nil

    enum CodingKeys: String, CodingKey {
        case intent, reps
        case weightKg = "weight_kg"
        case rir
        case exerciseId = "exercise_id"
        case sets
        case exerciseInstanceId = "exercise_instance_id"
        case newExerciseId = "new_exercise_id"
        case targetReps = "target_reps"
        case targetWeightKg = "target_weight_kg"
        case targetRir = "target_rir"
    }

    static let names = ["LOG_SET", "ADD_EXERCISE", "SWAP_EXERCISE", "PRESCRIBE_SET", "COMPLETE_WORKOUT", "CANCEL_WORKOUT"]
}

/// Runs workout intents against the workout in progress through `ActiveWorkoutControl`, idempotent under `key`; the
/// sentence it answers gives weights in the user's unit (an intent's numbers are kilograms, as the API's are).
struct WorkoutActions {
    let services: CoachServices

    struct Outcome {
        var sentence: String
        /// The workout as it stands after the intent (nil once completed).
        var state: WorkoutBrief.State?
    }

    func run(_ intent: Intent, userId: String, workoutId: String?, key: String, unit: WeightUnit) async throws -> Outcome {
        guard Intent.names.contains(intent.intent) else {
            throw ServiceError.invalidArgument(field: "intent", reason: "must be one of \(Intent.names.joined(separator: ", "))")
        }
        guard let workout = try await services.workouts.activeWorkout(userId: userId), workoutId == nil || workout.id == workoutId else {
            throw ServiceError(.failedPrecondition, "No workout is in progress. Start one first.")
        }
        let workouts = services.workouts
        switch intent.intent {
        case "LOG_SET":
            guard let reps = intent.reps else { throw ServiceError.invalidArgument(field: "reps", reason: "is required for LOG_SET") }
            let logged = try await SetLogger(workouts: workouts).logNext(
                userId: userId, workout: workout, entry: SetEntry(reps: reps, weightKg: intent.weightKg, rir: intent.rir),
                idempotencyKey: key)
            let after = try await workouts.activeWorkout(userId: userId)
            return Outcome(sentence: FastLane.sentence(logged, unit: unit), state: after.map { WorkoutBrief($0).state })
        case "ADD_EXERCISE":
            guard let exerciseId = intent.exerciseId else {
                throw ServiceError.invalidArgument(field: "exercise_id", reason: "is required for ADD_EXERCISE")
            }
            let sets = intent.sets ?? 3
            let after = try await workouts.addExercise(
                userId: userId, workoutId: workout.id, exerciseId: exerciseId, sets: sets, idempotencyKey: key)
            return Outcome(
                sentence: "Added \(after.exercises.last?.name ?? exerciseId) with \(sets) sets.", state: WorkoutBrief(after).state)
        case "SWAP_EXERCISE":
            guard let instance = intent.exerciseInstanceId else {
                throw ServiceError.invalidArgument(field: "exercise_instance_id", reason: "is required for SWAP_EXERCISE")
            }
            guard let newId = intent.newExerciseId else {
                throw ServiceError.invalidArgument(field: "new_exercise_id", reason: "is required for SWAP_EXERCISE")
            }
            let after = try await workouts.swapExercise(
                userId: userId, workoutId: workout.id, exerciseInstanceId: instance, newExerciseId: newId, idempotencyKey: key)
            let name = after.exercises.first { $0.exerciseId == newId }?.name ?? newId
            return Outcome(sentence: "Swapped in \(name).", state: WorkoutBrief(after).state)
        case "PRESCRIBE_SET":
            guard let (exercise, set) = WorkoutBrief.nextSet(of: workout) else {
                throw ServiceError(.failedPrecondition, "Every set of this workout is logged; there is no set to prescribe.")
            }
            let after = try await workouts.prescribeSet(
                userId: userId, workoutId: workout.id, exerciseInstanceId: exercise.instanceId, setId: set.id,
                targetReps: intent.targetReps,
                targetWeightKg: intent.targetWeightKg, targetRir: intent.targetRir, idempotencyKey: key)
            let state = WorkoutBrief(after).state
            return Outcome(sentence: state.next.map { "Next: \($0.sentence(in: unit))." } ?? "Prescribed.", state: state)
        case "CANCEL_WORKOUT":
            try await workouts.cancelWorkout(userId: userId, workoutId: workout.id, idempotencyKey: key)
            return Outcome(sentence: "Workout cancelled; nothing was saved to your history.", state: nil)
        default:  // COMPLETE_WORKOUT
            let completed = try await workouts.completeWorkout(userId: userId, workoutId: workout.id, idempotencyKey: key)
            let sets = completed.exercises.reduce(0) { $0 + $1.sets.count }
            return Outcome(
                sentence: "Workout complete: \(sets) sets over \(completed.exercises.count) exercises. Well done.", state: nil)
        }
    }
}

extension JSONValue {
    /// Decodes a tool's arguments as an intent of the given name.
    func decode(_ type: Intent.Type, adding intent: String) throws -> Intent {
        var object: [String: JSONValue] = [:]
        if case .object(let fields) = self { object = fields }
        object["intent"] = .string(intent)
        return try JSONValue.object(object).decode(Intent.self)
    }
}
