import Contracts

/// How one exercise went in one completed workout: the input of the progression rules.
///
/// Prescribed sets (those with target reps) are judged against their targets:
/// - `met`: every prescribed set was done, with at least its target reps and at least its target weight, and none
///   was harder than planned (a logged RIR under its target). A set whose RIR was not logged is judged by its reps
///   and weight alone. The weight goes up next time.
/// - `harder`: the reps and weights were met, but a logged RIR was under its target: hold the weight.
/// - `missed`: a prescribed set was skipped, short of its reps or lighter than its target weight. Two missed
///   sessions of an exercise in a row deload it.
///
/// An exercise logged without targets (a freeform workout, an exercise added to one) is judged against its own
/// previous session's top set (the heaviest weight, with the most reps done at it), by reps and weight alone:
/// `met` when the top set matched or beat it (as heavy or heavier, as many reps or more), `missed` when it fell short
/// (as heavy or lighter, fewer reps); otherwise, or with no previous session or no weight, `unprescribed`: nothing
/// to judge.
public enum SessionVerdict: String, Codable, Sendable, Equatable {
    case met, harder, missed, unprescribed

    /// The verdict of an exercise's sets (every instance of the exercise in the workout together); `previous` is the
    /// exercise's top set in its session before, which judges sets logged without targets.
    public static func of(_ sets: [WorkoutSet], previous: TopSet? = nil) -> SessionVerdict {
        let prescribed = sets.filter { $0.targetReps != nil }
        guard !prescribed.isEmpty else { return freeform(TopSet.of(sets), previous: previous) }
        var harder = false
        for set in prescribed {
            guard let reps = set.reps, let target = set.targetReps, reps >= target else {
                return .missed
            }
            if let targetWeight = set.targetWeightKg, (set.weightKg ?? 0) + 0.0005 < targetWeight { return .missed }
            if let targetRir = set.targetRir, let rir = set.rir, rir < targetRir { harder = true }
        }
        return harder ? .harder : .met
    }

    /// Sets without targets against the previous session's top set.
    static func freeform(_ top: TopSet?, previous: TopSet?) -> SessionVerdict {
        guard let top, let previous, top.weightKg > 0, previous.weightKg > 0 else { return .unprescribed }
        let heavier = top.weightKg + 0.0005 >= previous.weightKg
        let lighter = top.weightKg <= previous.weightKg + 0.0005
        if heavier, top.reps >= previous.reps { return .met }
        if lighter, top.reps < previous.reps { return .missed }
        return .unprescribed
    }
}

/// An exercise's top set in a session: its heaviest weight, with the most reps done at it.
public struct TopSet: Sendable, Equatable {
    public var weightKg: Double
    public var reps: Int

    public init(weightKg: Double, reps: Int) {
        self.weightKg = weightKg
        self.reps = reps
    }

    /// The top set of the logged sets (reps and a weight above 0), or nil.
    static func of(_ sets: [WorkoutSet]) -> TopSet? {
        let done = sets.compactMap { set -> TopSet? in
            guard let reps = set.reps, reps > 0, let weight = set.weightKg, weight > 0, weight.isFinite else { return nil }
            return TopSet(weightKg: weight, reps: reps)
        }
        return done.max { ($0.weightKg, $0.reps) < ($1.weightKg, $1.reps) }
    }
}

/// One exercise of a completed workout as the analyst judges it.
public struct ExerciseSession: Sendable, Equatable {
    public var exerciseId: String
    public var name: String
    public var verdict: SessionVerdict
    /// The heaviest weight done on the exercise (the exercise-scoped baseline), 0 when none.
    public var topWeightKg: Double
    /// The top set (the previous-session reference of the next freeform session), nil when no weighted set was done.
    public var top: TopSet?
    /// Whether any set had targets (a plan's exercise) rather than being logged freely.
    public var prescribed: Bool
    /// Logged RIR minus target RIR, averaged over the sets that have both (effort drift), or nil.
    public var rirDrift: Double?
    /// The exercise's logged sets, every instance together (what a calibration reads).
    public var sets: [WorkoutSet]

    public init(
        exerciseId: String, name: String, verdict: SessionVerdict, topWeightKg: Double, top: TopSet? = nil, prescribed: Bool = true,
        rirDrift: Double?, sets: [WorkoutSet] = []
    ) {
        self.exerciseId = exerciseId
        self.name = name
        self.verdict = verdict
        self.topWeightKg = topWeightKg
        self.top = top
        self.prescribed = prescribed
        self.rirDrift = rirDrift
        self.sets = sets
    }

    /// Each exercise of the workout, in the workout's order, its instances together; `previous` gives an exercise's
    /// top set in its session before (for sets logged without targets).
    public static func sessions(of workout: CompletedWorkout, previous: [String: TopSet] = [:]) -> [ExerciseSession] {
        var order: [String] = []
        var byExercise: [String: (name: String, sets: [WorkoutSet])] = [:]
        for exercise in workout.exercises {
            if byExercise[exercise.exerciseId] == nil { order.append(exercise.exerciseId) }
            byExercise[exercise.exerciseId, default: (exercise.name, [])].sets += exercise.sets
        }
        return order.compactMap { id in
            guard let entry = byExercise[id] else { return nil }
            let done = entry.sets.filter { $0.reps != nil }
            let drifts = entry.sets.compactMap { set -> Int? in
                guard let rir = set.rir, let target = set.targetRir else { return nil }
                return rir - target
            }
            return ExerciseSession(
                exerciseId: id, name: entry.name, verdict: SessionVerdict.of(entry.sets, previous: previous[id]),
                topWeightKg: done.compactMap(\.weightKg).max() ?? 0, top: TopSet.of(entry.sets),
                prescribed: entry.sets.contains { $0.targetReps != nil },
                rirDrift: drifts.isEmpty ? nil : Double(drifts.reduce(0, +)) / Double(drifts.count), sets: entry.sets)
        }
    }
}
