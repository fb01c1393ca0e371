import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import SQLKit
import Synchronization
import Testing
import TestSupport

/// The Workouts contract fixes, through HTTP on every engine: camelCase `workoutId`, the routine cursor when
/// the running template is deleted, starts from a template outside the routine, `set_field` without a value,
/// `reorder_sets`, the time an answer carries, `setActiveRoutine` without `routine_id`, concurrent starts.
@Suite struct WorkoutsContractFixesTests {
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
            let added = try await client.call("addExercise", ["workoutId": firstId, "exercise_id": Self.squat, "sets": 2, "idempotency_key": "a1"], token: token)
            #expect(added.status == .ok, "addExercise: \(added.json)")
            #expect(added.data["id"] as? String == firstId)
            let squat = try Self.exercise(added.data)
            #expect(squat.setIds.count == 2)
            let patched = try await client.call(
                "patchActiveWorkout",
                ["workoutId": firstId, "ops": [["op": "add_set", "exercise_instance_id": squat.instanceId]], "idempotency_key": "p1"], token: token)
            #expect(patched.status == .ok, "patchActiveWorkout: \(patched.json)")
            #expect(try Self.exercise(patched.data).setIds.count == 3)
            let swapped = try await client.call(
                "swapExercise", ["workoutId": firstId, "exercise_instance_id": squat.instanceId, "new_exercise_id": Self.bench, "idempotency_key": "w1"],
                token: token)
            #expect(swapped.status == .ok, "swapExercise: \(swapped.json)")
            #expect((swapped.data["exercises"] as? [[String: Any]])?.first?["exercise_id"] as? String == Self.bench)
            let cancelled = try await client.call("cancelActiveWorkout", ["workoutId": firstId, "idempotency_key": "c1"], token: token)
            #expect(cancelled.status == .ok, "cancelActiveWorkout: \(cancelled.json)")
            #expect(try await client.call("getActiveWorkout", token: token).json["data"] is NSNull)

            let second = try await client.call("startActiveWorkout", ["name": "Camel 2", "idempotency_key": "s2"], token: token)
            let secondId = try #require(second.data["id"] as? String)
            let curl = try Self.exercise(
                try await client.call("addExercise", ["workout_id": secondId, "exercise_id": Self.curl, "sets": 1, "idempotency_key": "a2"], token: token).data)
            let logged = try await client.call(
                "logSet",
                ["workoutId": secondId, "exercise_instance_id": curl.instanceId, "set_id": curl.setIds[0], "weight_kg": 12, "reps": 10, "idempotency_key": "l1"],
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

    /// A field and its alias (`workout_id` / `workoutId`, `weight_kg` / legacy `weight`, `template_ids` / legacy
    /// `templateIds`) sent with different values: `INVALID_ARGUMENT` naming the field, nothing changes. The same
    /// value under both names is accepted.
    /// A template's planned sets read the original templates' `reps`, `rir` and `weight` (kg) as their targets,
    /// checked as the targets are; before, they were dropped and the template planned nothing.
    @Test(arguments: TestDatabases.engines)
    func templateSetsReadTheLegacyNames(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("legacy-sets@example.com")
            let created = try await client.call(
                "createTemplate", ["name": "Old", "exercises": [["exercise_id": Self.curl, "sets": [["reps": 8, "rir": 2, "weight": 12.5], ["target_reps": 6, "reps": 6]]]]],
                token: token)
            #expect(created.status == .ok, "\(created.json)")
            let sets = try #require(((created.data["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]]))
            #expect(sets[0]["target_reps"] as? Int == 8 && sets[0]["target_rir"] as? Int == 2 && sets[0]["target_weight_kg"] as? Double == 12.5, "\(sets)")
            #expect(sets[0]["reps"] == nil && sets[0]["weight"] == nil, "written under the current names only: \(sets[0])")
            #expect(sets[1]["target_reps"] as? Int == 6)
            let templateId = try #require(created.data["id"] as? String)
            for (set, field) in [(["target_reps": 8, "reps": 9], "exercises[0].sets[0].target_reps"), (["weight": 1200], "exercises[0].sets[0].target_weight_kg")] as [([String: Any], String)] {
                let refused = try await client.call(
                    "patchTemplate", ["template_id": templateId, "exercises": [["exercise_id": Self.curl, "sets": [set]]]], token: token)
                #expect(refused.errorCode == "INVALID_ARGUMENT" && refused.errorDetails?["field"] as? String == field, "\(set): \(refused.json)")
            }
            let started = try await client.call("startActiveWorkout", ["template_id": templateId, "idempotency_key": "s"], token: token)
            let planned = try #require(((started.data["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.first)
            #expect(planned["target_reps"] as? Int == 8 && planned["target_weight_kg"] as? Double == 12.5, "the workout gets the plan: \(planned)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aFieldAndItsAliasMustAgree(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("alias@example.com")
            let workout = try await client.call("startActiveWorkout", ["name": "Alias", "idempotency_key": "s1"], token: token)
            let workoutId = try #require(workout.data["id"] as? String)
            let curl = try Self.exercise(
                try await client.call("addExercise", ["workout_id": workoutId, "exercise_id": Self.curl, "sets": 1, "idempotency_key": "a1"], token: token).data)
            let set: [String: Any] = ["exercise_instance_id": curl.instanceId, "set_id": curl.setIds[0], "reps": 10]

            func expectRefused(_ name: String, _ body: [String: Any], field: String) async throws {
                let reply = try await client.call(name, body, token: token)
                #expect(reply.status == .badRequest && reply.errorCode == "INVALID_ARGUMENT", "\(name): \(reply.json)")
                #expect(reply.errorDetails?["field"] as? String == field, "\(name): \(reply.json)")
            }
            try await expectRefused(
                "logSet", set.merging(["workout_id": workoutId, "workoutId": "other", "weight_kg": 12, "idempotency_key": "l1"]) { a, _ in a },
                field: "workout_id")
            try await expectRefused(
                "logSet", set.merging(["workout_id": workoutId, "weight_kg": 12, "weight": 14, "idempotency_key": "l2"]) { a, _ in a }, field: "weight_kg")
            try await expectRefused("getWorkout", ["workout_id": workoutId, "workoutId": "other"], field: "workout_id")
            try await expectRefused("cancelActiveWorkout", ["workoutId": workoutId, "workout_id": "other", "idempotency_key": "c1"], field: "workout_id")
            let active = try await client.call("getActiveWorkout", token: token)
            #expect(active.data["version"] as? Int == 2, "nothing was written")
            #expect(Self.set(curl.setIds[0], in: active.data)?["reps"] is NSNull)

            // The same value under both names.
            let logged = try await client.call(
                "logSet", set.merging(["workout_id": workoutId, "workoutId": workoutId, "weight_kg": 12, "weight": 12.0, "idempotency_key": "l3"]) { a, _ in a },
                token: token)
            #expect(logged.status == .ok, "\(logged.json)")
            #expect((logged.data["set"] as? [String: Any])?["weight_kg"] as? Double == 12)

            // In a list, the refusal says which entry: here the second set.
            let completed = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c2"], token: token)
            #expect(completed.status == .ok, "\(completed.json)")
            try await expectRefused(
                "updateWorkout",
                ["workout_id": workoutId, "exercises": [["exercise_id": Self.curl, "sets": [["weight_kg": 10, "reps": 5], ["weight_kg": 10, "weight": 11, "reps": 5]]]]],
                field: "exercises[0].sets[1].weight_kg")

            let template = try await Self.template(client, "T", exercise: Self.squat, token: token)
            let other = try await Self.template(client, "U", exercise: Self.squat, token: token)
            try await expectRefused("createRoutine", ["name": "R", "template_ids": [template], "templateIds": [other]], field: "template_ids")
            #expect((try await client.call("getRoutines", token: token).data["items"] as? [Any])?.isEmpty == true)
            let routine = try await client.call("createRoutine", ["name": "R", "template_ids": [template], "templateIds": [template]], token: token)
            #expect(routine.status == .ok && routine.data["template_ids"] as? [String] == [template])
            let routineId = try #require(routine.data["id"] as? String)
            try await expectRefused("patchRoutine", ["routine_id": routineId, "template_ids": [template], "templateIds": [other]], field: "template_ids")
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
                #expect(text.range(of: #":-0(\.0*)?[,}\]]"#, options: String.CompareOptions.regularExpression) == nil, "\(name) answers -0: \(text)")
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
                #"{"name":"Z","idempotency_key":"t","exercises":[{"exercise_id":"\#(Self.curl)","sets":[{"target_reps":5,"target_weight_kg":ZERO},{"weight":-0}]}]}"#)
            #expect(template.code == nil, "\(template.text)")
            #expect((try await client.call("getTemplates", token: token).data["items"] as? [Any])?.count == 1)
            let templateId = try #require(template.data["id"] as? String)
            let started = try await send("startActiveWorkout", #"{"template_id":"\#(templateId)","idempotency_key":"s"}"#)
            let workoutId = try #require(started.data["id"] as? String)
            let curl = try Self.exercise(started.data)
            let log = #"{"workout_id":"\#(workoutId)","exercise_instance_id":"\#(curl.instanceId)","set_id":"\#(curl.setIds[0])","reps":5,"idempotency_key":"z1","weight_kg":"#
            let logged = try await send("logSet", log + "-0}")
            #expect(logged.code == nil && (logged.data["set"] as? [String: Any])?["weight_kg"] as? Double == 0, "\(logged.text)")
            let retried = try await send("logSet", log + "0}")
            #expect(retried.code == nil && retried.text == logged.text, "a retry sending 0 is the same request: \(retried.text)")
            let patched = try await sendTwice(
                "patchActiveWorkout",
                #"{"workout_id":"\#(workoutId)","idempotency_key":"p","ops":[{"op":"set_field","exercise_instance_id":"\#(curl.instanceId)","set_id":"\#(curl.setIds[1])","field":"weight_kg","value":ZERO},{"op":"set_field","exercise_instance_id":"\#(curl.instanceId)","set_id":"\#(curl.setIds[1])","field":"reps","value":3}]}"#)
            #expect(patched.code == nil, "\(patched.text)")
            _ = try await send("getActiveWorkout", "{}")
            let completed = try await send("completeActiveWorkout", #"{"workout_id":"\#(workoutId)","idempotency_key":"c"}"#)
            #expect(completed.code == nil, "\(completed.text)")
            _ = try await send("getWorkout", #"{"workout_id":"\#(workoutId)"}"#)
            let edited = try await sendTwice(
                "updateWorkout",
                #"{"workout_id":"\#(workoutId)","idempotency_key":"u","exercises":[{"exercise_id":"\#(Self.curl)","sets":[{"weight_kg":ZERO,"reps":5}]}]}"#)
            #expect(edited.code == nil, "\(edited.text)")
            _ = try await send("getTemplate", #"{"template_id":"\#(templateId)"}"#)
        }
    }

    /// Routine [A, B, C]: A done, B started from the routine, B deleted while it runs, B completed. The cursor
    /// continues with C (the template that took B's slot), not A.
    @Test(arguments: TestDatabases.engines)
    func cursorContinuesAfterTheRunningTemplateIsDeleted(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("cursor@example.com")
            let (templates, routineId) = try await Self.routine(client, of: [Self.squat, Self.bench, Self.curl], token: token)
            let (a, b, c) = (templates[0], templates[1], templates[2])

            let first = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s1"], token: token)
            #expect(first.data["source_template_id"] as? String == a)
            try await Self.logEverySetAndComplete(client, first.data, key: "1", token: token)
            #expect(try await Self.lastCompleted(client, routineId: routineId, token: token) == a)
            #expect(try await Self.nextTemplate(client, routineId: routineId, token: token) == b)

            let second = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s2"], token: token)
            #expect(second.data["source_template_id"] as? String == b)
            #expect(try await client.call("deleteTemplate", ["template_id": b], token: token).status == .ok)
            #expect(try await client.call("getRoutine", ["routine_id": routineId], token: token).data["template_ids"] as? [String] == [a, c])
            try await Self.logEverySetAndComplete(client, second.data, key: "2", token: token)
            #expect(try await Self.lastCompleted(client, routineId: routineId, token: token) == b)

            let next = try await client.call("getNextWorkout", ["routine_id": routineId], token: token)
            #expect((next.data["template"] as? [String: Any])?["id"] as? String == c, "B's slot is now C's")
            #expect(next.data["index"] as? Int == 1)
        }
    }

    /// Routine [A, B, C]: A and B done, then B's workout deleted through `deleteWorkout`, which steps the cursor
    /// back before it answers: B is next again, A the last completed.
    @Test(arguments: TestDatabases.engines)
    func deletingTheLastWorkoutOfARoutineStepsItsCursorBack(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("rewind@example.com")
            let (templates, routineId) = try await Self.routine(client, of: [Self.squat, Self.bench, Self.curl], token: token)
            var workoutIds: [String] = []
            for (index, template) in templates.prefix(2).enumerated() {
                let started = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s\(index)"], token: token)
                #expect(started.data["source_template_id"] as? String == template)
                try await Self.logEverySetAndComplete(client, started.data, key: "\(index)", token: token)
                #expect(try await Self.lastCompleted(client, routineId: routineId, token: token) == template)
                workoutIds.append(try #require(started.data["id"] as? String))
            }
            #expect(try await Self.nextTemplate(client, routineId: routineId, token: token) == templates[2])
            #expect(try await client.call("deleteWorkout", ["workout_id": workoutIds[1], "idempotency_key": "d1"], token: token).status == .ok)
            #expect(try await Self.lastCompleted(client, routineId: routineId, token: token) == templates[0])
            #expect(try await Self.nextTemplate(client, routineId: routineId, token: token) == templates[1])
        }
    }

    /// A patch that repeats what a template or routine already holds makes no new version, so a client holding
    /// that version can still write with it; a real change then makes the next version as usual.
    @Test(arguments: TestDatabases.engines)
    func aPatchThatRepeatsTheStoredValuesMakesNoNewVersion(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("repeat-patch@example.com")
            let (templates, routineId) = try await Self.routine(client, of: [Self.squat, Self.bench], token: token)
            let exercises: [[String: Any]] = [["exercise_id": Self.squat, "sets": [["target_reps": 5]]]]
            for patch in [["name": "A"], ["exercises": exercises], ["name": "A", "exercises": exercises]] as [[String: Any]] {
                var body = patch
                (body["template_id"], body["expected_version"]) = (templates[0], 1)
                let repeated = try await client.call("patchTemplate", body, token: token)
                #expect(repeated.status == .ok && repeated.data["version"] as? Int == 1, "\(patch): \(repeated.json)")
            }
            let renamed = try await client.call("patchTemplate", ["template_id": templates[0], "name": "A2", "expected_version": 1], token: token)
            #expect(renamed.data["version"] as? Int == 2, "\(renamed.json)")

            for patch in [["name": "Cycle"], ["template_ids": templates], ["name": "Cycle", "template_ids": templates]] as [[String: Any]] {
                var body = patch
                (body["routine_id"], body["expected_version"]) = (routineId, 1)
                let repeated = try await client.call("patchRoutine", body, token: token)
                #expect(repeated.status == .ok && repeated.data["version"] as? Int == 1, "\(patch): \(repeated.json)")
            }
            let reordered = try await client.call(
                "patchRoutine", ["routine_id": routineId, "template_ids": Array(templates.reversed()), "expected_version": 1], token: token)
            #expect(reordered.data["version"] as? Int == 2, "\(reordered.json)")
            #expect(reordered.data["template_ids"] as? [String] == Array(templates.reversed()))
        }
    }

    /// Routine [A, B, C, D] with C done last. Deleting A, then C itself, then reordering what is left: D, which
    /// followed C, stays next through every change (the cursor moves with the list, not a stale slot).
    @Test(arguments: TestDatabases.engines)
    func cursorSurvivesSuccessiveRemovalsAndAReorder(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("successive@example.com")
            let (templates, routineId) = try await Self.routine(client, of: [Self.squat, Self.bench, Self.curl, Self.squat], token: token)
            let (a, b, c, d) = (templates[0], templates[1], templates[2], templates[3])
            for (index, template) in [a, b, c].enumerated() {
                let started = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s\(index)"], token: token)
                #expect(started.data["source_template_id"] as? String == template)
                try await Self.logEverySetAndComplete(client, started.data, key: "\(index)", token: token)
                #expect(try await Self.lastCompleted(client, routineId: routineId, token: token) == template)
            }
            #expect(try await Self.nextTemplate(client, routineId: routineId, token: token) == d)

            #expect(try await client.call("deleteTemplate", ["template_id": a], token: token).status == .ok)
            #expect(try await Self.nextTemplate(client, routineId: routineId, token: token) == d)
            #expect(try await client.call("deleteTemplate", ["template_id": c], token: token).status == .ok)
            #expect(try await Self.nextTemplate(client, routineId: routineId, token: token) == d, "D followed C")
            let reordered = try await client.call("patchRoutine", ["routine_id": routineId, "template_ids": [d, b]], token: token)
            #expect(reordered.status == .ok, "\(reordered.json)")
            #expect(try await Self.nextTemplate(client, routineId: routineId, token: token) == d, "still D, now first")
            let started = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s-next"], token: token)
            #expect(started.data["source_template_id"] as? String == d)
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
                #expect(refused.errorCode == "INVALID_ARGUMENT" && refused.errorDetails?["field"] as? String == "idempotency_key", "\(refused.json)")
            }
            #expect(try await client.call("getActiveWorkout", token: token).json["data"] is NSNull, "nothing started")
            let key = String(repeating: "é", count: 128)
            let started = try await client.call("startActiveWorkout", ["idempotency_key": key], token: token)
            #expect(started.status == .ok, "\(started.json)")
            let again = try await client.call("startActiveWorkout", ["idempotency_key": key], token: token)
            #expect(again.status == .ok && again.data["id"] as? String == started.data["id"] as? String, "the same key answers the first start")
        }
    }

    /// Routine [A, B, A, C] with the second A done last. Patched to [A, B, C] (that A dropped), C, which followed
    /// it, is next, not B (which followed the other A).
    @Test(arguments: TestDatabases.engines)
    func droppingTheRepeatJustDoneLeadsOnToWhatFollowedIt(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("repeat@example.com")
            let a = try await Self.template(client, "A", exercise: Self.squat, token: token)
            let b = try await Self.template(client, "B", exercise: Self.bench, token: token)
            let c = try await Self.template(client, "C", exercise: Self.curl, token: token)
            let created = try await client.call("createRoutine", ["name": "Twice A", "template_ids": [a, b, a, c]], token: token)
            let routineId = try #require(created.data["id"] as? String, "\(created.json)")
            for (index, (template, next)) in [(a, b), (b, a), (a, c)].enumerated() {
                let started = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s\(index)"], token: token)
                #expect(started.data["source_template_id"] as? String == template)
                try await Self.logEverySetAndComplete(client, started.data, key: "\(index)", token: token)
                #expect(try await Self.nextTemplate(client, routineId: routineId, token: token) == next, "workout \(index): the cursor moved on to \(next)")
            }
            let patched = try await client.call("patchRoutine", ["routine_id": routineId, "template_ids": [a, b, c]], token: token)
            #expect(patched.status == .ok, "\(patched.json)")
            let next = try await client.call("getNextWorkout", ["routine_id": routineId], token: token)
            #expect((next.data["template"] as? [String: Any])?["id"] as? String == c, "\(next.json)")
            #expect(next.data["index"] as? Int == 2)
            let started = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s-next"], token: token)
            #expect(started.data["source_template_id"] as? String == c)
        }
    }

    /// A workout at the 50-exercise cap: swapping an exercise with logged sets (which splits it in two) is
    /// INVALID_ARGUMENT and changes nothing; swapping one with nothing logged (replaced in place) still works.
    @Test(arguments: TestDatabases.engines)
    func aSwapThatWouldSplitPastTheCapIsRefused(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("capped@example.com")
            let exercises = Array(repeating: ["exercise_id": Self.squat, "sets": [["target_reps": 5]]] as [String: Any], count: 50)
            let template = try await client.call("createTemplate", ["name": "Fifty", "exercises": exercises], token: token)
            let templateId = try #require(template.data["id"] as? String, "\(template.json)")
            let started = try await client.call("startActiveWorkout", ["template_id": templateId, "idempotency_key": "s1"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            let first = try Self.exercise(started.data, at: 0)
            let logged = try await client.call(
                "logSet",
                ["workout_id": workoutId, "exercise_instance_id": first.instanceId, "set_id": first.setIds[0], "weight_kg": 60, "reps": 5, "idempotency_key": "l1"],
                token: token)
            #expect(logged.status == .ok)
            let version = try #require(try await client.call("getActiveWorkout", token: token).data["version"] as? Int)

            let split = try await client.call(
                "swapExercise", ["workout_id": workoutId, "exercise_instance_id": first.instanceId, "new_exercise_id": Self.bench, "idempotency_key": "w1"],
                token: token)
            #expect(split.errorCode == "INVALID_ARGUMENT", "\(split.json)")
            #expect(split.errorDetails?["field"] as? String == "exercise_instance_id")
            let unchanged = try await client.call("getActiveWorkout", token: token).data
            #expect(unchanged["version"] as? Int == version)
            #expect((unchanged["exercises"] as? [[String: Any]])?.count == 50)

            let second = try Self.exercise(started.data, at: 1)
            let inPlace = try await client.call(
                "swapExercise", ["workout_id": workoutId, "exercise_instance_id": second.instanceId, "new_exercise_id": Self.bench, "idempotency_key": "w2"],
                token: token)
            #expect(inPlace.status == .ok, "\(inPlace.json)")
            let swapped = try #require(inPlace.data["exercises"] as? [[String: Any]])
            #expect(swapped.count == 50)
            #expect(swapped[1]["exercise_id"] as? String == Self.bench)
        }
    }

    /// Both `template_id` and `routine_id`: the template must be one of the routine's, else INVALID_ARGUMENT
    /// and nothing starts.
    @Test(arguments: TestDatabases.engines)
    func startingFromATemplateOutsideTheRoutineIsRejected(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("outsider@example.com")
            let inside = try await Self.template(client, "Inside", exercise: Self.squat, token: token)
            let outside = try await Self.template(client, "Outside", exercise: Self.bench, token: token)
            let routine = try await client.call("createRoutine", ["name": "Only inside", "template_ids": [inside]], token: token)
            let routineId = try #require(routine.data["id"] as? String)

            let rejected = try await client.call(
                "startActiveWorkout", ["template_id": outside, "routine_id": routineId, "idempotency_key": "s1"], token: token)
            #expect(rejected.status == .badRequest)
            #expect(rejected.errorCode == "INVALID_ARGUMENT")
            #expect(rejected.errorDetails?["field"] as? String == "template_id")
            #expect(try await client.call("getActiveWorkout", token: token).json["data"] is NSNull, "no workout started")

            let accepted = try await client.call(
                "startActiveWorkout", ["template_id": inside, "routine_id": routineId, "idempotency_key": "s2"], token: token)
            #expect(accepted.status == .ok)
            #expect(accepted.data["source_template_id"] as? String == inside)
            #expect(accepted.data["source_routine_id"] as? String == routineId)
        }
    }

    /// `set_field` without `value` is INVALID_ARGUMENT and changes nothing; `"value": null` clears the field.
    @Test(arguments: TestDatabases.engines)
    func setFieldNeedsAValueAndNullClears(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("setter@example.com")
            let started = try await client.call("startActiveWorkout", ["name": "Fields"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            let squat = try Self.exercise(
                try await client.call("addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 1, "idempotency_key": "a1"], token: token).data)
            let setId = squat.setIds[0]
            _ = try await client.call(
                "logSet", ["workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": setId, "weight_kg": 80, "reps": 5, "idempotency_key": "l1"],
                token: token)
            let before = try await client.call("getActiveWorkout", token: token)
            #expect(Self.set(setId, in: before.data)?["weight_kg"] as? Double == 80)

            let noValue = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p1",
                    "ops": [["op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": setId, "field": "weight_kg"]],
                ],
                token: token)
            #expect(noValue.status == .badRequest)
            #expect(noValue.errorCode == "INVALID_ARGUMENT")
            #expect(noValue.errorDetails?["field"] as? String == "ops[0].value")
            let unchanged = try await client.call("getActiveWorkout", token: token)
            #expect(Self.set(setId, in: unchanged.data)?["weight_kg"] as? Double == 80, "a missing value is not a clear")
            #expect(unchanged.data["version"] as? Int == before.data["version"] as? Int)

            let cleared = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p2",
                    "ops": [["op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": setId, "field": "weight_kg", "value": NSNull()]],
                ],
                token: token)
            #expect(cleared.status == .ok)
            #expect(Self.set(setId, in: cleared.data)?["weight_kg"] is NSNull)
            let after = try await client.call("getActiveWorkout", token: token)
            #expect(Self.set(setId, in: after.data)?["weight_kg"] is NSNull, "null clears the field")
            #expect(Self.set(setId, in: after.data)?["reps"] as? Int == 5, "only that field")
            // A logged set without its weight is no longer logged: it leaves the totals and the archive.
            #expect(Self.set(setId, in: after.data)?["completed_at"] is NSNull, "clearing the weight un-logs the set")
            #expect((after.data["totals"] as? [String: Any])?["sets"] as? Int == 0, "\(after.json)")

            // Logged again, then its RIR cleared: still logged. Its reps cleared: un-logged again.
            _ = try await client.call(
                "logSet", ["workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": setId, "weight_kg": 82.5, "reps": 4, "rir": 1, "idempotency_key": "l2"],
                token: token)
            let noRir = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p3",
                    "ops": [["op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": setId, "field": "rir", "value": NSNull()]],
                ],
                token: token)
            #expect(noRir.status == .ok, "\(noRir.json)")
            #expect(Self.set(setId, in: noRir.data)?["completed_at"] is String, "RIR is optional for a logged set: \(noRir.json)")
            #expect((noRir.data["totals"] as? [String: Any])?["sets"] as? Int == 1)
            let noReps = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p4",
                    "ops": [["op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": setId, "field": "reps", "value": NSNull()]],
                ],
                token: token)
            #expect(Self.set(setId, in: noReps.data)?["completed_at"] is NSNull, "\(noReps.json)")
            #expect((noReps.data["totals"] as? [String: Any])?["sets"] as? Int == 0)
            let stored = try await client.call("getActiveWorkout", token: token)
            #expect(Self.set(setId, in: stored.data)?["completed_at"] is NSNull, "un-logged as stored, not only as answered")
            #expect(Self.set(setId, in: stored.data)?["weight_kg"] as? Double == 82.5)

            // With its only set un-logged, nothing is done: finishing is refused and the workout stays as it is.
            let refused = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token)
            #expect(refused.status == .preconditionFailed, "\(refused.json)")
            #expect(refused.errorCode == "FAILED_PRECONDITION")
            let still = try await client.call("getActiveWorkout", token: token)
            #expect(still.data["status"] as? String == "in_progress")
            #expect(still.data["version"] as? Int == stored.data["version"] as? Int, "a refused completion changes nothing")

            // Another set logged, completing archives that one only, not the un-logged one.
            let added = try await client.call(
                "patchActiveWorkout",
                ["workout_id": workoutId, "idempotency_key": "p5", "ops": [["op": "add_set", "exercise_instance_id": squat.instanceId]]], token: token)
            let other = try #require(Self.exercise(added.data).setIds.last)
            #expect(other != setId)
            _ = try await client.call(
                "logSet", ["workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": other, "weight_kg": 60, "reps": 10, "idempotency_key": "l3"],
                token: token)
            let completed = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c2"], token: token)
            #expect(completed.status == .ok, "\(completed.json)")
            #expect(((completed.data["analytics"] as? [String: Any])?["totals"] as? [String: Any])?["sets"] as? Int == 1, "\(completed.json)")
            let archived = try await client.call("getWorkout", ["workout_id": workoutId], token: token)
            #expect(archived.status == .ok, "\(archived.json)")
            let archivedSets = (archived.data["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
            #expect(archivedSets.map { $0["id"] as? String } == [other], "\(archived.json)")
        }
    }

    /// Finishing a workout with no set logged is `FAILED_PRECONDITION` and changes nothing: no archive, no
    /// `WorkoutCompleted`, the routine's next template stays the same and the workout stays in progress. The
    /// key stores nothing, so the same key completes it once a set is logged; cancelling stays possible.
    @Test(arguments: TestDatabases.engines)
    func finishingWithNothingLoggedIsRefused(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("idle@example.com")
            let template = try await client.call(
                "createTemplate", ["name": "A", "exercises": [["exercise_id": Self.squat, "sets": [["target_reps": 5], ["target_reps": 5]]]]], token: token)
            let templateId = try #require(template.data["id"] as? String)
            let second = try await client.call(
                "createTemplate", ["name": "B", "exercises": [["exercise_id": Self.curl, "sets": [["target_reps": 10]]]]], token: token)
            let routine = try await client.call(
                "createRoutine", ["name": "R", "template_ids": [templateId, try #require(second.data["id"] as? String)]], token: token)
            let routineId = try #require(routine.data["id"] as? String)
            _ = try await client.call("setActiveRoutine", ["routine_id": routineId], token: token)
            let started = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s1"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            #expect(started.data["source_template_id"] as? String == templateId)

            let refused = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token)
            #expect(refused.status == .preconditionFailed, "\(refused.json)")
            #expect(refused.errorCode == "FAILED_PRECONDITION")
            #expect(refused.errorDetails?["logged_sets"] as? String == "0")
            let active = try await client.call("getActiveWorkout", token: token)
            #expect(active.data["status"] as? String == "in_progress")
            #expect(active.data["version"] as? Int == started.data["version"] as? Int)
            #expect((try await client.call("getRecentWorkouts", token: token).data["items"] as? [Any])?.isEmpty == true)
            let events = try await server.database.sql.raw("SELECT COUNT(*) AS n FROM platform_outbox WHERE type = \(bind: WorkoutCompleted.eventType)")
                .first(decodingColumn: "n", as: Int.self)
            #expect(events == 0, "no WorkoutCompleted")
            #expect(try await Self.nextTemplate(client, routineId: routineId, token: token) == templateId, "the routine does not move on")

            // Once a set is logged, the same key completes it.
            let exercise = try Self.exercise(active.data)
            _ = try await client.call(
                "logSet", ["workout_id": workoutId, "exercise_instance_id": exercise.instanceId, "set_id": exercise.setIds[0], "weight_kg": 100, "reps": 5, "idempotency_key": "l1"],
                token: token)
            let completed = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token)
            #expect(completed.status == .ok, "\(completed.json)")
            #expect(((completed.data["analytics"] as? [String: Any])?["totals"] as? [String: Any])?["sets"] as? Int == 1)

            // An idle workout can still be cancelled.
            let idle = try await client.call("startActiveWorkout", ["name": "Idle", "idempotency_key": "s2"], token: token)
            let idleId = try #require(idle.data["id"] as? String)
            let cancelled = try await client.call("cancelActiveWorkout", ["workout_id": idleId, "idempotency_key": "x1"], token: token)
            #expect(cancelled.status == .ok, "\(cancelled.json)")
            #expect(try await client.call("getActiveWorkout", token: token).json["data"] is NSNull)
        }
    }

    /// A template's planned weights go with the workout started from it as `target_weight_kg`, apart from the
    /// weight lifted (`weight_kg`, null until logged); `set_field` edits the planned weight and reads legacy
    /// `weight` as `weight_kg`; the archive keeps both; a swap drops the planned weights of the old exercise.
    @Test(arguments: TestDatabases.engines)
    func plannedWeightsGoFromTheTemplateToTheWorkout(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("planned@example.com")
            let template = try await client.call(
                "createTemplate",
                [
                    "name": "Heavy",
                    "exercises": [
                        ["exercise_id": Self.squat, "sets": [["target_reps": 5, "target_weight_kg": 100], ["target_reps": 5, "target_weight_kg": 102.5]]],
                        ["exercise_id": Self.bench, "sets": [["target_reps": 8, "target_weight_kg": 60], ["target_reps": 8]]],
                    ],
                ], token: token)
            let templateId = try #require(template.data["id"] as? String, "createTemplate: \(template.json)")
            let started = try await client.call("startActiveWorkout", ["template_id": templateId, "idempotency_key": "s1"], token: token)
            let workoutId = try #require(started.data["id"] as? String, "startActiveWorkout: \(started.json)")
            let squat = try Self.exercise(started.data, at: 0)
            let bench = try Self.exercise(started.data, at: 1)

            // As stored (read back from the database, not the start's own answer).
            let stored = try await client.call("getActiveWorkout", token: token)
            func planned(_ setId: String, _ workout: [String: Any]) -> Double? { Self.set(setId, in: workout)?["target_weight_kg"] as? Double }
            #expect(planned(squat.setIds[0], stored.data) == 100)
            #expect(planned(squat.setIds[1], stored.data) == 102.5)
            #expect(planned(bench.setIds[0], stored.data) == 60)
            #expect(Self.set(bench.setIds[1], in: stored.data)?["target_weight_kg"] is NSNull, "no plan, null")
            #expect(Self.set(squat.setIds[0], in: stored.data)?["weight_kg"] is NSNull, "nothing lifted yet")

            // Lifting leaves the plan; set_field changes it (and `weight` is read as `weight_kg`).
            let logged = try await client.call(
                "logSet",
                ["workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[0], "weight_kg": 97.5, "reps": 5,
                 "idempotency_key": "l1"], token: token)
            #expect((logged.data["set"] as? [String: Any])?["target_weight_kg"] as? Double == 100, "logSet: \(logged.json)")
            let patched = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p1",
                    "ops": [
                        ["op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[1], "field": "target_weight_kg", "value": 105],
                        ["op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[1], "field": "weight", "value": 104.5],
                    ],
                ], token: token)
            #expect(patched.status == .ok, "patchActiveWorkout: \(patched.json)")
            let refused = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p2",
                    "ops": [["op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[1], "field": "target_weight_kg", "value": 1001]],
                ], token: token)
            #expect(refused.status == .badRequest && refused.errorDetails?["field"] as? String == "ops[0].value", "\(refused.json)")
            let edited = try await client.call("getActiveWorkout", token: token)
            #expect(planned(squat.setIds[1], edited.data) == 105)
            #expect(Self.set(squat.setIds[1], in: edited.data)?["weight_kg"] as? Double == 104.5)

            // Swapping the bench press (nothing logged): its sets stay, their target reps too, but not its weights.
            let swapped = try await client.call(
                "swapExercise",
                ["workout_id": workoutId, "exercise_instance_id": bench.instanceId, "new_exercise_id": Self.curl, "idempotency_key": "w1"], token: token)
            #expect(swapped.status == .ok, "swapExercise: \(swapped.json)")
            let afterSwap = try await client.call("getActiveWorkout", token: token)
            #expect(try Self.exercise(afterSwap.data, at: 1).setIds == bench.setIds)
            #expect(Self.set(bench.setIds[0], in: afterSwap.data)?["target_weight_kg"] is NSNull)
            #expect(Self.set(bench.setIds[0], in: afterSwap.data)?["target_reps"] as? Int == 8)

            // The archive keeps what was planned beside what was lifted.
            let completed = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token)
            #expect(completed.status == .ok, "completeActiveWorkout: \(completed.json)")
            let archived = try await client.call("getWorkout", ["workout_id": workoutId], token: token)
            #expect(planned(squat.setIds[0], archived.data) == 100, "getWorkout: \(archived.json)")
            #expect(Self.set(squat.setIds[0], in: archived.data)?["weight_kg"] as? Double == 97.5)
        }
    }

    /// Empty optional fields are sent as null, never left out: every answer carries the keys API.md lists.
    @Test(arguments: TestDatabases.engines)
    func emptyOptionalFieldsAreNullNotMissing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("nulls@example.com")
            func expectNull(_ keys: [String], in object: [String: Any]?, _ what: String) {
                for key in keys { #expect(object?[key] is NSNull, "\(what).\(key) in \(object ?? [:])") }
            }
            let started = try await client.call("startActiveWorkout", ["idempotency_key": "s1"], token: token)
            expectNull(["name", "source_template_id", "source_routine_id"], in: started.data, "startActiveWorkout")
            let workoutId = try #require(started.data["id"] as? String)
            expectNull(["name", "source_template_id", "source_routine_id"], in: try await client.call("getActiveWorkout", token: token).data, "getActiveWorkout")
            let added = try await client.call("addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 1, "idempotency_key": "a1"], token: token)
            let squat = try Self.exercise(added.data)
            _ = try await client.call(
                "logSet", ["workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[0], "weight_kg": 0, "reps": 0,
                           "idempotency_key": "l1"], token: token)
            _ = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token)
            let archived = try await client.call("getWorkout", ["workout_id": workoutId], token: token)
            expectNull(["name", "source_template_id", "source_routine_id"], in: archived.data, "getWorkout")
            let perExercise = ((archived.data["analytics"] as? [String: Any])?["exercises"] as? [[String: Any]])?.first
            expectNull(["best_e1rm"], in: perExercise, "getWorkout.analytics.exercises[0]")

            let templateId = try await Self.template(client, "Plain", exercise: Self.squat, token: token)
            let plain = try await client.call("getTemplate", ["template_id": templateId], token: token).data
            expectNull(["description"], in: plain, "getTemplate")
            // A planned set with reps only says so with nulls for the rest.
            let plannedSet = ((plain["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.first
            #expect(plannedSet?["target_reps"] as? Int == 5)
            expectNull(["target_rir", "target_weight_kg"], in: plannedSet, "getTemplate.exercises[0].sets[0]")
            let next = try await client.call("getTemplates", token: token).data
            let listedSet = (((next["items"] as? [[String: Any]])?.first?["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.first
            expectNull(["target_rir", "target_weight_kg"], in: listedSet, "getTemplates.items[0].exercises[0].sets[0]")
            let routine = try await client.call("createRoutine", ["name": "Plain", "template_ids": [templateId]], token: token)
            expectNull(["description", "frequency", "last_completed_template_id", "last_completed_at"], in: routine.data, "createRoutine")

            // A blank description is none; a patch with "" removes one, a patch with null or without it keeps it.
            let routineId = try #require(routine.data["id"] as? String)
            for (kind, idField, suffix) in [("Template", "template_id", templateId), ("Routine", "routine_id", routineId)] {
                let described = try await client.call("patch\(kind)", [idField: suffix, "description": "Heavy day"], token: token)
                #expect(described.data["description"] as? String == "Heavy day", "patch\(kind): \(described.json)")
                let kept = try await client.call("patch\(kind)", [idField: suffix, "description": NSNull(), "name": "Renamed"], token: token)
                #expect(kept.data["description"] as? String == "Heavy day", "patch\(kind) with null: \(kept.json)")
                let cleared = try await client.call("patch\(kind)", [idField: suffix, "description": ""], token: token)
                #expect(cleared.status == .ok, "\(cleared.json)")
                expectNull(["description"], in: cleared.data, "patch\(kind) with \"\"")
                expectNull(["description"], in: try await client.call("get\(kind)", [idField: suffix], token: token).data, "get\(kind) after clearing")
                #expect(cleared.data["version"] as? Int == (kept.data["version"] as? Int).map { $0 + 1 })
            }
            let blank = try await client.call(
                "createTemplate", ["name": "Blank", "description": "  ", "exercises": [["exercise_id": Self.squat, "sets": [["target_reps": 5]]]]],
                token: token)
            expectNull(["description"], in: blank.data, "createTemplate with a blank description")
            let blankRoutine = try await client.call("createRoutine", ["name": "Blank", "description": "", "template_ids": [templateId]], token: token)
            expectNull(["description"], in: blankRoutine.data, "createRoutine with an empty description")
            // A catalog exercise without equipment (stretches) says so with null.
            let stretches = try await client.call("searchExercises", ["category": "stretching", "limit": 100], token: token)
            let bare = (stretches.data["items"] as? [[String: Any]])?.first { $0["equipment"] is NSNull || $0["equipment"] == nil }
            expectNull(["equipment"], in: try #require(bare, "a stretch without equipment in \(stretches.json)"), "searchExercises.items[]")
        }
    }

    /// `reorder_sets` puts the sets of one exercise in the given order with `set_index` following; an order
    /// listing a set twice is INVALID_ARGUMENT, one of other sets than the exercise's CONFLICT (a stale read),
    /// an unknown exercise NOT_FOUND.
    @Test(arguments: TestDatabases.engines)
    func reorderSets(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("reorder@example.com")
            let started = try await client.call("startActiveWorkout", ["name": "Order"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            let squat = try Self.exercise(
                try await client.call("addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 3, "idempotency_key": "a1"], token: token).data)
            let curl = try Self.exercise(
                try await client.call("addExercise", ["workout_id": workoutId, "exercise_id": Self.curl, "sets": 2, "idempotency_key": "a2"], token: token).data, at: 1)
            let s = squat.setIds
            #expect(s.count == 3)
            #expect(curl.setIds.count == 2)

            func reorder(_ instanceId: String, _ order: [String], key: String) async throws -> Reply {
                try await client.call(
                    "patchActiveWorkout",
                    ["workout_id": workoutId, "idempotency_key": key, "ops": [["op": "reorder_sets", "exercise_instance_id": instanceId, "order": order]]],
                    token: token)
            }
            func sets(_ workout: [String: Any], of instanceId: String) -> [[String: Any]] {
                (workout["exercises"] as? [[String: Any]])?.first { $0["instance_id"] as? String == instanceId }?["sets"] as? [[String: Any]] ?? []
            }

            let reordered = try await reorder(squat.instanceId, [s[2], s[0], s[1]], key: "r1")
            #expect(reordered.status == .ok, "\(reordered.json)")
            #expect(sets(reordered.data, of: squat.instanceId).compactMap { $0["id"] as? String } == [s[2], s[0], s[1]])
            #expect(sets(reordered.data, of: squat.instanceId).compactMap { $0["set_index"] as? Int } == [0, 1, 2])
            let stored = try await client.call("getActiveWorkout", token: token)
            #expect(sets(stored.data, of: squat.instanceId).compactMap { $0["id"] as? String } == [s[2], s[0], s[1]], "the order persists")
            #expect(sets(stored.data, of: squat.instanceId).compactMap { $0["set_index"] as? Int } == [0, 1, 2])
            #expect(sets(stored.data, of: curl.instanceId).compactMap { $0["id"] as? String } == curl.setIds, "other exercises keep theirs")
            let version = try #require(stored.data["version"] as? Int)

            // A list with an id twice is malformed; a list of other sets than the exercise's was made from an
            // older read of the workout (a set added or removed since), so the client is told to reload.
            let wrongOrders: [(String, [String], String)] = [
                ("a duplicate", [s[2], s[2], s[0]], "INVALID_ARGUMENT"),
                ("a set missing", [s[2], s[0]], "CONFLICT"),
                ("an unknown set", [s[2], s[0], "nope"], "CONFLICT"),
                ("another exercise's set", [s[2], s[0], curl.setIds[0]], "CONFLICT"),
            ]
            for (index, (what, order, code)) in wrongOrders.enumerated() {
                let reply = try await reorder(squat.instanceId, order, key: "bad-\(index)")
                #expect(reply.status == (code == "CONFLICT" ? .conflict : .badRequest), "\(what)")
                #expect(reply.errorCode == code, "\(what)")
                #expect(reply.errorDetails?["field"] as? String == "ops[0].order", "\(what)")
                if code == "CONFLICT" { #expect(reply.errorDetails?["current_version"] as? String == "\(version)", "\(what)") }
            }
            let unknown = try await reorder("nope", [s[0], s[1], s[2]], key: "bad-exercise")
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "NOT_FOUND")

            let after = try await client.call("getActiveWorkout", token: token)
            #expect(after.data["version"] as? Int == version, "nothing changed")
            #expect(sets(after.data, of: squat.instanceId).compactMap { $0["id"] as? String } == [s[2], s[0], s[1]])
        }
    }

    /// The `updated_at` of a write's answer is the time of that write (what getActiveWorkout shows right
    /// after), not the previous write's; a logged set's `completed_at` is that write's time too. The clock
    /// moves at least a millisecond per reading, so no two writes share a time.
    @Test(arguments: TestDatabases.engines)
    func answersCarryTheTimeOfTheirOwnWrite(engine: SQLEngine) async throws {
        try await TestServer.with(engine, clock: AlwaysAdvancingClock()) { _, client in
            let token = try await client.newUser("timely@example.com")
            let started = try await client.call("startActiveWorkout", ["name": "Times"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            var previous = try #require(started.data["updated_at"] as? String)

            /// The answer's `updated_at` is the stored one, and new.
            func expectOwnTime(_ reply: Reply, _ name: String) async throws {
                #expect(reply.status == .ok, "\(name): \(reply.json)")
                let answered = try #require(reply.data["updated_at"] as? String, "\(name)")
                let stored = try await client.call("getActiveWorkout", token: token).data["updated_at"] as? String
                #expect(answered == stored, "\(name) answered \(answered), the workout says \(stored ?? "nil")")
                #expect(answered != previous, "\(name) answered the previous write's time")
                previous = answered
            }

            let added = try await client.call("addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 2, "idempotency_key": "a1"], token: token)
            try await expectOwnTime(added, "addExercise")
            let squat = try Self.exercise(added.data)
            let patched = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p1",
                    "ops": [["op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[0], "field": "target_reps", "value": 8]],
                ],
                token: token)
            try await expectOwnTime(patched, "patchActiveWorkout")
            let swapped = try await client.call(
                "swapExercise", ["workout_id": workoutId, "exercise_instance_id": squat.instanceId, "new_exercise_id": Self.bench, "idempotency_key": "w1"],
                token: token)
            try await expectOwnTime(swapped, "swapExercise")

            let bench = try Self.exercise(swapped.data)
            let logged = try await client.call(
                "logSet",
                ["workout_id": workoutId, "exercise_instance_id": bench.instanceId, "set_id": bench.setIds[0], "weight_kg": 60, "reps": 8, "idempotency_key": "l1"],
                token: token)
            #expect(logged.status == .ok)
            let completedAt = try #require((logged.data["set"] as? [String: Any])?["completed_at"] as? String)
            let current = try await client.call("getActiveWorkout", token: token)
            #expect(completedAt == current.data["updated_at"] as? String, "the set was completed at the time of its write")
            #expect(Self.set(bench.setIds[0], in: current.data)?["completed_at"] as? String == completedAt)
        }
    }

    /// `setActiveRoutine` needs `routine_id`: `{}` is INVALID_ARGUMENT and changes nothing, null clears.
    @Test(arguments: TestDatabases.engines)
    func setActiveRoutineNeedsTheRoutineId(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("active@example.com")
            let template = try await Self.template(client, "T", exercise: Self.squat, token: token)
            let routine = try await client.call("createRoutine", ["name": "R", "template_ids": [template]], token: token)
            let routineId = try #require(routine.data["id"] as? String)
            #expect(try await client.call("setActiveRoutine", ["routine_id": routineId], token: token).data["active_routine_id"] as? String == routineId)

            let empty = try await client.call("setActiveRoutine", [:], token: token)
            #expect(empty.status == .badRequest)
            #expect(empty.errorCode == "INVALID_ARGUMENT")
            #expect(empty.errorDetails?["field"] as? String == "routine_id")
            #expect(try await client.call("getNextWorkout", token: token).data["routine_id"] as? String == routineId, "still the active routine")

            let cleared = try await client.call("setActiveRoutine", ["routine_id": NSNull()], token: token)
            #expect(cleared.status == .ok)
            #expect(cleared.data["active_routine_id"] is NSNull)
            #expect(try await client.call("getNextWorkout", token: token).errorCode == "FAILED_PRECONDITION", "no active routine any more")
        }
    }

    /// Every routine answer says whether it is the user's active routine (`is_active`, the original app's
    /// `isActive`), so a second device can show which one is: create, list, get, patch, and delete (as it was).
    @Test(arguments: TestDatabases.engines)
    func routineAnswersSayWhichIsActive(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("badge@example.com")
            let other = try await client.newUser("elsewhere@example.com")
            let template = try await Self.template(client, "T", exercise: Self.squat, token: token)
            let push = try await client.call("createRoutine", ["name": "Push", "template_ids": [template], "idempotency_key": "c1"], token: token)
            let pull = try await client.call("createRoutine", ["name": "Pull", "template_ids": [template]], token: token)
            #expect(push.data["is_active"] as? Bool == false && pull.data["is_active"] as? Bool == false, "a new routine is not active")
            let pushId = try #require(push.data["id"] as? String)
            let pullId = try #require(pull.data["id"] as? String)

            func flags() async throws -> [String: Bool] {
                let items = try await client.call("getRoutines", token: token).data["items"] as? [[String: Any]] ?? []
                return Dictionary(uniqueKeysWithValues: items.compactMap { item in (item["id"] as? String).map { ($0, item["is_active"] as? Bool ?? false) } })
            }
            func one(_ id: String) async throws -> Bool? {
                try await client.call("getRoutine", ["routine_id": id], token: token).data["is_active"] as? Bool
            }
            #expect(try await flags() == [pushId: false, pullId: false])

            _ = try await client.call("setActiveRoutine", ["routine_id": pushId], token: token)
            #expect(try await flags() == [pushId: true, pullId: false])
            #expect(try await one(pushId) == true)
            #expect(try await one(pullId) == false)
            let renamed = try await client.call("patchRoutine", ["routine_id": pushId, "name": "Push A"], token: token)
            #expect(renamed.data["is_active"] as? Bool == true, "\(renamed.json)")
            // Another user's active routine is theirs alone.
            let theirs = try await client.call(
                "createRoutine", ["name": "Theirs", "template_ids": [try await Self.template(client, "T", exercise: Self.squat, token: other)]], token: other)
            _ = try await client.call("setActiveRoutine", ["routine_id": theirs.data["id"] as Any], token: other)
            #expect(try await flags() == [pushId: true, pullId: false])

            _ = try await client.call("setActiveRoutine", ["routine_id": pullId], token: token)
            #expect(try await flags() == [pushId: false, pullId: true])
            let deleted = try await client.call("deleteRoutine", ["routine_id": pullId], token: token)
            #expect(deleted.data["is_active"] as? Bool == true, "answered as it was: \(deleted.json)")
            #expect(try await flags() == [pushId: false], "none is active once the active one is gone")
        }
    }

    /// Concurrent starts answer as if they ran one after another: copies under one key all get the first
    /// answer; under different keys one wins and every other is CONFLICT naming the winner.
    @Test(arguments: TestDatabases.engines)
    func concurrentStartsAnswerAsIfOneAfterAnother(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("racer@example.com")

            let retries = try await Self.startConcurrently(client, keys: Array(repeating: "same", count: 8), token: token)
            #expect(retries.allSatisfy { $0.status == .ok }, "\(retries)")
            #expect(Set(retries.map(\.workoutId)).count == 1, "\(retries)")
            let retriedId = try #require(retries.first?.workoutId)
            #expect(try await client.call("getActiveWorkout", token: token).data["id"] as? String == retriedId)
            #expect(try await client.call("cancelActiveWorkout", ["workout_id": retriedId, "idempotency_key": "c1"], token: token).status == .ok)

            let racers = try await Self.startConcurrently(client, keys: (0..<8).map { "race-\($0)" }, token: token)
            let winners = racers.filter { $0.status == .ok }
            #expect(winners.count == 1, "\(racers)")
            let winnerId = try #require(winners.first?.workoutId)
            let losers = racers.filter { $0.status != .ok }
            #expect(losers.count == 7)
            for loser in losers {
                #expect(loser.status == .conflict, "\(loser)")
                #expect(loser.errorCode == "CONFLICT", "\(loser)")
                #expect(loser.conflictingWorkoutId == winnerId, "\(loser)")
            }
            #expect(try await client.call("getActiveWorkout", token: token).data["id"] as? String == winnerId)
        }
    }

    /// A start from a routine racing the deletion of the routine's next template starts from a template that
    /// exists: the deleted one (the delete waited) or the one after it (the delete ran first), never
    /// `NOT_FOUND` for a template the client did not name. On PostgreSQL, without the routine locked before
    /// its template is read, the delete could commit between the two reads.
    @Test(arguments: TestDatabases.engines)
    func aStartRacingTheDeletionOfItsTemplateStartsFromAnExistingOne(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("start-delete@example.com")
            for round in 0..<25 {
                let (templates, routineId) = try await Self.routine(client, of: [Self.bench, Self.squat], token: token)
                // Each reply as its status and JSON text (Sendable, out of the task group).
                let replies = try await withThrowingTaskGroup(of: (String, HTTPResponse.Status, String).self) { group in
                    group.addTask {
                        let reply = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s\(round)"], token: token)
                        return ("start", reply.status, String(decoding: try JSONSerialization.data(withJSONObject: reply.json), as: UTF8.self))
                    }
                    group.addTask {
                        let reply = try await client.call("deleteTemplate", ["template_id": templates[0]], token: token)
                        return ("delete", reply.status, String(decoding: try JSONSerialization.data(withJSONObject: reply.json), as: UTF8.self))
                    }
                    var replies: [String: (HTTPResponse.Status, String)] = [:]
                    for try await (name, status, json) in group { replies[name] = (status, json) }
                    return replies
                }
                let start = try #require(replies["start"]), delete = try #require(replies["delete"])
                #expect(delete.0 == .ok, "round \(round): deleteTemplate: \(delete.1)")
                #expect(start.0 == .ok, "round \(round): startActiveWorkout: \(start.1)")
                let started = (try JSONSerialization.jsonObject(with: Data(start.1.utf8)) as? [String: Any])?["data"] as? [String: Any]
                guard let workoutId = started?["id"] as? String else { break }
                #expect(templates.contains(started?["source_template_id"] as? String ?? ""), "round \(round): \(start.1)")
                let cancelled = try await client.call("cancelActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c\(round)"], token: token)
                try #require(cancelled.status == .ok, "\(cancelled.json)")
            }
        }
    }

    /// One key sent at the same moment with different requests (a client bug, or two of its screens sharing a
    /// key): one of them runs and every other is CONFLICT naming the key, whatever the operations, on every
    /// engine. On PostgreSQL the active-workout writes locked the workout, the others the key: the loser failed on
    /// the key's row (a CONFLICT that said "changed concurrently", a driver error through the contracts).
    @Test(arguments: TestDatabases.engines)
    func oneKeyRacingDifferentRequestsRunsOneOfThem(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("shared-keys@example.com")
            let started = try await client.call("startActiveWorkout", ["name": "Keys", "idempotency_key": "start"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            let added = try await client.call("addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 20, "idempotency_key": "add"], token: token)
            let squat = try Self.exercise(added.data)
            let template: [String: Any] = ["name": "Keys", "exercises": [["exercise_id": Self.bench, "sets": [["target_reps": 5]]]]]
            // Each round: two logSets, a patch and a create under one new key.
            for round in 0..<8 {
                let key = "shared-\(round)"
                let log: (Int) -> [String: Any] = { set in
                    [
                        "workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[set], "weight_kg": 100, "reps": 5,
                        "idempotency_key": key,
                    ]
                }
                let replies = try await Self.concurrently(client, token: token, [
                    ("logSet", log(2 * round)),
                    ("logSet", log(2 * round + 1)),
                    ("patchActiveWorkout", ["workout_id": workoutId, "ops": [["op": "add_set", "exercise_instance_id": squat.instanceId]], "idempotency_key": key]),
                    ("createTemplate", template.merging(["idempotency_key": key]) { _, new in new }),
                ])
                Self.expectOneRan(replies, key: key, round: round)
            }
            // Starts lock the user's starts first: a start and a create sharing a key, for a user with no workout.
            let other = try await client.newUser("shared-start-keys@example.com")
            for round in 0..<8 {
                let key = "start-\(round)"
                let replies = try await Self.concurrently(client, token: other, [
                    ("startActiveWorkout", ["name": "Keys", "idempotency_key": key]),
                    ("createTemplate", template.merging(["idempotency_key": key]) { _, new in new }),
                ])
                Self.expectOneRan(replies, key: key, round: round)
                if let workoutId = replies.first(where: { $0.name == "startActiveWorkout" && $0.status == .ok })?.id {
                    let cancelled = try await client.call("cancelActiveWorkout", ["workout_id": workoutId, "idempotency_key": "cancel-\(round)"], token: other)
                    try #require(cancelled.status == .ok, "\(cancelled.json)")
                }
            }
        }
    }
}

// MARK: - Helpers

extension WorkoutsContractFixesTests {
    /// What a start answered, kept Sendable for a task group.
    struct StartOutcome: Sendable, CustomStringConvertible {
        var status: HTTPResponse.Status
        var workoutId: String?
        var errorCode: String?
        var conflictingWorkoutId: String?

        var description: String { "\(status.code) \(workoutId ?? errorCode ?? "?") \(conflictingWorkoutId ?? "")" }
    }

    /// What one of several concurrent calls answered, kept Sendable for a task group.
    struct Outcome: Sendable, CustomStringConvertible {
        var name: String
        var status: HTTPResponse.Status
        var id: String?
        var json: String

        var description: String { "\(name): \(status.code) \(json)" }
        var error: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["error"] as? [String: Any] }
    }

    /// The calls, all at once.
    static func concurrently(_ client: any TestClientProtocol, token: String, _ calls: [(String, [String: Any])]) async throws -> [Outcome] {
        // The bodies as JSON text: a dictionary of Any is not Sendable.
        let bodies = try calls.map { name, body in (name, String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)) }
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            for (name, body) in bodies {
                group.addTask {
                    let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
                    let reply = try await client.call(name, object, token: token)
                    return Outcome(
                        name: name, status: reply.status, id: reply.data["id"] as? String,
                        json: String(decoding: try JSONSerialization.data(withJSONObject: reply.json), as: UTF8.self))
                }
            }
            var outcomes: [Outcome] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    /// Exactly one of `replies` ran; every other is CONFLICT naming `key`.
    static func expectOneRan(_ replies: [Outcome], key: String, round: Int) {
        #expect(replies.filter { $0.status == .ok }.count == 1, "round \(round): \(replies)")
        for reply in replies where reply.status != .ok {
            #expect(reply.status == .conflict, "round \(round): \(reply)")
            #expect(reply.error?["code"] as? String == "CONFLICT", "round \(round): \(reply)")
            #expect((reply.error?["details"] as? [String: Any])?["idempotency_key"] as? String == key, "round \(round): \(reply)")
        }
    }

    /// One startActiveWorkout per key, all at once (same body apart from the key).
    static func startConcurrently(_ client: any TestClientProtocol, keys: [String], token: String) async throws -> [StartOutcome] {
        try await withThrowingTaskGroup(of: StartOutcome.self) { group in
            for key in keys {
                group.addTask {
                    let reply = try await client.call("startActiveWorkout", ["name": "Race", "idempotency_key": key], token: token)
                    return StartOutcome(
                        status: reply.status, workoutId: reply.data["id"] as? String, errorCode: reply.errorCode,
                        conflictingWorkoutId: reply.errorDetails?["workout_id"] as? String)
                }
            }
            var outcomes: [StartOutcome] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    /// A template of one exercise with one set; its id.
    static func template(_ client: any TestClientProtocol, _ name: String, exercise: String, token: String) async throws -> String {
        let reply = try await client.call("createTemplate", ["name": name, "exercises": [["exercise_id": exercise, "sets": [["target_reps": 5]]]]], token: token)
        return try #require(reply.data["id"] as? String, "createTemplate: \(reply.json)")
    }

    /// A routine of one template per exercise (named A, B, C, ...): the templates' ids and the routine's.
    static func routine(_ client: any TestClientProtocol, of exercises: [String], token: String) async throws -> (templates: [String], routineId: String) {
        var templates: [String] = []
        for (index, exercise) in exercises.enumerated() {
            templates.append(try await template(client, String(UnicodeScalar(UInt8(65 + index))), exercise: exercise, token: token))
        }
        let routine = try await client.call("createRoutine", ["name": "Cycle", "template_ids": templates], token: token)
        return (templates, try #require(routine.data["id"] as? String, "createRoutine: \(routine.json)"))
    }

    /// The instance id and set ids of a workout's exercise at `index`.
    static func exercise(_ workout: [String: Any], at index: Int = 0) throws -> (instanceId: String, setIds: [String]) {
        let exercises = try #require(workout["exercises"] as? [[String: Any]])
        try #require(exercises.indices.contains(index), "no exercise \(index) in \(workout)")
        let instanceId = try #require(exercises[index]["instance_id"] as? String)
        return (instanceId, (exercises[index]["sets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? [])
    }

    /// The set with `id`, wherever it is in the workout.
    static func set(_ id: String, in workout: [String: Any]) -> [String: Any]? {
        for exercise in workout["exercises"] as? [[String: Any]] ?? [] {
            if let set = (exercise["sets"] as? [[String: Any]])?.first(where: { $0["id"] as? String == id }) { return set }
        }
        return nil
    }

    /// Logs every set of the (active) workout and completes it.
    static func logEverySetAndComplete(_ client: any TestClientProtocol, _ workout: [String: Any], key: String, token: String) async throws {
        let workoutId = try #require(workout["id"] as? String)
        for (exerciseIndex, exercise) in (workout["exercises"] as? [[String: Any]] ?? []).enumerated() {
            let instanceId = try #require(exercise["instance_id"] as? String)
            for (setIndex, set) in (exercise["sets"] as? [[String: Any]] ?? []).enumerated() {
                let logged = try await client.call(
                    "logSet",
                    [
                        "workout_id": workoutId, "exercise_instance_id": instanceId, "set_id": try #require(set["id"] as? String), "weight_kg": 40,
                        "reps": 5, "idempotency_key": "log-\(key)-\(exerciseIndex)-\(setIndex)",
                    ],
                    token: token)
                #expect(logged.status == .ok, "logSet: \(logged.json)")
            }
        }
        let completed = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "complete-\(key)"], token: token)
        #expect(completed.status == .ok, "completeActiveWorkout: \(completed.json)")
    }

    /// The template the routine's cursor records as last completed.
    static func lastCompleted(_ client: any TestClientProtocol, routineId: String, token: String) async throws -> String? {
        try await client.call("getRoutine", ["routine_id": routineId], token: token).data["last_completed_template_id"] as? String
    }

    static func nextTemplate(_ client: any TestClientProtocol, routineId: String, token: String) async throws -> String? {
        (try await client.call("getNextWorkout", ["routine_id": routineId], token: token).data["template"] as? [String: Any])?["id"] as? String
    }
}

/// The system time, but every reading at least a millisecond after the one before, so two writes never
/// share a (millisecond) timestamp.
final class AlwaysAdvancingClock: WallClock {
    private let last = Mutex(Date.distantPast)

    func now() -> Date {
        last.withLock { last in
            last = max(Date(), last.addingTimeInterval(0.001))
            return last
        }
    }
}
