import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import TestSupport
import Testing

/// Every active-workout write refuses what it cannot do with the right code and changes nothing: ids that are
/// not in the caller's workout (unknown, or another user's) are `NOT_FOUND`; any write to a completed or cancelled
/// workout is `FAILED_PRECONDITION` naming its status.
@Suite struct WorkoutsRefusalsTests {
    static let squat = WorkoutsFlowTests.squat
    static let curl = WorkoutsFlowTests.curl

    /// Starts a workout from a new template of three squat sets; returns its id, instance id and set ids.
    static func start(_ client: any TestClientProtocol, token: String, key: String) async throws -> (
        id: String, instance: String, sets: [String]
    ) {
        let template = try await client.call(
            "createTemplate",
            ["name": "T", "exercises": [["exercise_id": squat, "sets": [["target_reps": 5], ["target_reps": 5], ["target_reps": 5]]]]],
            token: token)
        let started = try await client.call(
            "startActiveWorkout", ["template_id": template.data["id"] as Any, "idempotency_key": key], token: token)
        let exercise = try #require((started.data["exercises"] as? [[String: Any]])?.first, "\(started.json)")
        let sets = try #require((exercise["sets"] as? [[String: Any]])?.compactMap { $0["id"] as? String })
        return (try #require(started.data["id"] as? String), try #require(exercise["instance_id"] as? String), sets)
    }

    static func log(_ workout: String, _ instance: String, _ set: String, key: String) -> (String, [String: Any]) {
        (
            "logSet",
            ["workout_id": workout, "exercise_instance_id": instance, "set_id": set, "weight_kg": 60, "reps": 5, "idempotency_key": key]
        )
    }

    static func patch(_ workout: String, _ op: [String: Any], key: String) -> (String, [String: Any]) {
        ("patchActiveWorkout", ["workout_id": workout, "ops": [op], "idempotency_key": key])
    }

    @Test(arguments: TestDatabases.engines)
    func idsNotInYourWorkoutAreNotFoundAndChangeNothing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let owner = try await client.newUser("owner@example.com")
            let other = try await client.newUser("other@example.com")
            let mine = try await Self.start(client, token: owner, key: "s")
            let theirs = try await Self.start(client, token: other, key: "s")
            _ = try await client.call("logSet", Self.log(mine.id, mine.instance, mine.sets[0], key: "first").1, token: owner)
            let before = try await client.call("getActiveWorkout", [:], token: owner)

            let (id, instance, set) = (mine.id, mine.instance, mine.sets[1])
            let attempts: [(String, [String: Any], missing: String)] = [
                (Self.log(id, "nope", set, key: "k1"), "exercise_instance_id"),
                (Self.log(id, instance, "nope", key: "k2"), "set_id"),
                (Self.log(id, theirs.instance, theirs.sets[1], key: "k3"), "exercise_instance_id"),
                (Self.log(id, instance, theirs.sets[1], key: "k4"), "set_id"),
                (
                    Self.patch(
                        id, ["op": "set_field", "exercise_instance_id": "nope", "set_id": set, "field": "reps", "value": 3], key: "k5"),
                    "exercise_instance_id"
                ),
                (
                    Self.patch(
                        id, ["op": "set_field", "exercise_instance_id": instance, "set_id": "nope", "field": "reps", "value": 3], key: "k6"),
                    "set_id"
                ),
                (
                    Self.patch(
                        id,
                        [
                            "op": "set_field", "exercise_instance_id": theirs.instance, "set_id": theirs.sets[0], "field": "reps",
                            "value": 3,
                        ], key: "k7"),
                    "exercise_instance_id"
                ),
                (Self.patch(id, ["op": "add_set", "exercise_instance_id": "nope"], key: "k8"), "exercise_instance_id"),
                (Self.patch(id, ["op": "remove_set", "exercise_instance_id": "nope", "set_id": set], key: "k9"), "exercise_instance_id"),
                (Self.patch(id, ["op": "remove_set", "exercise_instance_id": instance, "set_id": "nope"], key: "k10"), "set_id"),
                (Self.patch(id, ["op": "remove_set", "exercise_instance_id": instance, "set_id": theirs.sets[2]], key: "k11"), "set_id"),
                (Self.patch(id, ["op": "remove_exercise", "exercise_instance_id": theirs.instance], key: "k12"), "exercise_instance_id"),
                (
                    (
                        "swapExercise",
                        ["workout_id": id, "exercise_instance_id": "nope", "new_exercise_id": Self.curl, "idempotency_key": "k13"]
                    ), "exercise_instance_id"
                ),
                (
                    (
                        "swapExercise",
                        ["workout_id": id, "exercise_instance_id": theirs.instance, "new_exercise_id": Self.curl, "idempotency_key": "k14"]
                    ),
                    "exercise_instance_id"
                ),
            ].map { ($0.0.0, $0.0.1, $0.1) }
            for (name, body, missing) in attempts {
                let reply = try await client.call(name, body, token: owner)
                #expect(reply.status == .notFound && reply.errorCode == "NOT_FOUND", "\(name) \(body): \(reply.json)")
                #expect(reply.errorDetails?[missing] != nil, "\(name) names \(missing): \(reply.json)")
            }
            let after = try await client.call("getActiveWorkout", [:], token: owner)
            #expect(NSDictionary(dictionary: after.data) == NSDictionary(dictionary: before.data), "refused writes changed nothing")
            let theirsAfter = try await client.call("getActiveWorkout", [:], token: other)
            #expect((theirsAfter.data["version"] as? Int) == 1, "nor the other user's workout")

            // A routine's templates must be the caller's too, when patched as when created.
            let template = try await client.call(
                "createTemplate", ["name": "Own", "exercises": [["exercise_id": Self.curl, "sets": [["target_reps": 8]]]]], token: other)
            let routine = try await client.call("createRoutine", ["name": "R", "template_ids": [template.data["id"] as Any]], token: other)
            let foreign = try #require(before.data["source_template_id"] as? String)
            let patched = try await client.call(
                "patchRoutine", ["routine_id": routine.data["id"] as Any, "template_ids": [template.data["id"] as Any, foreign]],
                token: other)
            #expect(patched.status == .notFound && patched.errorCode == "NOT_FOUND", "\(patched.json)")
            let kept = try await client.call("getRoutine", ["routine_id": routine.data["id"] as Any], token: other)
            #expect((kept.data["template_ids"] as? [String]) == [template.data["id"] as? String].compactMap { $0 })
            #expect((kept.data["version"] as? Int) == (routine.data["version"] as? Int))
        }
    }

    @Test(arguments: TestDatabases.engines)
    func everyWriteToAnEndedWorkoutIsRefusedNamingItsStatus(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("ended@example.com")
            let completed = try await Self.start(client, token: token, key: "s1")
            _ = try await client.call("logSet", Self.log(completed.id, completed.instance, completed.sets[0], key: "l1").1, token: token)
            let done = try await client.call("completeActiveWorkout", ["workout_id": completed.id, "idempotency_key": "c1"], token: token)
            #expect(done.status == .ok, "\(done.json)")
            let cancelled = try await Self.start(client, token: token, key: "s2")
            let gone = try await client.call("cancelActiveWorkout", ["workout_id": cancelled.id, "idempotency_key": "c2"], token: token)
            #expect(gone.status == .ok, "\(gone.json)")

            for (workout, status) in [(completed, "completed"), (cancelled, "cancelled")] {
                let id = workout.id
                let attempts: [(String, [String: Any])] = [
                    Self.log(id, workout.instance, workout.sets[1], key: "\(status)-1"),
                    Self.patch(id, ["op": "add_set", "exercise_instance_id": workout.instance], key: "\(status)-2"),
                    Self.patch(
                        id,
                        [
                            "op": "set_field", "exercise_instance_id": workout.instance, "set_id": workout.sets[0], "field": "reps",
                            "value": 1,
                        ], key: "\(status)-3"),
                    ("addExercise", ["workout_id": id, "exercise_id": Self.curl, "idempotency_key": "\(status)-4"]),
                    (
                        "swapExercise",
                        [
                            "workout_id": id, "exercise_instance_id": workout.instance, "new_exercise_id": Self.curl,
                            "idempotency_key": "\(status)-5",
                        ]
                    ),
                    ("completeActiveWorkout", ["workout_id": id, "idempotency_key": "\(status)-6"]),
                    ("cancelActiveWorkout", ["workout_id": id, "idempotency_key": "\(status)-7"]),
                ]
                for (name, body) in attempts {
                    let reply = try await client.call(name, body, token: token)
                    #expect(reply.errorCode == "FAILED_PRECONDITION", "\(name) on a \(status) workout: \(reply.json)")
                    #expect(reply.errorDetails?["status"] as? String == status, "\(name): \(reply.json)")
                }
            }
            // Still one workout in the history, as it was archived, and none in progress.
            let history = try await client.call("getRecentWorkouts", [:], token: token)
            #expect((history.data["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [completed.id])
            let archived = try await client.call("getWorkout", ["workout_id": completed.id], token: token)
            #expect(NSDictionary(dictionary: archived.data) == NSDictionary(dictionary: done.data))
            #expect(try await client.call("getActiveWorkout", [:], token: token).json["data"] is NSNull)
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
            let push = try await client.call(
                "createTemplate", ["name": "Push", "exercises": [["exercise_id": Self.squat, "sets": [["target_reps": 5]]]]], token: token)
            let pull = try await client.call(
                "createTemplate", ["name": "Pull", "exercises": [["exercise_id": Self.curl, "sets": [["target_reps": 8]]]]], token: token)
            let pushId = try #require(push.data["id"] as? String)
            let pullId = try #require(pull.data["id"] as? String)
            let routine = try await client.call("createRoutine", ["name": "R", "template_ids": [pushId, pullId]], token: token)
            let routineId = try #require(routine.data["id"] as? String)

            let refusals: [(String, [String: Any])] = [
                ("patchTemplate", ["template_id": pushId]),
                ("patchTemplate", ["template_id": pushId, "expected_version": 1]),
                (
                    "patchTemplate",
                    [
                        "template_id": pushId, "changes": ["name": "A"],
                        "exercises": [["exercise_id": Self.curl, "sets": [["target_reps": 1]]]],
                    ]
                ),
                ("patchRoutine", ["routine_id": routineId, "expected_version": 1]),
                ("patchRoutine", ["routine_id": routineId, "changes": [String: Any]()]),
                ("patchRoutine", ["routine_id": routineId, "changes": ["name": "A"], "templateIds": [pullId]]),
            ]
            let misnamed = try await client.call("patchTemplate", ["template_id": pushId, "patch": ["name": "Push A"]], token: token)
            #expect(misnamed.errorCode == "INVALID_ARGUMENT" && misnamed.errorDetails?["field"] as? String == "patch", "\(misnamed.json)")
            for (endpoint, body) in refusals {
                let refused = try await client.call(endpoint, body, token: token)
                #expect(
                    refused.errorCode == "INVALID_ARGUMENT" && refused.errorDetails?["field"] as? String == "changes",
                    "\(endpoint) \(body): \(refused.json)")
            }
            let template = try await client.call("getTemplate", ["template_id": pushId], token: token)
            #expect(template.data["name"] as? String == "Push" && template.data["version"] as? Int == 1, "\(template.json)")
            let unchanged = try await client.call("getRoutine", ["routine_id": routineId], token: token)
            #expect(unchanged.data["name"] as? String == "R" && unchanged.data["version"] as? Int == 1, "\(unchanged.json)")

            // Another device deletes Pull (the routine goes to version 2); this one still shows [Push, Pull] at 1.
            _ = try await client.call("deleteTemplate", ["template_id": pullId], token: token)
            let stale = try await client.call(
                "patchRoutine", ["routine_id": routineId, "expected_version": 1, "template_ids": [pullId, pushId]], token: token)
            #expect(stale.status == .conflict && stale.errorDetails?["current_version"] as? String == "2", "\(stale.json)")
            let current = try await client.call(
                "patchRoutine", ["routine_id": routineId, "expected_version": 2, "template_ids": [pullId, pushId]], token: token)
            #expect(current.status == .notFound && current.errorDetails?["template_id"] as? String == pullId, "\(current.json)")
            let unknown = try await client.call("patchRoutine", ["routine_id": "nope", "template_ids": [pullId]], token: token)
            #expect(unknown.status == .notFound && unknown.errorDetails?["routine_id"] != nil, "the routine first: \(unknown.json)")
            let after = try await client.call("getRoutine", ["routine_id": routineId], token: token)
            #expect(after.data["template_ids"] as? [String] == [pushId] && after.data["version"] as? Int == 2, "\(after.json)")
        }
    }

    /// A device that had not reloaded after a swap, or an exercise or set added elsewhere, is told to reload
    /// (`CONFLICT` with the current version), not that its ids do not exist; a swap to the same exercise, and an
    /// unknown exercise named with another user's workout, are refused for what they are. Nothing changes.
    @Test(arguments: TestDatabases.engines)
    func staleWritesAreConflictsAndChangeNothing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let owner = try await client.newUser("stale@example.com")
            let other = try await client.newUser("bystander@example.com")
            let workout = try await Self.start(client, token: owner, key: "s")
            let (id, squat, sets) = workout
            _ = try await client.call("logSet", Self.log(id, squat, sets[0], key: "l0").1, token: owner)
            // The coach swaps the squat for curls: the logged set stays with the squat, the two to do go on.
            let swapped = try await client.call(
                "swapExercise", ["workout_id": id, "exercise_instance_id": squat, "new_exercise_id": Self.curl, "idempotency_key": "w"],
                token: owner)
            let entries = try #require(swapped.data["exercises"] as? [[String: Any]], "\(swapped.json)")
            let curls = try #require(entries.count == 2 ? entries[1]["instance_id"] as? String : nil, "\(swapped.json)")
            let before = try await client.call("getActiveWorkout", [:], token: owner)
            let version = try #require(before.data["version"] as? Int)

            let stale: [(String, [String: Any], details: [String: String])] = [
                (Self.log(id, squat, sets[1], key: "k1"), ["set_id": sets[1], "exercise_instance_id": curls]),
                (
                    Self.patch(
                        id, ["op": "set_field", "exercise_instance_id": squat, "set_id": sets[2], "field": "reps", "value": 3], key: "k2"),
                    ["set_id": sets[2], "exercise_instance_id": curls]
                ),
                (
                    Self.patch(id, ["op": "remove_set", "exercise_instance_id": squat, "set_id": sets[1]], key: "k3"),
                    ["exercise_instance_id": curls]
                ),
                (Self.patch(id, ["op": "reorder_exercises", "order": [squat]], key: "k4"), ["field": "ops[0].order"]),
                (
                    Self.patch(
                        id, ["op": "reorder_sets", "exercise_instance_id": squat, "order": [sets[0], sets[1], sets[2]]], key: "k5"),
                    ["field": "ops[0].order"]
                ),
            ].map { ($0.0.0, $0.0.1, $0.1) }
            for (name, body, details) in stale {
                let reply = try await client.call(name, body, token: owner)
                #expect(reply.status == .conflict && reply.errorCode == "CONFLICT", "\(name) \(body): \(reply.json)")
                #expect(reply.errorDetails?["current_version"] as? String == "\(version)", "\(name): \(reply.json)")
                for (key, value) in details { #expect(reply.errorDetails?[key] as? String == value, "\(name) \(key): \(reply.json)") }
            }
            // A patch that adds and then reorders cannot name what it adds: reloading would not help, so its
            // reorder is refused as malformed, naming the operation.
            let addThenReorder: [String: Any] = [
                "workout_id": id, "idempotency_key": "k9",
                "ops": [
                    ["op": "add_set", "exercise_instance_id": curls],
                    ["op": "reorder_sets", "exercise_instance_id": curls, "order": [sets[1], sets[2]]],
                ],
            ]
            let own = try await client.call("patchActiveWorkout", addThenReorder, token: owner)
            #expect(own.errorCode == "INVALID_ARGUMENT" && own.errorDetails?["field"] as? String == "ops[1].order", "\(own.json)")
            let refused: [(String, [String: Any], code: String, field: String)] = [
                (Self.patch(id, ["op": "reorder_exercises", "order": [curls, curls]], key: "k6"), "INVALID_ARGUMENT", "field"),
                (
                    (
                        "swapExercise",
                        ["workout_id": id, "exercise_instance_id": curls, "new_exercise_id": Self.curl, "idempotency_key": "k7"]
                    ),
                    "INVALID_ARGUMENT", "field"
                ),
                (
                    ("addExercise", ["workout_id": id, "exercise_id": "no-such-exercise", "idempotency_key": "k8"]), "INVALID_ARGUMENT",
                    "field"
                ),
            ].map { ($0.0.0, $0.0.1, $0.1, $0.2) }
            for (name, body, code, field) in refused {
                let reply = try await client.call(name, body, token: owner)
                #expect(reply.errorCode == code && reply.errorDetails?[field] != nil, "\(name) \(body): \(reply.json)")
            }
            // Another user naming this workout learns only that it is not theirs, whatever exercise they name.
            for (name, body) in [
                ("addExercise", ["workout_id": id, "exercise_id": "no-such-exercise", "idempotency_key": "o1"]),
                (
                    "swapExercise",
                    ["workout_id": id, "exercise_instance_id": curls, "new_exercise_id": "no-such-exercise", "idempotency_key": "o2"]
                ),
                Self.patch(id, ["op": "add_exercise", "exercise_id": "no-such-exercise"], key: "o3"),
            ] as [(String, [String: Any])] {
                let reply = try await client.call(name, body, token: other)
                #expect(reply.status == .notFound && reply.errorDetails?["workout_id"] as? String == id, "\(name): \(reply.json)")
            }
            let after = try await client.call("getActiveWorkout", [:], token: owner)
            #expect(NSDictionary(dictionary: after.data) == NSDictionary(dictionary: before.data), "refused writes changed nothing")
        }
    }
}
