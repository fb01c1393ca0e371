import Contracts
import Fakes
import Foundation
import Platform
import Testing
import TestSupport

@testable import Workouts

/// Deleting an archived workout and the routine cursor, with the events applied by hand (in the server the
/// outbox delivers them, in any order and perhaps more than once).
@Suite struct CursorRewindTests {
    struct Fixture {
        let module: WorkoutsModule
        let clock: FakeWallClock
        let routineId: String
        let templates: [String]

        /// Starts the routine's next workout, logs one set and completes it; returns its completion event.
        func workout(key: String) async throws -> WorkoutCompleted {
            let started = try await module.active.start(userId: "u", request: .init(routineId: routineId), idempotencyKey: "start-\(key)").value()
            let exercise = started.exercises[0]
            _ = try await module.active.logSet(
                userId: "u",
                request: .init(
                    workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 60, reps: 5, rir: nil),
                key: "log-\(key)")
            clock.advance(by: 60)
            let archived = try await module.active.complete(userId: "u", workoutId: started.id, key: "complete-\(key)").value()
            return WorkoutCompleted(
                userId: "u", workoutId: archived.id, sourceTemplateId: archived.sourceTemplateId, sourceRoutineId: archived.sourceRoutineId,
                completedAt: archived.endTime)
        }

        /// Deletes the archived workout; returns its deletion event.
        func delete(_ completed: WorkoutCompleted) async throws -> WorkoutDeleted {
            _ = try await module.history.delete(userId: "u", id: completed.workoutId)
            return WorkoutDeleted(userId: "u", workoutId: completed.workoutId, sourceRoutineId: completed.sourceRoutineId, deletedAt: clock.now())
        }

        func next() async throws -> NextWorkout {
            try await module.routines.next(userId: "u", routineId: routineId, sql: module.context.database.sql)
        }

        func routine() async throws -> Routine {
            try await module.routines.stored(userId: "u", id: routineId, sql: module.context.database.sql).routine
        }
    }

    /// A routine of three templates, A, B and C.
    static func with(_ engine: SQLEngine, _ body: (Fixture) async throws -> Void) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let clock = FakeWallClock()
            let module = WorkoutsModule(database: db, clock: clock, ids: RandomIDGenerator())
            var templates: [String] = []
            for name in ["A", "B", "C"] {
                let draft = TemplateDraft(name: name, exercises: [PlannedExercise(exerciseId: "Barbell_Squat", sets: [TemplateSet(targetReps: 5)])])
                templates.append(try await module.templates.create(userId: "u", draft: draft).id)
            }
            let routine = try await module.routines.create(userId: "u", draft: RoutineDraft(name: "Cycle", templateIds: templates))
            try await body(Fixture(module: module, clock: clock, routineId: routine.id, templates: templates))
        }
    }

    /// A and B done: C is next. Deleting B's workout makes B next again, with A the last completed; deleting
    /// A's then starts the routine over. Each deletion's event delivered twice changes nothing more.
    @Test(arguments: TestDatabases.engines)
    func deletingTheWorkoutThatMovedTheCursorStepsItBack(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let (a, b, c) = (fixture.templates[0], fixture.templates[1], fixture.templates[2])
            let doneA = try await fixture.workout(key: "a")
            try await fixture.module.routines.advanceCursor(doneA)
            let doneB = try await fixture.workout(key: "b")
            try await fixture.module.routines.advanceCursor(doneB)
            #expect(try await fixture.next().template.id == c)

            let deletedB = try await fixture.delete(doneB)
            for _ in 0..<2 { try await fixture.module.routines.rewindCursor(deletedB) }
            #expect(try await fixture.next().template.id == b)
            #expect(try await fixture.next().index == 1)
            let afterB = try await fixture.routine()
            #expect(afterB.lastCompletedTemplateId == a)
            #expect(afterB.lastCompletedAt == doneA.completedAt)

            let deletedA = try await fixture.delete(doneA)
            for _ in 0..<2 { try await fixture.module.routines.rewindCursor(deletedA) }
            #expect(try await fixture.next().template.id == a)
            #expect(try await fixture.next().index == 0)
            #expect(try await fixture.routine().lastCompletedTemplateId == nil)
            #expect(try await fixture.routine().lastCompletedAt == nil)

            // The cycle goes on as for a routine never done.
            let again = try await fixture.workout(key: "a2")
            #expect(again.sourceTemplateId == a)
            try await fixture.module.routines.advanceCursor(again)
            #expect(try await fixture.next().template.id == b)
        }
    }

    /// Deleting a workout other than the one that last moved the cursor leaves the cursor where it is.
    @Test(arguments: TestDatabases.engines)
    func deletingAnOlderWorkoutLeavesTheCursor(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let doneA = try await fixture.workout(key: "a")
            try await fixture.module.routines.advanceCursor(doneA)
            let doneB = try await fixture.workout(key: "b")
            try await fixture.module.routines.advanceCursor(doneB)
            let before = try await fixture.routine()
            try await fixture.module.routines.rewindCursor(try await fixture.delete(doneA))
            #expect(try await fixture.routine() == before)
            #expect(try await fixture.next().template.id == fixture.templates[2])
        }
    }

    /// A completion that reaches the cursor only after its workout was deleted (the deletion's event found the
    /// cursor elsewhere) never moves it.
    @Test(arguments: TestDatabases.engines)
    func aCompletionDeliveredAfterItsDeletionDoesNotMoveTheCursor(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let doneA = try await fixture.workout(key: "a")
            try await fixture.module.routines.advanceCursor(doneA)
            let doneB = try await fixture.workout(key: "b")
            let deletedB = try await fixture.delete(doneB)
            try await fixture.module.routines.rewindCursor(deletedB)
            try await fixture.module.routines.advanceCursor(doneB)
            #expect(try await fixture.next().template.id == fixture.templates[1], "B was never done")
            #expect(try await fixture.routine().lastCompletedTemplateId == fixture.templates[0])
        }
    }

    /// B done last, then B removed from the routine: C took its slot. Deleting B's workout keeps C next (B's
    /// slot is gone), with A the last completed.
    @Test(arguments: TestDatabases.engines)
    func aDeletedWorkoutWhoseSlotIsGoneKeepsWhatFollowedIt(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let (a, c) = (fixture.templates[0], fixture.templates[2])
            let doneA = try await fixture.workout(key: "a")
            try await fixture.module.routines.advanceCursor(doneA)
            let doneB = try await fixture.workout(key: "b")
            try await fixture.module.routines.advanceCursor(doneB)
            _ = try await fixture.module.templates.delete(userId: "u", id: fixture.templates[1])
            #expect(try await fixture.next().template.id == c)
            try await fixture.module.routines.rewindCursor(try await fixture.delete(doneB))
            #expect(try await fixture.next().template.id == c)
            #expect(try await fixture.routine().lastCompletedTemplateId == a)
        }
    }
}
