import Contracts

/// The sets, reps and reps in reserve (RIR) of one planned exercise, by the routine's goal and the exercise's
/// role in its day.
///
/// | goal | first lift of the day | other compounds | isolation and core |
/// |---|---|---|---|
/// | strength | 4 × 5 @ RIR 2 | 3 × 6 @ RIR 2 | 3 × 6 @ RIR 3 |
/// | hypertrophy | 4 × 8 @ RIR 2 | 3 × 10 @ RIR 2 | 3 × 12 @ RIR 1 |
/// | endurance | 3 × 12 @ RIR 2 | 3 × 15 @ RIR 2 | 2 × 20 @ RIR 1 |
/// | general | 3 × 8 @ RIR 3 | 3 × 10 @ RIR 2 | 2 × 12 @ RIR 2 |
///
/// So strength is 3–5 sets of 3–6 reps at RIR 2–3, hypertrophy 3–4 × 8–12 at RIR 1–2, endurance 2–3 × 12–20 at
/// RIR 1–2, general fitness 2–3 × 8–12 at RIR 2–3. Weights are the proposal tools' (`StartingWeights`).
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
            case (.strength, .isolation): (3, 6, 3)
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

    /// The fewest sets of an exercise the goal allows when the week's volume is trimmed (`WeeklyVolume`).
    static func minimumSets(_ goal: PlanRequest.Goal) -> Int {
        switch goal {
        case .strength, .hypertrophy: 3
        case .endurance, .general: 2
        }
    }

    /// The planned sets, all alike.
    var templateSets: [TemplateSet] {
        Array(repeating: TemplateSet(targetReps: reps, targetRir: rir), count: sets)
    }
}
