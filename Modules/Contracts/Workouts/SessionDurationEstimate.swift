/// How long a session of planned sets takes: 5 minutes to warm up, then each working set with the rest after it,
/// by the set's target reps, since the rest a set needs depends on how heavy it is:
///
/// | target reps | minutes a set | the set, then the rest |
/// |---|---|---|
/// | 1–6 (strength) | 3.5 | about 30–45 s, then 3 min (NSCA: 2–5 min; ACSM: 2–3 min for heavy multi-joint lifts) |
/// | 7–12, or none (hypertrophy, general) | 2.5 | about 45 s, then 1.5–2 min (ACSM: 1–2 min) |
/// | 13 or more (endurance) | 2 | about 60 s, then about 1 min (ACSM/NSCA: 1 min or less for muscular endurance) |
///
/// One estimate for every place that needs one: a template's analytics (`estimated_duration_minutes`), the fake
/// plan library, and the coach's planner, which fills a session only while this estimate fits the minutes asked
/// for. A set without target reps counts as a moderate one, so a template of 7–12-rep (or rep-less) sets is
/// estimated as it always was (5 minutes + 2.5 a set).
public enum SessionDurationEstimate {
    /// Minutes to warm up before the first working set.
    public static let warmUpMinutes = 5
    /// The most sets an estimate counts; more is not a session, and the count stays far from overflow.
    static let maxSets = 100_000

    /// The minutes one working set takes with its rest.
    public static func minutesPerSet(targetReps: Int?) -> Double {
        Double(halfMinutesPerSet(targetReps: targetReps)) / 2
    }

    /// The estimated minutes of a session of these sets (each its target reps); 0 for none.
    public static func minutes(targetReps: some Sequence<Int?>) -> Int {
        var halfMinutes = 0
        var count = 0
        for reps in targetReps {
            guard count < maxSets else { break }
            halfMinutes += halfMinutesPerSet(targetReps: reps)
            count += 1
        }
        return count == 0 ? 0 : warmUpMinutes + (halfMinutes + 1) / 2
    }

    /// The estimated minutes of a session of these planned sets; 0 for none.
    public static func minutes(_ sets: some Sequence<TemplateSet>) -> Int {
        minutes(targetReps: sets.lazy.map(\.targetReps))
    }

    /// Half-minutes, so the sum stays in integers: 7 (3.5 min), 5 (2.5 min), 4 (2 min).
    private static func halfMinutesPerSet(targetReps: Int?) -> Int {
        switch targetReps {
        case .some(...6): 7
        case .some(13...): 4
        default: 5
        }
    }
}
