import Contracts

/// How much fits in a session of the user's length: sets while `SessionDurationEstimate` (5 minutes to warm up,
/// then each set with its rest: 3.5 minutes for a heavy set of up to 6 reps, 2.5 for 7–12, 2 for more) stays
/// within the minutes asked for, so a planned template's estimated duration never exceeds them, and one exercise
/// for every three moderate sets the minutes hold (45 minutes: 16 sets, 5 exercises), so a goal of two-set
/// exercises makes shorter sessions rather than longer lists.
struct SessionBudget: Sendable, Equatable {
    /// The session length assumed when the user gave none.
    static let defaultMinutes = 60
    /// The fewest exercises of a session.
    static let minimumExercises = 2

    /// The minutes a session may take.
    let minutes: Int
    /// Exercises that fit.
    let exercises: Int

    init(minutes: Int?) {
        self.minutes = minutes ?? Self.defaultMinutes
        let moderateSets = max(0, (self.minutes - SessionDurationEstimate.warmUpMinutes) * 2 / 5)
        exercises = max(Self.minimumExercises, moderateSets / 3)
    }

    /// Whether a session of these exercises fits the minutes.
    func fits(_ session: some Sequence<SetPrescription>) -> Bool {
        Self.estimatedMinutes(session) <= minutes
    }

    /// The estimated minutes of a session of these exercises, as the template analytics compute them.
    static func estimatedMinutes(_ session: some Sequence<SetPrescription>) -> Int {
        SessionDurationEstimate.minutes(targetReps: session.lazy.flatMap { Array(repeating: Optional($0.reps), count: max(0, $0.sets)) })
    }
}
