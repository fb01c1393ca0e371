import Contracts
import Foundation
import Platform

/// Queues the daily briefs and weekly reviews that are due, in each user's time zone: the brief of a user's
/// day once it is past the brief hour there, the review of the week just ended once the user's new week is past
/// the review hour on its first day (or any later day of it, should the scheduler have been down then). Only premium users with a history are looked at. Every job id is deterministic, so a pass run
/// twice (two replicas, a retry) queues nothing twice; `tick` makes one pass per scheduler slot across replicas
/// by putting the pass itself on the job queue under the slot's id.
struct AnalystScheduler: Sendable {
    let jobs: JobQueue
    let clock: any WallClock
    let log: any TrainingLog
    let accounts: any AccountDirectory
    let premium: any PremiumGate
    let settings: RecommendationsSettings

    /// Queues this slot's pass (a no-op when some replica queued it already). Answers whether it was new.
    @discardableResult
    func tick() async throws -> Bool {
        let seconds = Int64(saturating: clock.now().timeIntervalSince1970)
        let slotLength = max(60, Int64(settings.schedulerInterval.components.seconds))
        let slot = Date(timeIntervalSince1970: Double(seconds - seconds % slotLength)).rfc3339
        return try await jobs.enqueue(NewJob(id: AnalystJobs.scheduleId(slot: slot), kind: AnalystJobs.schedule, maxAttempts: 1))
    }

    /// One pass over every user with a history; `progress` hears each user looked at. Answers how many jobs were new.
    @discardableResult
    func pass(progress: @Sendable (String) -> Void = { _ in }) async throws -> Int {
        var after: String?
        var queued = 0
        while true {
            let users = try await log.usersWithHistory(after: after, limit: 500)
            for user in users {
                queued += try await queueDue(userId: user)
                progress(user)
            }
            guard let last = users.last, users.count == 500 else { return queued }
            after = last
        }
    }

    /// Queues what is due for one user now. Answers how many jobs were new.
    func queueDue(userId: String) async throws -> Int {
        guard try await premium.isPremium(userId: userId) else { return 0 }
        let account = try await accounts.account(userId: userId)
        let calendar = CivilCalendar(timeZoneIdentifier: account?.timeZone, weekStartsOnMonday: account?.weekStartsOnMonday ?? true)
        let now = clock.now()
        let today = calendar.dayNumber(of: now)
        let hour = Int(
            saturating: (now.timeIntervalSince1970 + Double(calendar.timeZone.secondsFromGMT(for: now))).truncatingRemainder(
                dividingBy: 86_400) / 3600)
        var queued = 0
        if hour >= settings.dailyBriefHour {
            let brief = AnalystJobs.DailyBrief(userId: userId, day: CivilCalendar.text(ofDay: today))
            if try await jobs.enqueue(try AnalystJobs.job(dailyBrief: brief)) { queued += 1 }
        }
        let weekStart = calendar.weekStart(ofDay: today)
        if today > weekStart || hour >= settings.weeklyReviewHour {
            let review = AnalystJobs.WeeklyReview(userId: userId, weekStart: CivilCalendar.text(ofDay: weekStart - 7))
            if try await jobs.enqueue(try AnalystJobs.job(weeklyReview: review)) { queued += 1 }
        }
        return queued
    }
}
