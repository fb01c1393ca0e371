import Contracts
import Foundation
import Platform

/// The analyst's job kinds (docs/product.md, docs/recommendations.md "Jobs"), their deterministic ids and payloads. One id per thing
/// analysed, so a redelivered event, a second scheduler run or a backfill over the same months never queues the
/// same work twice.
public enum AnalystJobs {
    public static let postWorkout = "recommendations.POST_WORKOUT"
    public static let dailyBrief = "recommendations.DAILY_BRIEF"
    public static let weeklyReview = "recommendations.WEEKLY_REVIEW"
    /// One scheduler pass over the users (the job queue runs each slot's pass once across replicas).
    public static let schedule = "recommendations.SCHEDULE"
    public static let kinds = [postWorkout, dailyBrief, weeklyReview, schedule]

    /// At most 3 attempts, 5 then 10 minutes apart, never more than 30 (docs/product.md).
    public static let retry = RetryPolicy(base: 300, cap: 1800)
    public static let maxAttempts = 3

    public static func postWorkoutId(workoutId: String) -> String { "pw:\(workoutId)" }
    public static func dailyBriefId(userId: String, day: String) -> String { "db:\(userId):\(day)" }
    public static func weeklyReviewId(userId: String, weekStart: String) -> String { "wr:\(userId):\(weekStart)" }
    public static func scheduleId(slot: String) -> String { "schedule:\(slot)" }

    struct PostWorkout: Codable, Sendable {
        var userId: String
        var workoutId: String
        /// Queued by a backfill: the insight and verdicts are written, recommendations only for a workout of the last
        /// 7 days (an older one's would be stale at birth).
        var backfill: Bool?

        enum CodingKeys: String, CodingKey {
            case userId = "user_id"
            case workoutId = "workout_id"
            case backfill
        }
    }

    struct DailyBrief: Codable, Sendable {
        var userId: String
        var day: String

        enum CodingKeys: String, CodingKey {
            case userId = "user_id"
            case day
        }
    }

    struct WeeklyReview: Codable, Sendable {
        var userId: String
        var weekStart: String

        enum CodingKeys: String, CodingKey {
            case userId = "user_id"
            case weekStart = "week_start"
        }
    }

    static func job(postWorkout payload: PostWorkout, runAt: Date? = nil) throws -> NewJob {
        NewJob(
            id: postWorkoutId(workoutId: payload.workoutId), kind: postWorkout, payload: try JSONCoding.store(payload), runAt: runAt,
            maxAttempts: maxAttempts, userId: payload.userId)
    }

    static func job(dailyBrief payload: DailyBrief, runAt: Date? = nil) throws -> NewJob {
        NewJob(
            id: dailyBriefId(userId: payload.userId, day: payload.day), kind: dailyBrief, payload: try JSONCoding.store(payload),
            runAt: runAt, maxAttempts: maxAttempts, userId: payload.userId)
    }

    static func job(weeklyReview payload: WeeklyReview, runAt: Date? = nil) throws -> NewJob {
        NewJob(
            id: weeklyReviewId(userId: payload.userId, weekStart: payload.weekStart), kind: weeklyReview,
            payload: try JSONCoding.store(payload), runAt: runAt, maxAttempts: maxAttempts, userId: payload.userId)
    }
}
