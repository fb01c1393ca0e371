import Contracts

/// Turns a workout's verdicts into weight changes by `WeightProgression`: an exercise whose prescription was
/// met (or, logged freely, whose top set matched or beat the session before) progresses; one missed in this session
/// and the one before deloads; anything else holds. A template's sets planned without a weight are calibrated from
/// what the workout logged (`Calibration`). Weights step on the grid of the user's unit and stay kilograms.
public enum ProgressionPlanner {
    /// The step an exercise takes after `session`, given its previous judged session's verdict (nil: none).
    public static func action(for session: ExerciseSession, previous: SessionVerdict?) -> (ProgressionAction, String)? {
        switch session.verdict {
        case .met where session.prescribed: (.progress, "Every prescribed set met its reps at or below its target effort.")
        case .met: (.progress, "The top set matched or beat the session before.")
        case .missed where previous == .missed && session.prescribed: (.deload, "Prescribed sets were missed two sessions in a row.")
        case .missed where previous == .missed: (.deload, "The top set fell short of the session before, two sessions in a row.")
        default: nil
        }
    }

    /// Exercise-scoped changes: each exercise's heaviest weight done, progressed or deloaded.
    public static func exerciseChanges(
        _ steps: [(session: ExerciseSession, action: ProgressionAction, reason: String)], unit: WeightUnit = .kilograms
    ) -> [ExerciseChange] {
        steps.compactMap { step in
            guard let next = weight(step.session.topWeightKg, step.action, unit: unit) else { return nil }
            return ExerciseChange(
                exerciseId: step.session.exerciseId, exerciseName: step.session.name, action: step.action, reason: step.reason,
                fromWeightKg: step.session.topWeightKg, toWeightKg: next)
        }
    }

    /// Template-scoped changes: every planned set (with a weight) of each exercise stepped from the template's own
    /// weight, and every planned set without one calibrated from the workout's `sessions`. Answers the changes and the
    /// template's exercises as they become, or nil when nothing changes.
    public static func templateChanges(
        _ template: WorkoutTemplate, steps: [(session: ExerciseSession, action: ProgressionAction, reason: String)],
        sessions: [ExerciseSession] = [], unit: WeightUnit = .kilograms
    ) -> (changes: [ExerciseChange], exercises: [PlannedExercise])? {
        var exercises = template.exercises.map { PlannedExercise(exerciseId: $0.exerciseId, sets: $0.sets) }
        var changes: [ExerciseChange] = []
        for step in steps {
            var setChanges: [SetWeightChange] = []
            for position in exercises.indices where exercises[position].exerciseId == step.session.exerciseId {
                for index in exercises[position].sets.indices {
                    guard let from = exercises[position].sets[index].targetWeightKg, let to = weight(from, step.action, unit: unit),
                        to != from
                    else {
                        continue
                    }
                    exercises[position].sets[index].targetWeightKg = to
                    setChanges.append(SetWeightChange(setIndex: index, fromWeightKg: from, toWeightKg: to))
                }
            }
            if let change = summary(of: setChanges, session: step.session, action: step.action, reason: step.reason) {
                changes.append(change)
            }
        }
        changes += Calibration.calibrate(&exercises, from: sessions, unit: unit)
        return changes.isEmpty ? nil : (changes, exercises)
    }

    /// One exercise's change from its sets' changes: the heaviest set before and after; nil when none changed.
    static func summary(of sets: [SetWeightChange], session: ExerciseSession, action: ProgressionAction, reason: String) -> ExerciseChange?
    {
        guard let first = sets.first else { return nil }
        let heaviest = sets.max { ($0.fromWeightKg ?? 0, $0.toWeightKg) < ($1.fromWeightKg ?? 0, $1.toWeightKg) } ?? first
        return ExerciseChange(
            exerciseId: session.exerciseId, exerciseName: session.name, action: action, reason: reason,
            fromWeightKg: heaviest.fromWeightKg, toWeightKg: heaviest.toWeightKg, fromReps: heaviest.fromReps, toReps: heaviest.toReps,
            sets: sets)
    }

    static func weight(_ weightKg: Double, _ action: ProgressionAction, unit: WeightUnit) -> Double? {
        switch action {
        case .progress: WeightProgression.progressed(weightKg, unit: unit)
        case .deload: WeightProgression.deloaded(weightKg, unit: unit)
        case .calibrate, .repRange: nil
        }
    }
}
