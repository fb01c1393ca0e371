import Contracts

/// How one exercise went against its prescription in one completed workout: the input of the progression rules.
///
/// - `met`: every prescribed set (one with target reps) was done, with at least its target reps, at least its
///   target weight, and at or below its target effort (logged RIR ≥ target RIR). The weight goes up next time.
/// - `harder`: the reps and weights were met, but some set was harder than planned (logged RIR below its target),
///   or its effort is unknown (a target RIR with no RIR logged): hold the weight.
/// - `missed`: a prescribed set was skipped, short of its reps or lighter than its target weight. Two missed
///   sessions of an exercise in a row deload it.
/// - `unprescribed`: no set had target reps; nothing to judge (a freeform exercise).
public enum SessionVerdict: String, Codable, Sendable, Equatable {
    case met, harder, missed, unprescribed

    /// The verdict of an exercise's sets (every instance of the exercise in the workout together).
    public static func of(_ sets: [WorkoutSet]) -> SessionVerdict {
        let prescribed = sets.filter { $0.targetReps != nil }
        guard !prescribed.isEmpty else { return .unprescribed }
        var harder = false
        for set in prescribed {
            guard let reps = set.reps, let target = set.targetReps, reps >= target else {
                return .missed
            }
            if let targetWeight = set.targetWeightKg, (set.weightKg ?? 0) + 0.0005 < targetWeight { return .missed }
            if let targetRir = set.targetRir {
                guard let rir = set.rir, rir >= targetRir else {
                    harder = true
                    continue
                }
            }
        }
        return harder ? .harder : .met
    }
}

/// One exercise of a completed workout as the analyst judges it.
public struct ExerciseSession: Sendable, Equatable {
    public var exerciseId: String
    public var name: String
    public var verdict: SessionVerdict
    /// The heaviest weight done on the exercise (the exercise-scoped baseline), 0 when none.
    public var topWeightKg: Double
    /// Logged RIR minus target RIR, averaged over the sets that have both (effort drift), or nil.
    public var rirDrift: Double?

    /// Each exercise of the workout, in the workout's order, its instances together.
    public static func sessions(of workout: CompletedWorkout) -> [ExerciseSession] {
        var order: [String] = []
        var byExercise: [String: (name: String, sets: [WorkoutSet])] = [:]
        for exercise in workout.exercises {
            if byExercise[exercise.exerciseId] == nil { order.append(exercise.exerciseId) }
            byExercise[exercise.exerciseId, default: (exercise.name, [])].sets += exercise.sets
        }
        return order.compactMap { id in
            guard let entry = byExercise[id] else { return nil }
            let done = entry.sets.filter { $0.reps != nil }
            let drifts = entry.sets.compactMap { set -> Int? in
                guard let rir = set.rir, let target = set.targetRir else { return nil }
                return rir - target
            }
            return ExerciseSession(
                exerciseId: id, name: entry.name, verdict: SessionVerdict.of(entry.sets),
                topWeightKg: done.compactMap(\.weightKg).max() ?? 0,
                rirDrift: drifts.isEmpty ? nil : Double(drifts.reduce(0, +)) / Double(drifts.count))
        }
    }
}
