import Contracts
import Foundation

/// Training analytics a test sets by hand (the coach's and the analyst's tests): answers what it was given, and
/// refuses bad arguments as the contract says.
public actor FakeTrainingAnalytics: TrainingAnalytics {
    private var exercises: [String: [String: [ExerciseWeek]]] = [:]  // user → exercise → weeks
    private var muscles: [String: [String: [MuscleWeek]]] = [:]
    private var stats: [String: [WeeklyStats]] = [:]
    private var sets: [String: [TrainingSet]] = [:]  // newest first
    private var contexts: [String: TrainingContext] = [:]
    private var failures: [String: Int] = [:]

    public init() {}

    /// The user's next `times` reads fail as storage would (`UNAVAILABLE`), for tests of retries.
    public func failNext(userId: String, times: Int) { failures[userId] = times }

    private func failIfAsked(_ userId: String) throws {
        guard let left = failures[userId], left > 0 else { return }
        failures[userId] = left - 1
        throw ServiceError(.unavailable, "The analytics store is out of reach (a test's failure).")
    }

    public func set(userId: String, exerciseId: String, weeks: [ExerciseWeek]) { exercises[userId, default: [:]][exerciseId] = weeks }
    public func set(userId: String, muscle: String, weeks: [MuscleWeek]) { muscles[userId, default: [:]][muscle] = weeks }
    public func set(userId: String, stats: [WeeklyStats]) { self.stats[userId] = stats }
    public func set(userId: String, sets: [TrainingSet]) { self.sets[userId] = sets }
    public func set(userId: String, context: TrainingContext) { contexts[userId] = context }

    static func check(weeks: Int) throws {
        guard (1...260).contains(weeks) else { throw ServiceError.invalidArgument(field: "weeks", reason: "must be from 1 to 260") }
    }

    public func exerciseProgress(userId: String, exerciseId: String, weeks: Int) async throws -> [ExerciseWeek] {
        try failIfAsked(userId)
        try Self.check(weeks: weeks)
        return Array((exercises[userId]?[exerciseId] ?? []).suffix(weeks))
    }

    public func exerciseBests(userId: String, weeks: Int) async throws -> [ExerciseBest] {
        try failIfAsked(userId)
        try Self.check(weeks: weeks)
        let bests = (exercises[userId] ?? [:]).compactMap { id, series -> ExerciseBest? in
            let recent = series.suffix(weeks)
            guard let best = recent.map(\.e1rmKg).max(), let last = recent.last else { return nil }
            return ExerciseBest(exerciseId: id, e1rmKg: best, lastWeekStart: last.weekStart)
        }
        let kept = bests.sorted { ($0.lastWeekStart, $1.exerciseId) > ($1.lastWeekStart, $0.exerciseId) }.prefix(ExerciseBest.limit)
        return kept.sorted { $0.exerciseId < $1.exerciseId }
    }

    public func muscleProgress(userId: String, muscle: String, weeks: Int) async throws -> [MuscleWeek] {
        try failIfAsked(userId)
        try Self.check(weeks: weeks)
        // A group ("back") sums its muscles week by week, as live does.
        var byWeek: [String: MuscleWeek] = [:]
        for name in MuscleGroups.muscles(for: muscle) {
            for week in muscles[userId]?[name] ?? [] {
                var sum = byWeek[week.weekStart] ?? MuscleWeek(weekStart: week.weekStart, sets: 0, volumeKg: 0)
                sum.sets += week.sets
                sum.volumeKg += week.volumeKg
                byWeek[week.weekStart] = sum
            }
        }
        return Array(byWeek.values.sorted { $0.weekStart < $1.weekStart }.suffix(weeks))
    }

    public func weeklyStats(userId: String, weeks: Int) async throws -> [WeeklyStats] {
        try failIfAsked(userId)
        try Self.check(weeks: weeks)
        return Array((stats[userId] ?? []).suffix(weeks))
    }

    /// Pages by position; the cursor is the index of the next set.
    public func trainingSets(userId: String, query: TrainingSetQuery) async throws -> TrainingSetPage {
        try failIfAsked(userId)
        guard (1...200).contains(query.limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 200") }
        var start = 0
        if let cursor = query.cursor, !cursor.isEmpty {
            guard cursor.hasPrefix("fake:"), let index = Int(cursor.dropFirst(5)) else {
                throw ServiceError.invalidArgument(field: "cursor", reason: "not a cursor of this list")
            }
            start = index
        }
        let matching = (sets[userId] ?? []).filter { set in
            (query.exerciseId.map { $0.isEmpty || set.exerciseId == $0 } ?? true)
                && (query.muscle.map {
                    $0.isEmpty || !Set(set.primaryMuscles + set.secondaryMuscles).isDisjoint(with: MuscleGroups.muscles(for: $0))
                }
                    ?? true)
        }
        let page = Array(matching.dropFirst(start).prefix(query.limit))
        return TrainingSetPage(items: page, nextCursor: start + page.count < matching.count ? "fake:\(start + page.count)" : nil)
    }

    public func trainingContext(userId: String) async throws -> TrainingContext {
        try failIfAsked(userId)
        return contexts[userId]
            ?? TrainingContext(weekStart: "1970-01-01", workoutsPerWeek: [0, 0, 0, 0, 0], lastWorkouts: [], muscles: [], lifts: [])
    }
}
