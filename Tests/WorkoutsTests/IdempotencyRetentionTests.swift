import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

/// Idempotency records expire after seven days (`IdempotencyStore.purgeExpired`), so the table does not grow by one row
/// per logged set forever; younger records keep answering their repeats.
@Suite struct IdempotencyRetentionTests {
    static func keys(_ db: Database) async throws -> [String] {
        try await db.sql.raw("SELECT idempotency_key FROM workouts_idempotency ORDER BY idempotency_key")
            .all(decodingColumn: "idempotency_key", as: String.self)
    }

    @Test(arguments: TestDatabases.engines)
    func expiredRecordsArePurgedAndYoungOnesStillAnswer(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let clock = FakeWallClock()
            let module = try await WorkoutsTesting.module(db, clock: clock)
            let started = try await module.active.start(userId: "u", request: .init(), idempotencyKey: "start").value()
            let added = try await module.active.addExercise(
                userId: "u", request: .init(workoutId: started.id, exerciseId: "Barbell_Squat", sets: 4), key: "add"
            ).value()
            let instance = added.exercises[0].instanceId
            let sets = added.exercises[0].sets.map(\.id)
            func log(_ index: Int, key: String) async throws -> [UInt8] {
                try await module.active.logSet(
                    userId: "u",
                    request: .init(workoutId: started.id, exerciseInstanceId: instance, setId: sets[index], weightKg: 100, reps: index + 1),
                    key: key
                ).json
            }
            for index in 0..<3 { _ = try await log(index, key: "old-\(index)") }
            clock.advance(by: 6 * 86_400)
            let young = try await log(3, key: "young")
            clock.advance(by: 86_400 + 1)  // the first five records are now older than seven days

            #expect(try await module.context.idempotency.purgeExpired(chunk: 2) == 5, "three chunks: 2, 2, 1")
            #expect(try await Self.keys(db) == ["young"])
            #expect(try await module.context.idempotency.purgeExpired() == 0)

            // The young key still answers its repeat with the first answer and changes nothing.
            let version = try #require(try await module.active.active(userId: "u")).version
            #expect(try await log(3, key: "young") == young)
            #expect(try #require(try await module.active.active(userId: "u")).version == version)
            // The workout itself is untouched by the purge.
            #expect(try #require(try await module.active.active(userId: "u")).exercises[0].sets.map(\.reps) == [1, 2, 3, 4])
        }
    }

    /// A record stamped in the future (the clock went back after it) does not shield the expired records
    /// written after it. SQLite purges by insertion order, without an index on `created_at`.
    @Test(arguments: TestDatabases.engines)
    func aRecordFromAClockAheadDoesNotStopThePurge(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let start = Date(timeIntervalSince1970: 1_767_225_600)
            let clock = FakeWallClock(start)
            let module = try await WorkoutsTesting.module(db, clock: clock)
            let started = try await module.active.start(userId: "u", request: .init(), idempotencyKey: "start").value()
            let added = try await module.active.addExercise(
                userId: "u", request: .init(workoutId: started.id, exerciseId: "Barbell_Squat", sets: 4), key: "add"
            ).value()
            func log(_ index: Int, key: String) async throws {
                _ = try await module.active.logSet(
                    userId: "u",
                    request: .init(
                        workoutId: started.id, exerciseInstanceId: added.exercises[0].instanceId, setId: added.exercises[0].sets[index].id,
                        weightKg: 60, reps: 5),
                    key: key)
            }
            clock.set(start.addingTimeInterval(30 * 86_400))
            try await log(0, key: "ahead")
            clock.set(start.addingTimeInterval(60))
            for index in 1..<4 { try await log(index, key: "behind-\(index)") }
            clock.set(start.addingTimeInterval(8 * 86_400))

            #expect(try await module.context.idempotency.purgeExpired(chunk: 2) == 5)
            #expect(try await Self.keys(db) == ["ahead"])
            if engine == .sqlite {
                let indexes = try await db.sql.raw(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'workouts_idempotency'"
                )
                .all(decodingColumn: "name", as: String.self)
                #expect(!indexes.contains("workouts_idempotency_created"))
            }
        }
    }

    /// The server runs the purge as a service of the Workouts plugin.
    @Test func thePluginRunsThePurger() async throws {
        try await TestDatabases.with(.sqlite, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let module = try await WorkoutsTesting.module(db, clock: FakeWallClock())
            #expect(module.plugin.services.contains { ($0 as? PeriodicTask)?.name == "idempotency_purge" })
        }
    }
}
