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

/// What the Workouts answers hold, through HTTP on every engine: every optional field (null when empty), and
/// the time of the write that made them.
@Suite struct WorkoutsAnswerContentTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat

    /// Empty optional fields are sent as null, never left out: every answer carries the keys its schema lists (docs/api.md).
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
            expectNull(
                ["name", "source_template_id", "source_routine_id"], in: try await client.call("getActiveWorkout", token: token).data,
                "getActiveWorkout")
            let added = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 1, "idempotency_key": "a1"], token: token)
            let squat = try WorkoutsHTTP.exercise(added.data)
            _ = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[0], "weight_kg": 0, "reps": 0,
                    "idempotency_key": "l1",
                ], token: token)
            _ = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token)
            let archived = try await client.call("getWorkout", ["workout_id": workoutId], token: token)
            expectNull(["name", "source_template_id", "source_routine_id"], in: archived.data, "getWorkout")
            let perExercise = ((archived.data["analytics"] as? [String: Any])?["exercises"] as? [[String: Any]])?.first
            expectNull(["best_e1rm"], in: perExercise, "getWorkout.analytics.exercises[0]")

            let templateId = try await WorkoutsHTTP.template(client, "Plain", exercise: Self.squat, token: token)
            let plain = try await client.call("getTemplate", ["template_id": templateId], token: token).data
            expectNull(["description"], in: plain, "getTemplate")
            // A planned set with reps only says so with nulls for the rest.
            let plannedSet = ((plain["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.first
            #expect(plannedSet?["target_reps"] as? Int == 5)
            expectNull(["target_rir", "target_weight_kg"], in: plannedSet, "getTemplate.exercises[0].sets[0]")
            let next = try await client.call("getTemplates", token: token).data
            let listedSet =
                (((next["items"] as? [[String: Any]])?.first?["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.first
            expectNull(["target_rir", "target_weight_kg"], in: listedSet, "getTemplates.items[0].exercises[0].sets[0]")
            let routine = try await client.call("createRoutine", ["name": "Plain", "template_ids": [templateId]], token: token)
            expectNull(["description", "frequency", "last_completed_template_id", "last_completed_at"], in: routine.data, "createRoutine")

            // A blank description is none; a patch with "" removes one, a patch with null or without it keeps it.
            let routineId = try #require(routine.data["id"] as? String)
            for (kind, idField, suffix) in [("Template", "template_id", templateId), ("Routine", "routine_id", routineId)] {
                let described = try await client.call("patch\(kind)", [idField: suffix, "description": "Heavy day"], token: token)
                #expect(described.data["description"] as? String == "Heavy day", "patch\(kind): \(described.json)")
                let kept = try await client.call(
                    "patch\(kind)", [idField: suffix, "description": NSNull(), "name": "Renamed"], token: token)
                #expect(kept.data["description"] as? String == "Heavy day", "patch\(kind) with null: \(kept.json)")
                let cleared = try await client.call("patch\(kind)", [idField: suffix, "description": ""], token: token)
                #expect(cleared.status == .ok, "\(cleared.json)")
                expectNull(["description"], in: cleared.data, "patch\(kind) with \"\"")
                expectNull(
                    ["description"], in: try await client.call("get\(kind)", [idField: suffix], token: token).data,
                    "get\(kind) after clearing")
                #expect(cleared.data["version"] as? Int == (kept.data["version"] as? Int).map { $0 + 1 })
            }
            let blank = try await client.call(
                "createTemplate",
                ["name": "Blank", "description": "  ", "exercises": [["exercise_id": Self.squat, "sets": [["target_reps": 5]]]]],
                token: token)
            expectNull(["description"], in: blank.data, "createTemplate with a blank description")
            let blankRoutine = try await client.call(
                "createRoutine", ["name": "Blank", "description": "", "template_ids": [templateId]], token: token)
            expectNull(["description"], in: blankRoutine.data, "createRoutine with an empty description")
            // A catalog exercise without equipment (stretches) says so with null.
            let stretches = try await client.call("searchExercises", ["category": "stretching", "limit": 100], token: token)
            let bare = (stretches.data["items"] as? [[String: Any]])?.first { $0["equipment"] is NSNull || $0["equipment"] == nil }
            expectNull(["equipment"], in: try #require(bare, "a stretch without equipment in \(stretches.json)"), "searchExercises.items[]")
        }
    }

    /// The `updated_at` of a write's answer is the time of that write (what getActiveWorkout shows right
    /// after), not the previous write's; a logged set's `completed_at` is that write's time too. The clock
    /// moves at least a millisecond per reading, so no two writes share a time.
    @Test(arguments: TestDatabases.engines)
    func answersCarryTheTimeOfTheirOwnWrite(engine: SQLEngine) async throws {
        try await TestServer.with(engine, clock: ShiftedClock()) { _, client in
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

            let added = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 2, "idempotency_key": "a1"], token: token)
            try await expectOwnTime(added, "addExercise")
            let squat = try WorkoutsHTTP.exercise(added.data)
            let patched = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p1",
                    "ops": [
                        [
                            "op": "set_field", "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[0], "field": "target_reps",
                            "value": 8,
                        ]
                    ],
                ],
                token: token)
            try await expectOwnTime(patched, "patchActiveWorkout")
            let swapped = try await client.call(
                "swapExercise",
                [
                    "workout_id": workoutId, "exercise_instance_id": squat.instanceId, "new_exercise_id": Self.bench,
                    "idempotency_key": "w1",
                ],
                token: token)
            try await expectOwnTime(swapped, "swapExercise")

            let bench = try WorkoutsHTTP.exercise(swapped.data)
            let logged = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": bench.instanceId, "set_id": bench.setIds[0], "weight_kg": 60,
                    "reps": 8, "idempotency_key": "l1",
                ],
                token: token)
            #expect(logged.status == .ok)
            let completedAt = try #require((logged.data["set"] as? [String: Any])?["completed_at"] as? String)
            let current = try await client.call("getActiveWorkout", token: token)
            #expect(completedAt == current.data["updated_at"] as? String, "the set was completed at the time of its write")
            #expect(WorkoutsHTTP.set(bench.setIds[0], in: current.data)?["completed_at"] as? String == completedAt)
        }
    }
}
