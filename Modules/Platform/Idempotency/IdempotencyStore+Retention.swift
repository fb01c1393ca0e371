import Contracts
import Foundation
import Logging

/// Keeps the table bounded: every write with a key stores its answer (a few hundred bytes), and without an end
/// the table would grow by one row per keyed write forever.
///
/// A record is kept for `retentionPeriod` (7 days), far longer than a client retries: a retry comes seconds to
/// hours later, even from a phone that logged a whole workout offline. After that the same key counts as new.
extension IdempotencyStore {
    public static let retentionPeriod: TimeInterval = 7 * 86_400
    /// Records deleted per transaction: each is one short write between the users' writes, never a long lock.
    public static let purgeChunk = 1_000

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
    static func deleteExpired(from table: String) -> FixedSQL {
        FixedSQL(
            sqlite: """
                DELETE FROM \(table) WHERE created_at < ? AND rowid IN
                    (SELECT rowid FROM \(table) ORDER BY rowid LIMIT ?)
                RETURNING created_at
                """,
            postgres: """
                DELETE FROM \(table) WHERE (user_id, idempotency_key) IN
                    (SELECT user_id, idempotency_key FROM \(table) WHERE created_at < ? ORDER BY created_at LIMIT ?
                     FOR UPDATE SKIP LOCKED)
                RETURNING created_at
                """)
    }

    /// Deletes every record older than `retentionPeriod`, one chunk per transaction, until a step finds none (on
    /// SQLite a window of `chunk` records may hold younger ones among the expired); returns how many.
    public func purgeExpired(chunk: Int = Self.purgeChunk) async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-Self.retentionPeriod).millisecondsSince1970
        return try await database.deleteInChunks(deleteExpired(SQLValue(cutoff), SQLValue(chunk)))
    }

    /// Purges expired records at start and then every ten minutes; stops with the server. A service of the
    /// module's plugin (`name` names it in the logs, as `<name>d` when it removed some).
    public func purger(name: String, logger: Logger) -> PeriodicTask {
        PeriodicTask.purge(name: name, logger: logger, message: "expired idempotency records removed") { [self] in
            try await purgeExpired()
        }
    }
}
