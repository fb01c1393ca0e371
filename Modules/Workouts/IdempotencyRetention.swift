import Contracts
import Foundation
import Logging
import Platform

/// Keeps `workouts_idempotency` bounded: every write with a key stores its answer (a few hundred bytes), and
/// without an end the table would grow by one row per logged set forever.
///
/// A record is kept for `period` (7 days), far longer than a client retries: a retry comes seconds to hours
/// later, even from a phone that logged a whole workout offline. After that the same key counts as new, which
/// changes nothing that matters: logging a set again writes the same values into the same set; a late retry of
/// a start while that workout is still running gets `CONFLICT` with its id, and one for a finished workout would
/// start an empty one, as any new request does.
struct IdempotencyRetention: Sendable {
    static let period: TimeInterval = 7 * 86_400
    /// Records deleted per transaction: each is one short write between the users' writes, never a long lock.
    static let chunk = 1_000

    let database: Database
    let clock: any WallClock

    /// The oldest expired records first, `chunk` at a time.
    ///
    /// SQLite goes by insertion order, which needs no index: a new record's rowid is larger than that of every
    /// record present, so the lowest are the oldest. Each step looks at the `chunk` oldest and deletes those
    /// expired. (An index on `created_at` cost every commit of logged sets one more page of WAL.) Should the
    /// clock have gone back, a record stamped later than its successors stays in the window while the expired
    /// ones around it go; only `chunk` such records in a row would end a run early.
    ///
    /// PostgreSQL goes by the `created_at` index: replicas purging at the same moment take different rows
    /// instead of waiting on each other's.
    static let deleteExpired = FixedSQL(
        sqlite: """
            DELETE FROM workouts_idempotency WHERE created_at < ? AND rowid IN
                (SELECT rowid FROM workouts_idempotency ORDER BY rowid LIMIT ?)
            RETURNING created_at
            """,
        postgres: """
            DELETE FROM workouts_idempotency WHERE (user_id, idempotency_key) IN
                (SELECT user_id, idempotency_key FROM workouts_idempotency WHERE created_at < ? ORDER BY created_at LIMIT ?
                 FOR UPDATE SKIP LOCKED)
            RETURNING created_at
            """)

    /// Deletes every record older than `period`, one chunk per transaction, until a step finds none (on SQLite a
    /// window of `chunk` records may hold younger ones among the expired); returns how many.
    func purgeExpired(chunk: Int = Self.chunk) async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-Self.period).millisecondsSince1970
        return try await database.deleteInChunks(Self.deleteExpired(SQLValue(cutoff), SQLValue(chunk)))
    }
}

extension IdempotencyRetention {
    /// Purges expired records at start and then every ten minutes; stops with the server.
    var purger: PeriodicTask {
        PeriodicTask.purge(
            name: "idempotency_purge", logger: Logger(label: "workouts.idempotency"), message: "expired idempotency records removed"
        ) { [self] in try await purgeExpired() }
    }
}
