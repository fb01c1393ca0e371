import Foundation

/// The project's estimated one-rep max (Epley, as Analytics computes it: `weight × (1 + reps / 30)`), read with the
/// reps a set had left in reserve: a set of `reps` at `rir` is as hard as `reps + rir` reps to failure. Used both
/// ways: a logged set's e1RM, and the weight an e1RM gives for a planned number of reps at a planned RIR.
public enum StrengthEstimate {
    /// The reps in reserve a set is taken to have had when none was logged or planned: a typical working set's.
    public static let assumedRir = 2

    /// The e1RM of `reps` at `weightKg` with `rir` left in reserve (0: to failure, which is Analytics' e1RM).
    public static func e1rm(weightKg: Double, reps: Int, rir: Int = 0) -> Double {
        weightKg * (1 + Double(max(0, reps) + max(0, rir)) / 30)
    }

    /// The weight (not rounded) that `reps` at `rir` in reserve is with this e1RM: the inverse of `e1rm`.
    public static func weight(e1rmKg: Double, reps: Int, rir: Int = 0) -> Double {
        e1rmKg / (1 + Double(max(0, reps) + max(0, rir)) / 30)
    }
}
