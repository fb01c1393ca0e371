import Contracts
import Foundation
import SQLKit

/// A job to put on the queue. The id is deterministic (chosen by the caller from what the job is about), so
/// enqueuing the same work twice stores it once.
public struct NewJob: Sendable, Equatable {
    public var id: String
    public var kind: String
    public var payload: String
    public var runAt: Date?
    public var maxAttempts: Int
    /// The user the job works for, if any: account deletion erases the user's jobs.
    public var userId: String?

    public init(id: String, kind: String, payload: String = "{}", runAt: Date? = nil, maxAttempts: Int = 3, userId: String? = nil) {
        self.userId = userId
        self.id = id
        self.kind = kind
        self.payload = payload
        self.runAt = runAt
        self.maxAttempts = maxAttempts
    }
}

/// A job a worker holds a lease on.
public struct LeasedJob: Sendable, Equatable {
    public var id: String
    public var kind: String
    public var payload: String
    /// Which attempt this is, starting at 1.
    public var attempt: Int
    public var maxAttempts: Int
    public var leaseOwner: String
    public var leaseExpiresAt: Date
}

/// Where a job stands.
public enum JobStatus: String, Sendable {
    case queued, leased, done, failed
}

/// A stored job, as operators and tests see it.
public struct JobRecord: Sendable, Equatable {
    public var id: String
    public var kind: String
    public var status: JobStatus
    public var attempts: Int
    public var maxAttempts: Int
    public var runAt: Date
    public var lastError: String?
}

/// Backoff between attempts: `base · 2^(attempt-1)`, capped.
public struct RetryPolicy: Sendable, Equatable {
    public var base: TimeInterval
    public var cap: TimeInterval

    public init(base: TimeInterval, cap: TimeInterval) {
        self.base = base
        self.cap = cap
    }

    public func delay(afterAttempt attempt: Int) -> TimeInterval {
        min(cap, base * pow(2, Double(max(0, attempt - 1))))
    }
}

/// The durable job queue: idempotent enqueue, leases with expiry, retries with exponential backoff, a maximum
/// number of attempts, and a watchdog for leases whose worker died. Safe with many workers in many processes:
/// on PostgreSQL a claim uses `FOR UPDATE SKIP LOCKED`; on SQLite claims are serialised by the write lock.
public struct JobQueue: Sendable {
    public let database: Database
    public let clock: any WallClock

    public init(database: Database, clock: any WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Stores the job unless a job with its id exists. Returns whether it was new.
    @discardableResult
    public func enqueue(_ job: NewJob) async throws -> Bool {
        try await database.transaction { tx in try await self.enqueue(job, in: tx) }
    }

    /// Stores the job in the caller's transaction (it exists only if that transaction commits).
    @discardableResult
    public func enqueue(_ job: NewJob, in tx: Transaction) async throws -> Bool {
        let now = clock.now().millisecondsSince1970
        let rows = try await tx.sql.raw(
            """
            INSERT INTO platform_jobs (id, kind, payload, status, attempts, max_attempts, run_at, created_at, updated_at, user_id)
            VALUES (\(bind: job.id), \(bind: job.kind), \(bind: job.payload), 'queued', 0, \(bind: max(1, job.maxAttempts)),
                    \(bind: job.runAt?.millisecondsSince1970 ?? now), \(bind: now), \(bind: now), \(bind: job.userId))
            ON CONFLICT (id) DO NOTHING
            RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    /// Queues a job that failed for good again, from its first attempt, now (in the caller's transaction): for a
    /// job asked for again under the same id, which `enqueue` leaves as it is. Returns whether it was failed.
    @discardableResult
    public func requeueIfFailed(id: String, in tx: Transaction) async throws -> Bool {
        let now = clock.now().millisecondsSince1970
        let rows = try await tx.sql.raw(
            """
            UPDATE platform_jobs
            SET status = 'queued', attempts = 0, run_at = \(bind: now), updated_at = \(bind: now), finished_at = NULL
            WHERE id = \(bind: id) AND status = 'failed'
            RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    /// Leases the next due job of one of `kinds` to `worker` for `lease` seconds, or returns nil.
    public func claim(worker: String, kinds: [String], lease: TimeInterval) async throws -> LeasedJob? {
        try await claim(worker: worker, leases: Dictionary(kinds.map { ($0, lease) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Leases the next due job of one of the kinds in `leases` to `worker`, for its kind's lease (seconds), or
    /// returns nil. A job that died with its worker waits out only its own kind's lease.
    public func claim(worker: String, leases: [String: TimeInterval]) async throws -> LeasedJob? {
        guard !leases.isEmpty else { return nil }
        let engine = database.engine
        let clock = self.clock
        let kinds = leases.keys.sorted()
        return try await database.transaction { tx -> LeasedJob? in
            let now = clock.now()
            let lockClause = engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
            let kindBinds: [any Encodable & Sendable] = kinds
            guard
                let candidate = try await tx.sql.raw(
                    """
                    SELECT id, kind FROM platform_jobs
                    WHERE status = 'queued' AND run_at <= \(bind: now.millisecondsSince1970) AND kind IN (\(binds: kindBinds))
                    ORDER BY run_at, id
                    LIMIT 1\(unsafeRaw: lockClause)
                    """
                ).first()
            else { return nil }
            let id = try candidate.decode(column: "id", as: String.self)
            let kind = try candidate.decode(column: "kind", as: String.self)
            let expires = now.addingTimeInterval(leases[kind] ?? 60)
            guard
                let row = try await tx.sql.raw(
                    """
                    UPDATE platform_jobs
                    SET status = 'leased', attempts = attempts + 1, lease_owner = \(bind: worker),
                        lease_expires_at = \(bind: expires.millisecondsSince1970), updated_at = \(bind: now.millisecondsSince1970)
                    WHERE id = \(bind: id) AND status = 'queued'
                    RETURNING id, kind, payload, attempts, max_attempts
                    """
                ).first()
            else { return nil }
            return LeasedJob(
                id: try row.decode(column: "id", as: String.self),
                kind: try row.decode(column: "kind", as: String.self),
                payload: try row.decode(column: "payload", as: String.self),
                attempt: try row.decode(column: "attempts", as: Int.self),
                maxAttempts: try row.decode(column: "max_attempts", as: Int.self),
                leaseOwner: worker,
                leaseExpiresAt: expires)
        }
    }

    /// Extends the lease of a job still in hand to `lease` seconds from now. Returns the job with its new expiry,
    /// or nil (changing nothing) when the lease was lost: it expired and the watchdog re-queued the job.
    public func renew(_ job: LeasedJob, lease: TimeInterval) async throws -> LeasedJob? {
        let now = clock.now()
        let expires = now.addingTimeInterval(lease)
        guard
            try await updateHeld(
                job, set: "lease_expires_at = \(bind: expires.millisecondsSince1970), updated_at = \(bind: now.millisecondsSince1970)")
        else { return nil }
        var renewed = job
        renewed.leaseExpiresAt = expires
        return renewed
    }

    /// Marks a leased job done. Returns false (and changes nothing) when the lease was lost meanwhile — the
    /// watchdog gave the job to another worker — so a job is never completed twice.
    @discardableResult
    public func complete(_ job: LeasedJob) async throws -> Bool {
        let now = clock.now().millisecondsSince1970
        return try await updateHeld(
            job, set: "status = 'done', lease_owner = NULL, lease_expires_at = NULL, updated_at = \(bind: now), finished_at = \(bind: now)")
    }

    /// Records a failed attempt: the job is queued again after the policy's delay, or marked failed once it has
    /// used its attempts. Returns false when the lease was lost meanwhile.
    @discardableResult
    public func fail(_ job: LeasedJob, error: String, retry: RetryPolicy) async throws -> Bool {
        let now = clock.now()
        let exhausted = job.attempt >= job.maxAttempts
        let runAt = now.addingTimeInterval(retry.delay(afterAttempt: job.attempt))
        let message = String(error.prefix(2000))
        return try await updateHeld(
            job,
            set: """
                status = \(bind: exhausted ? "failed" : "queued"), lease_owner = NULL, lease_expires_at = NULL,
                run_at = \(bind: runAt.millisecondsSince1970), last_error = \(bind: message),
                updated_at = \(bind: now.millisecondsSince1970),
                finished_at = \(bind: exhausted ? now.millisecondsSince1970 : nil as Int64?)
                """)
    }

    /// Gives a job in hand back to the queue as it was before this attempt (its worker is stopping): due now, the
    /// attempt not counted. Returns false (changing nothing) when the lease was lost meanwhile.
    @discardableResult
    public func release(_ job: LeasedJob) async throws -> Bool {
        let now = clock.now().millisecondsSince1970
        return try await updateHeld(
            job, set: "status = 'queued', attempts = attempts - 1, lease_owner = NULL, lease_expires_at = NULL, updated_at = \(bind: now)")
    }

    /// Applies `set` to the job only while this attempt still holds it (leased, by its owner, at its attempt):
    /// whatever a worker records after losing its lease changes nothing. Returns whether it held.
    private func updateHeld(_ job: LeasedJob, set: SQLQueryString) async throws -> Bool {
        try await database.transaction { tx in
            let rows = try await tx.sql.raw(
                """
                UPDATE platform_jobs SET \(set)
                WHERE id = \(bind: job.id) AND status = 'leased' AND lease_owner = \(bind: job.leaseOwner) AND attempts = \(bind: job.attempt)
                RETURNING id
                """
            ).all()
            return !rows.isEmpty
        }
    }

    /// The watchdog: jobs whose lease expired go back to the queue (or to failed when out of attempts).
    /// Returns how many were re-queued or failed.
    @discardableResult
    public func requeueExpiredLeases() async throws -> Int {
        let now = clock.now().millisecondsSince1970
        return try await database.transaction { tx in
            let rows = try await tx.sql.raw(
                """
                UPDATE platform_jobs
                SET status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
                    last_error = 'lease expired', lease_owner = NULL, lease_expires_at = NULL, updated_at = \(bind: now),
                    finished_at = CASE WHEN attempts >= max_attempts THEN \(bind: now) ELSE NULL END
                WHERE status = 'leased' AND lease_expires_at < \(bind: now)
                RETURNING id
                """
            ).all()
            return rows.count
        }
    }

    /// Jobs whose kind starts with `kindPrefix`, of `status` and `userId` when given, the most recently changed first,
    /// at most `limit` (operators' listings).
    public func jobs(kindPrefix: String, status: JobStatus? = nil, userId: String? = nil, limit: Int) async throws -> [JobRecord] {
        let statusFilter: SQLQueryString = status.map { "AND status = \(bind: $0.rawValue)" } ?? ""
        let userFilter: SQLQueryString = userId.map { "AND user_id = \(bind: $0)" } ?? ""
        let rows = try await database.sql.raw(
            """
            SELECT id, kind, status, attempts, max_attempts, run_at, last_error FROM platform_jobs
            WHERE kind LIKE \(bind: kindPrefix.replacingOccurrences(of: "%", with: "") + "%") \(statusFilter) \(userFilter)
            ORDER BY updated_at DESC, id LIMIT \(bind: max(1, limit))
            """
        ).all()
        return try rows.map(Self.record)
    }

    /// Queues a job that failed for good again, from its first attempt, now. Returns whether it was failed.
    @discardableResult
    public func retry(id: String) async throws -> Bool {
        try await database.transaction { tx in try await self.requeueIfFailed(id: id, in: tx) }
    }

    /// One job, or nil.
    public func job(id: String) async throws -> JobRecord? {
        guard
            let row = try await database.sql.raw(
                "SELECT id, kind, status, attempts, max_attempts, run_at, last_error FROM platform_jobs WHERE id = \(bind: id)"
            ).first()
        else { return nil }
        return try Self.record(row)
    }

    static func record(_ row: any SQLRow) throws -> JobRecord {
        JobRecord(
            id: try row.decode(column: "id", as: String.self),
            kind: try row.decode(column: "kind", as: String.self),
            status: JobStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .failed,
            attempts: try row.decode(column: "attempts", as: Int.self),
            maxAttempts: try row.decode(column: "max_attempts", as: Int.self),
            runAt: Date(millisecondsSince1970: try row.decode(column: "run_at", as: Int64.self)),
            lastError: try row.decode(column: "last_error", as: String?.self))
    }
}
