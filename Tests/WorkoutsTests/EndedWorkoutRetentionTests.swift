import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

/// A completed or cancelled workout's active rows (header, exercises, sets) go seven days after it ended
/// (`EndedWorkoutRetention`); the history keeps the completed ones, and a late write is still refused as it was.
@Suite struct EndedWorkoutRetentionTests {
    static func rows(_ db: Database) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in ["workouts_active", "workouts_active_exercises", "workouts_active_sets"] {
            counts[table] = try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first(decodingColumn: "n", as: Int.self)
        }
        return counts
    }

    static func workoutIds(_ db: Database) async throws -> Set<String> {
        Set(try await db.sql.raw("SELECT id FROM workouts_active").all(decodingColumn: "id", as: String.self))
    }

    /// Starts a workout of one exercise with `sets` sets and logs the first; returns it.
    static func started(_ module: WorkoutsModule, user: String, sets: Int, key: String) async throws -> ActiveWorkout {
        let started = try await module.active.start(userId: user, request: .init(), idempotencyKey: "\(key)-start").value()
        let added = try await module.active.addExercise(
            userId: user, request: .init(workoutId: started.id, exerciseId: "Barbell_Squat", sets: sets), key: "\(key)-add"
        ).value()
        _ = try await module.active.logSet(
            userId: user,
            request: .init(
                workoutId: started.id, exerciseInstanceId: added.exercises[0].instanceId, setId: added.exercises[0].sets[0].id,
                weightKg: 100, reps: 5),
            key: "\(key)-log")
        return added
    }

    static func code(_ body: () async throws -> Void) async -> (ErrorCode, [String: String])? {
        do {
            try await body()
            return nil
        } catch let error as ServiceError {
            return (error.code, error.details)
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test(arguments: TestDatabases.engines)
    func endedWorkoutsLeaveTheActiveTablesAWeekAfterTheyEnded(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let clock = FakeWallClock(Date(timeIntervalSince1970: 1_767_225_600))
            let module = try await WorkoutsTesting.module(db, clock: clock)
            let completed = try await Self.started(module, user: "u", sets: 3, key: "a")
            _ = try await module.active.complete(userId: "u", workoutId: completed.id, key: "a-complete").value()
            let cancelled = try await Self.started(module, user: "u", sets: 4, key: "b")
            _ = try await module.active.cancel(userId: "u", workoutId: cancelled.id, key: "b-cancel").value()
            // Another user's workout ended at the same moment goes as well.
            let other = try await Self.started(module, user: "v", sets: 2, key: "c")
            _ = try await module.active.complete(userId: "v", workoutId: other.id, key: "c-complete").value()

            clock.advance(by: 6 * 86_400)
            let young = try await Self.started(module, user: "u", sets: 5, key: "d")
            _ = try await module.active.complete(userId: "u", workoutId: young.id, key: "d-complete").value()
            // Started six days in and never finished: in progress, it stays however old it gets.
            let running = try await Self.started(module, user: "u", sets: 6, key: "e")
            #expect(try await Self.rows(db) == ["workouts_active": 5, "workouts_active_exercises": 5, "workouts_active_sets": 20])

            clock.advance(by: 86_400 + 1)  // the first three ended seven days and a second ago
            #expect(try await module.endedWorkoutRetention.purgeEnded(chunk: 2) == 3, "two chunks: 2, 1")
            #expect(try await Self.workoutIds(db) == [young.id, running.id])
            #expect(try await Self.rows(db) == ["workouts_active": 2, "workouts_active_exercises": 2, "workouts_active_sets": 11])
            #expect(try await module.endedWorkoutRetention.purgeEnded() == 0)

            // The history is untouched, and the in-progress workout is as it was.
            #expect(try await module.history.get(userId: "u", id: completed.id).exercises[0].sets.count == 1)
            #expect(try await module.history.get(userId: "v", id: other.id).exercises[0].sets.count == 1)
            let current = try #require(try await module.active.active(userId: "u"))
            #expect(current.id == running.id && current.exercises[0].sets.count == 6)
            #expect(current.exercises[0].sets[0].reps == 5)

            // A late write to the purged completed workout is still refused as finished; the cancelled one,
            // kept nowhere else, is now unknown; another user's purged workout is unknown too.
            func logLate(_ workout: ActiveWorkout, user: String = "u", key: String) async -> (ErrorCode, [String: String])? {
                await Self.code {
                    _ = try await module.active.logSet(
                        userId: user,
                        request: .init(
                            workoutId: workout.id, exerciseInstanceId: workout.exercises[0].instanceId,
                            setId: workout.exercises[0].sets[1].id,
                            weightKg: 80, reps: 3),
                        key: key)
                }
            }
            let finished = await logLate(completed, key: "late-1")
            #expect(finished?.0 == .failedPrecondition && finished?.1["status"] == "completed")
            let unknown = await logLate(cancelled, key: "late-2")
            #expect(unknown?.0 == .notFound && unknown?.1["workout_id"] == cancelled.id)
            #expect(await logLate(other, key: "late-3")?.0 == .notFound, "another user's archived workout")
            let again = await Self.code { _ = try await module.active.complete(userId: "u", workoutId: completed.id, key: "late-4") }
            #expect(again?.0 == .failedPrecondition)
            // The young one keeps its rows and is refused from them.
            let youngLate = await logLate(young, key: "late-5")
            #expect(youngLate?.0 == .failedPrecondition && youngLate?.1["status"] == "completed")
            // Refused writes changed nothing.
            #expect(try await Self.rows(db) == ["workouts_active": 2, "workouts_active_exercises": 2, "workouts_active_sets": 11])

            // A week after it ended, the young one goes too; the one in progress never does.
            clock.advance(by: 7 * 86_400)
            #expect(try await module.endedWorkoutRetention.purgeEnded() == 1)
            #expect(try await Self.workoutIds(db) == [running.id])
            #expect(try await module.history.recent(userId: "u", limit: 10, cursor: nil).items.count == 2)
        }
    }

    /// Workouts that ended before migration 9 take their last change as their end, and go with the first purge
    /// after it; a workout in progress gets no end.
    @Test(arguments: TestDatabases.engines)
    func workoutsEndedBeforeTheMigrationTakeTheirLastChangeAsTheirEnd(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsMigrations.all.filter { $0.version < 9 })]) { db in
            let day: Int64 = 86_400_000
            for (id, status, updated) in [("w1", "completed", 10 * day), ("w2", "cancelled", 20 * day), ("w3", "in_progress", 5 * day)] {
                try await db.sql.raw(
                    """
                    INSERT INTO workouts_active (id, user_id, status, version, start_time, created_at, updated_at)
                    VALUES (\(bind: id), 'u', \(bind: status), 2, 0, 0, \(bind: updated))
                    """
                ).run()
            }
            try await Migrator(database: db, logger: TestDatabases.logger).migrate([("workouts", WorkoutsMigrations.all)])
            let ends = try await db.sql.raw("SELECT id, ended_at FROM workouts_active ORDER BY id").all().map {
                "\(try $0.decode(column: "id", as: String.self))=\(try $0.decode(column: "ended_at", as: Int64?.self).map(String.init) ?? "nil")"
            }
            #expect(ends == ["w1=\(10 * day)", "w2=\(20 * day)", "w3=nil"])

            let clock = FakeWallClock(Date(timeIntervalSince1970: Double(20 * day) / 1000 + 3 * 86_400))
            let module = try await WorkoutsTesting.module(db, clock: clock)
            #expect(try await module.endedWorkoutRetention.purgeEnded() == 1)
            #expect(try await Self.workoutIds(db) == ["w2", "w3"])
        }
    }

    /// The server runs the purge as a service of the Workouts plugin.
    @Test func thePluginRunsThePurger() async throws {
        try await TestDatabases.with(.sqlite, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let module = try await WorkoutsTesting.module(db, clock: FakeWallClock())
            #expect(module.plugin.services.contains { ($0 as? PeriodicTask)?.name == "ended_workouts_purge" })
        }
    }
}
