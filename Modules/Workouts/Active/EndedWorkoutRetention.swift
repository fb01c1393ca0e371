import Contracts
import Foundation
import Logging
import Platform
import SQLKit

/// Keeps the active tables to the workouts in progress and those ended lately: a completed or cancelled
/// workout's header, exercise and set rows go `period` (seven days, as the idempotency records) after it ended.
///
/// While they are kept, a late write to the workout (a retry from a phone that was offline, a second device) is
/// refused as "already finished" or "cancelled"; without an end, every set ever logged would stay stored twice,
/// once here and once in the history document. After the period a write naming a completed workout is still
/// refused as finished (its history document says so); a cancelled one is then unknown (`NOT_FOUND`), as
/// nothing else keeps it. The history (`workouts_history`) is not touched.
struct EndedWorkoutRetention: Sendable {
    static let period: TimeInterval = IdempotencyStore.retentionPeriod
    /// Workouts removed per transaction (each with its exercise and set rows, about 60 rows a workout).
    static let chunk = 200

    let database: Database
    let clock: any WallClock

    /// The workouts ended before the cutoff, oldest first; PostgreSQL replicas purging at the same moment take
    /// different ones instead of waiting on each other's.
    static let ended = FixedSQL(
        sqlite: "SELECT id FROM workouts_active WHERE ended_at < ? ORDER BY ended_at LIMIT ?",
        postgres: "SELECT id FROM workouts_active WHERE ended_at < ? ORDER BY ended_at LIMIT ? FOR UPDATE SKIP LOCKED")

    /// Removes every workout that ended more than `period` ago, `chunk` workouts per transaction; returns how many.
    func purgeEnded(chunk: Int = Self.chunk) async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-Self.period).millisecondsSince1970
        return try await database.inChunks { tx in
            let ids = try await tx.sql.all(Self.ended(SQLValue(cutoff), SQLValue(chunk))).map {
                try $0.decode(column: "id", as: String.self)
            }
            guard !ids.isEmpty else { return 0 }
            try await tx.sql.raw("DELETE FROM workouts_active_sets WHERE workout_id IN (\(binds: ids))").run()
            try await tx.sql.raw("DELETE FROM workouts_active_exercises WHERE workout_id IN (\(binds: ids))").run()
            try await tx.sql.raw("DELETE FROM workouts_active WHERE id IN (\(binds: ids))").run()
            return ids.count
        }
    }
}

extension EndedWorkoutRetention {
    /// Purges at start and then every ten minutes; stops with the server.
    var purger: PeriodicTask {
        PeriodicTask.purge(
            name: "ended_workouts_purge", logger: Logger(label: "workouts.active"), message: "rows of ended workouts removed"
        ) { [self] in try await purgeEnded() }
    }
}
