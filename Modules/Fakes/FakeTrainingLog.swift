import Contracts
import Foundation

/// Completed workouts a test records by hand.
public actor FakeTrainingLog: TrainingLog {
    private var workouts: [CompletedWorkout] = []

    public init(_ workouts: [CompletedWorkout] = []) {
        self.workouts = workouts
    }

    public func record(_ workout: CompletedWorkout) { workouts.append(workout) }

    public func recentWorkouts(userId: String, limit: Int) async throws -> [CompletedWorkout] {
        guard (1...100).contains(limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 100") }
        return Array(
            workouts.filter { $0.userId == userId }.sorted { ($0.endTime, $0.id) > ($1.endTime, $1.id) }.prefix(limit))
    }

    public func workout(userId: String, id: String) async throws -> CompletedWorkout? {
        workouts.first { $0.id == id && $0.userId == userId }
    }

    /// Pages by position in the sorted range: the cursor is the last workout's end time and id.
    public func completedWorkouts(userId: String, endedFrom: Date?, endedBefore: Date?, limit: Int, cursor: String?) async throws
        -> CompletedWorkoutPage
    {
        guard (1...500).contains(limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 500") }
        var after: (Double, String)?
        if let cursor, !cursor.isEmpty {
            let parts = cursor.split(separator: "|", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0].hasPrefix("fake:"), let end = Double(parts[0].dropFirst(5)) else {
                throw ServiceError.invalidArgument(field: "cursor", reason: "not a cursor of this list")
            }
            after = (end, parts[1])
        }
        let matching = workouts.filter { workout in
            workout.userId == userId && endedFrom.map { workout.endTime >= $0 } ?? true && endedBefore.map { workout.endTime < $0 } ?? true
                && after.map { (workout.endTime.timeIntervalSince1970, workout.id) > $0 } ?? true
        }.sorted { ($0.endTime, $0.id) < ($1.endTime, $1.id) }
        let page = Array(matching.prefix(limit))
        let next = matching.count > limit ? page.last.map { "fake:\($0.endTime.timeIntervalSince1970)|\($0.id)" } : nil
        return CompletedWorkoutPage(workouts: page, nextCursor: next)
    }

    public func usersWithHistory(after: String?, limit: Int) async throws -> [String] {
        guard (1...1000).contains(limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 1000") }
        return Array(Set(workouts.map(\.userId)).filter { user in after.map { user > $0 } ?? true }.sorted().prefix(limit))
    }

    /// Removes a recorded workout (as deleting it from history does).
    public func remove(id: String) { workouts.removeAll { $0.id == id } }

    /// Replaces a recorded workout (as editing it does).
    public func replace(_ workout: CompletedWorkout) {
        if let index = workouts.firstIndex(where: { $0.id == workout.id }) { workouts[index] = workout }
    }
}
