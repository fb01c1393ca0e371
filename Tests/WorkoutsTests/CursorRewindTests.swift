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

    /// A, B and C done: A is next again. Deleting C's workout, then B's, then A's steps the cursor back one
    /// workout each time (C, then B next), then starts the routine over. Each deletion's event delivered twice
    /// changes nothing more.
    @Test(arguments: TestDatabases.engines)
    func deletingTheWorkoutsThatMovedTheCursorStepsItBackEachTime(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let (a, b, c) = (fixture.templates[0], fixture.templates[1], fixture.templates[2])
            var done: [WorkoutCompleted] = []
            for key in ["a", "b", "c"] {
                done.append(try await fixture.workout(key: key))
                try await fixture.module.routines.advanceCursor(done.last!)
            }
            #expect(try await fixture.next().template.id == a)

            for (deleted, next) in [(2, c), (1, b), (0, a)] {
                let event = try await fixture.delete(done[deleted])
                for _ in 0..<2 { try await fixture.module.routines.rewindCursor(event) }
                #expect(try await fixture.next().template.id == next, "after deleting workout \(deleted)")
                #expect(try await fixture.next().index == deleted)
                let routine = try await fixture.routine()
                #expect(routine.lastCompletedTemplateId == (deleted == 0 ? nil : fixture.templates[deleted - 1]))
                #expect(routine.lastCompletedAt == (deleted == 0 ? nil : done[deleted - 1].completedAt))
            }

            // The cycle goes on as for a routine never done.
            let again = try await fixture.workout(key: "a2")
            #expect(again.sourceTemplateId == a)
            try await fixture.module.routines.advanceCursor(again)
            #expect(try await fixture.next().template.id == b)
        }
    }

    /// Deleting a workout other than the one that last moved the cursor leaves the cursor where it is, and
    /// stepping back later passes over it: with A, B and C done and B's workout deleted, deleting C's makes C
    /// next with A the last completed.
    @Test(arguments: TestDatabases.engines)
    func deletingAnOlderWorkoutLeavesTheCursorAndIsPassedOver(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            var done: [WorkoutCompleted] = []
            for key in ["a", "b", "c"] {
                done.append(try await fixture.workout(key: key))
                try await fixture.module.routines.advanceCursor(done.last!)
            }
            let before = try await fixture.routine()
            try await fixture.module.routines.rewindCursor(try await fixture.delete(done[1]))
            #expect(try await fixture.routine() == before)
            #expect(try await fixture.next().template.id == fixture.templates[0])

            try await fixture.module.routines.rewindCursor(try await fixture.delete(done[2]))
            #expect(try await fixture.next().template.id == fixture.templates[2])
            #expect(try await fixture.routine().lastCompletedTemplateId == fixture.templates[0])
        }
    }

    /// Whether its deletion's event is handled before or after, a workout deleted while newer ones were done
    /// is passed over when stepping back (its deletion's event comes last here).
    @Test(arguments: TestDatabases.engines)
    func steppingBackPassesOverAWorkoutWhoseDeletionIsStillOnItsWay(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            var done: [WorkoutCompleted] = []
            for key in ["a", "b", "c"] {
                done.append(try await fixture.workout(key: key))
                try await fixture.module.routines.advanceCursor(done.last!)
            }
            let deletedB = try await fixture.delete(done[1])
            try await fixture.module.routines.rewindCursor(try await fixture.delete(done[2]))
            #expect(try await fixture.next().template.id == fixture.templates[2])
            #expect(try await fixture.routine().lastCompletedTemplateId == fixture.templates[0])
            try await fixture.module.routines.rewindCursor(deletedB)
            #expect(try await fixture.next().template.id == fixture.templates[2])
        }
    }

    /// Completions the cursor does not remember (here A's, whose event came after B's, as separate deliveries
    /// may; likewise completions from before they were kept): deleting B's workout still finds A in the history,
    /// instead of starting the routine over.
    @Test(arguments: TestDatabases.engines)
    func steppingBackFindsACompletionTheCursorDoesNotRemember(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let doneA = try await fixture.workout(key: "a")
            let doneB = try await fixture.workout(key: "b")
            #expect(doneB.sourceTemplateId == fixture.templates[0], "A's completion had not moved the cursor yet")
            try await fixture.module.routines.advanceCursor(doneB)
            try await fixture.module.routines.advanceCursor(doneA)
            #expect(try await fixture.next().template.id == fixture.templates[1])
            try await fixture.module.routines.rewindCursor(try await fixture.delete(doneB))
            #expect(try await fixture.next().template.id == fixture.templates[0], "the slot B's workout was done in")
            let routine = try await fixture.routine()
            #expect(routine.lastCompletedTemplateId == fixture.templates[0])
            #expect(routine.lastCompletedAt == doneA.completedAt)
            // Found in the history, A's workout is remembered from then on: deleting it steps back in turn.
            try await fixture.module.routines.rewindCursor(try await fixture.delete(doneA))
            #expect(try await fixture.routine().lastCompletedTemplateId == nil)
            #expect(try await fixture.next().index == 0)
        }
    }

    /// Looking back through the history takes only workouts done before the deleted one: a newer one is a
    /// completion still on its way to the cursor, which must move it when it arrives.
    @Test(arguments: TestDatabases.engines)
    func lookingBackSkipsACompletionStillOnItsWay(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let doneA = try await fixture.workout(key: "a")
            let doneB = try await fixture.workout(key: "b")
            try await fixture.module.routines.advanceCursor(doneB)
            let doneC = try await fixture.workout(key: "c")
            try await fixture.module.routines.rewindCursor(try await fixture.delete(doneB))
            #expect(try await fixture.routine().lastCompletedAt == doneA.completedAt)
            try await fixture.module.routines.advanceCursor(doneC)
            let stored = try await fixture.module.routines.stored(userId: "u", id: fixture.routineId, sql: fixture.module.context.database.sql)
            #expect(stored.routine.lastCompletedAt == doneC.completedAt, "C's completion moved the cursor")
            #expect(stored.recent?.map(\.workoutId) == [doneC.workoutId, doneA.workoutId])
        }
    }

    /// The slot a completion was done in moves with the list: A and B done, the list reordered to [C, B, A];
    /// deleting B's workout makes B (now at index 1) next, and deleting A's then starts over at C.
    @Test(arguments: TestDatabases.engines)
    func steppingBackFollowsAReorderedList(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let (a, b, c) = (fixture.templates[0], fixture.templates[1], fixture.templates[2])
            var done: [WorkoutCompleted] = []
            for key in ["a", "b"] {
                done.append(try await fixture.workout(key: key))
                try await fixture.module.routines.advanceCursor(done.last!)
            }
            _ = try await fixture.module.routines.patch(
                userId: "u", id: fixture.routineId, expectedVersion: nil, changes: RoutinePatch(templateIds: [c, b, a]))
            try await fixture.module.routines.rewindCursor(try await fixture.delete(done[1]))
            #expect(try await fixture.next().template.id == b)
            #expect(try await fixture.next().index == 1)
            #expect(try await fixture.routine().lastCompletedTemplateId == a)
            try await fixture.module.routines.rewindCursor(try await fixture.delete(done[0]))
            #expect(try await fixture.next().template.id == c)
            #expect(try await fixture.next().index == 0)
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
