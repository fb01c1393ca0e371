import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import SQLKit
import TestSupport
import Testing

extension TestClientProtocol {
    /// Signs a new user up and returns the access token.
    func newUser(_ email: String) async throws -> String {
        let reply = try await call("signUp", ["email": email, "password": "secret-password"])
        guard let token = reply.accessToken else { throw ServiceError(.internalError, "sign-up failed: \(reply.json)") }
        return token
    }
}

@Suite struct WorkoutsFlowTests {
    static let bench = "Barbell_Bench_Press_-_Medium_Grip"
    static let squat = "Barbell_Squat"
    static let curl = "Dumbbell_Bicep_Curl"
    static let pullups = "Pullups"

    /// The issue's "done when": search, two templates, a routine, start from the routine, log every set
    /// (retrying some with the same key), complete, see the archive with analytics, get the next template.
    @Test(arguments: TestDatabases.engines)
    func planRunCompleteAndAdvance(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("lifter@example.com")

            let search = try await client.call("searchExercises", ["query": "bench pres", "limit": 20], token: token)
            let found = (search.data["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            #expect(found.contains(Self.bench))
            let typo = try await client.call("searchExercises", ["query": "dumbel curl"], token: token)
            #expect((typo.data["items"] as? [[String: Any]])?.contains { $0["id"] as? String == Self.curl } == true)
            let emptyCursor = try await client.call("searchExercises", ["query": "bench pres", "limit": 20, "cursor": ""], token: token)
            #expect(emptyCursor.status == .ok, "an empty cursor is the first page: \(emptyCursor.json)")
            #expect((emptyCursor.data["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == found)
            let emptyFilters = try await client.call(
                "searchExercises", ["query": "bench pres", "limit": 20, "muscle": "", "equipment": " ", "category": ""], token: token)
            #expect(
                (emptyFilters.data["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == found, "an empty filter is none")

            let push = try await client.call(
                "createTemplate",
                [
                    "name": "Push",
                    "exercises": [
                        ["exercise_id": Self.bench, "sets": [["target_reps": 5, "target_rir": 2], ["target_reps": 5, "target_rir": 1]]]
                    ],
                ],
                token: token)
            #expect(push.status == .ok)
            #expect((push.data["analytics"] as? [String: Any])?["total_sets"] as? Int == 2)
            #expect((push.data["exercises"] as? [[String: Any]])?.first?["name"] as? String == "Barbell Bench Press - Medium Grip")
            let pull = try await client.call(
                "createTemplate",
                [
                    "name": "Pull",
                    "exercises": [
                        ["exercise_id": Self.pullups, "sets": [["target_reps": 8]]],
                        ["exercise_id": Self.curl, "sets": [["target_reps": 12]]],
                    ],
                ],
                token: token)
            let pushId = try #require(push.data["id"] as? String)
            let pullId = try #require(pull.data["id"] as? String)

            let routine = try await client.call(
                "createRoutine", ["name": "Push/Pull", "templateIds": [pushId, pullId], "frequency": 3], token: token)
            #expect(routine.data["template_ids"] as? [String] == [pushId, pullId], "legacy templateIds is read as template_ids")
            let routineId = try #require(routine.data["id"] as? String)
            #expect(
                try await client.call("setActiveRoutine", ["routine_id": routineId], token: token).data["active_routine_id"] as? String
                    == routineId)
            let next = try await client.call("getNextWorkout", token: token)
            #expect((next.data["template"] as? [String: Any])?["id"] as? String == pushId)

            let started = try await client.call(
                "startActiveWorkout", ["routine_id": routineId, "idempotency_key": "start-1"], token: token)
            #expect(started.status == .ok)
            #expect(started.data["source_template_id"] as? String == pushId)
            #expect(started.data["source_routine_id"] as? String == routineId)
            let workoutId = try #require(started.data["id"] as? String)
            let retriedStart = try await client.call(
                "startActiveWorkout", ["routine_id": routineId, "idempotency_key": "start-1"], token: token)
            #expect(retriedStart.data["id"] as? String == workoutId, "a retried start returns the same workout")
            let second = try await client.call("startActiveWorkout", ["idempotency_key": "start-2"], token: token)
            #expect(second.status == .conflict)
            #expect(second.errorDetails?["workout_id"] as? String == workoutId)

            let exercise = try #require((started.data["exercises"] as? [[String: Any]])?.first)
            let instanceId = try #require(exercise["instance_id"] as? String)
            let setIds = (exercise["sets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            #expect(setIds.count == 2)
            for (index, setId) in setIds.enumerated() {
                let body: [String: Any] = [
                    "workout_id": workoutId, "exercise_instance_id": instanceId, "set_id": setId, "weight_kg": 100, "reps": 5, "rir": 2,
                    "idempotency_key": "log-\(index)",
                ]
                let logged = try await client.call("logSet", body, token: token)
                #expect(logged.status == .ok)
                let retried = try await client.call("logSet", body, token: token)
                #expect(retried.status == .ok)
                #expect(
                    NSDictionary(dictionary: retried.data) == NSDictionary(dictionary: logged.data),
                    "a retry answers exactly as the first call")
            }
            let misuse = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": instanceId, "set_id": setIds[0], "weight_kg": 90, "reps": 5,
                    "idempotency_key": "log-0",
                ],
                token: token)
            #expect(misuse.status == .conflict, "same key, different body")
            let current = try await client.call("getActiveWorkout", token: token)
            #expect((current.data["totals"] as? [String: Any])?["sets"] as? Int == 2)
            #expect((current.data["totals"] as? [String: Any])?["volume"] as? Double == 1000)

            let completed = try await client.call(
                "completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "done-1"], token: token)
            #expect(completed.status == .ok)
            let analytics = try #require(completed.data["analytics"] as? [String: Any])
            #expect((analytics["totals"] as? [String: Any])?["reps"] as? Int == 10)
            #expect((analytics["exercises"] as? [[String: Any]])?.first?["best_e1rm"] as? Double == 116.7)
            #expect((analytics["muscles"] as? [[String: Any]])?.first?["muscle"] as? String == "chest")
            let again = try await client.call(
                "completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "done-1"], token: token)
            #expect(again.data["id"] as? String == workoutId)
            let late = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": instanceId, "set_id": setIds[0], "weight_kg": 1, "reps": 1,
                    "idempotency_key": "log-late",
                ],
                token: token)
            #expect(late.status == .preconditionFailed)
            #expect(late.errorCode == "FAILED_PRECONDITION")

            let recent = try await client.call("getRecentWorkouts", token: token)
            #expect((recent.data["items"] as? [[String: Any]])?.first?["id"] as? String == workoutId)
            #expect(try await client.call("getWorkout", ["workout_id": workoutId], token: token).status == .ok)
            #expect(try await client.call("getActiveWorkout", token: token).json["data"] is NSNull)

            // The completion moved the cursor on before it answered.
            let advanced = try await client.call("getNextWorkout", token: token)
            #expect((advanced.data["template"] as? [String: Any])?["id"] as? String == pullId)
            #expect(advanced.data["index"] as? Int == 1)
            let routineAfter = try await client.call("getRoutine", ["routine_id": routineId], token: token)
            #expect(routineAfter.data["last_completed_template_id"] as? String == pushId)
        }
    }

    /// Another user's template, routine or workout is NOT_FOUND on every endpoint that takes its id.
    @Test(arguments: TestDatabases.engines)
    func anotherUsersResourcesAreNotFound(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let owner = try await client.newUser("owner@example.com")
            let intruder = try await client.newUser("intruder@example.com")
            let template = try await client.call(
                "createTemplate", ["name": "Mine", "exercises": [["exercise_id": Self.squat, "sets": [["target_reps": 5]]]]], token: owner)
            let templateId = try #require(template.data["id"] as? String)
            let routine = try await client.call("createRoutine", ["name": "Mine", "template_ids": [templateId]], token: owner)
            let routineId = try #require(routine.data["id"] as? String)
            let active = try await client.call("startActiveWorkout", ["template_id": templateId, "idempotency_key": "s"], token: owner)
            let activeId = try #require(active.data["id"] as? String)
            let exercise = try #require((active.data["exercises"] as? [[String: Any]])?.first)
            let instanceId = try #require(exercise["instance_id"] as? String)
            let setId = try #require((exercise["sets"] as? [[String: Any]])?.first?["id"] as? String)
            _ = try await client.call(
                "logSet",
                [
                    "workout_id": activeId, "exercise_instance_id": instanceId, "set_id": setId, "weight_kg": 50, "reps": 5,
                    "idempotency_key": "l",
                ], token: owner)
            let archived = try await client.call("completeActiveWorkout", ["workout_id": activeId, "idempotency_key": "c"], token: owner)
            let archivedId = try #require(archived.data["id"] as? String)
            let live = try await client.call("startActiveWorkout", ["template_id": templateId, "idempotency_key": "s2"], token: owner)
            let liveId = try #require(live.data["id"] as? String)
            let liveExercise = try #require((live.data["exercises"] as? [[String: Any]])?.first)
            let liveInstance = try #require(liveExercise["instance_id"] as? String)
            let liveSet = try #require((liveExercise["sets"] as? [[String: Any]])?.first?["id"] as? String)

            let attempts: [(String, [String: Any])] = [
                ("getTemplate", ["template_id": templateId]),
                ("patchTemplate", ["template_id": templateId, "name": "Stolen"]),
                ("deleteTemplate", ["template_id": templateId]),
                ("createRoutine", ["name": "Theirs", "template_ids": [templateId]]),
                ("getRoutine", ["routine_id": routineId]),
                ("patchRoutine", ["routine_id": routineId, "name": "Stolen"]),
                ("deleteRoutine", ["routine_id": routineId]),
                ("setActiveRoutine", ["routine_id": routineId]),
                ("getNextWorkout", ["routine_id": routineId]),
                ("startActiveWorkout", ["template_id": templateId, "idempotency_key": "x1"]),
                ("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "x2"]),
                (
                    "logSet",
                    [
                        "workout_id": liveId, "exercise_instance_id": liveInstance, "set_id": liveSet, "weight_kg": 1, "reps": 1,
                        "idempotency_key": "x3",
                    ]
                ),
                (
                    "patchActiveWorkout",
                    [
                        "workout_id": liveId, "ops": [["op": "remove_exercise", "exercise_instance_id": liveInstance]],
                        "idempotency_key": "x4",
                    ]
                ),
                ("addExercise", ["workout_id": liveId, "exercise_id": Self.curl, "idempotency_key": "x5"]),
                (
                    "swapExercise",
                    ["workout_id": liveId, "exercise_instance_id": liveInstance, "new_exercise_id": Self.curl, "idempotency_key": "x6"]
                ),
                ("completeActiveWorkout", ["workout_id": liveId, "idempotency_key": "x7"]),
                ("cancelActiveWorkout", ["workout_id": liveId, "idempotency_key": "x8"]),
                ("getWorkout", ["workout_id": archivedId]),
                ("updateWorkout", ["workout_id": archivedId, "name": "Stolen"]),
                ("deleteWorkout", ["workout_id": archivedId]),
                // Naming an exercise that does not exist changes nothing of that: the resource is not found first.
                ("patchTemplate", ["template_id": templateId, "exercises": [["exercise_id": "Nope", "sets": [["target_reps": 5]]]]]),
                (
                    "updateWorkout",
                    ["workout_id": archivedId, "exercises": [["exercise_id": "Nope", "sets": [["weight_kg": 1, "reps": 1]]]]]
                ),
                ("addExercise", ["workout_id": liveId, "exercise_id": "Nope", "idempotency_key": "x9"]),
            ]
            for (name, body) in attempts {
                let reply = try await client.call(name, body, token: intruder)
                #expect(reply.status == .notFound, "\(name) answered \(reply.status)")
                #expect(reply.errorCode == "NOT_FOUND", "\(name)")
                // The details name the field sent, with its value (`template_id` for an entry of `template_ids`).
                let named = (reply.errorDetails ?? [:]).contains { field, value in
                    guard let value = value as? String else { return false }
                    return body[field] as? String == value || (body["\(field)s"] as? [String])?.contains(value) == true
                }
                #expect(named, "\(name): \(reply.json)")
            }
            let theirTemplates = try await client.call("getTemplates", token: intruder)
            #expect((theirTemplates.data["items"] as? [Any])?.isEmpty == true)
            #expect(try await client.call("getActiveWorkout", token: intruder).json["data"] is NSNull)
            // Nothing of the owner's changed.
            #expect(try await client.call("getTemplate", ["template_id": templateId], token: owner).data["name"] as? String == "Mine")
            #expect(try await client.call("getActiveWorkout", token: owner).data["id"] as? String == liveId)
            #expect(try await count(server, "workouts_history") == 1)
        }
    }

    /// Many clients logging sets of one workout at once: every set lands.
    @Test(arguments: TestDatabases.engines)
    func concurrentLogSetsNeverLoseASet(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("busy@example.com")
            let sets = Array(repeating: ["target_reps": 10], count: 30)
            let template = try await client.call(
                "createTemplate",
                ["name": "Volume", "exercises": [["exercise_id": Self.squat, "sets": sets], ["exercise_id": Self.bench, "sets": sets]]],
                token: token)
            let started = try await client.call(
                "startActiveWorkout", ["template_id": try #require(template.data["id"] as? String)], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            var targets: [(String, String)] = []
            for exercise in started.data["exercises"] as? [[String: Any]] ?? [] {
                for set in exercise["sets"] as? [[String: Any]] ?? [] {
                    targets.append((exercise["instance_id"] as! String, set["id"] as! String))
                }
            }
            #expect(targets.count == 60)
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (index, target) in targets.enumerated() {
                    group.addTask {
                        try await client.call(
                            "logSet",
                            [
                                "workout_id": workoutId, "exercise_instance_id": target.0, "set_id": target.1, "weight_kg": 20, "reps": 10,
                                "idempotency_key": "k\(index)",
                            ],
                            token: token
                        ).status
                    }
                }
                for try await status in group { #expect(status == .ok) }
            }
            let current = try await client.call("getActiveWorkout", token: token)
            #expect((current.data["totals"] as? [String: Any])?["sets"] as? Int == 60)
            #expect(current.data["version"] as? Int == 61)
        }
    }

    /// A client retrying while its first request is still in flight: every copy gets the first answer and
    /// the set is logged once.
    @Test(arguments: TestDatabases.engines)
    func simultaneousRetriesWithOneKeyApplyOnce(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("retry@example.com")
            let started = try await client.call("startActiveWorkout", ["name": "R"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            let added = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 1, "idempotency_key": "a"], token: token)
            let exercise = try #require((added.data["exercises"] as? [[String: Any]])?.first)
            let instanceId = exercise["instance_id"] as! String
            let setId = (exercise["sets"] as! [[String: Any]])[0]["id"] as! String
            let versions = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let body: [String: Any] = [
                            "workout_id": workoutId, "exercise_instance_id": instanceId, "set_id": setId, "weight_kg": 100, "reps": 5,
                            "idempotency_key": "same",
                        ]
                        return try await client.call("logSet", body, token: token).data["version"] as? Int
                    }
                }
                var seen: [Int?] = []
                for try await version in group { seen.append(version) }
                return seen
            }
            #expect(versions.count == 8)
            #expect(Set(versions).count == 1, "every copy answers like the first: \(versions)")
            let current = try await client.call("getActiveWorkout", token: token)
            #expect(current.data["version"] as? Int == versions.first ?? -1)
            #expect((current.data["totals"] as? [String: Any])?["sets"] as? Int == 1)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func editingTheActiveWorkout(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("editor@example.com")
            let started = try await client.call("startActiveWorkout", ["name": "Freestyle"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            #expect((started.data["exercises"] as? [Any])?.isEmpty == true)

            let added = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 2, "idempotency_key": "a1"], token: token)
            let squat = try #require((added.data["exercises"] as? [[String: Any]])?.first)
            let squatId = try #require(squat["instance_id"] as? String)
            let squatSets = (squat["sets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            _ = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": Self.curl, "sets": 1, "idempotency_key": "a2"], token: token)

            _ = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": squatId, "set_id": squatSets[0], "weight": 80, "reps": 5,
                    "idempotency_key": "l1",
                ],
                token: token)
            let swapped = try await client.call(
                "swapExercise",
                ["workout_id": workoutId, "exercise_instance_id": squatId, "new_exercise_id": Self.bench, "idempotency_key": "w1"],
                token: token)
            let afterSwap = swapped.data["exercises"] as? [[String: Any]] ?? []
            #expect(
                afterSwap.map { $0["exercise_id"] as? String } == [Self.squat, Self.bench, Self.curl],
                "logged squat set stays, the rest moves to bench")
            #expect((afterSwap[0]["sets"] as? [[String: Any]])?.count == 1)
            #expect((afterSwap[0]["sets"] as? [[String: Any]])?.first?["weight_kg"] as? Double == 80, "legacy weight read as kg")
            #expect((afterSwap[1]["sets"] as? [[String: Any]])?.count == 1)

            let ids = afterSwap.compactMap { $0["instance_id"] as? String }
            let version = try #require(swapped.data["version"] as? Int)
            let patched = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "expected_version": version, "idempotency_key": "p1",
                    "ops": [
                        ["op": "reorder_exercises", "order": [ids[2], ids[0], ids[1]]],
                        ["op": "add_set", "exercise_instance_id": ids[2], "target_reps": 12],
                        ["op": "set_field", "exercise_instance_id": ids[0], "set_id": squatSets[0], "field": "reps", "value": 6],
                    ],
                ],
                token: token)
            #expect(patched.status == .ok)
            let exercises = patched.data["exercises"] as? [[String: Any]] ?? []
            #expect(exercises.compactMap { $0["instance_id"] as? String } == [ids[2], ids[0], ids[1]])
            #expect((exercises[0]["sets"] as? [Any])?.count == 2)
            #expect((patched.data["totals"] as? [String: Any])?["reps"] as? Int == 6)

            let stale = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "expected_version": version, "idempotency_key": "p2",
                    "ops": [["op": "remove_exercise", "exercise_instance_id": ids[1]]],
                ],
                token: token)
            #expect(stale.status == .conflict)
            let atomic = try await client.call(
                "patchActiveWorkout",
                [
                    "workout_id": workoutId, "idempotency_key": "p3",
                    "ops": [
                        ["op": "remove_exercise", "exercise_instance_id": ids[1]],
                        ["op": "remove_set", "exercise_instance_id": ids[0], "set_id": "nope"],
                    ],
                ],
                token: token)
            #expect(atomic.status == .notFound)
            #expect(
                (try await client.call("getActiveWorkout", token: token).data["exercises"] as? [Any])?.count == 3,
                "a failing op leaves everything as it was")

            let unknown = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": "nope", "set_id": "nope", "weight_kg": 1, "reps": 1,
                    "idempotency_key": "l9",
                ], token: token)
            #expect(unknown.status == .notFound)
            for (field, value) in [("reps", 1001), ("rir", 11), ("weight_kg", -1), ("weight_kg", 1001)] as [(String, Any)] {
                var body: [String: Any] = [
                    "workout_id": workoutId, "exercise_instance_id": ids[0], "set_id": squatSets[0], "weight_kg": 50, "reps": 5,
                    "idempotency_key": "v-\(field)-\(value)",
                ]
                body[field] = value
                let reply = try await client.call("logSet", body, token: token)
                #expect(reply.errorCode == "INVALID_ARGUMENT", "\(field)=\(value)")
                #expect(reply.errorDetails?["field"] as? String == field)
            }
            #expect(
                try await client.call("cancelActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token).status == .ok
            )
            #expect(try await client.call("getActiveWorkout", token: token).json["data"] is NSNull)
            let afterCancel = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "idempotency_key": "a9"], token: token)
            #expect(afterCancel.status == .preconditionFailed)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func templatesVersionAndRoutinesFollowDeletes(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("planner@example.com")
            let a = try await client.call(
                "createTemplate", ["name": "A", "exercises": [["exercise_id": Self.squat, "sets": [["target_reps": 5]]]]], token: token)
            let b = try await client.call(
                "createTemplate", ["name": "B", "exercises": [["exercise_id": Self.bench, "sets": [["target_reps": 5]]]]], token: token)
            let aId = try #require(a.data["id"] as? String)
            let bId = try #require(b.data["id"] as? String)
            let unknownExercise = try await client.call(
                "createTemplate", ["name": "X", "exercises": [["exercise_id": "No_Such_Exercise", "sets": []]]], token: token)
            #expect(unknownExercise.errorCode == "INVALID_ARGUMENT")
            #expect(unknownExercise.errorDetails?["field"] as? String == "exercises[0].exercise_id")

            let patched = try await client.call(
                "patchTemplate", ["template_id": aId, "expected_version": 1, "changes": ["name": "A2"]], token: token)
            #expect(patched.data["version"] as? Int == 2)
            let stale = try await client.call("patchTemplate", ["template_id": aId, "expected_version": 1, "name": "A3"], token: token)
            #expect(stale.status == .conflict)
            #expect(stale.errorDetails?["current_version"] as? String == "2")

            let routine = try await client.call("createRoutine", ["name": "AB", "template_ids": [aId, bId]], token: token)
            let routineId = try #require(routine.data["id"] as? String)
            _ = try await client.call("setActiveRoutine", ["routine_id": routineId], token: token)
            let deletedTemplate = try await client.call("deleteTemplate", ["template_id": aId], token: token)
            #expect(deletedTemplate.status == .ok && deletedTemplate.data["id"] as? String == aId, "a delete answers what it deleted")
            #expect(try await client.call("deleteTemplate", ["template_id": aId], token: token).status == .notFound)
            let after = try await client.call("getRoutine", ["routine_id": routineId], token: token)
            #expect(after.data["template_ids"] as? [String] == [bId], "deleting a template removes it from routines")
            #expect((try await client.call("getNextWorkout", token: token).data["template"] as? [String: Any])?["id"] as? String == bId)
            let deletedRoutine = try await client.call("deleteRoutine", ["routine_id": routineId], token: token)
            #expect(deletedRoutine.status == .ok && deletedRoutine.data["id"] as? String == routineId)
            #expect(deletedRoutine.data["template_ids"] as? [String] == [bId])
            #expect(try await client.call("getNextWorkout", token: token).errorCode == "FAILED_PRECONDITION")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func historyEditsRecomputeAndPaginate(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("historian@example.com")
            var ids: [String] = []
            for index in 0..<3 {
                let started = try await client.call("startActiveWorkout", ["name": "W\(index)"], token: token)
                let workoutId = try #require(started.data["id"] as? String)
                let added = try await client.call(
                    "addExercise", ["workout_id": workoutId, "exercise_id": Self.curl, "sets": 1, "idempotency_key": "a\(index)"],
                    token: token)
                let exercise = try #require((added.data["exercises"] as? [[String: Any]])?.first)
                _ = try await client.call(
                    "logSet",
                    [
                        "workout_id": workoutId, "exercise_instance_id": exercise["instance_id"] as! String,
                        "set_id": (exercise["sets"] as! [[String: Any]])[0]["id"] as! String, "weight_kg": 10, "reps": 10,
                        "idempotency_key": "l\(index)",
                    ],
                    token: token)
                _ = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c\(index)"], token: token)
                ids.append(workoutId)
                try await Task.sleep(for: .milliseconds(5))
            }
            let first = try await client.call("getRecentWorkouts", ["limit": 2], token: token)
            let firstIds = (first.data["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(firstIds == [ids[2], ids[1]])
            let cursor = try #require(first.data["next_cursor"] as? String)
            // An empty cursor is the first page (clients holding the token as a string send "" before they have one).
            let empty = try await client.call("getRecentWorkouts", ["limit": 2, "cursor": ""], token: token)
            #expect(empty.status == .ok, "\(empty.json)")
            #expect((empty.data["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == firstIds)
            #expect(empty.data["next_cursor"] as? String == cursor)
            let second = try await client.call("getRecentWorkouts", ["limit": 2, "cursor": cursor], token: token)
            #expect((second.data["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[0]])
            #expect(second.data["next_cursor"] == nil || second.data["next_cursor"] is NSNull)

            let edited = try await client.call(
                "updateWorkout",
                ["workout_id": ids[0], "changes": ["exercises": [["exercise_id": Self.bench, "sets": [["weight_kg": 100, "reps": 3]]]]]],
                token: token)
            #expect(edited.status == .ok)
            let analytics = try #require(edited.data["analytics"] as? [String: Any])
            #expect((analytics["totals"] as? [String: Any])?["volume"] as? Double == 300)
            #expect((analytics["exercises"] as? [[String: Any]])?.first?["exercise_id"] as? String == Self.bench)

            let deletedWorkout = try await client.call("deleteWorkout", ["workout_id": ids[1]], token: token)
            #expect(deletedWorkout.status == .ok && deletedWorkout.data["id"] as? String == ids[1])
            #expect(
                ((deletedWorkout.data["analytics"] as? [String: Any])?["totals"] as? [String: Any])?["volume"] as? Double == 100,
                "the deleted workout as it was")
            #expect(try await client.call("getWorkout", ["workout_id": ids[1]], token: token).status == .notFound)
            // Nothing of it is left: a late write finds no workout, and its rows as it was run are gone too.
            let late = try await client.call(
                "completeActiveWorkout", ["workout_id": ids[1], "idempotency_key": "late-complete"], token: token)
            #expect(late.errorCode == "NOT_FOUND" && late.errorDetails?["workout_id"] as? String == ids[1], "\(late.json)")
            for (table, column) in [
                ("workouts_active", "id"), ("workouts_active_exercises", "workout_id"), ("workouts_active_sets", "workout_id"),
            ] {
                func rows(_ id: String) async throws -> Int {
                    try await server.database.sql.raw(
                        "SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE \(unsafeRaw: column) = \(bind: id)"
                    )
                    .first(decodingColumn: "n", as: Int.self) ?? -1
                }
                #expect(try await rows(ids[1]) == 0, "\(table): the deleted workout")
                #expect(try await rows(ids[0]) > 0, "\(table): a workout still in the history")
            }
            let events = try await server.database.sql.raw("SELECT type FROM platform_outbox ORDER BY seq").all(
                decodingColumn: "type", as: String.self)
            #expect(events.filter { $0 == WorkoutCompleted.eventType }.count == 3)
            #expect(events.contains(WorkoutEdited.eventType))
            #expect(events.contains(WorkoutDeleted.eventType))
        }
    }
}
