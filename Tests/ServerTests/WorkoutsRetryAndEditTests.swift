import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import TestSupport
import Testing

/// Retrying the plan and history writes (an optional `idempotency_key` on every one of them), and editing an
/// archived workout without losing the ids of what the edit keeps.
@Suite struct WorkoutsRetryAndEditTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat
    static let curl = WorkoutsFlowTests.curl

    /// A client that lost the answer to a change or a delete and sends it again with the same key gets the first
    /// answer: not a `CONFLICT` with the version its own patch made, not `NOT_FOUND` for what it deleted, and
    /// nothing changes twice. The same key with a different request is `CONFLICT`; without a key nothing changes.
    @Test(arguments: TestDatabases.engines)
    func retriedChangesAndDeletesAnswerTheFirstResult(engine: SQLEngine) async throws {
        // Every write a millisecond after the one before, so a repeat that wrote again would show a new time.
        try await TestServer.with(engine, clock: ShiftedClock()) { _, client in
            let token = try await client.newUser("retries@example.com")
            let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.squat, Self.bench], token: token)

            func expectRepeat(_ name: String, _ body: [String: Any], changed: [String: Any]) async throws -> Reply {
                let first = try await client.call(name, body, token: token)
                #expect(first.status == .ok, "\(name): \(first.json)")
                let again = try await client.call(name, body, token: token)
                #expect(again.status == .ok, "\(name) repeated: \(again.json)")
                #expect(
                    NSDictionary(dictionary: again.data) == NSDictionary(dictionary: first.data), "\(name): the first answer, as it was")
                let other = try await client.call(name, body.merging(changed) { _, new in new }, token: token)
                #expect(other.errorCode == "CONFLICT", "\(name) with the key of a different request: \(other.json)")
                #expect(other.errorDetails?["idempotency_key"] as? String == body["idempotency_key"] as? String)
                return first
            }

            // patchTemplate with expected_version: once, version 2, even when sent twice.
            let patchedTemplate = try await expectRepeat(
                "patchTemplate", ["template_id": templates[0], "expected_version": 1, "name": "Legs day", "idempotency_key": "pt"],
                changed: ["name": "Leg day"])
            #expect(patchedTemplate.data["version"] as? Int == 2)
            let template = try await client.call("getTemplate", ["template_id": templates[0]], token: token)
            #expect(template.data["version"] as? Int == 2 && template.data["name"] as? String == "Legs day", "\(template.json)")
            let unkeyed = try await client.call(
                "patchTemplate", ["template_id": templates[0], "expected_version": 1, "name": "Legs day"], token: token)
            #expect(unkeyed.errorCode == "CONFLICT", "without a key a stale version is a conflict, as before")

            // patchRoutine, with the legacy templateIds read as template_ids (the same request either way).
            let patchedRoutine = try await expectRepeat(
                "patchRoutine",
                ["routine_id": routineId, "expected_version": 1, "templateIds": Array(templates.reversed()), "idempotency_key": "pr"],
                changed: ["templateIds": templates])
            #expect(patchedRoutine.data["version"] as? Int == 2)
            #expect(patchedRoutine.data["template_ids"] as? [String] == Array(templates.reversed()))
            let sameInOtherSpelling = try await client.call(
                "patchRoutine",
                ["routine_id": routineId, "expected_version": 1, "template_ids": Array(templates.reversed()), "idempotency_key": "pr"],
                token: token)
            #expect(sameInOtherSpelling.data["version"] as? Int == 2, "\(sameInOtherSpelling.json)")

            // setActiveRoutine.
            let active = try await expectRepeat(
                "setActiveRoutine", ["routine_id": routineId, "idempotency_key": "sa"], changed: ["routine_id": NSNull()])
            #expect(active.data["active_routine_id"] as? String == routineId)

            // A workout, archived, edited and deleted.
            let started = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s1"], token: token)
            #expect(started.status == .ok, "startActiveWorkout: \(started.json)")
            try await WorkoutsHTTP.logEverySetAndComplete(client, started.data, key: "w1", token: token)
            let workoutId = try #require(started.data["id"] as? String)
            let edit: [String: Any] = [
                "workout_id": workoutId, "idempotency_key": "uw",
                "exercises": [["exercise_id": Self.curl, "sets": [["weight_kg": 20, "reps": 10]]]],
            ]
            let edited = try await expectRepeat("updateWorkout", edit, changed: ["name": "Arms"])
            let editedIds = try WorkoutsHTTP.exercise(edited.data)
            let stored = try await client.call("getWorkout", ["workout_id": workoutId], token: token)
            #expect(try WorkoutsHTTP.exercise(stored.data) == editedIds, "the repeat built no new exercise: \(stored.json)")
            #expect(stored.data["updated_at"] as? String == edited.data["updated_at"] as? String)

            let deletedWorkout = try await expectRepeat(
                "deleteWorkout", ["workout_id": workoutId, "idempotency_key": "dw"], changed: ["workout_id": "another"])
            #expect(deletedWorkout.data["id"] as? String == workoutId)
            #expect(try await client.call("getWorkout", ["workout_id": workoutId], token: token).errorCode == "NOT_FOUND")
            let unkeyedDelete = try await client.call("deleteWorkout", ["workout_id": workoutId], token: token)
            #expect(unkeyedDelete.errorCode == "NOT_FOUND", "without a key a second delete finds nothing, as before")

            // deleteTemplate (the routine drops it once) and deleteRoutine.
            let deletedTemplate = try await expectRepeat(
                "deleteTemplate", ["template_id": templates[1], "idempotency_key": "dt"], changed: ["template_id": templates[0]])
            #expect(deletedTemplate.data["id"] as? String == templates[1])
            let routine = try await client.call("getRoutine", ["routine_id": routineId], token: token)
            #expect(routine.data["template_ids"] as? [String] == [templates[0]], "\(routine.json)")
            #expect(routine.data["version"] as? Int == 3, "dropped from the routine once: \(routine.json)")
            #expect(
                try await client.call("getTemplate", ["template_id": templates[0]], token: token).status == .ok,
                "the other request did nothing")

            let deletedRoutine = try await expectRepeat(
                "deleteRoutine", ["routine_id": routineId, "idempotency_key": "dr"], changed: ["routine_id": "another"])
            #expect(deletedRoutine.data["id"] as? String == routineId)
            let routines = try await client.call("getRoutines", [:], token: token)
            #expect((routines.data["items"] as? [Any])?.count == 0, "\(routines.json)")

            // A failed write stores nothing under its key: sent again once the cause is gone, it runs.
            let missing = try await client.call("deleteTemplate", ["template_id": "nope", "idempotency_key": "dx"], token: token)
            #expect(missing.errorCode == "NOT_FOUND")
            let reusedAfterFailure = try await client.call(
                "patchTemplate", ["template_id": templates[0], "name": "Later", "idempotency_key": "dx"], token: token)
            #expect(reusedAfterFailure.status == .ok, "\(reusedAfterFailure.json)")

            // Keys are checked like everywhere else, and a stranger's retry finds nothing of ours.
            let empty = try await client.call("deleteTemplate", ["template_id": templates[0], "idempotency_key": ""], token: token)
            #expect(empty.errorCode == "INVALID_ARGUMENT" && empty.errorDetails?["field"] as? String == "idempotency_key")
            let stranger = try await client.newUser("stranger-retries@example.com")
            let theirs = try await client.call("deleteTemplate", ["template_id": templates[1], "idempotency_key": "dt"], token: stranger)
            #expect(theirs.errorCode == "NOT_FOUND", "our stored answer is not theirs: \(theirs.json)")
            #expect(try await client.call("getTemplate", ["template_id": templates[0]], token: token).status == .ok)
        }
    }

    /// Retries racing their original (the client gave up waiting and sent again): both get the first answer,
    /// not a version `CONFLICT` or `NOT_FOUND` caused by the other, and the write happens once.
    @Test(arguments: TestDatabases.engines)
    func racingRetriesOfAChangeOrADeleteBothGetTheFirstAnswer(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("racing-retries@example.com")
            let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.squat, Self.bench, Self.curl], token: token)
            let requests: [(String, [String: Any])] = [
                (
                    "patchTemplate",
                    ["template_id": templates[0], "expected_version": 1, "name": "Renamed", "idempotency_key": "race-patch"]
                ),
                ("patchRoutine", ["routine_id": routineId, "expected_version": 1, "name": "Renamed", "idempotency_key": "race-routine"]),
                ("deleteTemplate", ["template_id": templates[1], "idempotency_key": "race-delete"]),
            ]
            for (name, body) in requests {
                let bytes = try JSONSerialization.data(withJSONObject: body)
                // Each answer as its status and its JSON with sorted keys.
                let replies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            let reply = try await client.raw(name, ByteBuffer(bytes: bytes), token: token, headers: [:])
                            let answer = reply.json["data"] ?? reply.json["error"] ?? NSNull()
                            let json = try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .fragmentsAllowed])
                            return (reply.status.code, String(decoding: json, as: UTF8.self))
                        }
                    }
                    var replies: [(Int, String)] = []
                    for try await reply in group { replies.append(reply) }
                    return replies
                }
                for reply in replies {
                    #expect(reply.0 == 200, "\(name): \(reply.1)")
                    #expect(reply.1 == replies[0].1, "\(name): one answer for all")
                }
            }
            let template = try await client.call("getTemplate", ["template_id": templates[0]], token: token)
            #expect(template.data["version"] as? Int == 2, "patched once: \(template.json)")
            let routine = try await client.call("getRoutine", ["routine_id": routineId], token: token)
            #expect(routine.data["version"] as? Int == 3, "patched once, and the template dropped once: \(routine.json)")
            #expect(routine.data["template_ids"] as? [String] == [templates[0], templates[2]])
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
            let created = try await client.call(
                "createTemplate",
                [
                    "name": "Push",
                    "exercises": [
                        [
                            "exercise_id": Self.bench,
                            "sets": [["target_reps": 5, "target_rir": 2, "target_weight_kg": 80], ["target_reps": 5, "target_rir": 1]],
                        ],
                        ["exercise_id": Self.squat, "sets": [["target_reps": 3]]],
                    ],
                ], token: token)
            let templateId = try #require(created.data["id"] as? String, "createTemplate: \(created.json)")
            let started = try await client.call("startActiveWorkout", ["template_id": templateId, "idempotency_key": "s"], token: token)
            try await WorkoutsHTTP.logEverySetAndComplete(client, started.data, key: "e", token: token)
            let workoutId = try #require(started.data["id"] as? String)
            let before = try await client.call("getWorkout", ["workout_id": workoutId], token: token).data
            let bench = try WorkoutsHTTP.exercise(before, at: 0)
            let squat = try WorkoutsHTTP.exercise(before, at: 1)
            let benchSets = try #require((before["exercises"] as? [[String: Any]])?[0]["sets"] as? [[String: Any]])
            let endTime = try #require(before["end_time"] as? String)
            try #require(benchSets[0]["completed_at"] as? String != endTime, "a set done before the end")

            // Bad ids are refused, each naming its place, and leave the workout as it was.
            let refusals: [([[String: Any]], String, String)] = [
                ([["instance_id": "nope", "sets": [["weight_kg": 20, "reps": 1]]]], "exercises[0].instance_id", "NOT_FOUND"),
                (
                    [["instance_id": bench.instanceId, "sets": [["id": squat.setIds[0], "weight_kg": 20, "reps": 1]]]],
                    "exercises[0].sets[0].id", "NOT_FOUND"
                ),
                (
                    [
                        ["instance_id": bench.instanceId, "sets": [["weight_kg": 20, "reps": 1]]],
                        ["instance_id": bench.instanceId, "sets": [["weight_kg": 20, "reps": 1]]],
                    ],
                    "exercises[1].instance_id", "INVALID_ARGUMENT"
                ),
                (
                    [
                        [
                            "instance_id": bench.instanceId,
                            "sets": [
                                ["id": bench.setIds[0], "weight_kg": 20, "reps": 1], ["id": bench.setIds[0], "weight_kg": 20, "reps": 2],
                            ],
                        ]
                    ],
                    "exercises[0].sets[1].id", "INVALID_ARGUMENT"
                ),
                ([["sets": [["weight_kg": 20, "reps": 1]]]], "exercises[0].exercise_id", "INVALID_ARGUMENT"),
                // What is archived is what was done: emptying a workout is deleting it, and an exercise needs a set.
                ([], "exercises", "INVALID_ARGUMENT"),
                (
                    [
                        ["instance_id": bench.instanceId, "sets": [["weight_kg": 20, "reps": 1]]],
                        ["exercise_id": WorkoutsFlowTests.curl, "sets": []],
                    ],
                    "exercises[1].sets", "INVALID_ARGUMENT"
                ),
                // A set is kept as done: its weight (0 for bodyweight) and reps, even when only the reps change.
                (
                    [["instance_id": bench.instanceId, "sets": [["id": bench.setIds[0], "reps": 6]]]], "exercises[0].sets[0].weight_kg",
                    "INVALID_ARGUMENT"
                ),
                (
                    [["instance_id": bench.instanceId, "sets": [["weight_kg": 1000.5, "reps": 6]]]], "exercises[0].sets[0].weight_kg",
                    "INVALID_ARGUMENT"
                ),
                (
                    [["instance_id": bench.instanceId, "sets": [["weight_kg": 20, "reps": 1001]]]], "exercises[0].sets[0].reps",
                    "INVALID_ARGUMENT"
                ),
                (
                    [["instance_id": bench.instanceId, "sets": [["weight_kg": 20, "reps": 5, "rir": 11]]]], "exercises[0].sets[0].rir",
                    "INVALID_ARGUMENT"
                ),
                (
                    [["exercise_id": "No_Such_Exercise", "sets": [["weight_kg": 20, "reps": 5]]]], "exercises[0].exercise_id",
                    "INVALID_ARGUMENT"
                ),
            ]
            for (exercises, field, code) in refusals {
                let refused = try await client.call("updateWorkout", ["workout_id": workoutId, "exercises": exercises], token: token)
                #expect(refused.errorCode == code, "\(field): \(refused.json)")
                let named = code == "NOT_FOUND" ? refused.errorDetails?[field] != nil : refused.errorDetails?["field"] as? String == field
                #expect(named, "\(field): \(refused.json)")
            }
            // An edit names what it changes, in one place: nothing, or changes both inside `changes` and beside it, is refused.
            for body in [
                ["workout_id": workoutId], ["workout_id": workoutId, "changes": [String: Any]()],
                [
                    "workout_id": workoutId, "changes": ["name": "A"],
                    "exercises": [["instance_id": bench.instanceId, "sets": [["weight_kg": 20, "reps": 1]]]],
                ],
                ["workout_id": workoutId, "name": "B", "changes": ["name": "A"]],
            ] as [[String: Any]] {
                let refused = try await client.call("updateWorkout", body, token: token)
                #expect(
                    refused.errorCode == "INVALID_ARGUMENT" && refused.errorDetails?["field"] as? String == "changes",
                    "\(body): \(refused.json)")
            }
            let untouched = try await client.call("getWorkout", ["workout_id": workoutId], token: token).data
            #expect(NSDictionary(dictionary: untouched) == NSDictionary(dictionary: before), "refused edits changed nothing")

            // Correct the second bench set's reps, drop the squat, add a set and an exercise.
            let edited = try await client.call(
                "updateWorkout",
                [
                    "workout_id": workoutId,
                    "exercises": [
                        [
                            "instance_id": bench.instanceId,
                            "sets": [
                                ["id": bench.setIds[0], "weight_kg": 40, "reps": 5], ["id": bench.setIds[1], "weight_kg": 40, "reps": 4],
                                ["weight_kg": 35, "reps": 8],
                            ],
                        ],
                        ["exercise_id": Self.curl, "sets": [["weight_kg": 15, "reps": 12]]],
                    ],
                ], token: token)
            #expect(edited.status == .ok, "updateWorkout: \(edited.json)")
            let after = try await client.call("getWorkout", ["workout_id": workoutId], token: token).data
            let exercises = try #require(after["exercises"] as? [[String: Any]])
            #expect(exercises.count == 2)
            let keptBench = try WorkoutsHTTP.exercise(after, at: 0)
            #expect(keptBench.instanceId == bench.instanceId)
            #expect(Array(keptBench.setIds.prefix(2)) == bench.setIds, "the sets sent with their ids keep them")
            #expect(
                keptBench.setIds.count == 3 && !bench.setIds.contains(keptBench.setIds[2]) && !squat.setIds.contains(keptBench.setIds[2]))
            let names = (before["exercises"] as? [[String: Any]] ?? []).map { $0["name"] as? String }
            #expect(exercises[0]["exercise_id"] as? String == Self.bench && exercises[0]["name"] as? String == names[0])
            let sets = try #require(exercises[0]["sets"] as? [[String: Any]])
            #expect(sets[0]["target_weight_kg"] as? Double == 80 && sets[0]["target_rir"] as? Int == 2, "targets kept: \(sets[0])")
            #expect(sets[1]["target_reps"] as? Int == 5 && sets[1]["target_rir"] as? Int == 1)
            #expect(sets[0]["completed_at"] as? String == benchSets[0]["completed_at"] as? String, "done when it was done")
            #expect(sets[1]["reps"] as? Int == 4)
            #expect(
                sets[2]["completed_at"] as? String == endTime && sets[2]["target_reps"] is NSNull, "a new set: done at the end, no plan")
            #expect(sets.map { $0["set_index"] as? Int } == [0, 1, 2])
            let curl = try WorkoutsHTTP.exercise(after, at: 1)
            #expect(curl.instanceId != bench.instanceId && curl.instanceId != squat.instanceId)
            #expect(exercises[1]["exercise_id"] as? String == Self.curl)
            let totals = try #require((after["analytics"] as? [String: Any])?["totals"] as? [String: Any])
            #expect(totals["sets"] as? Int == 4, "analytics follow the new sets: \(after["analytics"] ?? "none")")
            #expect(totals["reps"] as? Int == 5 + 4 + 8 + 12)

            // A kept set moved to another exercise keeps its target reps and RIR, not the planned weight (80 kg
            // of bench press is no plan for a squat), as swapExercise does; the same exercise keeps all three.
            let moved = try await client.call(
                "updateWorkout",
                [
                    "workout_id": workoutId,
                    "exercises": [
                        [
                            "instance_id": bench.instanceId, "exercise_id": Self.squat,
                            "sets": [["id": bench.setIds[0], "weight_kg": 60, "reps": 5]],
                        ],
                        ["instance_id": curl.instanceId, "sets": [["id": curl.setIds[0], "weight_kg": 15, "reps": 12]]],
                    ],
                ], token: token)
            #expect(moved.status == .ok, "\(moved.json)")
            let movedSet = try #require(((moved.data["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.first)
            #expect(movedSet["id"] as? String == bench.setIds[0])
            #expect(movedSet["target_weight_kg"] is NSNull || movedSet["target_weight_kg"] == nil, "no bench plan on a squat: \(movedSet)")
            #expect(movedSet["target_reps"] as? Int == 5 && movedSet["target_rir"] as? Int == 2, "targets kept: \(movedSet)")

            // Changing the exercise of a kept instance renames it from the catalog.
            let switched = try await client.call(
                "updateWorkout",
                [
                    "workout_id": workoutId,
                    "exercises": [
                        [
                            "instance_id": curl.instanceId, "exercise_id": Self.squat,
                            "sets": [["id": curl.setIds[0], "weight_kg": 15, "reps": 12]],
                        ]
                    ],
                ],
                token: token)
            #expect(switched.status == .ok, "\(switched.json)")
            #expect(try WorkoutsHTTP.exercise(switched.data) == curl)
            let switchedExercise = try #require((switched.data["exercises"] as? [[String: Any]])?.first)
            #expect(switchedExercise["exercise_id"] as? String == Self.squat)
            #expect(switchedExercise["name"] as? String == names[1], "the squat's name from the catalog")
        }
    }
}
