import Contracts
import Foundation
import Platform

/// Queues the analysis of a user's past months (docs/product.md): a post-workout analysis per completed workout
/// and a review per week still within the reviews' 30 days (an older one would be expired at birth), oldest first, under the same deterministic ids the live jobs use, so running it again,
/// or over months the live jobs already covered, queues nothing twice.
struct AnalystBackfill: Sendable {
    let jobs: JobQueue
    let clock: any WallClock
    let log: any TrainingLog
    let accounts: any AccountDirectory

    struct Result: Sendable, Equatable {
        var workouts: Int
        var weeks: Int
        /// Jobs that were not queued already.
        var queued: Int
    }

    /// `progress` hears (workouts seen so far, jobs new so far).
    func run(userId: String, months: Int, progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> Result {
        guard (1...120).contains(months) else { throw ServiceError.invalidArgument(field: "months", reason: "must be from 1 to 120") }
        let now = clock.now()
        let from = now.addingTimeInterval(-Double(months) * 30.4375 * 86_400)
        var result = Result(workouts: 0, weeks: 0, queued: 0)
        var cursor: String?
        // Each job due at the moment it is about (in the past, so at once), so workers take them oldest first: the
        // deload rule reads each exercise's session before, and a week's review comes after its workouts.
        repeat {
            let page = try await log.completedWorkouts(userId: userId, endedFrom: from, endedBefore: nil, limit: 500, cursor: cursor)
            for workout in page.workouts {
                let job = try AnalystJobs.job(
                    postWorkout: .init(userId: userId, workoutId: workout.id, backfill: true), runAt: min(now, workout.endTime))
                if try await jobs.enqueue(job) { result.queued += 1 }
                result.workouts += 1
            }
            progress(result.workouts, result.queued)
            cursor = page.nextCursor
        } while cursor != nil
        let account = try await accounts.account(userId: userId)
        let calendar = CivilCalendar(timeZoneIdentifier: account?.timeZone, weekStartsOnMonday: account?.weekStartsOnMonday ?? true)
        let current = calendar.weekStart(ofDay: calendar.dayNumber(of: now))
        var week = calendar.weekStart(ofDay: calendar.dayNumber(of: from))
        let today = calendar.dayNumber(of: now)
        while week < current {
            guard week + 7 + 30 > today else {
                week += 7
                continue
            }
            let review = AnalystJobs.WeeklyReview(userId: userId, weekStart: CivilCalendar.text(ofDay: week))
            let weekEnd = Date(timeIntervalSince1970: Double(week + 7) * 86_400 - Double(calendar.timeZone.secondsFromGMT(for: now)))
            let runAt = min(now, weekEnd)
            if try await jobs.enqueue(try AnalystJobs.job(weeklyReview: review, runAt: runAt)) { result.queued += 1 }
            result.weeks += 1
            week += 7
        }
        progress(result.workouts, result.queued)
        return result
    }
}
