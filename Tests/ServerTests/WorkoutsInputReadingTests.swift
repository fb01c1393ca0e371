import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
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
            let token = try await client.newUser("camel@example.com")
            let missing: [(String, [String: Any])] = [
                ("logSet", ["exercise_instance_id": "e", "set_id": "s", "weight_kg": 1, "reps": 1, "idempotency_key": "m0"]),
                ("patchActiveWorkout", ["ops": [["op": "remove_exercise", "exercise_instance_id": "e"]], "idempotency_key": "m1"]),
                ("addExercise", ["exercise_id": Self.squat, "idempotency_key": "m2"]),
                ("swapExercise", ["exercise_instance_id": "e", "new_exercise_id": Self.bench, "idempotency_key": "m3"]),
                ("completeActiveWorkout", ["idempotency_key": "m4"]),
                ("cancelActiveWorkout", ["idempotency_key": "m5"]),
                ("getWorkout", [:]),
                ("updateWorkout", ["name": "Nameless"]),
                ("deleteWorkout", [:]),
            ]
            for (name, body) in missing {
                let reply = try await client.call(name, body, token: token)
                #expect(reply.status == .badRequest, "\(name) answered \(reply.status)")
                #expect(reply.errorCode == "INVALID_ARGUMENT", "\(name)")
                #expect(reply.errorDetails?["field"] as? String == "workout_id", "\(name): \(reply.json)")
            }

            // The active endpoints, camelCase only.
            let first = try await client.call("startActiveWorkout", ["name": "Camel", "idempotency_key": "s1"], token: token)
            let firstId = try #require(first.data["id"] as? String)
            let added = try await client.call(
                "addExercise", ["workoutId": firstId, "exercise_id": Self.squat, "sets": 2, "idempotency_key": "a1"], token: token)
            #expect(added.status == .ok, "addExercise: \(added.json)")
            #expect(added.data["id"] as? String == firstId)
            let squat = try WorkoutsHTTP.exercise(added.data)
            #expect(squat.setIds.count == 2)
            let patched = try await client.call(
                "patchActiveWorkout",
                ["workoutId": firstId, "ops": [["op": "add_set", "exercise_instance_id": squat.instanceId]], "idempotency_key": "p1"],
                token: token)
            #expect(patched.status == .ok, "patchActiveWorkout: \(patched.json)")
            #expect(try WorkoutsHTTP.exercise(patched.data).setIds.count == 3)
            let swapped = try await client.call(
                "swapExercise",
                ["workoutId": firstId, "exercise_instance_id": squat.instanceId, "new_exercise_id": Self.bench, "idempotency_key": "w1"],
                token: token)
            #expect(swapped.status == .ok, "swapExercise: \(swapped.json)")
            #expect((swapped.data["exercises"] as? [[String: Any]])?.first?["exercise_id"] as? String == Self.bench)
            let cancelled = try await client.call("cancelActiveWorkout", ["workoutId": firstId, "idempotency_key": "c1"], token: token)
            #expect(cancelled.status == .ok, "cancelActiveWorkout: \(cancelled.json)")
            #expect(try await client.call("getActiveWorkout", token: token).json["data"] is NSNull)

            let second = try await client.call("startActiveWorkout", ["name": "Camel 2", "idempotency_key": "s2"], token: token)
            let secondId = try #require(second.data["id"] as? String)
            let curl = try WorkoutsHTTP.exercise(
                try await client.call(
                    "addExercise", ["workout_id": secondId, "exercise_id": Self.curl, "sets": 1, "idempotency_key": "a2"], token: token
                ).data)
            let logged = try await client.call(
                "logSet",
                [
                    "workoutId": secondId, "exercise_instance_id": curl.instanceId, "set_id": curl.setIds[0], "weight_kg": 12, "reps": 10,
                    "idempotency_key": "l1",
                ],
                token: token)
            #expect(logged.status == .ok)
            let completed = try await client.call("completeActiveWorkout", ["workoutId": secondId, "idempotency_key": "d1"], token: token)
            #expect(completed.status == .ok, "completeActiveWorkout: \(completed.json)")
            #expect(completed.data["id"] as? String == secondId)

            // The history endpoints, camelCase only.
            let fetched = try await client.call("getWorkout", ["workoutId": secondId], token: token)
            #expect(fetched.status == .ok, "getWorkout: \(fetched.json)")
            #expect(fetched.data["id"] as? String == secondId)
            let renamed = try await client.call("updateWorkout", ["workoutId": secondId, "name": "Renamed"], token: token)
            #expect(renamed.status == .ok, "updateWorkout: \(renamed.json)")
            #expect(renamed.data["name"] as? String == "Renamed")
            let deleted = try await client.call("deleteWorkout", ["workoutId": secondId], token: token)
            #expect(deleted.status == .ok, "deleteWorkout: \(deleted.json)")
            #expect(try await client.call("getWorkout", ["workout_id": secondId], token: token).status == .notFound)
        }
    }

    /// A template's planned sets read the original templates' `reps`, `rir` and `weight` (kg) as their targets,
    /// checked as the targets are; before, they were dropped and the template planned nothing.
    @Test(arguments: TestDatabases.engines)
    func templateSetsReadTheLegacyNames(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("legacy-sets@example.com")
            let created = try await client.call(
                "createTemplate",
                [
                    "name": "Old",
                    "exercises": [
                        ["exercise_id": Self.curl, "sets": [["reps": 8, "rir": 2, "weight": 12.5], ["target_reps": 6, "reps": 6]]]
                    ],
                ],
                token: token)
            #expect(created.status == .ok, "\(created.json)")
            let sets = try #require(((created.data["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]]))
            #expect(
                sets[0]["target_reps"] as? Int == 8 && sets[0]["target_rir"] as? Int == 2 && sets[0]["target_weight_kg"] as? Double == 12.5,
                "\(sets)")
            #expect(sets[0]["reps"] == nil && sets[0]["weight"] == nil, "written under the current names only: \(sets[0])")
            #expect(sets[1]["target_reps"] as? Int == 6)
            let templateId = try #require(created.data["id"] as? String)
            for (set, field) in [
                (["target_reps": 8, "reps": 9], "exercises[0].sets[0].target_reps"),
                (["weight": 1200], "exercises[0].sets[0].target_weight_kg"),
            ] as [([String: Any], String)] {
                let refused = try await client.call(
                    "patchTemplate", ["template_id": templateId, "exercises": [["exercise_id": Self.curl, "sets": [set]]]], token: token)
                #expect(
                    refused.errorCode == "INVALID_ARGUMENT" && refused.errorDetails?["field"] as? String == field, "\(set): \(refused.json)"
                )
            }
            let started = try await client.call("startActiveWorkout", ["template_id": templateId, "idempotency_key": "s"], token: token)
            let planned = try #require(((started.data["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.first)
            #expect(
                planned["target_reps"] as? Int == 8 && planned["target_weight_kg"] as? Double == 12.5,
                "the workout gets the plan: \(planned)")
        }
    }

    /// A field and its alias (`workout_id` / `workoutId`, `weight_kg` / legacy `weight`, `template_ids` / legacy
    /// `templateIds`) sent with different values: `INVALID_ARGUMENT` naming the field, nothing changes. The same
    /// value under both names is accepted.
    @Test(arguments: TestDatabases.engines)
    func aFieldAndItsAliasMustAgree(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("alias@example.com")
            let workout = try await client.call("startActiveWorkout", ["name": "Alias", "idempotency_key": "s1"], token: token)
            let workoutId = try #require(workout.data["id"] as? String)
            let curl = try WorkoutsHTTP.exercise(
                try await client.call(
                    "addExercise", ["workout_id": workoutId, "exercise_id": Self.curl, "sets": 1, "idempotency_key": "a1"], token: token
                ).data)
            let set: [String: Any] = ["exercise_instance_id": curl.instanceId, "set_id": curl.setIds[0], "reps": 10]

            func expectRefused(_ name: String, _ body: [String: Any], field: String) async throws {
                let reply = try await client.call(name, body, token: token)
                #expect(reply.status == .badRequest && reply.errorCode == "INVALID_ARGUMENT", "\(name): \(reply.json)")
                #expect(reply.errorDetails?["field"] as? String == field, "\(name): \(reply.json)")
            }
            try await expectRefused(
                "logSet",
                set.merging(["workout_id": workoutId, "workoutId": "other", "weight_kg": 12, "idempotency_key": "l1"]) { a, _ in a },
                field: "workout_id")
            try await expectRefused(
                "logSet", set.merging(["workout_id": workoutId, "weight_kg": 12, "weight": 14, "idempotency_key": "l2"]) { a, _ in a },
                field: "weight_kg")
            try await expectRefused("getWorkout", ["workout_id": workoutId, "workoutId": "other"], field: "workout_id")
            try await expectRefused(
                "cancelActiveWorkout", ["workoutId": workoutId, "workout_id": "other", "idempotency_key": "c1"], field: "workout_id")
            let active = try await client.call("getActiveWorkout", token: token)
            #expect(active.data["version"] as? Int == 2, "nothing was written")
            #expect(WorkoutsHTTP.set(curl.setIds[0], in: active.data)?["reps"] is NSNull)

            // The same value under both names.
            let logged = try await client.call(
                "logSet",
                set.merging(["workout_id": workoutId, "workoutId": workoutId, "weight_kg": 12, "weight": 12.0, "idempotency_key": "l3"]) {
                    a, _ in a
                },
                token: token)
            #expect(logged.status == .ok, "\(logged.json)")
            #expect((logged.data["set"] as? [String: Any])?["weight_kg"] as? Double == 12)

            // In a list, the refusal says which entry: here the second set.
            let completed = try await client.call(
                "completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c2"], token: token)
            #expect(completed.status == .ok, "\(completed.json)")
            try await expectRefused(
                "updateWorkout",
                [
                    "workout_id": workoutId,
                    "exercises": [
                        ["exercise_id": Self.curl, "sets": [["weight_kg": 10, "reps": 5], ["weight_kg": 10, "weight": 11, "reps": 5]]]
                    ],
                ],
                field: "exercises[0].sets[1].weight_kg")

            let template = try await WorkoutsHTTP.template(client, "T", exercise: Self.squat, token: token)
            let other = try await WorkoutsHTTP.template(client, "U", exercise: Self.squat, token: token)
            try await expectRefused(
                "createRoutine", ["name": "R", "template_ids": [template], "templateIds": [other]], field: "template_ids")
            #expect((try await client.call("getRoutines", token: token).data["items"] as? [Any])?.isEmpty == true)
            let routine = try await client.call(
                "createRoutine", ["name": "R", "template_ids": [template], "templateIds": [template]], token: token)
            #expect(routine.status == .ok && routine.data["template_ids"] as? [String] == [template])
            let routineId = try #require(routine.data["id"] as? String)
            try await expectRefused(
                "patchRoutine", ["routine_id": routineId, "template_ids": [template], "templateIds": [other]], field: "template_ids")
        }
    }

    /// A weight of -0 passes the range check; it is 0 everywhere: in every answer, in storage (SQLite would
    /// otherwise drop the sign and PostgreSQL keep it), in the archive, and for a retry's fingerprint (logSet,
    /// createTemplate, patchActiveWorkout and updateWorkout retried with 0 under the same key).
    @Test(arguments: TestDatabases.engines)
    func negativeZeroWeightIsZero(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("minus-zero@example.com")
            /// The answer's text, which must not hold a negative zero, and its `data`.
            func send(_ name: String, _ body: String) async throws -> (text: String, data: [String: Any], code: String?) {
                var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(token)"]
                headers[.accept] = "application/json"
                let response = try await client.execute(uri: "/\(name)", method: .post, headers: headers, body: ByteBuffer(string: body))
                let text = String(buffer: response.body)
                let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                #expect(
                    text.range(of: #":-0(\.0*)?[,}\]]"#, options: String.CompareOptions.regularExpression) == nil,
                    "\(name) answers -0: \(text)")
                return (text, json["data"] as? [String: Any] ?? [:], (json["error"] as? [String: Any])?["code"] as? String)
            }
            /// Sends `body` with `zero` as -0 under `key`, then again with 0: the retry is the same request.
            func sendTwice(_ name: String, _ body: String) async throws -> (text: String, data: [String: Any], code: String?) {
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
            #expect((try await client.call("getTemplates", token: token).data["items"] as? [Any])?.count == 1)
            let templateId = try #require(template.data["id"] as? String)
            let started = try await send("startActiveWorkout", #"{"template_id":"\#(templateId)","idempotency_key":"s"}"#)
            let workoutId = try #require(started.data["id"] as? String)
            let curl = try WorkoutsHTTP.exercise(started.data)
            let log =
                #"{"workout_id":"\#(workoutId)","exercise_instance_id":"\#(curl.instanceId)","set_id":"\#(curl.setIds[0])","reps":5,"idempotency_key":"z1","weight_kg":"#
            let logged = try await send("logSet", log + "-0}")
            #expect(logged.code == nil && (logged.data["set"] as? [String: Any])?["weight_kg"] as? Double == 0, "\(logged.text)")
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
            let token = try await client.newUser("keys@example.com")
            let stacked = StackedMarks.text(letters: 128)
            for key in [stacked, String(repeating: "é", count: 129)] {
                let refused = try await client.call("startActiveWorkout", ["idempotency_key": key], token: token)
                #expect(
                    refused.errorCode == "INVALID_ARGUMENT" && refused.errorDetails?["field"] as? String == "idempotency_key",
                    "\(refused.json)")
            }
            #expect(try await client.call("getActiveWorkout", token: token).json["data"] is NSNull, "nothing started")
            let key = String(repeating: "é", count: 128)
            let started = try await client.call("startActiveWorkout", ["idempotency_key": key], token: token)
            #expect(started.status == .ok, "\(started.json)")
            let again = try await client.call("startActiveWorkout", ["idempotency_key": key], token: token)
            #expect(
                again.status == .ok && again.data["id"] as? String == started.data["id"] as? String, "the same key answers the first start")
        }
    }
}
