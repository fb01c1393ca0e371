import Contracts

/// A template's first weights, from its first session (docs/recommendations.md "Starting weights"): a plan the coach
/// made for a lift the user had no history of plans its sets without a weight, and the workout that trains it
/// calibrates them.
///
/// The exercise's best logged set gives its e1RM (`StrengthEstimate`), counting the reps the set had left in
/// reserve: its logged RIR, else the RIR its plan targeted (it was done as planned), else 2. Each planned set without
/// a weight then gets the weight that e1RM gives for its target reps and RIR (2 when none), on the plate grid of the
/// user's unit: a set logged as planned ("8 @ 135" for 8 reps) plans 135 again. A set without target reps, an
/// exercise with no weighted set logged (a bodyweight move) and a weight past 500 kg are left as they are.
enum Calibration {
    /// The heaviest weight a calibration plans (as a plan's weights are bounded).
    static let maxKilograms = 500.0

    /// Fills the weightless planned sets of `exercises` from the sessions that trained them; answers one `calibrate`
    /// change per exercise that got weights.
    static func calibrate(_ exercises: inout [PlannedExercise], from sessions: [ExerciseSession], unit: WeightUnit) -> [ExerciseChange] {
        var changes: [ExerciseChange] = []
        for session in sessions {
            guard let e1rm = e1rm(of: session.sets) else { continue }
            var setChanges: [SetWeightChange] = []
            for position in exercises.indices where exercises[position].exerciseId == session.exerciseId {
                for index in exercises[position].sets.indices {
                    let set = exercises[position].sets[index]
                    guard set.targetWeightKg == nil, let reps = set.targetReps else { continue }
                    let raw = StrengthEstimate.weight(e1rmKg: e1rm, reps: reps, rir: set.targetRir ?? StrengthEstimate.assumedRir)
                    guard let weight = unit.plateWeight(nearestKilograms: raw), weight <= maxKilograms else { continue }
                    exercises[position].sets[index].targetWeightKg = weight
                    setChanges.append(SetWeightChange(setIndex: index, fromWeightKg: nil, toWeightKg: weight))
                }
            }
            let reason = "Its first weights, from what you logged in this session."
            if let change = ProgressionPlanner.summary(of: setChanges, session: session, action: .calibrate, reason: reason) {
                changes.append(change)
            }
        }
        return changes
    }

    /// The best e1RM of the logged sets with a weight, counting their reps in reserve; nil when none has one.
    static func e1rm(of sets: [WorkoutSet]) -> Double? {
        sets.compactMap { set -> Double? in
            guard let reps = set.reps, reps > 0, let weight = set.weightKg, weight > 0, weight.isFinite else { return nil }
            return StrengthEstimate.e1rm(weightKg: weight, reps: reps, rir: set.rir ?? set.targetRir ?? StrengthEstimate.assumedRir)
        }.max()
    }
}
