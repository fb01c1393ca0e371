import Contracts

/// The sets, reps and reps in reserve (RIR) of one planned exercise, by the routine's goal and the exercise's
/// role in its day.
///
/// | goal | first lift of the day | other compounds | isolation and core |
/// |---|---|---|---|
/// | strength | 4 × 5 @ RIR 2 | 3 × 6 @ RIR 2 | 3 × 8 @ RIR 2 |
/// | hypertrophy | 4 × 8 @ RIR 2 | 3 × 10 @ RIR 2 | 3 × 12 @ RIR 1 |
/// | endurance | 3 × 12 @ RIR 2 | 3 × 15 @ RIR 2 | 2 × 20 @ RIR 1 |
/// | general | 3 × 8 @ RIR 3 | 3 × 10 @ RIR 2 | 2 × 12 @ RIR 2 |
///
/// So a strength routine's lifts are 3–6 reps at RIR 2 (its accessories 8, as strength programs do them), hypertrophy
/// 8–12 at RIR 1–2, endurance 12–20 at RIR 1–2, general fitness 8–12 at RIR 2–3. A session short of time keeps its
/// first lifts with fewer sets (down to `shortSessionSets`), and the week's volume may add a set to an exercise (up to
/// `maximumSets`: `WeeklyVolume`). A move with nothing to load (bodyweight, bands: `LiftVariant.isWeighted`) is
/// planned by its reps alone, with no RIR: a push-up's effort is set by how many, not by a weight chosen to leave
/// reps in reserve. Weights are the proposal tools' (`StartingWeights`).
struct SetPrescription: Sendable, Equatable {
    var sets: Int
    let reps: Int
    let rir: Int

    /// What an exercise does in its day.
    enum Role: Sendable {
        /// The day's first exercise, a compound: the most sets, the heaviest.
        case primary
        case compound
        case isolation
    }

    init(goal: PlanRequest.Goal, role: Role) {
        (sets, reps, rir) =
            switch (goal, role) {
            case (.strength, .primary): (4, 5, 2)
            case (.strength, .compound): (3, 6, 2)
            case (.strength, .isolation): (3, 8, 2)
            case (.hypertrophy, .primary): (4, 8, 2)
            case (.hypertrophy, .compound): (3, 10, 2)
            case (.hypertrophy, .isolation): (3, 12, 1)
            case (.endurance, .primary): (3, 12, 2)
            case (.endurance, .compound): (3, 15, 2)
            case (.endurance, .isolation): (2, 20, 1)
            case (.general, .primary): (3, 8, 3)
            case (.general, .compound): (3, 10, 2)
            case (.general, .isolation): (2, 12, 2)
            }
    }

    /// The fewest sets of an exercise: what a session short of time keeps of its first lifts, and what the week's
    /// volume leaves an exercise it takes sets from (`WeeklyVolume`, `VolumeFitter`).
    static let shortSessionSets = 2
    /// The most sets of one exercise the week's volume may give it.
    static let maximumSets = 5

    /// The planned sets, all alike: by reps alone for a move with nothing to load.
    func templateSets(weighted: Bool) -> [TemplateSet] {
        Array(repeating: TemplateSet(targetReps: reps, targetRir: weighted ? rir : nil), count: sets)
    }
}
