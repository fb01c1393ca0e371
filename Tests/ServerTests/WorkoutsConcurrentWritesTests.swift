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

/// Workouts writes sent at the same moment answer as if they ran one after another, through HTTP on every
/// engine.
@Suite struct WorkoutsConcurrentWritesTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat

    /// Concurrent starts answer as if they ran one after another: copies under one key all get the first
    /// answer; under different keys one wins and every other is CONFLICT naming the winner.
    @Test(arguments: TestDatabases.engines)
    func concurrentStartsAnswerAsIfOneAfterAnother(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("racer@example.com")

            let retries = try await WorkoutsHTTP.startConcurrently(client, keys: Array(repeating: "same", count: 8), token: token)
            #expect(retries.allSatisfy { $0.status == .ok }, "\(retries)")
            #expect(Set(retries.map(\.workoutId)).count == 1, "\(retries)")
            let retriedId = try #require(retries.first?.workoutId)
            #expect(try await client.call("getActiveWorkout", token: token).data["id"] as? String == retriedId)
            #expect(
                try await client.call("cancelActiveWorkout", ["workout_id": retriedId, "idempotency_key": "c1"], token: token).status == .ok
            )

            let racers = try await WorkoutsHTTP.startConcurrently(client, keys: (0..<8).map { "race-\($0)" }, token: token)
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
                let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.bench, Self.squat], token: token)
                // Each reply as its status and JSON text (Sendable, out of the task group).
                let replies = try await withThrowingTaskGroup(of: (String, HTTPResponse.Status, String).self) { group in
                    group.addTask {
                        let reply = try await client.call(
                            "startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s\(round)"], token: token)
                        return (
                            "start", reply.status, String(decoding: try JSONSerialization.data(withJSONObject: reply.json), as: UTF8.self)
                        )
                    }
                    group.addTask {
                        let reply = try await client.call("deleteTemplate", ["template_id": templates[0]], token: token)
                        return (
                            "delete", reply.status, String(decoding: try JSONSerialization.data(withJSONObject: reply.json), as: UTF8.self)
                        )
                    }
                    var replies: [String: (HTTPResponse.Status, String)] = [:]
                    for try await (name, status, json) in group { replies[name] = (status, json) }
                    return replies
                }
                let start = try #require(replies["start"])
                let delete = try #require(replies["delete"])
                #expect(delete.0 == .ok, "round \(round): deleteTemplate: \(delete.1)")
                #expect(start.0 == .ok, "round \(round): startActiveWorkout: \(start.1)")
                let started = (try JSONSerialization.jsonObject(with: Data(start.1.utf8)) as? [String: Any])?["data"] as? [String: Any]
                guard let workoutId = started?["id"] as? String else { break }
                #expect(templates.contains(started?["source_template_id"] as? String ?? ""), "round \(round): \(start.1)")
                let cancelled = try await client.call(
                    "cancelActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c\(round)"], token: token)
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
            let added = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": Self.squat, "sets": 20, "idempotency_key": "add"], token: token)
            let squat = try WorkoutsHTTP.exercise(added.data)
            let template: [String: Any] = ["name": "Keys", "exercises": [["exercise_id": Self.bench, "sets": [["target_reps": 5]]]]]
            // Each round: two logSets, a patch and a create under one new key.
            for round in 0..<8 {
                let key = "shared-\(round)"
                let log: (Int) -> [String: Any] = { set in
                    [
                        "workout_id": workoutId, "exercise_instance_id": squat.instanceId, "set_id": squat.setIds[set], "weight_kg": 100,
                        "reps": 5,
                        "idempotency_key": key,
                    ]
                }
                let replies = try await WorkoutsHTTP.concurrently(
                    client, token: token,
                    [
                        ("logSet", log(2 * round)),
                        ("logSet", log(2 * round + 1)),
                        (
                            "patchActiveWorkout",
                            [
                                "workout_id": workoutId, "ops": [["op": "add_set", "exercise_instance_id": squat.instanceId]],
                                "idempotency_key": key,
                            ]
                        ),
                        ("createTemplate", template.merging(["idempotency_key": key]) { _, new in new }),
                    ])
                WorkoutsHTTP.expectOneRan(replies, key: key, round: round)
            }
            // Starts lock the user's starts first: a start and a create sharing a key, for a user with no workout.
            let other = try await client.newUser("shared-start-keys@example.com")
            for round in 0..<8 {
                let key = "start-\(round)"
                let replies = try await WorkoutsHTTP.concurrently(
                    client, token: other,
                    [
                        ("startActiveWorkout", ["name": "Keys", "idempotency_key": key]),
                        ("createTemplate", template.merging(["idempotency_key": key]) { _, new in new }),
                    ])
                WorkoutsHTTP.expectOneRan(replies, key: key, round: round)
                if let workoutId = replies.first(where: { $0.name == "startActiveWorkout" && $0.status == .ok })?.id {
                    let cancelled = try await client.call(
                        "cancelActiveWorkout", ["workout_id": workoutId, "idempotency_key": "cancel-\(round)"], token: other)
                    try #require(cancelled.status == .ok, "\(cancelled.json)")
                }
            }
        }
    }
}
