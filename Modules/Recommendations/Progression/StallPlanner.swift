import Contracts

/// What the weekly review proposes for a lift that stalled (docs/recommendations.md "Stalls"): a top lift whose best
/// e1RM of the last 4 weeks is no higher than the 4 weeks before's.
///
/// - Down more than 2.5 %: a deload (−10 %, `WeightProgression`).
/// - Otherwise (flat): a change of rep range, 8 reps or more down by 3 (not under 3), fewer up by 3 (5 → 8, 8 → 5,
///   12 → 9), the weight brought to the new reps by the same e1RM (`StrengthEstimate`, at the set's RIR) on the plate
///   grid of the user's unit.
enum StallPlanner {
    /// How far under the weeks before a lift's e1RM must fall to be deloaded rather than given new reps.
    static let regression = 0.025

    /// A stalled lift and what it gets.
    struct Stall: Sendable, Equatable {
        var exerciseId: String
        var name: String
        var e1rmKg: Double
        var previousE1rmKg: Double

        var action: ProgressionAction { e1rmKg < previousE1rmKg * (1 - StallPlanner.regression) ? .deload : .repRange }

        var reason: String {
            action == .deload
                ? "Its estimated 1RM fell on the 4 weeks before: a lighter block to recover."
                : "Its estimated 1RM has not risen on the 4 weeks before: a new rep range to move it again."
        }
    }

    /// The stalled lifts of the training context's top lifts.
    static func stalls(_ lifts: [TrainingContext.LiftTrend]) -> [Stall] {
        lifts.compactMap { lift in
            guard let previous = lift.previousE1rmKg, previous > 0, lift.e1rmKg > 0, lift.e1rmKg <= previous + 0.05 else { return nil }
            return Stall(exerciseId: lift.exerciseId, name: lift.name, e1rmKg: lift.e1rmKg, previousE1rmKg: previous)
        }
    }

    /// The reps of the next rep range: 8 or more, 3 fewer (at least 3); under 8, 3 more.
    static func nextReps(_ reps: Int) -> Int {
        reps >= 8 ? max(3, reps - 3) : reps + 3
    }

    /// One planned set's change: its weight deloaded, or its reps and weight moved to the next rep range. Nil for a set
    /// without a weight (or, for a rep range, without reps), or one that would not change.
    static func change(_ set: TemplateSet, index: Int, action: ProgressionAction, unit: WeightUnit) -> SetWeightChange? {
        guard let from = set.targetWeightKg, from > 0 else { return nil }
        switch action {
        case .deload:
            guard let to = WeightProgression.deloaded(from, unit: unit), to != from else { return nil }
            return SetWeightChange(setIndex: index, fromWeightKg: from, toWeightKg: to)
        case .repRange:
            guard let reps = set.targetReps, let to = repRangeWeight(from, reps: reps, rir: set.targetRir, unit: unit) else { return nil }
            return SetWeightChange(setIndex: index, fromWeightKg: from, toWeightKg: to.weight, fromReps: reps, toReps: to.reps)
        case .progress, .calibrate:
            return nil
        }
    }

    /// `weight` × `reps` (at `rir`, 2 when none) moved to the next rep range.
    static func repRangeWeight(_ weight: Double, reps: Int, rir: Int?, unit: WeightUnit) -> (weight: Double, reps: Int)? {
        let effort = rir ?? StrengthEstimate.assumedRir
        let next = nextReps(reps)
        let e1rm = StrengthEstimate.e1rm(weightKg: weight, reps: reps, rir: effort)
        guard let to = unit.plateWeight(nearestKilograms: StrengthEstimate.weight(e1rmKg: e1rm, reps: next, rir: effort)) else {
            return nil
        }
        return (to, next)
    }

    /// A template's changes for the stalls among its exercises, and its exercises as they become; nil when none.
    static func templateChanges(_ template: WorkoutTemplate, stalls: [Stall], unit: WeightUnit) -> (
        changes: [ExerciseChange], exercises: [PlannedExercise]
    )? {
        var exercises = template.exercises.map { PlannedExercise(exerciseId: $0.exerciseId, sets: $0.sets) }
        var changes: [ExerciseChange] = []
        for stall in stalls {
            var setChanges: [SetWeightChange] = []
            for position in exercises.indices where exercises[position].exerciseId == stall.exerciseId {
                for index in exercises[position].sets.indices {
                    guard let change = change(exercises[position].sets[index], index: index, action: stall.action, unit: unit) else {
                        continue
                    }
                    exercises[position].sets[index].targetWeightKg = change.toWeightKg
                    if let reps = change.toReps { exercises[position].sets[index].targetReps = reps }
                    setChanges.append(change)
                }
            }
            let session = ExerciseSession(
                exerciseId: stall.exerciseId, name: stall.name, verdict: .unprescribed, topWeightKg: 0, top: nil, prescribed: true,
                rirDrift: nil, sets: [])
            if let change = ProgressionPlanner.summary(of: setChanges, session: session, action: stall.action, reason: stall.reason) {
                changes.append(change)
            }
        }
        return changes.isEmpty ? nil : (changes, exercises)
    }

    /// An exercise-scoped change for a stall, from its newest week's numbers: the top weight deloaded, or the best set
    /// moved to the next rep range.
    static func exerciseChange(_ stall: Stall, week: ExerciseWeek, unit: WeightUnit) -> ExerciseChange? {
        switch stall.action {
        case .deload:
            guard let to = WeightProgression.deloaded(week.topWeightKg, unit: unit), to != week.topWeightKg else { return nil }
            return ExerciseChange(
                exerciseId: stall.exerciseId, exerciseName: stall.name, action: .deload, reason: stall.reason,
                fromWeightKg: week.topWeightKg, toWeightKg: to)
        default:
            let best = week.bestSet
            guard best.weightKg > 0, best.reps > 0, let to = repRangeWeight(best.weightKg, reps: best.reps, rir: nil, unit: unit) else {
                return nil
            }
            return ExerciseChange(
                exerciseId: stall.exerciseId, exerciseName: stall.name, action: .repRange, reason: stall.reason,
                fromWeightKg: best.weightKg, toWeightKg: to.weight, fromReps: best.reps, toReps: to.reps)
        }
    }
}
