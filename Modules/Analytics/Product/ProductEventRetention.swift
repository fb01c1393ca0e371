import Contracts
import Foundation
import Logging
import Platform

/// Keeps raw product events for `period` (`POVVER_PRODUCT_EVENTS_RETENTION_DAYS`, 400 days: a year's funnel and
/// its comparison month): an event whose `occurred_at` is older goes, milestone events with the rest. The
/// milestones themselves (`analytics_product_milestones`, three rows a user at most) stay, so a milestone is still
/// made once per user.
struct ProductEventRetention: Sendable {
    /// Events removed per transaction.
    static let chunk = 1_000

    let database: Database
    let clock: any WallClock
    let period: TimeInterval

    /// Events that occurred before the cutoff, oldest first (the index on `occurred_at` finds them).
    static let deleteOld = FixedSQL.deleteOldest(from: "analytics_product_events", key: "id", before: "occurred_at")

    /// Removes every event older than `period`, `chunk` per transaction; returns how many.
    func purgeExpired(chunk: Int = Self.chunk) async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-period).millisecondsSince1970
        return try await database.deleteInChunks(Self.deleteOld(SQLValue(cutoff), SQLValue(chunk)))
    }

    /// Purges at start and then every ten minutes; stops with the server.
    var purger: PeriodicTask {
        PeriodicTask.purge(
            name: "product_events_purge", logger: Logger(label: "analytics.product"), message: "product events past their retention removed"
        ) { [self] in try await purgeExpired() }
    }
}
