import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverClient
import TestSupport
import Testing

/// Every active-workout write refuses what it cannot do with the right code and changes nothing: ids that are
/// not in the caller's workout (unknown, or another user's) are `NOT_FOUND`; any write to a completed or cancelled
/// workout is `FAILED_PRECONDITION` naming its status.
@Suite struct WorkoutsRefusalsTests {
    static let squat = WorkoutsFlowTests.squat
    static let curl = WorkoutsFlowTests.curl

    /// Starts a workout from a new template of three squat sets; returns its id, instance id and set ids.
    static func start(_ api: Client, key: String) async throws -> (id: String, instance: String, sets: [String]) {
        let template = try await api.createTemplate(
            body: .json(.init(exercises: [.init(exerciseId: squat, sets: Array(repeating: .init(targetReps: 5), count: 3))], name: "T"))
        ).ok.body.json.data.id
        let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: key, templateId: template))).ok.body.json.data
        let (instance, sets) = try WorkoutsHTTP.exercise(started)
        return (started.id, instance, sets)
    }

    static func log(_ api: Client, _ workout: String, _ instance: String, _ set: String, key: String) throws -> SentCall {
        try SentCall(
            "logSet",
            Operations.LogSet.Input.Body.JsonPayload(
                exerciseInstanceId: instance, idempotencyKey: key, reps: 5, setId: set, weightKg: 60, workoutId: workout)
        ) { try await api.logSet(body: .json($0)) }
    }

    static func patch(_ api: Client, _ workout: String, _ op: WorkoutPatchOp, key: String) throws -> SentCall {
        try SentCall(
            "patchActiveWorkout", Operations.PatchActiveWorkout.Input.Body.JsonPayload(idempotencyKey: key, ops: [op], workoutId: workout)
        ) { try await api.patchActiveWorkout(body: .json($0)) }
    }

    static func swap(_ api: Client, _ workout: String, _ instance: String, to exercise: String, key: String) throws -> SentCall {
        try SentCall(
            "swapExercise",
            Operations.SwapExercise.Input.Body.JsonPayload(
                exerciseInstanceId: instance, idempotencyKey: key, newExerciseId: exercise, workoutId: workout)
        ) { try await api.swapExercise(body: .json($0)) }
    }

    static func add(_ api: Client, _ workout: String, _ exercise: String, key: String) throws -> SentCall {
        try SentCall(
            "addExercise", Operations.AddExercise.Input.Body.JsonPayload(exerciseId: exercise, idempotencyKey: key, workoutId: workout)
        ) { try await api.addExercise(body: .json($0)) }
    }

    @Test(arguments: TestDatabases.engines)
    func idsNotInYourWorkoutAreNotFoundAndChangeNothing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let api = client.api(try await client.newUser("owner@example.com"))
            let other = client.api(try await client.newUser("other@example.com"))
            let mine = try await Self.start(api, key: "s")
            let theirs = try await Self.start(other, key: "s")
            try await Self.log(api, mine.id, mine.instance, mine.sets[0], key: "first").send()
            let before = try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data

            let (id, instance, set) = (mine.id, mine.instance, mine.sets[1])
            let attempts: [(SentCall, missing: String)] = [
                (try Self.log(api, id, "nope", set, key: "k1"), "exercise_instance_id"),
                (try Self.log(api, id, instance, "nope", key: "k2"), "set_id"),
                (try Self.log(api, id, theirs.instance, theirs.sets[1], key: "k3"), "exercise_instance_id"),
                (try Self.log(api, id, instance, theirs.sets[1], key: "k4"), "set_id"),
                (try Self.patch(api, id, .setReps("nope", set, 3), key: "k5"), "exercise_instance_id"),
                (try Self.patch(api, id, .setReps(instance, "nope", 3), key: "k6"), "set_id"),
                (try Self.patch(api, id, .setReps(theirs.instance, theirs.sets[0], 3), key: "k7"), "exercise_instance_id"),
                (try Self.patch(api, id, .addSet("nope"), key: "k8"), "exercise_instance_id"),
                (try Self.patch(api, id, .removeSet("nope", set), key: "k9"), "exercise_instance_id"),
                (try Self.patch(api, id, .removeSet(instance, "nope"), key: "k10"), "set_id"),
                (try Self.patch(api, id, .removeSet(instance, theirs.sets[2]), key: "k11"), "set_id"),
                (try Self.patch(api, id, .removeExercise(theirs.instance), key: "k12"), "exercise_instance_id"),
                (try Self.swap(api, id, "nope", to: Self.curl, key: "k13"), "exercise_instance_id"),
                (try Self.swap(api, id, theirs.instance, to: Self.curl, key: "k14"), "exercise_instance_id"),
            ]
            for (call, missing) in attempts {
                let refusal = try #require(await refused { try await call.send() }, "\(call)")
                #expect(refusal.status == 404 && refusal.code == "NOT_FOUND", "\(call): \(refusal)")
                #expect(refusal.details[missing] != nil, "\(call.name) names \(missing): \(refusal)")
            }
            let after = try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data
            #expect(after == before, "refused writes changed nothing")
            let theirsAfter = try await other.getActiveWorkout(body: .json(.init())).ok.body.json.data
            #expect(theirsAfter?.version == 1, "nor the other user's workout")

            // A routine's templates must be the caller's too, when patched as when created.
            let template = try await other.createTemplate(
                body: .json(.init(exercises: [.init(exerciseId: Self.curl, sets: [.init(targetReps: 8)])], name: "Own"))
            ).ok.body.json.data.id
            let routine = try await other.createRoutine(body: .json(.init(name: "R", templateIds: [template]))).ok.body.json.data
            let foreign = try #require(before?.sourceTemplateId)
            let patched = try #require(
                await refused { try await other.patchRoutine(body: .json(.init(routineId: routine.id, templateIds: [template, foreign]))) })
            #expect(patched.status == 404 && patched.code == "NOT_FOUND", "\(patched)")
            let kept = try await other.getRoutine(body: .json(.init(routineId: routine.id))).ok.body.json.data
            #expect(kept.templateIds == [template])
            #expect(kept.version == routine.version)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func everyWriteToAnEndedWorkoutIsRefusedNamingItsStatus(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let api = client.api(try await client.newUser("ended@example.com"))
            let completed = try await Self.start(api, key: "s1")
            try await Self.log(api, completed.id, completed.instance, completed.sets[0], key: "l1").send()
            let done = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "c1", workoutId: completed.id))).ok.body.json
                .data
            let cancelled = try await Self.start(api, key: "s2")
            _ = try await api.cancelActiveWorkout(body: .json(.init(idempotencyKey: "c2", workoutId: cancelled.id))).ok

            for (workout, status) in [(completed, "completed"), (cancelled, "cancelled")] {
                let id = workout.id
                let attempts: [SentCall] = [
                    try Self.log(api, id, workout.instance, workout.sets[1], key: "\(status)-1"),
                    try Self.patch(api, id, .addSet(workout.instance), key: "\(status)-2"),
                    try Self.patch(api, id, .setReps(workout.instance, workout.sets[0], 1), key: "\(status)-3"),
                    try Self.add(api, id, Self.curl, key: "\(status)-4"),
                    try Self.swap(api, id, workout.instance, to: Self.curl, key: "\(status)-5"),
                    try SentCall(
                        "completeActiveWorkout",
                        Operations.CompleteActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "\(status)-6", workoutId: id)
                    ) { try await api.completeActiveWorkout(body: .json($0)) },
                    try SentCall(
                        "cancelActiveWorkout",
                        Operations.CancelActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "\(status)-7", workoutId: id)
                    ) { try await api.cancelActiveWorkout(body: .json($0)) },
                ]
                for call in attempts {
                    let refusal = try #require(await refused { try await call.send() }, "\(call.name) on a \(status) workout")
                    #expect(refusal.code == "FAILED_PRECONDITION", "\(call.name) on a \(status) workout: \(refusal)")
                    #expect(refusal.details["status"] == status, "\(call.name): \(refusal)")
                }
            }
            // Still one workout in the history, as it was archived, and none in progress.
            let history = try await api.getRecentWorkouts(body: .json(.init())).ok.body.json.data
            #expect(history.items.map(\.id) == [completed.id])
            let archived = try await api.getWorkout(body: .json(.init(workoutId: completed.id))).ok.body.json.data
            #expect(try JSONValue(encoding: archived) == JSONValue(encoding: done), "archived as completed")
            #expect(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data == nil)
        }
    }

    /// A plan patch names a change, in one place: none (or the Firebase client's `patch` key, which this API
    /// does not read), or changes both inside `changes` and beside it, is `INVALID_ARGUMENT` and bumps no
    /// version. A routine patched against an old version is `CONFLICT` even when a template it lists has since
    /// been deleted (deleting it changed the routine), and `NOT_FOUND` for that template only when current.
    @Test(arguments: TestDatabases.engines)
    func planPatchesNameAChangeAndAStaleOneIsAConflict(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("plans@example.com")
            let api = client.api(token)
            let pushId = try await WorkoutsHTTP.template(client, "Push", exercise: Self.squat, token: token)
            let pullId = try await api.createTemplate(
                body: .json(.init(exercises: [.init(exerciseId: Self.curl, sets: [.init(targetReps: 8)])], name: "Pull"))
            ).ok.body.json.data.id
            let routineId = try await api.createRoutine(body: .json(.init(name: "R", templateIds: [pushId, pullId]))).ok.body.json.data.id

            typealias PatchTemplate = Operations.PatchTemplate.Input.Body.JsonPayload
            typealias PatchRoutine = Operations.PatchRoutine.Input.Body.JsonPayload
            let patchTemplate: @Sendable (PatchTemplate) async throws -> Operations.PatchTemplate.Output = {
                try await api.patchTemplate(body: .json($0))
            }
            let patchRoutine: @Sendable (PatchRoutine) async throws -> Operations.PatchRoutine.Output = {
                try await api.patchRoutine(body: .json($0))
            }
            let refusals: [SentCall] = [
                try SentCall("patchTemplate", PatchTemplate(templateId: pushId), patchTemplate),
                try SentCall("patchTemplate", PatchTemplate(expectedVersion: 1, templateId: pushId), patchTemplate),
                try SentCall(
                    "patchTemplate",
                    PatchTemplate(
                        changes: .init(name: "A"), exercises: [.init(exerciseId: Self.curl, sets: [.init(targetReps: 1)])],
                        templateId: pushId),
                    patchTemplate),
                try SentCall("patchRoutine", PatchRoutine(expectedVersion: 1, routineId: routineId), patchRoutine),
                try SentCall("patchRoutine", PatchRoutine(changes: .init(), routineId: routineId), patchRoutine),
                try SentCall(
                    "patchRoutine", PatchRoutine(changes: .init(name: "A"), routineId: routineId, legacyTemplateIds: [pullId]), patchRoutine
                ),
            ]
            // `patch` is no field of the document (the API does not read it), so the client cannot send it: JSON.
            let misnamed = try await client.send(
                "patchTemplate", ["template_id": .string(pushId), "patch": ["name": "Push A"]], token: token)
            #expect(
                misnamed.code == "INVALID_ARGUMENT" && misnamed.body["error"]?["details"]?["field"]?.stringValue == "patch",
                "\(misnamed.body)")
            for call in refusals {
                let refusal = try #require(await refused { try await call.send() }, "\(call)")
                #expect(refusal.code == "INVALID_ARGUMENT" && refusal.details["field"] == "changes", "\(call): \(refusal)")
            }
            let template = try await api.getTemplate(body: .json(.init(templateId: pushId))).ok.body.json.data
            #expect(template.name == "Push" && template.version == 1, "\(template)")
            let unchanged = try await api.getRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data
            #expect(unchanged.name == "R" && unchanged.version == 1, "\(unchanged)")

            // Another device deletes Pull (the routine goes to version 2); this one still shows [Push, Pull] at 1.
            _ = try await api.deleteTemplate(body: .json(.init(templateId: pullId)))
            let stale = try #require(
                await refused {
                    try await api.patchRoutine(body: .json(.init(expectedVersion: 1, routineId: routineId, templateIds: [pullId, pushId])))
                })
            #expect(stale.status == 409 && stale.details["current_version"] == "2", "\(stale)")
            let current = try #require(
                await refused {
                    try await api.patchRoutine(body: .json(.init(expectedVersion: 2, routineId: routineId, templateIds: [pullId, pushId])))
                })
            #expect(current.status == 404 && current.details["template_id"] == pullId, "\(current)")
            let unknown = try #require(
                await refused { try await api.patchRoutine(body: .json(.init(routineId: "nope", templateIds: [pullId]))) })
            #expect(unknown.status == 404 && unknown.details["routine_id"] != nil, "the routine first: \(unknown)")
            let after = try await api.getRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data
            #expect(after.templateIds == [pushId] && after.version == 2, "\(after)")
        }
    }

    /// A device that had not reloaded after a swap, or an exercise or set added elsewhere, is told to reload
    /// (`CONFLICT` with the current version), not that its ids do not exist; a swap to the same exercise, and an
    /// unknown exercise named with another user's workout, are refused for what they are. Nothing changes.
    @Test(arguments: TestDatabases.engines)
    func staleWritesAreConflictsAndChangeNothing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let api = client.api(try await client.newUser("stale@example.com"))
            let other = client.api(try await client.newUser("bystander@example.com"))
            let (id, squat, sets) = try await Self.start(api, key: "s")
            try await Self.log(api, id, squat, sets[0], key: "l0").send()
            // The coach swaps the squat for curls: the logged set stays with the squat, the two to do go on.
            let swapped = try await api.swapExercise(
                body: .json(.init(exerciseInstanceId: squat, idempotencyKey: "w", newExerciseId: Self.curl, workoutId: id))
            ).ok.body.json.data
            let entries = swapped.exercises
            let curls = try #require(entries.count == 2 ? entries[1].instanceId : nil, "\(swapped)")
            let before = try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data
            let version = try #require(before?.version)

            let stale: [(SentCall, details: [String: String])] = [
                (try Self.log(api, id, squat, sets[1], key: "k1"), ["set_id": sets[1], "exercise_instance_id": curls]),
                (try Self.patch(api, id, .setReps(squat, sets[2], 3), key: "k2"), ["set_id": sets[2], "exercise_instance_id": curls]),
                (try Self.patch(api, id, .removeSet(squat, sets[1]), key: "k3"), ["exercise_instance_id": curls]),
                (try Self.patch(api, id, .reorderExercises([squat]), key: "k4"), ["field": "ops[0].order"]),
                (try Self.patch(api, id, .reorderSets(squat, [sets[0], sets[1], sets[2]]), key: "k5"), ["field": "ops[0].order"]),
            ]
            for (call, details) in stale {
                let refusal = try #require(await refused { try await call.send() }, "\(call)")
                #expect(refusal.status == 409 && refusal.code == "CONFLICT", "\(call): \(refusal)")
                #expect(refusal.details["current_version"] == "\(version)", "\(call.name): \(refusal)")
                for (key, value) in details { #expect(refusal.details[key] == value, "\(call.name) \(key): \(refusal)") }
            }
            // A patch that adds and then reorders cannot name what it adds: reloading would not help, so its
            // reorder is refused as malformed, naming the operation.
            let own = try #require(
                await refused {
                    try await api.patchActiveWorkout(
                        body: .json(
                            .init(idempotencyKey: "k9", ops: [.addSet(curls), .reorderSets(curls, [sets[1], sets[2]])], workoutId: id)))
                })
            #expect(own.code == "INVALID_ARGUMENT" && own.details["field"] == "ops[1].order", "\(own)")
            let refusals: [(SentCall, code: String, field: String)] = [
                (try Self.patch(api, id, .reorderExercises([curls, curls]), key: "k6"), "INVALID_ARGUMENT", "field"),
                (try Self.swap(api, id, curls, to: Self.curl, key: "k7"), "INVALID_ARGUMENT", "field"),
                (try Self.add(api, id, "no-such-exercise", key: "k8"), "INVALID_ARGUMENT", "field"),
            ]
            for (call, code, field) in refusals {
                let refusal = try #require(await refused { try await call.send() }, "\(call)")
                #expect(refusal.code == code && refusal.details[field] != nil, "\(call): \(refusal)")
            }
            // Another user naming this workout learns only that it is not theirs, whatever exercise they name.
            for call in [
                try Self.add(other, id, "no-such-exercise", key: "o1"),
                try Self.swap(other, id, curls, to: "no-such-exercise", key: "o2"),
                try Self.patch(other, id, .addExercise("no-such-exercise"), key: "o3"),
            ] {
                let refusal = try #require(await refused { try await call.send() }, "\(call)")
                #expect(refusal.status == 404 && refusal.details["workout_id"] == id, "\(call.name): \(refusal)")
            }
            let after = try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data
            #expect(after == before, "refused writes changed nothing")
        }
    }
}
