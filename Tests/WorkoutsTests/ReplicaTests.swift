import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

@Suite struct ReplicaTests {
    /// Two server processes share one database: each keeps its own cache of the documents it wrote, and a
    /// write by the other is never overwritten with a stale copy.
    @Test(arguments: TestDatabases.engines)
    func writesFromTwoReplicasInterleaveWithoutLoss(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let first = try await WorkoutsTesting.module(db, clock: SystemClock())
            let second = try await WorkoutsTesting.module(db, clock: SystemClock())
            let started = try await first.active.start(userId: "u", request: .init(), idempotencyKey: nil).value()
            let added = try await first.active.addExercise(
                userId: "u", request: .init(workoutId: started.id, exerciseId: "Barbell_Squat", sets: 4), key: nil
            ).value()
            let instance = added.exercises[0].instanceId
            let sets = added.exercises[0].sets.map(\.id)
            for (index, setId) in sets.enumerated() {
                let replica = index.isMultiple(of: 2) ? first : second
                _ = try await replica.active.logSet(
                    userId: "u",
                    request: .init(workoutId: started.id, exerciseInstanceId: instance, setId: setId, weightKg: 100, reps: index + 1),
                    key: nil)
            }
            let final = try #require(try await second.active.active(userId: "u"))
            #expect(final.exercises[0].sets.map(\.reps) == [1, 2, 3, 4])
            #expect(final.totals.sets == 4)
            #expect(final.version == 6)
        }
    }

    /// Erasing a user while a change of structure is under way (it holds the workout header's lock and has
    /// rewritten the exercise and set rows, not yet committed): the eraser waits for it and removes what it
    /// wrote. Before, on PostgreSQL, the DELETE of the sets ran first and could not see the new rows, and the
    /// DELETE of the header then waited for the change: its exercise and set rows stayed, of no workout.
    @Test(arguments: TestDatabases.engines)
    func erasingWaitsForAChangeUnderWay(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let module = try await WorkoutsTesting.module(db, clock: SystemClock())
            let started = try await module.active.start(userId: "u", request: .init(), idempotencyKey: nil).value()
            var changed = try await module.active.addExercise(
                userId: "u", request: .init(workoutId: started.id, exerciseId: "Barbell_Squat", sets: 2), key: nil
            ).value()
            changed.exercises[0].sets.append(WorkoutSet(id: "added", setIndex: 2))
            let workout = changed
            let (locked, lockedSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            let change = Task {
                try await db.transaction { tx in
                    if engine == .postgres {
                        try await tx.sql.run(ActiveWorkoutService.lockWorkout(SQLValue(workout.id), SQLValue("u")))
                    }
                    try await tx.sql.raw("DELETE FROM workouts_active_sets WHERE workout_id = \(bind: workout.id)").run()
                    try await tx.sql.raw("DELETE FROM workouts_active_exercises WHERE workout_id = \(bind: workout.id)").run()
                    try await ActiveWorkoutStorage.insertRows(of: workout, sql: tx.sql)
                    lockedSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in locked { break }
            let erasing = Task { try await module.eraser.eraseUserData(userId: "u") }
            // Gives the eraser time to run as far as it can before the change commits (a slower machine only
            // lets it do less, which cannot make this fail).
            try await Task.sleep(for: .milliseconds(300))
            releaseSignal.yield()
            try await change.value
            try await erasing.value
            for table in WorkoutsUserDataEraser.tables {
                let left = try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE user_id = 'u'").first(
                    decodingColumn: "n", as: Int.self)
                #expect(left == 0, "\(table) keeps \(left ?? -1) rows")
            }
        }
    }

    /// Deleting a completed workout while another transaction holds its header (as the eraser and the purge of
    /// ended workouts do, before deleting its sets and then its archive): the delete waits for the header before
    /// touching a row, then finds nothing. Before, on PostgreSQL, it deleted the archive and the sets first and
    /// then waited for the header, while the other transaction waited for those rows: a deadlock, one side
    /// aborted and answered INTERNAL.
    @Test(arguments: TestDatabases.engines)
    func deletingAWorkoutTakesItsHeaderFirst(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let module = try await WorkoutsTesting.module(db, clock: SystemClock())
            let id = try await module.completeASquatWorkout(userId: "u").id
            let (locked, lockedSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await db.transaction { tx in
                    if engine == .postgres {
                        try await tx.sql.run(ActiveWorkoutService.lockWorkout(SQLValue(id), SQLValue("u")))
                    }
                    lockedSignal.yield()
                    for await _ in release { break }
                    try await tx.sql.raw("DELETE FROM workouts_active_sets WHERE user_id = 'u'").run()
                    try await tx.sql.raw("DELETE FROM workouts_history WHERE user_id = 'u'").run()
                }
            }
            for await _ in locked { break }
            let deleting = Task { try await module.history.delete(userId: "u", id: id) }
            // Gives the delete time to run as far as it can while the header is held (a slower machine only lets
            // it do less, which cannot make this fail).
            try await Task.sleep(for: .milliseconds(300))
            releaseSignal.yield()
            try await holder.value
            await #expect(performing: { try await deleting.value }, throws: { ($0 as? ServiceError)?.code == .notFound })
        }
    }
}
