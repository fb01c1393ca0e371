import Contracts
import Foundation
import Platform

/// Analytics' HTTP queries (docs/analytics.md "Queries"). Numbers are rounded to 0.1 here, for display; the
/// `TrainingAnalytics` contract answers them exact.
struct AnalyticsEndpoints {
    let queries: TrainingQueries
    static let tag = "Analytics"

    struct ExerciseProgressInput: Decodable, Sendable {
        var exerciseId: String
        var weeks: Int?
        enum CodingKeys: String, CodingKey {
            case exerciseId = "exercise_id"
            case weeks
        }
    }

    struct ExerciseProgressOutput: Encodable, Sendable {
        var exerciseId: String
        var points: [ExerciseWeek]
        enum CodingKeys: String, CodingKey {
            case exerciseId = "exercise_id"
            case points
        }
    }

    struct MuscleProgressInput: Decodable, Sendable {
        var muscle: String
        var weeks: Int?
    }

    struct MuscleProgressOutput: Encodable, Sendable {
        var muscle: String
        var points: [MuscleWeek]
    }

    struct WeeksInput: Decodable, Sendable {
        var weeks: Int?
    }

    struct ItemsOutput<Item: Encodable & Sendable>: Encodable, Sendable {
        var items: [Item]
    }

    struct TrainingSetsInput: Decodable, Sendable {
        var exerciseId: String?
        var muscle: String?
        var from: String?
        var to: String?
        var limit: Int?
        var cursor: String?
        enum CodingKeys: String, CodingKey {
            case exerciseId = "exercise_id"
            case muscle, from, to, limit, cursor
        }
    }

    struct Empty: Decodable, Sendable {}

    static func rounded(_ week: ExerciseWeek) -> ExerciseWeek {
        var week = week
        week.e1rmKg = week.e1rmKg.roundedToTenth
        week.volumeKg = week.volumeKg.roundedToTenth
        return week
    }

    var all: [Endpoint] {
        let queries = self.queries
        let tag = Self.tag
        let weeks = Schema.integer(minimum: 1, maximum: 260)
        return [
            .rpc(
                "getExerciseProgress", access: .user, tag: tag, readOnly: true,
                summary: "An exercise's weekly points (working sets): best e1RM, top weight, best set, volume, sets and reps.",
                request: Schema.object(["exercise_id": Schema.string, "weeks": weeks], required: ["exercise_id"]),
                response: AnalyticsSchemas.exerciseProgress, input: ExerciseProgressInput.self
            ) { input, call in
                let points = try await queries.exerciseProgress(
                    userId: try call.userId(), exerciseId: input.exerciseId, weeks: input.weeks ?? 12)
                return ExerciseProgressOutput(exerciseId: input.exerciseId, points: points.map(Self.rounded))
            },
            .rpc(
                "getMuscleGroupProgress", access: .user, tag: tag, readOnly: true,
                summary: "A muscle's weekly working sets (a secondary muscle counts half) and volume.",
                request: Schema.object(["muscle": Schema.string, "weeks": weeks], required: ["muscle"]),
                response: AnalyticsSchemas.muscleProgress, input: MuscleProgressInput.self
            ) { input, call in
                let points = try await queries.muscleProgress(
                    userId: try call.userId(), muscle: input.muscle.lowercased(), weeks: input.weeks ?? 12)
                return MuscleProgressOutput(
                    muscle: input.muscle.lowercased(),
                    points: points.map {
                        MuscleWeek(weekStart: $0.weekStart, sets: $0.sets.roundedToTenth, volumeKg: $0.volumeKg.roundedToTenth)
                    })
            },
            .rpc(
                "getWeeklyStats", access: .user, tag: tag, readOnly: true,
                summary: "Weekly workouts, sets, reps, volume, duration and working sets per muscle.",
                request: Schema.object(["weeks": weeks]), response: AnalyticsSchemas.weeklyStats, input: WeeksInput.self
            ) { input, call in
                let items = try await queries.weeklyStats(userId: try call.userId(), weeks: input.weeks ?? 12)
                return ItemsOutput(
                    items: items.map { stats in
                        var stats = stats
                        stats.volumeKg = stats.volumeKg.roundedToTenth
                        stats.setsByMuscle = stats.setsByMuscle.mapValues(\.roundedToTenth)
                        return stats
                    })
            },
            .rpc(
                "queryTrainingSets", access: .user, tag: tag, readOnly: true,
                summary: "Logged sets, newest first, by exercise, muscle and day range.",
                request: Schema.object([
                    "exercise_id": Schema.string, "muscle": Schema.string, "from": Schema.date,
                    "to": Schema.date, "limit": Schema.integer(minimum: 1, maximum: 200), "cursor": Schema.string,
                ]),
                response: AnalyticsSchemas.trainingSets, input: TrainingSetsInput.self
            ) { input, call in
                try await queries.trainingSets(
                    userId: try call.userId(),
                    query: TrainingSetQuery(
                        exerciseId: input.exerciseId, muscle: input.muscle, from: input.from, to: input.to, limit: input.limit ?? 50,
                        cursor: input.cursor))
            },
            .rpc(
                "getTrainingContext", access: .user, tag: tag, readOnly: true,
                summary: "The compact training summary the coach reads (at most 2 KB).",
                request: Schema.empty, response: AnalyticsSchemas.trainingContext, input: Empty.self
            ) { _, call in
                try await queries.trainingContext(userId: try call.userId())
            },
        ]
    }
}
