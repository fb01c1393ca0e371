import Contracts
import Foundation
import Platform

/// Logs into the workout's next unlogged set (the first set, in exercise order, with nothing logged) through the
/// Workouts contract, and says what was logged and what comes next.
struct SetLogger {
    let workouts: any ActiveWorkoutControl

    /// What a fast-lane or tool log did.
    struct Logged: Codable, Sendable, Equatable {
        var exercise: String
        var setNumber: Int
        var reps: Int
        var weightKg: Double
        var rir: Int?
        var next: WorkoutBrief.NextSet?

        enum CodingKeys: String, CodingKey {
            case exercise
            case setNumber = "set_number"
            case reps
            case weightKg = "weight_kg"
            case rir, next
        }
    }

    /// Logs `entry` (or, with none, `pair` resolved against the set with its weight in `unit`, or the set as planned)
    /// into the workout's next unlogged set.
    func logNext(
        userId: String, workout: ActiveWorkout, entry: SetEntry?, pair: SetCommand? = nil, unit: WeightUnit = .kilograms,
        idempotencyKey: String
    ) async throws -> Logged {
        guard let (exercise, set) = WorkoutBrief.nextSet(of: workout) else {
            throw ServiceError(.failedPrecondition, "Every set of this workout is logged. Add an exercise, or finish the workout.")
        }
        let chosen: SetEntry
        if let entry {
            chosen = entry
        } else if let resolved = pair?.resolved(targetReps: set.targetReps, unit: unit) {
            chosen = resolved
        } else if let reps = set.targetReps {
            chosen = SetEntry(reps: reps, weightKg: set.targetWeightKg, rir: nil)
        } else if let previous = exercise.sets.last(where: { $0.completedAt != nil && $0.reps != nil }), let reps = previous.reps {
            // No plan: "done" repeats the exercise's last logged set.
            chosen = SetEntry(reps: reps, weightKg: previous.weightKg, rir: previous.rir)
        } else {
            throw ServiceError(.failedPrecondition, "This set has no planned reps. Say what you did, for example \"8 @ 100\".")
        }
        let weight = chosen.weightKg ?? set.targetWeightKg ?? 0
        let after = try await workouts.logSet(
            userId: userId, workoutId: workout.id, exerciseInstanceId: exercise.instanceId, setId: set.id, weightKg: weight,
            reps: chosen.reps, rir: chosen.rir, idempotencyKey: idempotencyKey)
        return Logged(
            exercise: exercise.name, setNumber: set.setIndex + 1, reps: chosen.reps, weightKg: weight, rir: chosen.rir,
            next: WorkoutBrief(after).state.next)
    }
}

/// A compact view of the workout in progress: for workout mode's brief, `get_workout_state` and "next set".
struct WorkoutBrief {
    let workout: ActiveWorkout

    init(_ workout: ActiveWorkout) { self.workout = workout }

    struct NextSet: Codable, Sendable, Equatable {
        var exercise: String
        var setNumber: Int
        var targetReps: Int?
        var targetWeightKg: Double?
        var targetRir: Int?

        enum CodingKeys: String, CodingKey {
            case exercise
            case setNumber = "set_number"
            case targetReps = "target_reps"
            case targetWeightKg = "target_weight_kg"
            case targetRir = "target_rir"
        }

        /// "Bench Press, set 2: 8 reps at 100 kg, 2 in reserve", the weight in the user's unit.
        func sentence(in unit: WeightUnit) -> String {
            var text = "\(exercise), set \(setNumber)"
            if let reps = targetReps {
                text += ": \(reps) reps"
                if let weight = targetWeightKg, weight > 0 { text += " at \(unit.text(kilograms: weight))" }
                if let rir = targetRir { text += ", \(rir) in reserve" }
            }
            return text
        }
    }

    struct State: Codable, Sendable, Equatable {
        struct ExerciseState: Codable, Sendable, Equatable {
            var instanceId: String
            var exerciseId: String
            var name: String
            var logged: Int
            var sets: Int

            enum CodingKeys: String, CodingKey {
                case instanceId = "exercise_instance_id"
                case exerciseId = "exercise_id"
                case name, logged, sets
            }
        }
        var workoutId: String
        var name: String?
        var exercises: [ExerciseState]
        var next: NextSet?

        enum CodingKeys: String, CodingKey {
            case workoutId = "workout_id"
            case name, exercises, next
        }
    }

    static func nextSet(of workout: ActiveWorkout) -> (WorkoutExercise, WorkoutSet)? {
        for exercise in workout.exercises {
            if let set = exercise.sets.first(where: { $0.completedAt == nil }) { return (exercise, set) }
        }
        return nil
    }

    var state: State {
        State(
            workoutId: workout.id, name: workout.name,
            exercises: workout.exercises.map {
                State.ExerciseState(
                    instanceId: $0.instanceId, exerciseId: $0.exerciseId, name: $0.name,
                    logged: $0.sets.filter { $0.completedAt != nil }.count,
                    sets: $0.sets.count)
            },
            next: Self.nextSet(of: workout).map { exercise, set in
                NextSet(
                    exercise: exercise.name, setNumber: set.setIndex + 1, targetReps: set.targetReps, targetWeightKg: set.targetWeightKg,
                    targetRir: set.targetRir)
            })
    }

    /// A few lines for a model's context in workout mode (bounded: at most 12 exercises named), weights in `unit`.
    func text(in unit: WeightUnit) -> String {
        let state = self.state
        var lines = ["Workout in progress: \(state.name ?? "Workout")."]
        for exercise in state.exercises.prefix(12) { lines.append("- \(exercise.name): \(exercise.logged)/\(exercise.sets) sets logged") }
        lines.append(state.next.map { "Next: \($0.sentence(in: unit))." } ?? "Every set is logged.")
        return lines.joined(separator: "\n")
    }
}
