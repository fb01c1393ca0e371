import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverClient
import SQLKit
import Synchronization
import TestSupport
import Testing

/// How the Workouts endpoints read what clients send, through HTTP on every engine: `workoutId` for
/// `workout_id`, the original app's field names, a field and its alias that disagree, a weight of -0, idempotency
/// keys counted in code points.
@Suite struct WorkoutsInputReadingTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat
    static let curl = WorkoutsFlowTests.curl

    /// `workout_id` is also read as `workoutId` on every endpoint that takes it; without either the error
    /// names `workout_id`.
    @Test(arguments: TestDatabases.engines)
    func workoutIdIsAlsoReadAsCamelCase(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let api = client.api(try await client.newUser("camel@example.com"))
            let missing: [SentCall] = [
                try SentCall(
                    "logSet",
                    Operations.LogSet.Input.Body.JsonPayload(
                        exerciseInstanceId: "e", idempotencyKey: "m0", reps: 1, setId: "s", weightKg: 1)
                ) { try await api.logSet(body: .json($0)) },
                try SentCall(
                    "patchActiveWorkout",
                    Operations.PatchActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "m1", ops: [.removeExercise("e")])
                ) { try await api.patchActiveWorkout(body: .json($0)) },
                try SentCall("addExercise", Operations.AddExercise.Input.Body.JsonPayload(exerciseId: Self.squat, idempotencyKey: "m2")) {
                    try await api.addExercise(body: .json($0))
                },
                try SentCall(
                    "swapExercise",
                    Operations.SwapExercise.Input.Body.JsonPayload(exerciseInstanceId: "e", idempotencyKey: "m3", newExerciseId: Self.bench)
                ) { try await api.swapExercise(body: .json($0)) },
                try SentCall("completeActiveWorkout", Operations.CompleteActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "m4")) {
                    try await api.completeActiveWorkout(body: .json($0))
                },
                try SentCall("cancelActiveWorkout", Operations.CancelActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "m5")) {
                    try await api.cancelActiveWorkout(body: .json($0))
                },
                try SentCall("getWorkout", Operations.GetWorkout.Input.Body.JsonPayload()) { try await api.getWorkout(body: .json($0)) },
                try SentCall("updateWorkout", Operations.UpdateWorkout.Input.Body.JsonPayload(name: "Nameless")) {
                    try await api.updateWorkout(body: .json($0))
                },
                try SentCall("deleteWorkout", Operations.DeleteWorkout.Input.Body.JsonPayload()) {
                    try await api.deleteWorkout(body: .json($0))
                },
            ]
            for call in missing {
                let refusal = try #require(await refused { try await call.send() }, "\(call.name) was not refused")
                #expect(refusal.status == 400, "\(call.name) answered \(refusal.status)")
                #expect(refusal.code == "INVALID_ARGUMENT", "\(call.name)")
                #expect(refusal.details["field"] == "workout_id", "\(call.name): \(refusal)")
            }

            // The active endpoints, camelCase only.
            let firstId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s1", name: "Camel"))).ok.body.json.data.id
            let added = try await api.addExercise(
                body: .json(.init(exerciseId: Self.squat, idempotencyKey: "a1", sets: 2, legacyWorkoutId: firstId))
            ).ok.body.json.data
            #expect(added.id == firstId)
            let squat = try WorkoutsHTTP.exercise(added)
            #expect(squat.setIds.count == 2)
            let patched = try await api.patchActiveWorkout(
                body: .json(.init(idempotencyKey: "p1", ops: [.addSet(squat.instanceId)], legacyWorkoutId: firstId))
            ).ok.body.json.data
            #expect(try WorkoutsHTTP.exercise(patched).setIds.count == 3)
            let swapped = try await api.swapExercise(
                body: .json(
                    .init(exerciseInstanceId: squat.instanceId, idempotencyKey: "w1", newExerciseId: Self.bench, legacyWorkoutId: firstId))
            ).ok.body.json.data
            #expect(swapped.exercises.first?.exerciseId == Self.bench)
            _ = try await api.cancelActiveWorkout(body: .json(.init(idempotencyKey: "c1", legacyWorkoutId: firstId))).ok
            #expect(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data == nil)

            let secondId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s2", name: "Camel 2"))).ok.body.json.data.id
            let curl = try WorkoutsHTTP.exercise(
                try await api.addExercise(body: .json(.init(exerciseId: Self.curl, idempotencyKey: "a2", sets: 1, workoutId: secondId))).ok
                    .body.json.data)
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: curl.instanceId, idempotencyKey: "l1", reps: 10, setId: curl.setIds[0], weightKg: 12,
                        legacyWorkoutId: secondId))
            ).ok
            let completed = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "d1", legacyWorkoutId: secondId))).ok.body
                .json.data
            #expect(completed.id == secondId)

            // The history endpoints, camelCase only.
            #expect(try await api.getWorkout(body: .json(.init(legacyWorkoutId: secondId))).ok.body.json.data.id == secondId)
            let renamed = try await api.updateWorkout(body: .json(.init(name: "Renamed", legacyWorkoutId: secondId))).ok.body.json.data
            #expect(renamed.name == "Renamed")
            _ = try await api.deleteWorkout(body: .json(.init(legacyWorkoutId: secondId))).ok
            #expect(try #require(await refused { try await api.getWorkout(body: .json(.init(workoutId: secondId))) }).status == 404)
        }
    }

    /// A template's planned sets read the original templates' `reps`, `rir` and `weight` (kg) as their targets,
    /// checked as the targets are; before, they were dropped and the template planned nothing.
    @Test(arguments: TestDatabases.engines)
    func templateSetsReadTheLegacyNames(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("legacy-sets@example.com")
            let api = client.api(token)
            let created = try await api.createTemplate(
                body: .json(
                    .init(
                        exercises: [
                            .init(exerciseId: Self.curl, sets: [.init(reps: 8, rir: 2, weight: 12.5), .init(reps: 6, targetReps: 6)])
                        ],
                        name: "Old"))
            ).ok.body.json.data
            let sets = try #require(created.exercises.first?.sets)
            try #require(sets.count == 2)
            #expect(sets[0].targetReps == 8 && sets[0].targetRir == 2 && sets[0].targetWeightKg == 12.5, "\(sets)")
            #expect(sets[1].targetReps == 6)
            let templateId = created.id
            // Which names the template is written under is the wire's shape, which the typed answer does not show:
            // read as JSON.
            let written = try await client.send("getTemplate", ["template_id": .string(templateId)], token: token)
            let firstSet = written.data["exercises"]?.arrayValue?.first?["sets"]?.arrayValue?.first
            #expect(firstSet?["target_reps"] == .int(8), "\(written.body)")
            #expect(firstSet?["reps"] == nil && firstSet?["weight"] == nil, "written under the current names only: \(written.body)")
            typealias PlannedSet = Operations.PatchTemplate.Input.Body.JsonPayload.ExercisesPayloadPayload.SetsPayloadPayload
            for (set, field) in [
                (PlannedSet(reps: 9, targetReps: 8), "exercises[0].sets[0].target_reps"),
                (PlannedSet(weight: 1200), "exercises[0].sets[0].target_weight_kg"),
            ] {
                let refusal = try #require(
                    await refused {
                        try await api.patchTemplate(
                            body: .json(.init(exercises: [.init(exerciseId: Self.curl, sets: [set])], templateId: templateId)))
                    }, "\(set)")
                #expect(refusal.code == "INVALID_ARGUMENT" && refusal.details["field"] == field, "\(set): \(refusal)")
            }
            let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s", templateId: templateId))).ok.body.json
                .data
            let planned = try #require(started.exercises.first?.sets.first)
            #expect(planned.targetReps == 8 && planned.targetWeightKg == 12.5, "the workout gets the plan: \(planned)")
        }
    }

    /// A field and its alias (`workout_id` / `workoutId`, `weight_kg` / legacy `weight`, `template_ids` / legacy
    /// `templateIds`) sent with different values: `INVALID_ARGUMENT` naming the field, nothing changes. The same
    /// value under both names is accepted.
    @Test(arguments: TestDatabases.engines)
    func aFieldAndItsAliasMustAgree(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("alias@example.com")
            let api = client.api(token)
            let workoutId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s1", name: "Alias"))).ok.body.json.data.id
            let curl = try WorkoutsHTTP.exercise(
                try await api.addExercise(body: .json(.init(exerciseId: Self.curl, idempotencyKey: "a1", sets: 1, workoutId: workoutId))).ok
                    .body.json.data)

            func expectRefused(_ call: SentCall, field: String) async throws {
                let refusal = try #require(await refused { try await call.send() }, "\(call)")
                #expect(refusal.status == 400 && refusal.code == "INVALID_ARGUMENT", "\(call.name): \(refusal)")
                #expect(refusal.details["field"] == field, "\(call.name): \(refusal)")
            }
            typealias LogSet = Operations.LogSet.Input.Body.JsonPayload
            let logSet: @Sendable (LogSet) async throws -> Operations.LogSet.Output = { try await api.logSet(body: .json($0)) }
            try await expectRefused(
                try SentCall(
                    "logSet",
                    LogSet(
                        exerciseInstanceId: curl.instanceId, idempotencyKey: "l1", reps: 10, setId: curl.setIds[0], weightKg: 12,
                        legacyWorkoutId: "other", workoutId: workoutId), logSet),
                field: "workout_id")
            try await expectRefused(
                try SentCall(
                    "logSet",
                    LogSet(
                        exerciseInstanceId: curl.instanceId, idempotencyKey: "l2", reps: 10, setId: curl.setIds[0], weight: 14,
                        weightKg: 12,
                        workoutId: workoutId), logSet),
                field: "weight_kg")
            try await expectRefused(
                try SentCall("getWorkout", Operations.GetWorkout.Input.Body.JsonPayload(legacyWorkoutId: "other", workoutId: workoutId)) {
                    try await api.getWorkout(body: .json($0))
                },
                field: "workout_id")
            try await expectRefused(
                try SentCall(
                    "cancelActiveWorkout",
                    Operations.CancelActiveWorkout.Input.Body.JsonPayload(
                        idempotencyKey: "c1", legacyWorkoutId: workoutId, workoutId: "other")
                ) { try await api.cancelActiveWorkout(body: .json($0)) },
                field: "workout_id")
            let active = try #require(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data)
            #expect(active.version == 2, "nothing was written")
            #expect(try #require(WorkoutsHTTP.set(curl.setIds[0], in: active)).reps == nil)

            // The same value under both names.
            let logged = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: curl.instanceId, idempotencyKey: "l3", reps: 10, setId: curl.setIds[0], weight: 12.0,
                        weightKg: 12,
                        legacyWorkoutId: workoutId, workoutId: workoutId))
            ).ok.body.json.data
            #expect(logged.set.weightKg == 12)

            // In a list, the refusal says which entry: here the second set.
            _ = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "c2", workoutId: workoutId))).ok
            try await expectRefused(
                try SentCall(
                    "updateWorkout",
                    Operations.UpdateWorkout.Input.Body.JsonPayload(
                        exercises: [
                            .init(exerciseId: Self.curl, sets: [.init(reps: 5, weightKg: 10), .init(reps: 5, weight: 11, weightKg: 10)])
                        ],
                        workoutId: workoutId)
                ) { try await api.updateWorkout(body: .json($0)) },
                field: "exercises[0].sets[1].weight_kg")

            let template = try await WorkoutsHTTP.template(client, "T", exercise: Self.squat, token: token)
            let other = try await WorkoutsHTTP.template(client, "U", exercise: Self.squat, token: token)
            try await expectRefused(
                try SentCall(
                    "createRoutine",
                    Operations.CreateRoutine.Input.Body.JsonPayload(name: "R", legacyTemplateIds: [other], templateIds: [template])
                ) { try await api.createRoutine(body: .json($0)) },
                field: "template_ids")
            #expect(try await api.getRoutines(body: .json(.init())).ok.body.json.data.items.isEmpty)
            let routine = try await api.createRoutine(
                body: .json(.init(name: "R", legacyTemplateIds: [template], templateIds: [template]))
            ).ok.body.json.data
            #expect(routine.templateIds == [template])
            try await expectRefused(
                try SentCall(
                    "patchRoutine",
                    Operations.PatchRoutine.Input.Body.JsonPayload(
                        routineId: routine.id, legacyTemplateIds: [other], templateIds: [template])
                ) { try await api.patchRoutine(body: .json($0)) },
                field: "template_ids")
        }
    }

    /// A weight of -0 passes the range check; it is 0 everywhere: in every answer, in storage (SQLite would
    /// otherwise drop the sign and PostgreSQL keep it), in the archive, and for a retry's fingerprint (logSet,
    /// createTemplate, patchActiveWorkout and updateWorkout retried with 0 under the same key).
    @Test(arguments: TestDatabases.engines)
    func negativeZeroWeightIsZero(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("minus-zero@example.com")
            // The bytes are what this test is about: requests the client would not write (-0, -0.0 and 0 for one
            // weight under one key) and the answer's text, which must hold no -0; so both go as text, outside the
            // generated client.
            /// The answer's text, which must not hold a negative zero, and its `data`.
            func send(_ name: String, _ body: String) async throws -> (text: String, data: JSONValue, code: String?) {
                var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(token)"]
                headers[.accept] = "application/json"
                let response = try await client.execute(uri: "/\(name)", method: .post, headers: headers, body: ByteBuffer(string: body))
                let text = String(buffer: response.body)
                let json = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .null
                #expect(
                    text.range(of: #":-0(\.0*)?[,}\]]"#, options: String.CompareOptions.regularExpression) == nil,
                    "\(name) answers -0: \(text)")
                return (text, json["data"] ?? .null, json["error"]?["code"]?.stringValue)
            }
            /// Sends `body` with `zero` as -0 under `key`, then again with 0: the retry is the same request.
            func sendTwice(_ name: String, _ body: String) async throws -> (text: String, data: JSONValue, code: String?) {
                let first = try await send(name, body.replacingOccurrences(of: "ZERO", with: "-0.0"))
                let retry = try await send(name, body.replacingOccurrences(of: "ZERO", with: "0"))
                #expect(retry.code == nil && retry.text == first.text, "\(name): a retry sending 0 is the same request: \(retry.text)")
                return first
            }
            let template = try await sendTwice(
                "createTemplate",
                #"{"name":"Z","idempotency_key":"t","exercises":[{"exercise_id":"\#(Self.curl)","sets":[{"target_reps":5,"target_weight_kg":ZERO},{"weight":-0}]}]}"#
            )
            #expect(template.code == nil, "\(template.text)")
            #expect(try await client.api(token).getTemplates(body: .json(.init())).ok.body.json.data.items.count == 1)
            let templateId = try #require(template.data["id"]?.stringValue)
            let started = try await send("startActiveWorkout", #"{"template_id":"\#(templateId)","idempotency_key":"s"}"#)
            let workoutId = try #require(started.data["id"]?.stringValue)
            let exercise = started.data["exercises"]?.arrayValue?.first
            let curl = (
                instanceId: try #require(exercise?["instance_id"]?.stringValue),
                setIds: exercise?["sets"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            )
            try #require(curl.setIds.count == 2, "\(started.text)")
            let log =
                #"{"workout_id":"\#(workoutId)","exercise_instance_id":"\#(curl.instanceId)","set_id":"\#(curl.setIds[0])","reps":5,"idempotency_key":"z1","weight_kg":"#
            let logged = try await send("logSet", log + "-0}")
            #expect(logged.code == nil && [.int(0), .double(0)].contains(logged.data["set"]?["weight_kg"]), "\(logged.text)")
            let retried = try await send("logSet", log + "0}")
            #expect(retried.code == nil && retried.text == logged.text, "a retry sending 0 is the same request: \(retried.text)")
            let patched = try await sendTwice(
                "patchActiveWorkout",
                #"{"workout_id":"\#(workoutId)","idempotency_key":"p","ops":[{"op":"set_field","exercise_instance_id":"\#(curl.instanceId)","set_id":"\#(curl.setIds[1])","field":"weight_kg","value":ZERO},{"op":"set_field","exercise_instance_id":"\#(curl.instanceId)","set_id":"\#(curl.setIds[1])","field":"reps","value":3}]}"#
            )
            #expect(patched.code == nil, "\(patched.text)")
            _ = try await send("getActiveWorkout", "{}")
            let completed = try await send("completeActiveWorkout", #"{"workout_id":"\#(workoutId)","idempotency_key":"c"}"#)
            #expect(completed.code == nil, "\(completed.text)")
            _ = try await send("getWorkout", #"{"workout_id":"\#(workoutId)"}"#)
            let edited = try await sendTwice(
                "updateWorkout",
                #"{"workout_id":"\#(workoutId)","idempotency_key":"u","exercises":[{"exercise_id":"\#(Self.curl)","sets":[{"weight_kg":ZERO,"reps":5}]}]}"#
            )
            #expect(edited.code == nil, "\(edited.text)")
            _ = try await send("getTemplate", #"{"template_id":"\#(templateId)"}"#)
        }
    }

    /// An idempotency key is 1 to 128 code points on both engines: 128 accented letters (256 bytes) are a key;
    /// 128 letters under 40 combining marks each (5,248 code points, 10 KB, more than PostgreSQL can index) are
    /// INVALID_ARGUMENT naming the key, not a failed write, and start nothing.
    @Test(arguments: TestDatabases.engines)
    func idempotencyKeysAreCountedInCodePoints(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let api = client.api(try await client.newUser("keys@example.com"))
            let stacked = StackedMarks.text(letters: 128)
            for key in [stacked, String(repeating: "é", count: 129)] {
                let refusal = try #require(await refused { try await api.startActiveWorkout(body: .json(.init(idempotencyKey: key))) })
                #expect(refusal.code == "INVALID_ARGUMENT" && refusal.details["field"] == "idempotency_key", "\(refusal)")
            }
            #expect(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data == nil, "nothing started")
            let key = String(repeating: "é", count: 128)
            let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: key))).ok.body.json.data.id
            let again = try await answer { try await api.startActiveWorkout(body: .json(.init(idempotencyKey: key))).ok.body.json.data.id }
            #expect(again.status == .ok && again.value == started, "the same key answers the first start")
        }
    }
}
