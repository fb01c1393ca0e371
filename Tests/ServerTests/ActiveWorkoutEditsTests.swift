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

/// Edits of the workout in progress through HTTP on every engine: swaps at the exercise cap, `set_field`, the
/// planned weights, `reorder_sets`.
@Suite struct ActiveWorkoutEditsTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat
    static let curl = WorkoutsFlowTests.curl

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
            let first = try WorkoutsHTTP.exercise(started.data, at: 0)
            let logged = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": first.instanceId, "set_id": first.setIds[0], "weight_kg": 60,
                    "reps": 5, "idempotency_key": "l1",
                ],
                token: token)
            #expect(logged.status == .ok)
            let version = try #require(try await client.call("getActiveWorkout", token: token).data["version"] as? Int)

            let split = try await client.call(
                "swapExercise",
                [
                    "workout_id": workoutId, "exercise_instance_id": first.instanceId, "new_exercise_id": Self.bench,
                    "idempotency_key": "w1",
                ],
                token: token)
            #expect(split.errorCode == "INVALID_ARGUMENT", "\(split.json)")
            #expect(split.errorDetails?["field"] as? String == "exercise_instance_id")
            let unchanged = try await client.call("getActiveWorkout", token: token).data
            #expect(unchanged["version"] as? Int == version)
            #expect((unchanged["exercises"] as? [[String: Any]])?.count == 50)

            let second = try WorkoutsHTTP.exercise(started.data, at: 1)
            let inPlace = try await client.call(
                "swapExercise",
                [
                    "workout_id": workoutId, "exercise_instance_id": second.instanceId, "new_exercise_id": Self.bench,
                    "idempotency_key": "w2",
                ],
                token: token)
            #expect(inPlace.status == .ok, "\(inPlace.json)")
            let swapped = try #require(inPlace.data["exercises"] as? [[String: Any]])
            #expect(swapped.count == 50)
            #expect(swapped[1]["exercise_id"] as? String == Self.bench)
        }
    }

    /// `set_field` without `value` is INVALID_ARGUMENT and changes nothing; `"value": null` clears the field.
    @Test(arguments: TestDatabases.engines)
    func setFieldNeedsAValueAndNullClears(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("setter@example.com")
            let started = try await client.call("startActiveWorkout", ["name": "Fields"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            let squat = try WorkoutsHTTP.exercise(
                try await client.call(
                    "addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 1, "idempotency_key": "a1"], token: token
                ).data)
            let setId = squat.setIds[0]
            _ = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": setId, "weight_kg": 80, "reps": 5,
                    "idempotency_key": "l1",
                ],
                token: token)
            let before = try await client.call("getActiveWorkout", token: token)
            #expect(WorkoutsHTTP.set(setId, in: before.data)?["weight_kg"] as? Double == 80)

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
            #expect(WorkoutsHTTP.set(setId, in: unchanged.data)?["weight_kg"] as? Double == 80, "a missing value is not a clear")
            #expect(unchanged.data["version"] as? Int == before.data["version"] as? Int)

            let cleared = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p2",
                    "ops": [
                        [
                            "op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": setId, "field": "weight_kg",
                            "value": NSNull(),
                        ]
                    ],
                ],
                token: token)
            #expect(cleared.status == .ok)
            #expect(WorkoutsHTTP.set(setId, in: cleared.data)?["weight_kg"] is NSNull)
            let after = try await client.call("getActiveWorkout", token: token)
            #expect(WorkoutsHTTP.set(setId, in: after.data)?["weight_kg"] is NSNull, "null clears the field")
            #expect(WorkoutsHTTP.set(setId, in: after.data)?["reps"] as? Int == 5, "only that field")
            // A logged set without its weight is no longer logged: it leaves the totals and the archive.
            #expect(WorkoutsHTTP.set(setId, in: after.data)?["completed_at"] is NSNull, "clearing the weight un-logs the set")
            #expect((after.data["totals"] as? [String: Any])?["sets"] as? Int == 0, "\(after.json)")

            // Logged again, then its RIR cleared: still logged. Its reps cleared: un-logged again.
            _ = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": setId, "weight_kg": 82.5, "reps": 4,
                    "rir": 1, "idempotency_key": "l2",
                ],
                token: token)
            let noRir = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p3",
                    "ops": [
                        ["op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": setId, "field": "rir", "value": NSNull()]
                    ],
                ],
                token: token)
            #expect(noRir.status == .ok, "\(noRir.json)")
            #expect(WorkoutsHTTP.set(setId, in: noRir.data)?["completed_at"] is String, "RIR is optional for a logged set: \(noRir.json)")
            #expect((noRir.data["totals"] as? [String: Any])?["sets"] as? Int == 1)
            let noReps = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p4",
                    "ops": [
                        ["op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": setId, "field": "reps", "value": NSNull()]
                    ],
                ],
                token: token)
            #expect(WorkoutsHTTP.set(setId, in: noReps.data)?["completed_at"] is NSNull, "\(noReps.json)")
            #expect((noReps.data["totals"] as? [String: Any])?["sets"] as? Int == 0)
            let stored = try await client.call("getActiveWorkout", token: token)
            #expect(WorkoutsHTTP.set(setId, in: stored.data)?["completed_at"] is NSNull, "un-logged as stored, not only as answered")
            #expect(WorkoutsHTTP.set(setId, in: stored.data)?["weight_kg"] as? Double == 82.5)

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
                ["workout_id": workoutId, "idempotency_key": "p5", "ops": [["op": "add_set", "exercise_instance_id": squat.instanceId]]],
                token: token)
            let other = try #require(WorkoutsHTTP.exercise(added.data).setIds.last)
            #expect(other != setId)
            _ = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": other, "weight_kg": 60, "reps": 10,
                    "idempotency_key": "l3",
                ],
                token: token)
            let completed = try await client.call(
                "completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c2"], token: token)
            #expect(completed.status == .ok, "\(completed.json)")
            #expect(
                ((completed.data["analytics"] as? [String: Any])?["totals"] as? [String: Any])?["sets"] as? Int == 1, "\(completed.json)")
            let archived = try await client.call("getWorkout", ["workout_id": workoutId], token: token)
            #expect(archived.status == .ok, "\(archived.json)")
            let archivedSets = (archived.data["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
            #expect(archivedSets.map { $0["id"] as? String } == [other], "\(archived.json)")
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
                        [
                            "exercise_id": Self.squat,
                            "sets": [["target_reps": 5, "target_weight_kg": 100], ["target_reps": 5, "target_weight_kg": 102.5]],
                        ],
                        ["exercise_id": Self.bench, "sets": [["target_reps": 8, "target_weight_kg": 60], ["target_reps": 8]]],
                    ],
                ], token: token)
            let templateId = try #require(template.data["id"] as? String, "createTemplate: \(template.json)")
            let started = try await client.call("startActiveWorkout", ["template_id": templateId, "idempotency_key": "s1"], token: token)
            let workoutId = try #require(started.data["id"] as? String, "startActiveWorkout: \(started.json)")
            let squat = try WorkoutsHTTP.exercise(started.data, at: 0)
            let bench = try WorkoutsHTTP.exercise(started.data, at: 1)

            // As stored (read back from the database, not the start's own answer).
            let stored = try await client.call("getActiveWorkout", token: token)
            func planned(_ setId: String, _ workout: [String: Any]) -> Double? {
                WorkoutsHTTP.set(setId, in: workout)?["target_weight_kg"] as? Double
            }
            #expect(planned(squat.setIds[0], stored.data) == 100)
            #expect(planned(squat.setIds[1], stored.data) == 102.5)
            #expect(planned(bench.setIds[0], stored.data) == 60)
            #expect(WorkoutsHTTP.set(bench.setIds[1], in: stored.data)?["target_weight_kg"] is NSNull, "no plan, null")
            #expect(WorkoutsHTTP.set(squat.setIds[0], in: stored.data)?["weight_kg"] is NSNull, "nothing lifted yet")

            // Lifting leaves the plan; set_field changes it (and `weight` is read as `weight_kg`).
            let logged = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[0], "weight_kg": 97.5,
                    "reps": 5,
                    "idempotency_key": "l1",
                ], token: token)
            #expect((logged.data["set"] as? [String: Any])?["target_weight_kg"] as? Double == 100, "logSet: \(logged.json)")
            let patched = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p1",
                    "ops": [
                        [
                            "op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[1],
                            "field": "target_weight_kg", "value": 105,
                        ],
                        [
                            "op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[1], "field": "weight",
                            "value": 104.5,
                        ],
                    ],
                ], token: token)
            #expect(patched.status == .ok, "patchActiveWorkout: \(patched.json)")
            let refused = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p2",
                    "ops": [
                        [
                            "op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[1],
                            "field": "target_weight_kg", "value": 1001,
                        ]
                    ],
                ], token: token)
            #expect(refused.status == .badRequest && refused.errorDetails?["field"] as? String == "ops[0].value", "\(refused.json)")
            let edited = try await client.call("getActiveWorkout", token: token)
            #expect(planned(squat.setIds[1], edited.data) == 105)
            #expect(WorkoutsHTTP.set(squat.setIds[1], in: edited.data)?["weight_kg"] as? Double == 104.5)

            // Swapping the bench press (nothing logged): its sets stay, their target reps too, but not its weights.
            let swapped = try await client.call(
                "swapExercise",
                ["workout_id": workoutId, "exercise_instance_id": bench.instanceId, "new_exercise_id": Self.curl, "idempotency_key": "w1"],
                token: token)
            #expect(swapped.status == .ok, "swapExercise: \(swapped.json)")
            let afterSwap = try await client.call("getActiveWorkout", token: token)
            #expect(try WorkoutsHTTP.exercise(afterSwap.data, at: 1).setIds == bench.setIds)
            #expect(WorkoutsHTTP.set(bench.setIds[0], in: afterSwap.data)?["target_weight_kg"] is NSNull)
            #expect(WorkoutsHTTP.set(bench.setIds[0], in: afterSwap.data)?["target_reps"] as? Int == 8)

            // The archive keeps what was planned beside what was lifted.
            let completed = try await client.call(
                "completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token)
            #expect(completed.status == .ok, "completeActiveWorkout: \(completed.json)")
            let archived = try await client.call("getWorkout", ["workout_id": workoutId], token: token)
            #expect(planned(squat.setIds[0], archived.data) == 100, "getWorkout: \(archived.json)")
            #expect(WorkoutsHTTP.set(squat.setIds[0], in: archived.data)?["weight_kg"] as? Double == 97.5)
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
            let squat = try WorkoutsHTTP.exercise(
                try await client.call(
                    "addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 3, "idempotency_key": "a1"], token: token
                ).data)
            let curl = try WorkoutsHTTP.exercise(
                try await client.call(
                    "addExercise", ["workout_id": workoutId, "exercise_id": Self.curl, "sets": 2, "idempotency_key": "a2"], token: token
                ).data, at: 1)
            let s = squat.setIds
            #expect(s.count == 3)
            #expect(curl.setIds.count == 2)

            func reorder(_ instanceId: String, _ order: [String], key: String) async throws -> Reply {
                try await client.call(
                    "patchActiveWorkout",
                    [
                        "workout_id": workoutId, "idempotency_key": key,
                        "ops": [["op": "reorder_sets", "exercise_instance_id": instanceId, "order": order]],
                    ],
                    token: token)
            }
            func sets(_ workout: [String: Any], of instanceId: String) -> [[String: Any]] {
                (workout["exercises"] as? [[String: Any]])?.first { $0["instance_id"] as? String == instanceId }?["sets"]
                    as? [[String: Any]] ?? []
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
}
