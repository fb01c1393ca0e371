import Platform

/// How much fits in a session of the user's length: the template analytics' duration estimate (5 minutes to warm
/// up, then 2.5 minutes a set with its rest) read backwards, so a planned template's estimated duration never
/// exceeds the minutes asked for, and one exercise for every three of those sets (45 minutes: 16 sets, 5
/// exercises), so a goal of two-set exercises makes shorter sessions rather than longer lists. A session keeps
/// at least two exercises however short it is.
struct SessionBudget: Sendable, Equatable {
    /// The session length assumed when the user gave none.
    static let defaultMinutes = 60
    /// The fewest exercises of a session, even one that then runs over the minutes asked for.
    static let minimumExercises = 2

    /// Working sets that fit.
    let sets: Int
    /// Exercises that fit.
    let exercises: Int

    init(minutes: Int?) {
        let minutes = minutes ?? Self.defaultMinutes
        sets = max(0, Int(saturating: ((Double(minutes) - 5) / 2.5).rounded(.down)))
        exercises = max(Self.minimumExercises, sets / 3)
    }

    /// The estimated minutes of a session of this many sets, as the template analytics compute them.
    static func estimatedMinutes(sets: Int) -> Int {
        sets <= 0 ? 0 : 5 + Int(saturating: (Double(min(sets, 10_000)) * 2.5).rounded(.up))
    }
}
