import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Workouts

struct ActiveWorkoutFixture: Sendable {
    /// Starts a workout for the user with one squat of two empty sets, each planned as 5 reps at 100 kg.
    var start: @Sendable (_ userId: String) async throws -> ActiveWorkout
    /// Completes it.
    var finish: @Sendable (_ userId: String, _ workoutId: String) async throws -> Void
}

func activeWorkoutControlConformance(_ control: some ActiveWorkoutControl, fixture: ActiveWorkoutFixture) async throws {
    #expect(try await control.activeWorkout(userId: "u1") == nil)
    let started = try await fixture.start("u1")
    #expect(try await control.activeWorkout(userId: "u1")?.id == started.id)
    #expect(try await control.activeWorkout(userId: "u2") == nil)
    let exercise = started.exercises[0]

    let logged = try await control.logSet(
        userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 100, reps: 5,
        rir: 2,
        idempotencyKey: "k1")
    #expect(logged.totals == WorkoutTotals(sets: 1, reps: 5, volume: 500))
    let replay = try await control.logSet(
        userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 100, reps: 5,
        rir: 2,
        idempotencyKey: "k1")
    #expect(replay.version == logged.version, "a replay changes nothing")

    // -0 kg is 0, and a retry sending 0 is the same request (on a workout of its own).
    let zeroWorkout = try await fixture.start("u3")
    let zeroExercise = zeroWorkout.exercises[0]
    let zero = try await control.logSet(
        userId: "u3", workoutId: zeroWorkout.id, exerciseInstanceId: zeroExercise.instanceId, setId: zeroExercise.sets[0].id,
        weightKg: -0.0, reps: 5,
        rir: 2, idempotencyKey: "kz")
    let zeroWeight = try #require(zero.exercises[0].sets[0].weightKg)
    #expect(zeroWeight == 0 && zeroWeight.sign == .plus)
    let zeroAgain = try await control.logSet(
        userId: "u3", workoutId: zeroWorkout.id, exerciseInstanceId: zeroExercise.instanceId, setId: zeroExercise.sets[0].id, weightKg: 0,
        reps: 5,
        rir: 2, idempotencyKey: "kz")
    #expect(zeroAgain.version == zero.version)

    await expectCode(.conflict, "a reused key with another body", details: ["idempotency_key": "k1"]) {
        _ = try await control.logSet(
            userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 90, reps: 5,
            rir: 2,
            idempotencyKey: "k1")
    }
    await expectCode(.notFound, "another user's workout", details: ["workout_id": started.id]) {
        _ = try await control.logSet(
            userId: "u2", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 1, reps: 1,
            rir: nil,
            idempotencyKey: "k2")
    }
    await expectCode(.notFound, "an unknown set") {
        _ = try await control.logSet(
            userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: "nope", weightKg: 1, reps: 1, rir: nil,
            idempotencyKey: "k3")
    }
    await expectCode(.invalidArgument, "reps out of range") {
        _ = try await control.logSet(
            userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 1,
            reps: 1001, rir: nil,
            idempotencyKey: "k4")
    }
    // Values are checked before anything is looked up; a workout is found before the exercise it names.
    await expectCode(.invalidArgument, "reps out of range on another user's workout", details: ["field": "reps"]) {
        _ = try await control.logSet(
            userId: "u2", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 1,
            reps: 1001, rir: nil,
            idempotencyKey: "k4-2")
    }
    await expectCode(.notFound, "an unknown exercise on another user's workout", details: ["workout_id": started.id]) {
        _ = try await control.addExercise(
            userId: "u2", workoutId: started.id, exerciseId: "no-such-exercise", sets: 1, idempotencyKey: "k4-3")
    }
    await expectCode(.notFound, "swapping to an unknown exercise on another user's workout", details: ["workout_id": started.id]) {
        _ = try await control.swapExercise(
            userId: "u2", workoutId: started.id, exerciseInstanceId: exercise.instanceId, newExerciseId: "no-such-exercise",
            idempotencyKey: "k4-4")
    }
    await expectCode(.invalidArgument, "swapping an exercise for itself", details: ["field": "new_exercise_id"]) {
        _ = try await control.swapExercise(
            userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, newExerciseId: exercise.exerciseId,
            idempotencyKey: "k4-5")
    }

    // Ids holding NUL were never given out (PostgreSQL cannot even compare with them); such a key is refused.
    await expectCode(.notFound, "a workout id with NUL", details: ["workout_id": "w\u{0}"]) {
        _ = try await control.logSet(
            userId: "u1", workoutId: "w\u{0}", exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 1, reps: 1,
            rir: nil,
            idempotencyKey: "k-nul-1")
    }
    // 128 characters but 5,248 code points (each a letter under 40 combining marks): too long to store as a key.
    let stacked = StackedMarks.text(letters: 128)
    for key in ["k\u{0}", "", String(repeating: "k", count: 129), stacked] {
        await expectCode(.invalidArgument, "the idempotency key \(key.debugDescription)", details: ["field": "idempotency_key"]) {
            _ = try await control.logSet(
                userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 1,
                reps: 1, rir: nil,
                idempotencyKey: key)
        }
    }
    await expectCode(.invalidArgument, "an exercise id with NUL", details: ["field": "exercise_id"]) {
        _ = try await control.addExercise(userId: "u1", workoutId: started.id, exerciseId: "a\u{0}", sets: 1, idempotencyKey: "k-nul-2")
    }
    await expectCode(.invalidArgument, "a new exercise id with NUL", details: ["field": "new_exercise_id"]) {
        _ = try await control.swapExercise(
            userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, newExerciseId: "a\u{0}", idempotencyKey: "k-nul-3"
        )
    }
    #expect(try await control.activeWorkout(userId: "u1") == logged, "refused writes change nothing")

    let added = try await control.addExercise(
        userId: "u1", workoutId: started.id, exerciseId: WorkoutsFixtures.curl.id, sets: 2, idempotencyKey: "k5")
    #expect(added.exercises.map(\.exerciseId) == [WorkoutsFixtures.squat.id, WorkoutsFixtures.curl.id])
    #expect(added.exercises[1].sets.count == 2)
    let swapped = try await control.swapExercise(
        userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, newExerciseId: WorkoutsFixtures.bench.id,
        idempotencyKey: "k6")
    #expect(swapped.exercises.map(\.exerciseId) == [WorkoutsFixtures.squat.id, WorkoutsFixtures.bench.id, WorkoutsFixtures.curl.id])
    #expect(swapped.exercises[0].sets.count == 1, "the logged set stays with the squat")
    #expect(swapped.exercises[0].sets[0].targetWeightKg == 100, "with what was planned for it")
    #expect(swapped.exercises[1].sets.map(\.id) == [exercise.sets[1].id], "the set still to do goes to the bench press")
    #expect(swapped.exercises[1].sets[0].targetReps == 5, "with its target reps")
    #expect(swapped.exercises[1].sets[0].targetWeightKg == nil, "but not the squat's planned weight")
    #expect(swapped.totals.sets == 1)
    // A repeat of the first logSet changes nothing and answers the workout as it stands now.
    let repeated = try await control.logSet(
        userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 100, reps: 5,
        rir: 2,
        idempotencyKey: "k1")
    #expect(repeated == swapped, "the workout as it stands, not as the first answer left it")
    #expect(try await control.activeWorkout(userId: "u1") == swapped, "a repeat changes nothing")

    try await fixture.finish("u1", started.id)
    await expectCode(.failedPrecondition, "writing to a finished workout") {
        _ = try await control.addExercise(
            userId: "u1", workoutId: started.id, exerciseId: WorkoutsFixtures.curl.id, sets: 1, idempotencyKey: "k7")
    }
    #expect(try await control.activeWorkout(userId: "u1") == nil)

    // The second set logged, not the first: the swap keeps it with the squat, numbered from 0 there, and the
    // first (still to do) goes to the bench press, numbered from 0 too.
    let other = try await fixture.start("u2")
    let squat = other.exercises[0]
    _ = try await control.logSet(
        userId: "u2", workoutId: other.id, exerciseInstanceId: squat.instanceId, setId: squat.sets[1].id, weightKg: 100, reps: 5, rir: nil,
        idempotencyKey: "u2-log")
    let split = try await control.swapExercise(
        userId: "u2", workoutId: other.id, exerciseInstanceId: squat.instanceId, newExerciseId: WorkoutsFixtures.bench.id,
        idempotencyKey: "u2-swap")
    #expect(split.exercises[0].sets.map(\.id) == [squat.sets[1].id])
    #expect(split.exercises[0].sets.map(\.setIndex) == [0])
    #expect(split.exercises[1].sets.map(\.id) == [squat.sets[0].id])
    #expect(split.exercises[1].sets.map(\.setIndex) == [0])
    // A device that had not reloaded logs the moved set under the squat: CONFLICT naming where it is now, and
    // nothing is written (it was meant for the squat).
    await expectCode(
        .conflict, "logging a set the swap moved, under its old exercise",
        details: ["set_id": squat.sets[0].id, "exercise_instance_id": split.exercises[1].instanceId, "current_version": "\(split.version)"]
    ) {
        _ = try await control.logSet(
            userId: "u2", workoutId: other.id, exerciseInstanceId: squat.instanceId, setId: squat.sets[0].id, weightKg: 60, reps: 5,
            rir: nil,
            idempotencyKey: "u2-stale")
    }
    #expect(try await control.activeWorkout(userId: "u2") == split, "the stale write changed nothing")

    // A workout holds at most 50 exercises: adding one more, or a swap that would split one, is refused.
    var full = split
    for index in full.exercises.count..<50 {
        full = try await control.addExercise(
            userId: "u2", workoutId: other.id, exerciseId: WorkoutsFixtures.curl.id, sets: 1, idempotencyKey: "u2-add-\(index)")
    }
    #expect(full.exercises.count == 50)
    await expectCode(.invalidArgument, "a 51st exercise", details: ["field": "exercise_id"]) {
        _ = try await control.addExercise(
            userId: "u2", workoutId: other.id, exerciseId: WorkoutsFixtures.curl.id, sets: 1, idempotencyKey: "u2-add-51")
    }
    await expectCode(.invalidArgument, "a split past 50 exercises", details: ["field": "exercise_instance_id"]) {
        _ = try await control.swapExercise(
            userId: "u2", workoutId: other.id, exerciseInstanceId: squat.instanceId, newExerciseId: WorkoutsFixtures.curl.id,
            idempotencyKey: "u2-swap-2")
    }
    #expect(try await control.activeWorkout(userId: "u2") == full, "refused writes change nothing")
}

/// Starting from an inline plan, prescribing and completing: the coach's session plans and workout tools.
func workoutLifecycleConformance(_ control: some ActiveWorkoutControl) async throws {
    let planned = TemplateSet(targetReps: 5, targetRir: 2, targetWeightKg: 100)
    let plan = WorkoutStart.plan(
        name: "Coach's legs", exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: [planned, planned])])
    let started = try await control.startWorkout(userId: "u7", start: plan, idempotencyKey: "start-1")
    #expect(started.name == "Coach's legs" && started.exercises.map(\.name) == [WorkoutsFixtures.squat.name])
    #expect(started.exercises[0].sets.map(\.targetReps) == [5, 5] && started.exercises[0].sets[0].targetWeightKg == 100)
    #expect(try await control.startWorkout(userId: "u7", start: plan, idempotencyKey: "start-1").id == started.id, "a repeat")
    await expectCode(.conflict, "a second workout in progress") {
        _ = try await control.startWorkout(userId: "u7", start: plan, idempotencyKey: "start-2")
    }
    await expectCode(.invalidArgument, "an unknown exercise", details: ["field": "exercises[0].exercise_id"]) {
        _ = try await control.startWorkout(
            userId: "u8", start: .plan(name: "X", exercises: [PlannedExercise(exerciseId: "Moon_Press", sets: [planned])]),
            idempotencyKey: "start-x")
    }
    #expect(try await control.activeWorkout(userId: "u8") == nil)

    let exercise = started.exercises[0]
    let prescribed = try await control.prescribeSet(
        userId: "u7", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, targetReps: 3,
        targetWeightKg: 110, targetRir: nil, idempotencyKey: "p1")
    #expect(prescribed.exercises[0].sets[1].targetReps == 3 && prescribed.exercises[0].sets[1].targetWeightKg == 110)
    #expect(prescribed.exercises[0].sets[1].targetRir == 2, "a target not named stays")
    await expectCode(.notFound, "another user's workout") {
        _ = try await control.prescribeSet(
            userId: "u2", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, targetReps: 3,
            targetWeightKg: nil, targetRir: nil, idempotencyKey: "p2")
    }
    let removed = try await control.removeSet(
        userId: "u7", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, idempotencyKey: "r1")
    #expect(removed.exercises[0].sets.map(\.id) == [exercise.sets[0].id] && removed.exercises[0].sets[0].setIndex == 0)
    #expect(
        try await control.removeSet(
            userId: "u7", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, idempotencyKey: "r1"
        ).exercises[0].sets.count == 1, "a repeat")
    await expectCode(.notFound, "a set already removed") {
        _ = try await control.removeSet(
            userId: "u7", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, idempotencyKey: "r2")
    }
    await expectCode(.failedPrecondition, "nothing logged") {
        _ = try await control.completeWorkout(userId: "u7", workoutId: started.id, idempotencyKey: "c0")
    }
    _ = try await control.logSet(
        userId: "u7", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 100, reps: 5,
        rir: 2, idempotencyKey: "l1")
    let completed = try await control.completeWorkout(userId: "u7", workoutId: started.id, idempotencyKey: "c1")
    #expect(completed.id == started.id && completed.exercises.count == 1 && completed.exercises[0].sets.count == 1)
    #expect(try await control.activeWorkout(userId: "u7") == nil)
    #expect(try await control.completeWorkout(userId: "u7", workoutId: started.id, idempotencyKey: "c1").id == started.id, "a repeat")

    // Cancelling: nothing archived, the user free to start again.
    let second = try await control.startWorkout(userId: "u7", start: plan, idempotencyKey: "start-3")
    await expectCode(.notFound, "cancelling another user's workout") {
        try await control.cancelWorkout(userId: "u2", workoutId: second.id, idempotencyKey: "x1")
    }
    try await control.cancelWorkout(userId: "u7", workoutId: second.id, idempotencyKey: "x1")
    #expect(try await control.activeWorkout(userId: "u7") == nil)
    try await control.cancelWorkout(userId: "u7", workoutId: second.id, idempotencyKey: "x1")
    await expectCode(.failedPrecondition, "cancelling a workout no longer in progress") {
        try await control.cancelWorkout(userId: "u7", workoutId: second.id, idempotencyKey: "x2")
    }
    await expectCode(.failedPrecondition, "cancelling a completed workout") {
        try await control.cancelWorkout(userId: "u7", workoutId: started.id, idempotencyKey: "x3")
    }
}

@Suite struct ActiveWorkoutControlConformanceTests {
    @Test func fake() async throws {
        let clock = FakeWallClock()
        let control = FakeActiveWorkoutControl(catalog: WorkoutsFixtures.catalog, clock: clock, ids: SequentialIDGenerator())
        try await activeWorkoutControlConformance(
            control,
            fixture: ActiveWorkoutFixture(
                start: { userId in
                    let workout = ActiveWorkout(
                        id: "w-\(userId)", userId: userId, name: nil, sourceTemplateId: nil, sourceRoutineId: nil, status: .inProgress,
                        startTime: clock.now(), version: 1,
                        exercises: [
                            WorkoutExercise(
                                instanceId: "i1", exerciseId: WorkoutsFixtures.squat.id, name: WorkoutsFixtures.squat.name,
                                sets: [
                                    WorkoutSet(id: "s1", setIndex: 0, targetReps: 5, targetWeightKg: 100),
                                    WorkoutSet(id: "s2", setIndex: 1, targetReps: 5, targetWeightKg: 100),
                                ])
                        ],
                        totals: WorkoutTotals(), createdAt: clock.now(), updatedAt: clock.now())
                    await control.seed(workout)
                    return workout
                },
                finish: { _, workoutId in await control.finish(workoutId: workoutId) }))
        try await workoutLifecycleConformance(control)
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await WorkoutsFixtures.withLive(engine) { module in
            try await activeWorkoutControlConformance(
                module.activeWorkoutControl,
                fixture: ActiveWorkoutFixture(
                    start: { userId in
                        let planned = TemplateSet(targetReps: 5, targetWeightKg: 100)
                        let template = try await module.templates.create(
                            userId: userId,
                            draft: TemplateDraft(
                                name: "Squats",
                                exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: [planned, planned])]))
                        return try await module.active.start(userId: userId, request: .init(templateId: template.id), idempotencyKey: nil)
                            .value()
                    },
                    finish: { userId, workoutId in _ = try await module.active.complete(userId: userId, workoutId: workoutId, key: nil) }))
            try await workoutLifecycleConformance(module.activeWorkoutControl)
        }
    }
}
