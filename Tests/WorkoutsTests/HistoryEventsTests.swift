import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

@Suite struct HistoryEventsTests {
    /// Every edit of a completed workout publishes its own `WorkoutEdited`, even two within one millisecond
    /// (the clock here never moves): before, the second had the first's outbox id and its edit failed.
    @Test(arguments: TestDatabases.engines)
    func twoEditsInOneMillisecondAreTwoEvents(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [Migrator.platformMigrations, ("workouts", WorkoutsModule.migrations)]) { db in
            let module = try await WorkoutsTesting.module(db, clock: FakeWallClock())
            let completed = try await module.completeASquatWorkout(userId: "u")
            _ = try await module.history.update(userId: "u", id: completed.id, changes: WorkoutChanges(name: "First"))
            let second = try await module.history.update(userId: "u", id: completed.id, changes: WorkoutChanges(name: "Second")).value()
            #expect(second.name == "Second")
            let edits = try await db.sql.raw("SELECT id FROM platform_outbox WHERE type = \(bind: WorkoutEdited.eventType)")
                .all(decodingColumn: "id", as: String.self)
            #expect(edits.count == 2)
        }
    }

    /// The archive holds what was done, numbered 0, 1, … (sets skipped leave no gap), as any later edit numbers
    /// it; an edit that names nothing to change is refused and publishes nothing.
    @Test(arguments: TestDatabases.engines)
    func theArchiveNumbersDoneSetsAndEmptyEditsAreRefused(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [Migrator.platformMigrations, ("workouts", WorkoutsModule.migrations)]) { db in
            let module = try await WorkoutsTesting.module(db, clock: FakeWallClock())
            let started = try await module.active.start(userId: "u", request: .init(), idempotencyKey: nil).value()
            let added = try await module.active.addExercise(
                userId: "u", request: .init(workoutId: started.id, exerciseId: "Barbell_Squat", sets: 3), key: nil
            ).value()
            let exercise = added.exercises[0]
            for set in [exercise.sets[0], exercise.sets[2]] {
                _ = try await module.active.logSet(
                    userId: "u",
                    request: .init(workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: set.id, weightKg: 100, reps: 5),
                    key: nil)
            }
            let completed = try await module.active.complete(userId: "u", workoutId: started.id, key: nil).value()
            #expect(completed.exercises[0].sets.map(\.id) == [exercise.sets[0].id, exercise.sets[2].id])
            #expect(completed.exercises[0].sets.map(\.setIndex) == [0, 1])
            #expect(try await module.history.get(userId: "u", id: completed.id).exercises[0].sets.map(\.setIndex) == [0, 1])

            let refused = await #expect(throws: ServiceError.self) {
                _ = try await module.history.update(userId: "u", id: completed.id, changes: WorkoutChanges())
            }
            #expect(refused?.code == .invalidArgument && refused?.details["field"] == "changes")
            #expect(try await module.history.get(userId: "u", id: completed.id) == completed)
            let edits = try await db.sql.raw("SELECT id FROM platform_outbox WHERE type = \(bind: WorkoutEdited.eventType)").all()
            #expect(edits.isEmpty)
        }
    }
}

extension WorkoutsModule {
    /// Starts an empty workout for `userId`, adds a squat with two sets, logs the first and completes it.
    func completeASquatWorkout(userId: String) async throws -> CompletedWorkout {
        let started = try await active.start(userId: userId, request: .init(), idempotencyKey: nil).value()
        let added = try await active.addExercise(
            userId: userId, request: .init(workoutId: started.id, exerciseId: "Barbell_Squat", sets: 2), key: nil
        ).value()
        let squat = added.exercises[0]
        _ = try await active.logSet(
            userId: userId,
            request: .init(workoutId: started.id, exerciseInstanceId: squat.instanceId, setId: squat.sets[0].id, weightKg: 50, reps: 5),
            key: nil)
        return try await active.complete(userId: userId, workoutId: started.id, key: nil).value()
    }
}
