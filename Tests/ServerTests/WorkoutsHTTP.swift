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

/// What the Workouts HTTP suites share: the calls that set up templates, routines and workouts, and those sent
/// at the same moment.
enum WorkoutsHTTP {
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
        var error: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["error"] as? [String: Any]
        }
    }

    /// The calls, all at once.
    static func concurrently(_ client: any TestClientProtocol, token: String, _ calls: [(String, [String: Any])]) async throws -> [Outcome]
    {
        // The bodies as JSON text: a dictionary of Any is not Sendable.
        let bodies = try calls.map { name, body in (name, String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
        }
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
        let reply = try await client.call(
            "createTemplate", ["name": name, "exercises": [["exercise_id": exercise, "sets": [["target_reps": 5]]]]], token: token)
        return try #require(reply.data["id"] as? String, "createTemplate: \(reply.json)")
    }

    /// A routine of one template per exercise (named A, B, C, ...): the templates' ids and the routine's.
    static func routine(_ client: any TestClientProtocol, of exercises: [String], token: String) async throws -> (
        templates: [String], routineId: String
    ) {
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
    static func logEverySetAndComplete(_ client: any TestClientProtocol, _ workout: [String: Any], key: String, token: String) async throws
    {
        let workoutId = try #require(workout["id"] as? String)
        for (exerciseIndex, exercise) in (workout["exercises"] as? [[String: Any]] ?? []).enumerated() {
            let instanceId = try #require(exercise["instance_id"] as? String)
            for (setIndex, set) in (exercise["sets"] as? [[String: Any]] ?? []).enumerated() {
                let logged = try await client.call(
                    "logSet",
                    [
                        "workout_id": workoutId, "exercise_instance_id": instanceId, "set_id": try #require(set["id"] as? String),
                        "weight_kg": 40,
                        "reps": 5, "idempotency_key": "log-\(key)-\(exerciseIndex)-\(setIndex)",
                    ],
                    token: token)
                #expect(logged.status == .ok, "logSet: \(logged.json)")
            }
        }
        let completed = try await client.call(
            "completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "complete-\(key)"], token: token)
        #expect(completed.status == .ok, "completeActiveWorkout: \(completed.json)")
    }

    /// The template the routine's cursor records as last completed.
    static func lastCompleted(_ client: any TestClientProtocol, routineId: String, token: String) async throws -> String? {
        try await client.call("getRoutine", ["routine_id": routineId], token: token).data["last_completed_template_id"] as? String
    }

    static func nextTemplate(_ client: any TestClientProtocol, routineId: String, token: String) async throws -> String? {
        (try await client.call("getNextWorkout", ["routine_id": routineId], token: token).data["template"] as? [String: Any])?["id"]
            as? String
    }
}
