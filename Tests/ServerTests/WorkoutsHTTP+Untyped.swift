import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The untyped forms of the Workouts HTTP helpers, on `[String: Any]` answers, for the suites not yet moved onto the
/// generated client (WorkoutsHTTP.swift holds the typed ones); deleted with `Reply` once every suite has moved.
extension WorkoutsHTTP {
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
}
