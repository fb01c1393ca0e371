import Contracts
import Foundation
import Logging

/// Keeps the outbox and the job queue bounded. Every completed workout leaves an event and one delivery job per
/// handler behind; without an end both tables would grow by those rows forever.
///
/// - Dispatched events and done jobs go after `period` (7 days): nothing reads them once delivered, and a
///   week leaves time to look into a delivery that went wrong.
/// - Jobs that failed for good go after `failedPeriod` (30 days), which leaves an operator time to find them
///   (their `last_error` says why).
/// - Events not yet dispatched and jobs still queued or leased are never touched, however old.
/// - Rate-limit counters go once their window is over (one row per distinct key, an address or an email, would
///   otherwise stay forever).
///
/// Each chunk is one short transaction between other writes. On PostgreSQL, replicas purging at the same
/// moment take different rows (`SKIP LOCKED`) instead of waiting on each other's.
public struct BackgroundRetention: Sendable {
    public static let period: TimeInterval = 7 * 86_400
    public static let failedPeriod: TimeInterval = 30 * 86_400
    public static let chunk = 1_000

    let database: Database
    let clock: any WallClock
    /// The clock the purger's ten minutes between runs are waited out on.
    let durationClock: any Clock<Duration>

    public init(database: Database, clock: any WallClock, durationClock: any Clock<Duration> = ContinuousClock()) {
        self.database = database
        self.clock = clock
        self.durationClock = durationClock
    }

    /// Dispatched before the cutoff, oldest first (the index on `dispatched_at, seq` finds them).
    static let deleteDispatchedEvents = FixedSQL.deleteOldest(
        from: "platform_outbox", key: "seq", before: "dispatched_at", order: "dispatched_at, seq")

    /// Jobs in a final status that finished before the cutoff, oldest first (the index on `status, finished_at`).
    static let deleteFinishedJobs = FixedSQL(
        sqlite: """
            DELETE FROM platform_jobs WHERE id IN
                (SELECT id FROM platform_jobs WHERE status = ? AND finished_at < ? ORDER BY finished_at LIMIT ?)
            RETURNING id
            """,
        postgres: """
            DELETE FROM platform_jobs WHERE id IN
                (SELECT id FROM platform_jobs WHERE status = ? AND finished_at < ? ORDER BY finished_at LIMIT ? FOR UPDATE SKIP LOCKED)
            RETURNING id
            """)

    /// Rate-limit counters whose window ended before the cutoff, oldest first (the index on `expires_at`).
    static let deleteExpiredRateLimits = FixedSQL.deleteOldest(from: "platform_rate_limits", key: "bucket", before: "expires_at")

    /// Deletes what expired, `chunk` rows per transaction; returns how many events, jobs and rate-limit counters went.
    public func purgeExpired(chunk: Int = Self.chunk) async throws -> (events: Int, jobs: Int, rateLimits: Int) {
        let now = clock.now()
        let cutoff = now.addingTimeInterval(-Self.period).millisecondsSince1970
        let failedCutoff = now.addingTimeInterval(-Self.failedPeriod).millisecondsSince1970
        let events = try await database.deleteInChunks(Self.deleteDispatchedEvents(SQLValue(cutoff), SQLValue(chunk)))
        var jobs = try await database.deleteInChunks(
            Self.deleteFinishedJobs(SQLValue(JobStatus.done.rawValue), SQLValue(cutoff), SQLValue(chunk)))
        jobs += try await database.deleteInChunks(
            Self.deleteFinishedJobs(SQLValue(JobStatus.failed.rawValue), SQLValue(failedCutoff), SQLValue(chunk)))
        let rateLimits = try await database.deleteInChunks(
            Self.deleteExpiredRateLimits(SQLValue(now.millisecondsSince1970), SQLValue(chunk)))
        return (events, jobs, rateLimits)
    }

    /// Purges at start and then every ten minutes; stops with the server.
    public var purger: PeriodicTask {
        PeriodicTask.purge(
            name: "background_purge", clock: durationClock, logger: Logger(label: "platform.retention"),
            message: "delivered events, finished jobs and expired rate-limit counters removed"
        ) { [self] in
            let removed = try await purgeExpired()
            return removed.events + removed.jobs + removed.rateLimits
        }
    }
}
