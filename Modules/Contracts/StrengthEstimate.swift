import Foundation

/// The project's one rule for the estimated one-rep max: Epley, `weight × (1 + reps / 30)`, as the API states it, for
/// every set with a weight and reps (a single too: 100 kg × 1 is 103.3). Workouts' workout analytics, Analytics'
/// series and the analyst's notes all read it from here. Planning reads it with the reps a set had left in reserve:
/// a set of `reps` at `rir` is as hard as `reps + rir` reps to failure, used both ways (a logged set's e1RM, and
/// the weight an e1RM gives for planned reps at a planned RIR).
public enum StrengthEstimate {
    /// The reps in reserve a set is taken to have had when none was logged or planned: a typical working set's.
    public static let assumedRir = 2

    /// A logged set's e1RM as the API reports it (Epley, to failure); nil without a weight or reps (bodyweight, or
    /// not a number).
    public static func epley(weightKg: Double, reps: Int) -> Double? {
        guard weightKg > 0, weightKg.isFinite, reps > 0 else { return nil }
        return e1rm(weightKg: weightKg, reps: reps)
    }

    /// The e1RM of `reps` at `weightKg` with `rir` left in reserve (0: to failure, which is Analytics' e1RM).
    public static func e1rm(weightKg: Double, reps: Int, rir: Int = 0) -> Double {
        weightKg * (1 + Double(max(0, reps) + max(0, rir)) / 30)
    }

    /// The weight (not rounded) that `reps` at `rir` in reserve is with this e1RM: the inverse of `e1rm`.
    public static func weight(e1rmKg: Double, reps: Int, rir: Int = 0) -> Double {
        e1rmKg / (1 + Double(max(0, reps) + max(0, rir)) / 30)
    }
}
