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
}
