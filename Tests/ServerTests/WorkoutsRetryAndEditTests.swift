import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverClient
import TestSupport
import Testing

/// Retrying the plan and history writes (an optional `idempotency_key` on every one of them), and editing an
/// archived workout without losing the ids of what the edit keeps.
@Suite struct WorkoutsRetryAndEditTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat
    static let curl = WorkoutsFlowTests.curl

    /// What a request sent under the key of a different one was answered: its error code and the key it names.
    typealias KeyRefusal = (code: String?, key: String?)

    /// The refusal of a call made through the generated client, as a `KeyRefusal`.
    static func keyRefusal(_ call: @Sendable () async throws -> some Sendable) async throws -> KeyRefusal {
        let refusal = try await refused(call)
        return (refusal?.code, refusal?.details["idempotency_key"])
    }

    /// Sends a write twice and then a different one under its key: the repeat gets the first answer as it was, the
    /// different one `CONFLICT` naming the key. Answers the first.
    static func expectRepeat<Value: Sendable & Equatable>(
        _ name: String, key: String, _ send: @escaping @Sendable () async throws -> Value,
        different: @Sendable () async throws -> KeyRefusal
    ) async throws -> Value {
        let first = try await answer(send)
        #expect(first.status == .ok, "\(name): \(first)")
        let again = try await answer(send)
        #expect(again.status == .ok, "\(name) repeated: \(again)")
        #expect(again.value == first.value, "\(name): the first answer, as it was")
        let other = try await different()
        #expect(other.code == "CONFLICT", "\(name) with the key of a different request: \(other)")
        #expect(other.key == key)
        return try #require(first.value)
    }

    /// A client that lost the answer to a change or a delete and sends it again with the same key gets the first
    /// answer: not a `CONFLICT` with the version its own patch made, not `NOT_FOUND` for what it deleted, and
    /// nothing changes twice. The same key with a different request is `CONFLICT`; without a key nothing changes.
    @Test(arguments: TestDatabases.engines)
    func retriedChangesAndDeletesAnswerTheFirstResult(engine: SQLEngine) async throws {
        // Every write a millisecond after the one before, so a repeat that wrote again would show a new time.
        try await TestServer.with(engine, clock: ShiftedClock()) { _, client in
            let token = try await client.newUser("retries@example.com")
            let api = client.api(token)
            let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.squat, Self.bench], token: token)

            // patchTemplate with expected_version: once, version 2, even when sent twice.
            let patchedTemplate = try await Self.expectRepeat(
                "patchTemplate", key: "pt",
                {
                    try await api.patchTemplate(
                        body: .json(.init(expectedVersion: 1, idempotencyKey: "pt", name: "Legs day", templateId: templates[0]))
                    ).ok.body.json.data
                },
                different: {
                    try await Self.keyRefusal {
                        try await api.patchTemplate(
                            body: .json(.init(expectedVersion: 1, idempotencyKey: "pt", name: "Leg day", templateId: templates[0])))
                    }
                })
            #expect(patchedTemplate.version == 2)
            let template = try await api.getTemplate(body: .json(.init(templateId: templates[0]))).ok.body.json.data
            #expect(template.version == 2 && template.name == "Legs day", "\(template)")
            let unkeyed = try await refused {
                try await api.patchTemplate(body: .json(.init(expectedVersion: 1, name: "Legs day", templateId: templates[0])))
            }
            #expect(unkeyed?.code == "CONFLICT", "without a key a stale version is a conflict, as before")

            // patchRoutine, with the legacy templateIds read as template_ids (the same request either way).
            let reversed = Array(templates.reversed())
            let patchedRoutine = try await Self.expectRepeat(
                "patchRoutine", key: "pr",
                {
                    try await api.patchRoutine(
                        body: .json(.init(expectedVersion: 1, idempotencyKey: "pr", routineId: routineId, legacyTemplateIds: reversed))
                    ).ok.body.json.data
                },
                different: {
                    try await Self.keyRefusal {
                        try await api.patchRoutine(
                            body: .json(.init(expectedVersion: 1, idempotencyKey: "pr", routineId: routineId, legacyTemplateIds: templates))
                        )
                    }
                })
            #expect(patchedRoutine.version == 2)
            #expect(patchedRoutine.templateIds == reversed)
            let sameInOtherSpelling = try await answer {
                try await api.patchRoutine(
                    body: .json(.init(expectedVersion: 1, idempotencyKey: "pr", routineId: routineId, templateIds: reversed))
                ).ok.body.json.data
            }
            #expect(sameInOtherSpelling.value?.version == 2, "\(sameInOtherSpelling)")

            // setActiveRoutine; the different request clears it (a nil routine goes as null, `RequiredNulls`).
            let active = try await Self.expectRepeat(
                "setActiveRoutine", key: "sa",
                { try await api.setActiveRoutine(body: .json(.init(idempotencyKey: "sa", routineId: routineId))).ok.body.json.data },
                different: {
                    try await Self.keyRefusal { try await api.setActiveRoutine(body: .json(.init(idempotencyKey: "sa", routineId: nil))) }
                })
            #expect(active.activeRoutineId == routineId)

            // A workout, archived, edited and deleted.
            let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s1", routineId: routineId))).ok.body.json.data
            try await WorkoutsHTTP.logEverySetAndComplete(client, started, key: "w1", token: token)
            let workoutId = started.id
            let curls: [Operations.UpdateWorkout.Input.Body.JsonPayload.ExercisesPayloadPayload] = [
                .init(exerciseId: Self.curl, sets: [.init(reps: 10, weightKg: 20)])
            ]
            let edited = try await Self.expectRepeat(
                "updateWorkout", key: "uw",
                {
                    try await api.updateWorkout(body: .json(.init(exercises: curls, idempotencyKey: "uw", workoutId: workoutId))).ok.body
                        .json.data
                },
                different: {
                    try await Self.keyRefusal {
                        try await api.updateWorkout(
                            body: .json(.init(exercises: curls, idempotencyKey: "uw", name: "Arms", workoutId: workoutId)))
                    }
                })
            let editedIds = try WorkoutsHTTP.exercise(edited)
            let stored = try await api.getWorkout(body: .json(.init(workoutId: workoutId))).ok.body.json.data
            #expect(try WorkoutsHTTP.exercise(stored) == editedIds, "the repeat built no new exercise: \(stored)")
            #expect(stored.updatedAt == edited.updatedAt)

            let deletedWorkout = try await Self.expectRepeat(
                "deleteWorkout", key: "dw",
                { try await api.deleteWorkout(body: .json(.init(idempotencyKey: "dw", workoutId: workoutId))).ok.body.json.data },
                different: {
                    try await Self.keyRefusal {
                        try await api.deleteWorkout(body: .json(.init(idempotencyKey: "dw", workoutId: "another")))
                    }
                })
            #expect(deletedWorkout.id == workoutId)
            #expect(try await refused { try await api.getWorkout(body: .json(.init(workoutId: workoutId))) }?.code == "NOT_FOUND")
            let unkeyedDelete = try await refused { try await api.deleteWorkout(body: .json(.init(workoutId: workoutId))) }
            #expect(unkeyedDelete?.code == "NOT_FOUND", "without a key a second delete finds nothing, as before")

            // deleteTemplate (the routine drops it once) and deleteRoutine.
            let deletedTemplate = try await Self.expectRepeat(
                "deleteTemplate", key: "dt",
                { try await api.deleteTemplate(body: .json(.init(idempotencyKey: "dt", templateId: templates[1]))).ok.body.json.data },
                different: {
                    try await Self.keyRefusal {
                        try await api.deleteTemplate(body: .json(.init(idempotencyKey: "dt", templateId: templates[0])))
                    }
                })
            #expect(deletedTemplate.id == templates[1])
            let routine = try await api.getRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data
            #expect(routine.templateIds == [templates[0]], "\(routine)")
            #expect(routine.version == 3, "dropped from the routine once: \(routine)")
            let kept = try await answer { try await api.getTemplate(body: .json(.init(templateId: templates[0]))).ok.body.json.data.id }
            #expect(kept.status == .ok, "the other request did nothing")

            let deletedRoutine = try await Self.expectRepeat(
                "deleteRoutine", key: "dr",
                { try await api.deleteRoutine(body: .json(.init(idempotencyKey: "dr", routineId: routineId))).ok.body.json.data },
                different: {
                    try await Self.keyRefusal {
                        try await api.deleteRoutine(body: .json(.init(idempotencyKey: "dr", routineId: "another")))
                    }
                })
            #expect(deletedRoutine.id == routineId)
            let routines = try await api.getRoutines(body: .json(.init())).ok.body.json.data
            #expect(routines.items.count == 0, "\(routines)")

            // A failed write stores nothing under its key: sent again once the cause is gone, it runs.
            let missing = try await refused { try await api.deleteTemplate(body: .json(.init(idempotencyKey: "dx", templateId: "nope"))) }
            #expect(missing?.code == "NOT_FOUND")
            let reusedAfterFailure = try await answer {
                try await api.patchTemplate(body: .json(.init(idempotencyKey: "dx", name: "Later", templateId: templates[0]))).ok.body.json
                    .data
            }
            #expect(reusedAfterFailure.status == .ok, "\(reusedAfterFailure)")

            // Keys are checked like everywhere else, and a stranger's retry finds nothing of ours.
            let empty = try await refused { try await api.deleteTemplate(body: .json(.init(idempotencyKey: "", templateId: templates[0]))) }
            #expect(empty?.code == "INVALID_ARGUMENT" && empty?.details["field"] == "idempotency_key")
            let stranger = client.api(try await client.newUser("stranger-retries@example.com"))
            let theirs = try await refused {
                try await stranger.deleteTemplate(body: .json(.init(idempotencyKey: "dt", templateId: templates[1])))
            }
            #expect(theirs?.code == "NOT_FOUND", "our stored answer is not theirs: \(String(describing: theirs))")
            _ = try await api.getTemplate(body: .json(.init(templateId: templates[0]))).ok
        }
    }

    /// Retries racing their original (the client gave up waiting and sent again): both get the first answer,
    /// not a version `CONFLICT` or `NOT_FOUND` caused by the other, and the write happens once.
    @Test(arguments: TestDatabases.engines)
    func racingRetriesOfAChangeOrADeleteBothGetTheFirstAnswer(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("racing-retries@example.com")
            let api = client.api(token)
            let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.squat, Self.bench, Self.curl], token: token)
            /// Four copies of one request at once: every one answers 200 with the same answer.
            func race<Value: Sendable & Equatable>(_ name: String, _ call: @escaping @Sendable () async throws -> Value) async throws {
                let answers = try await withThrowingTaskGroup(of: Answer<Value>.self) { group in
                    for _ in 0..<4 { group.addTask { try await answer(call) } }
                    var answers: [Answer<Value>] = []
                    for try await answer in group { answers.append(answer) }
                    return answers
                }
                for answer in answers {
                    #expect(answer.status == .ok, "\(name): \(answer)")
                    #expect(answer.value == answers[0].value, "\(name): one answer for all")
                }
            }
            try await race("patchTemplate") {
                try await api.patchTemplate(
                    body: .json(.init(expectedVersion: 1, idempotencyKey: "race-patch", name: "Renamed", templateId: templates[0]))
                ).ok.body.json.data
            }
            try await race("patchRoutine") {
                try await api.patchRoutine(
                    body: .json(.init(expectedVersion: 1, idempotencyKey: "race-routine", name: "Renamed", routineId: routineId))
                ).ok.body.json.data
            }
            try await race("deleteTemplate") {
                try await api.deleteTemplate(body: .json(.init(idempotencyKey: "race-delete", templateId: templates[1]))).ok.body.json.data
            }
            let template = try await api.getTemplate(body: .json(.init(templateId: templates[0]))).ok.body.json.data
            #expect(template.version == 2, "patched once: \(template)")
            let routine = try await api.getRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data
            #expect(routine.version == 3, "patched once, and the template dropped once: \(routine)")
            #expect(routine.templateIds == [templates[0], templates[2]])
        }
    }

    /// `updateWorkout` keeps what the edit keeps: an exercise sent with its `instance_id` and a set sent with its
    /// `id` keep those ids, and the set its targets and the time it was done; new exercises and sets get new ids
    /// and count as done at the workout's end. Analytics follow the new sets. Ids the workout does not hold are
    /// `NOT_FOUND`, an id given twice is `INVALID_ARGUMENT`, and neither changes anything.
    @Test(arguments: TestDatabases.engines)
    func anEditKeepsTheIdsOfWhatItKeeps(engine: SQLEngine) async throws {
        // Every write a millisecond after the one before: a set's time differs from the workout's end.
        try await TestServer.with(engine, clock: ShiftedClock()) { _, client in
            let token = try await client.newUser("edits@example.com")
            let api = client.api(token)
            let templateId = try await api.createTemplate(
                body: .json(
                    .init(
                        exercises: [
                            .init(
                                exerciseId: Self.bench,
                                sets: [.init(targetReps: 5, targetRir: 2, targetWeightKg: 80), .init(targetReps: 5, targetRir: 1)]),
                            .init(exerciseId: Self.squat, sets: [.init(targetReps: 3)]),
                        ],
                        name: "Push"))
            ).ok.body.json.data.id
            let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s", templateId: templateId))).ok.body.json
                .data
            try await WorkoutsHTTP.logEverySetAndComplete(client, started, key: "e", token: token)
            let workoutId = started.id
            let before = try await api.getWorkout(body: .json(.init(workoutId: workoutId))).ok.body.json.data
            let bench = try WorkoutsHTTP.exercise(before, at: 0)
            let squat = try WorkoutsHTTP.exercise(before, at: 1)
            let benchSets = before.exercises[0].sets
            let endTime = before.endTime
            try #require(benchSets[0].completedAt != endTime, "a set done before the end")

            typealias Edit = Operations.UpdateWorkout.Input.Body.JsonPayload
            typealias Entry = Edit.ExercisesPayloadPayload
            // Bad ids are refused, each naming its place, and leave the workout as it was.
            let refusals: [([Entry], String, String)] = [
                ([.init(instanceId: "nope", sets: [.init(reps: 1, weightKg: 20)])], "exercises[0].instance_id", "NOT_FOUND"),
                (
                    [.init(instanceId: bench.instanceId, sets: [.init(id: squat.setIds[0], reps: 1, weightKg: 20)])],
                    "exercises[0].sets[0].id",
                    "NOT_FOUND"
                ),
                (
                    [
                        .init(instanceId: bench.instanceId, sets: [.init(reps: 1, weightKg: 20)]),
                        .init(instanceId: bench.instanceId, sets: [.init(reps: 1, weightKg: 20)]),
                    ],
                    "exercises[1].instance_id", "INVALID_ARGUMENT"
                ),
                (
                    [
                        .init(
                            instanceId: bench.instanceId,
                            sets: [.init(id: bench.setIds[0], reps: 1, weightKg: 20), .init(id: bench.setIds[0], reps: 2, weightKg: 20)])
                    ],
                    "exercises[0].sets[1].id", "INVALID_ARGUMENT"
                ),
                ([.init(sets: [.init(reps: 1, weightKg: 20)])], "exercises[0].exercise_id", "INVALID_ARGUMENT"),
                // What is archived is what was done: emptying a workout is deleting it, and an exercise needs a set.
                ([], "exercises", "INVALID_ARGUMENT"),
                (
                    [
                        .init(instanceId: bench.instanceId, sets: [.init(reps: 1, weightKg: 20)]),
                        .init(exerciseId: WorkoutsFlowTests.curl, sets: []),
                    ],
                    "exercises[1].sets", "INVALID_ARGUMENT"
                ),
                // A set is kept as done: its weight (0 for bodyweight) and reps, even when only the reps change.
                (
                    [.init(instanceId: bench.instanceId, sets: [.init(id: bench.setIds[0], reps: 6)])], "exercises[0].sets[0].weight_kg",
                    "INVALID_ARGUMENT"
                ),
                (
                    [.init(instanceId: bench.instanceId, sets: [.init(reps: 6, weightKg: 1000.5)])], "exercises[0].sets[0].weight_kg",
                    "INVALID_ARGUMENT"
                ),
                (
                    [.init(instanceId: bench.instanceId, sets: [.init(reps: 1001, weightKg: 20)])], "exercises[0].sets[0].reps",
                    "INVALID_ARGUMENT"
                ),
                (
                    [.init(instanceId: bench.instanceId, sets: [.init(reps: 5, rir: 11, weightKg: 20)])], "exercises[0].sets[0].rir",
                    "INVALID_ARGUMENT"
                ),
                (
                    [.init(exerciseId: "No_Such_Exercise", sets: [.init(reps: 5, weightKg: 20)])], "exercises[0].exercise_id",
                    "INVALID_ARGUMENT"
                ),
            ]
            for (exercises, field, code) in refusals {
                let refusal = try #require(
                    await refused { try await api.updateWorkout(body: .json(.init(exercises: exercises, workoutId: workoutId))) },
                    "\(field)")
                #expect(refusal.code == code, "\(field): \(refusal)")
                let named = code == "NOT_FOUND" ? refusal.details[field] != nil : refusal.details["field"] == field
                #expect(named, "\(field): \(refusal)")
            }
            // An edit names what it changes, in one place: nothing, or changes both inside `changes` and beside it, is refused.
            for body in [
                Edit(workoutId: workoutId), Edit(changes: .init(), workoutId: workoutId),
                Edit(
                    changes: .init(name: "A"), exercises: [.init(instanceId: bench.instanceId, sets: [.init(reps: 1, weightKg: 20)])],
                    workoutId: workoutId),
                Edit(changes: .init(name: "A"), name: "B", workoutId: workoutId),
            ] {
                let refusal = try #require(await refused { try await api.updateWorkout(body: .json(body)) }, "\(body)")
                #expect(refusal.code == "INVALID_ARGUMENT" && refusal.details["field"] == "changes", "\(body): \(refusal)")
            }
            let untouched = try await api.getWorkout(body: .json(.init(workoutId: workoutId))).ok.body.json.data
            #expect(untouched == before, "refused edits changed nothing")

            // Correct the second bench set's reps, drop the squat, add a set and an exercise.
            let edited = try await answer {
                try await api.updateWorkout(
                    body: .json(
                        .init(
                            exercises: [
                                .init(
                                    instanceId: bench.instanceId,
                                    sets: [
                                        .init(id: bench.setIds[0], reps: 5, weightKg: 40),
                                        .init(id: bench.setIds[1], reps: 4, weightKg: 40),
                                        .init(reps: 8, weightKg: 35),
                                    ]),
                                .init(exerciseId: Self.curl, sets: [.init(reps: 12, weightKg: 15)]),
                            ],
                            workoutId: workoutId))
                ).ok.body.json.data.id
            }
            #expect(edited.status == .ok, "updateWorkout: \(edited)")
            let after = try await api.getWorkout(body: .json(.init(workoutId: workoutId))).ok.body.json.data
            let exercises = after.exercises
            try #require(exercises.count == 2)
            let keptBench = try WorkoutsHTTP.exercise(after, at: 0)
            #expect(keptBench.instanceId == bench.instanceId)
            #expect(Array(keptBench.setIds.prefix(2)) == bench.setIds, "the sets sent with their ids keep them")
            #expect(
                keptBench.setIds.count == 3 && !bench.setIds.contains(keptBench.setIds[2]) && !squat.setIds.contains(keptBench.setIds[2]))
            let names = before.exercises.map(\.name)
            #expect(exercises[0].exerciseId == Self.bench && exercises[0].name == names[0])
            let sets = exercises[0].sets
            try #require(sets.count == 3)
            #expect(sets[0].targetWeightKg == 80 && sets[0].targetRir == 2, "targets kept: \(sets[0])")
            #expect(sets[1].targetReps == 5 && sets[1].targetRir == 1)
            #expect(sets[0].completedAt == benchSets[0].completedAt, "done when it was done")
            #expect(sets[1].reps == 4)
            #expect(sets[2].completedAt == endTime && sets[2].targetReps == nil, "a new set: done at the end, no plan")
            #expect(sets.map(\.setIndex) == [0, 1, 2])
            let curl = try WorkoutsHTTP.exercise(after, at: 1)
            #expect(curl.instanceId != bench.instanceId && curl.instanceId != squat.instanceId)
            #expect(exercises[1].exerciseId == Self.curl)
            let totals = after.analytics.totals
            #expect(totals.sets == 4, "analytics follow the new sets: \(after.analytics)")
            #expect(totals.reps == 5 + 4 + 8 + 12)

            // A kept set moved to another exercise keeps its target reps and RIR, not the planned weight (80 kg
            // of bench press is no plan for a squat), as swapExercise does; the same exercise keeps all three.
            let moved = try await api.updateWorkout(
                body: .json(
                    .init(
                        exercises: [
                            .init(
                                exerciseId: Self.squat, instanceId: bench.instanceId,
                                sets: [.init(id: bench.setIds[0], reps: 5, weightKg: 60)]),
                            .init(instanceId: curl.instanceId, sets: [.init(id: curl.setIds[0], reps: 12, weightKg: 15)]),
                        ],
                        workoutId: workoutId))
            ).ok.body.json.data
            let movedSet = try #require(moved.exercises.first?.sets.first)
            #expect(movedSet.id == bench.setIds[0])
            #expect(movedSet.targetWeightKg == nil, "no bench plan on a squat: \(movedSet)")
            #expect(movedSet.targetReps == 5 && movedSet.targetRir == 2, "targets kept: \(movedSet)")

            // Changing the exercise of a kept instance renames it from the catalog.
            let switched = try await api.updateWorkout(
                body: .json(
                    .init(
                        exercises: [
                            .init(
                                exerciseId: Self.squat, instanceId: curl.instanceId,
                                sets: [.init(id: curl.setIds[0], reps: 12, weightKg: 15)])
                        ],
                        workoutId: workoutId))
            ).ok.body.json.data
            #expect(try WorkoutsHTTP.exercise(switched) == curl)
            let switchedExercise = try #require(switched.exercises.first)
            #expect(switchedExercise.exerciseId == Self.squat)
            #expect(switchedExercise.name == names[1], "the squat's name from the catalog")
        }
    }
}
