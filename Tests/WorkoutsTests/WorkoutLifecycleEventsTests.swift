import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

/// `WorkoutStarted` and `WorkoutCancelled` (and the counts `WorkoutCompleted` carries) are published in the
/// writing transaction, once per workout: product analytics counts starts and cancellations from them.
@Suite struct WorkoutLifecycleEventsTests {
    static func events<E: DomainEvent>(_ type: E.Type, in db: Database) async throws -> [E] {
        try await db.sql.raw("SELECT payload FROM platform_outbox WHERE type = \(bind: E.eventType) ORDER BY seq")
            .all(decodingColumn: "payload", as: String.self).map { try JSONCoding.decode(E.self, from: $0) }
    }

    /// A start publishes one `WorkoutStarted` naming its source; a retried start (same key) answers the first
    /// and publishes nothing more.
    @Test(arguments: TestDatabases.engines)
    func aStartIsPublishedOnceWithItsSource(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let clock = FakeWallClock()
            let module = try await WorkoutsTesting.module(db, clock: clock)
            let first = try await module.active.start(userId: "u", request: .init(), idempotencyKey: "start-1").value()
            let retried = try await module.active.start(userId: "u", request: .init(), idempotencyKey: "start-1").value()
            #expect(retried.id == first.id)
            #expect(
                try await Self.events(WorkoutStarted.self, in: db)
                    == [WorkoutStarted(userId: "u", workoutId: first.id, source: .freeform, startedAt: clock.now())])

            _ = try await module.active.cancel(userId: "u", workoutId: first.id, key: nil)
            let template = try await module.templates.create(
                userId: "u",
                draft: TemplateDraft(name: "Legs", exercises: [.init(exerciseId: "Barbell_Squat", sets: [TemplateSet(targetReps: 5)])]))
            let fromTemplate = try await module.active.start(userId: "u", request: .init(templateId: template.id), idempotencyKey: nil)
                .value()
            _ = try await module.active.cancel(userId: "u", workoutId: fromTemplate.id, key: nil)
            let routine = try await module.routines.create(userId: "u", draft: RoutineDraft(name: "R", templateIds: [template.id]))
            let fromRoutine = try await module.active.start(userId: "u", request: .init(routineId: routine.id), idempotencyKey: nil)
                .value()
            let started = try await Self.events(WorkoutStarted.self, in: db)
            #expect(started.map(\.workoutId) == [first.id, fromTemplate.id, fromRoutine.id])
            #expect(started.map(\.source) == [.freeform, .template, .routine])
        }
    }

    /// A cancel publishes one `WorkoutCancelled` with when the workout started and ended; its retry, and a
    /// cancel of a workout already cancelled, publish nothing more.
    @Test(arguments: TestDatabases.engines)
    func aCancelIsPublishedOnceWithItsDuration(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let clock = FakeWallClock()
            let module = try await WorkoutsTesting.module(db, clock: clock)
            let started = try await module.active.start(userId: "u", request: .init(), idempotencyKey: nil).value()
            let startedAt = clock.now()
            clock.advance(by: 600)
            _ = try await module.active.cancel(userId: "u", workoutId: started.id, key: "cancel-1").value()
            _ = try await module.active.cancel(userId: "u", workoutId: started.id, key: "cancel-1").value()
            let again = await #expect(throws: ServiceError.self) {
                _ = try await module.active.cancel(userId: "u", workoutId: started.id, key: "cancel-2").value()
            }
            #expect(again?.code == .failedPrecondition)
            let cancelled = try await Self.events(WorkoutCancelled.self, in: db)
            #expect(cancelled == [WorkoutCancelled(userId: "u", workoutId: started.id, startedAt: startedAt, cancelledAt: clock.now())])
            #expect(cancelled.first?.durationMinutes == 10)
        }
    }

    /// `WorkoutCompleted` carries the duration and what was done, so its subscribers need not read it back.
    @Test(arguments: TestDatabases.engines)
    func aCompletionCarriesItsCounts(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let clock = FakeWallClock()
            let module = try await WorkoutsTesting.module(db, clock: clock)
            let started = try await module.active.start(userId: "u", request: .init(), idempotencyKey: nil).value()
            let added = try await module.active.addExercise(
                userId: "u", request: .init(workoutId: started.id, exerciseId: "Barbell_Squat", sets: 3), key: nil
            ).value()
            let squat = added.exercises[0]
            for set in squat.sets.prefix(2) {
                _ = try await module.active.logSet(
                    userId: "u",
                    request: .init(workoutId: started.id, exerciseInstanceId: squat.instanceId, setId: set.id, weightKg: 80, reps: 5),
                    key: nil)
            }
            clock.advance(by: 45 * 60)
            _ = try await module.active.complete(userId: "u", workoutId: started.id, key: nil)
            let completed = try await Self.events(WorkoutCompleted.self, in: db)
            #expect(completed.count == 1)
            #expect(completed.first?.durationMinutes == 45)
            #expect(completed.first?.exerciseCount == 1)
            #expect(completed.first?.setCount == 2)
        }
    }
}
