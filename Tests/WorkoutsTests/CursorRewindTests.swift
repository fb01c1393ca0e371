import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

/// Deleting an archived workout steps the routine cursor back in the deleting transaction, as completing it
/// moved the cursor on in the completing one: the next template is answered right after either.
@Suite struct CursorRewindTests {
    struct Fixture {
        let module: WorkoutsModule
        let clock: FakeWallClock
        let routineId: String
        let templates: [String]

        /// Starts the routine's next workout, logs one set and completes it; answers the archived workout.
        func workout(key: String) async throws -> CompletedWorkout {
            let started = try await module.active.start(userId: "u", request: .init(routineId: routineId), idempotencyKey: "start-\(key)")
                .value()
            let exercise = started.exercises[0]
            _ = try await module.active.logSet(
                userId: "u",
                request: .init(
                    workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 60, reps: 5,
                    rir: nil),
                key: "log-\(key)")
            clock.advance(by: 60)
            return try await module.active.complete(userId: "u", workoutId: started.id, key: "complete-\(key)").value()
        }

        /// Deletes the archived workout under a key of its own.
        func delete(_ workout: CompletedWorkout) async throws {
            _ = try await module.history.delete(userId: "u", id: workout.id, key: "delete-\(workout.id)")
        }

        func next() async throws -> NextWorkout {
            try await module.routines.next(userId: "u", routineId: routineId, sql: module.context.database.sql)
        }

        func stored() async throws -> StoredRoutine {
            try await module.routines.stored(userId: "u", id: routineId, sql: module.context.database.sql)
        }

        func routine() async throws -> Routine { try await stored().routine }

        /// Rewrites the routine's remembered completions, as a routine stored by an earlier version may hold them.
        func remember(_ recent: [RoutineCursor.Step]?) async throws {
            var stored = try await stored()
            stored.recent = recent
            try await RoutineService.save(stored, sql: module.context.database.sql)
        }
    }

    /// A routine of three templates, A, B and C.
    static func with(_ engine: SQLEngine, _ body: (Fixture) async throws -> Void) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let clock = FakeWallClock()
            let module = try await WorkoutsTesting.module(db, clock: clock)
            var templates: [String] = []
            for name in ["A", "B", "C"] {
                let draft = TemplateDraft(
                    name: name, exercises: [PlannedExercise(exerciseId: "Barbell_Squat", sets: [TemplateSet(targetReps: 5)])])
                templates.append(try await module.templates.create(userId: "u", draft: draft).id)
            }
            let routine = try await module.routines.create(userId: "u", draft: RoutineDraft(name: "Cycle", templateIds: templates))
            try await body(Fixture(module: module, clock: clock, routineId: routine.id, templates: templates))
        }
    }

    /// Each completion moves the cursor on before it is answered: A, B and C done in turn (each started from
    /// the routine's next template), A is next again.
    @Test(arguments: TestDatabases.engines)
    func eachCompletionMovesTheCursorBeforeItIsAnswered(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            for (index, key) in ["a", "b", "c"].enumerated() {
                let done = try await fixture.workout(key: key)
                #expect(done.sourceTemplateId == fixture.templates[index])
                #expect(try await fixture.next().index == (index + 1) % 3)
                #expect(try await fixture.routine().lastCompletedAt == done.endTime)
            }
            #expect(try await fixture.next().template.id == fixture.templates[0])
        }
    }

    /// A, B and C done: A is next again. Deleting C's workout, then B's, then A's steps the cursor back one
    /// workout each time (C, then B next), then starts the routine over. A deletion retried under its key
    /// changes nothing more.
    @Test(arguments: TestDatabases.engines)
    func deletingTheWorkoutsThatMovedTheCursorStepsItBackEachTime(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let (a, b, c) = (fixture.templates[0], fixture.templates[1], fixture.templates[2])
            var done: [CompletedWorkout] = []
            for key in ["a", "b", "c"] { done.append(try await fixture.workout(key: key)) }
            #expect(try await fixture.next().template.id == a)

            for (deleted, next) in [(2, c), (1, b), (0, a)] {
                for _ in 0..<2 { try await fixture.delete(done[deleted]) }
                #expect(try await fixture.next().template.id == next, "after deleting workout \(deleted)")
                #expect(try await fixture.next().index == deleted)
                let routine = try await fixture.routine()
                #expect(routine.lastCompletedTemplateId == (deleted == 0 ? nil : fixture.templates[deleted - 1]))
                #expect(routine.lastCompletedAt == (deleted == 0 ? nil : done[deleted - 1].endTime))
            }

            // The cycle goes on as for a routine never done.
            let again = try await fixture.workout(key: "a2")
            #expect(again.sourceTemplateId == a)
            #expect(try await fixture.next().template.id == b)
        }
    }

    /// Deleting a workout other than the one that last moved the cursor leaves the cursor where it is, and
    /// stepping back later passes over it: with A, B and C done and B's workout deleted, deleting C's makes C
    /// next with A the last completed.
    @Test(arguments: TestDatabases.engines)
    func deletingAnOlderWorkoutLeavesTheCursorAndIsPassedOver(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            var done: [CompletedWorkout] = []
            for key in ["a", "b", "c"] { done.append(try await fixture.workout(key: key)) }
            let before = try await fixture.routine()
            try await fixture.delete(done[1])
            #expect(try await fixture.routine() == before)
            #expect(try await fixture.next().template.id == fixture.templates[0])

            try await fixture.delete(done[2])
            #expect(try await fixture.next().template.id == fixture.templates[2])
            #expect(try await fixture.routine().lastCompletedTemplateId == fixture.templates[0])
        }
    }

    /// A remembered completion whose workout is gone (deleted while cursors were still moved by the outbox, its
    /// deletion's event handled before its completion's) is passed over when stepping back.
    @Test(arguments: TestDatabases.engines)
    func steppingBackPassesOverARememberedWorkoutThatIsGone(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            var done: [CompletedWorkout] = []
            for key in ["a", "b", "c"] { done.append(try await fixture.workout(key: key)) }
            try await fixture.module.context.database.sql.raw("DELETE FROM workouts_history WHERE id = \(bind: done[1].id)").run()
            try await fixture.delete(done[2])
            #expect(try await fixture.next().template.id == fixture.templates[2])
            #expect(try await fixture.routine().lastCompletedTemplateId == fixture.templates[0])
        }
    }

    /// Completions the cursor does not remember (from before they were kept): deleting B's workout still finds A
    /// in the history, instead of starting the routine over, and remembers it from then on.
    @Test(arguments: TestDatabases.engines)
    func steppingBackFindsACompletionTheCursorDoesNotRemember(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let doneA = try await fixture.workout(key: "a")
            let doneB = try await fixture.workout(key: "b")
            try await fixture.remember(try await fixture.stored().recent.map { Array($0.prefix(1)) })
            try await fixture.delete(doneB)
            #expect(try await fixture.next().template.id == fixture.templates[1], "the slot B's workout was done in")
            let routine = try await fixture.routine()
            #expect(routine.lastCompletedTemplateId == fixture.templates[0])
            #expect(routine.lastCompletedAt == doneA.endTime)
            // Found in the history, A's workout is remembered from then on: deleting it steps back in turn.
            try await fixture.delete(doneA)
            #expect(try await fixture.routine().lastCompletedTemplateId == nil)
            #expect(try await fixture.next().index == 0)
        }
    }

    /// Looking back through the history takes only workouts done before the deleted one: one done after it
    /// cannot be the completion before it.
    @Test(arguments: TestDatabases.engines)
    func lookingBackTakesOnlyWorkoutsDoneBeforeTheDeletedOne(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let doneA = try await fixture.workout(key: "a")
            let doneB = try await fixture.workout(key: "b")
            let stepB = try #require(try await fixture.stored().recent?.first)
            _ = try await fixture.workout(key: "c")
            // As an earlier version may have left it: C's completion never reached the cursor, A's is forgotten.
            try await fixture.remember([stepB])
            try await fixture.delete(doneB)
            #expect(try await fixture.routine().lastCompletedAt == doneA.endTime)
            #expect(try await fixture.stored().recent?.map(\.workoutId) == [doneA.id])
        }
    }

    /// The slot a completion was done in moves with the list: A and B done, the list reordered to [C, B, A];
    /// deleting B's workout makes B (now at index 1) next, and deleting A's then starts over at C.
    @Test(arguments: TestDatabases.engines)
    func steppingBackFollowsAReorderedList(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let (a, b, c) = (fixture.templates[0], fixture.templates[1], fixture.templates[2])
            var done: [CompletedWorkout] = []
            for key in ["a", "b"] { done.append(try await fixture.workout(key: key)) }
            _ = try await fixture.module.routines.patch(
                userId: "u", id: fixture.routineId, expectedVersion: nil, changes: RoutinePatch(templateIds: [c, b, a]))
            try await fixture.delete(done[1])
            #expect(try await fixture.next().template.id == b)
            #expect(try await fixture.next().index == 1)
            #expect(try await fixture.routine().lastCompletedTemplateId == a)
            try await fixture.delete(done[0])
            #expect(try await fixture.next().template.id == c)
            #expect(try await fixture.next().index == 0)
        }
    }

    /// B done last, then B removed from the routine: C took its slot. Deleting B's workout keeps C next (B's
    /// slot is gone), with A the last completed.
    @Test(arguments: TestDatabases.engines)
    func aDeletedWorkoutWhoseSlotIsGoneKeepsWhatFollowedIt(engine: SQLEngine) async throws {
        try await Self.with(engine) { fixture in
            let (a, c) = (fixture.templates[0], fixture.templates[2])
            _ = try await fixture.workout(key: "a")
            let doneB = try await fixture.workout(key: "b")
            _ = try await fixture.module.templates.delete(userId: "u", id: fixture.templates[1])
            #expect(try await fixture.next().template.id == c)
            try await fixture.delete(doneB)
            #expect(try await fixture.next().template.id == c)
            #expect(try await fixture.routine().lastCompletedTemplateId == a)
        }
    }
}
