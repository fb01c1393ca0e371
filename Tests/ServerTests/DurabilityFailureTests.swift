import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PovverApp
import TestSupport
import Testing

@testable import Platform

/// What a client and an operator see once SQLite could not make a write durable.
@Suite struct DurabilityFailureTests {
    /// After a commit failed on the disk no write is answered as done: the logSet waiting for it and every later
    /// one are `INTERNAL` (the client keeps its set and retries once the server is back), reads go on, and
    /// `/ready` fails so the orchestrator restarts the process.
    @Test func aFailedSyncStopsWritesAndFailsReadiness() async throws {
        try await TestServer.with(.sqlite) { server, client in
            let token = try await client.newUser("disk@example.com")
            let started = try await client.call(
                "startActiveWorkout", ["name": "Disk", "idempotency_key": "s"], token: token)
            let workoutId = try #require(started.data["id"] as? String, "\(started.json)")
            let added = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": WorkoutsFlowTests.bench, "sets": 2, "idempotency_key": "a"],
                token: token)
            let sets = try #require(
                ((added.data["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.compactMap { $0["id"] as? String })
            let instanceId = try #require((added.data["exercises"] as? [[String: Any]])?.first?["instance_id"] as? String)
            #expect(try await client.get("/ready").status == .ok)

            let writer = try #require(server.database.sqliteWriter)
            writer.beforeEachCommit { throw SQLiteError(code: 1034, message: "disk I/O error") }  // SQLITE_IOERR_FSYNC
            func logSet(_ setId: String, key: String) async throws -> Reply {
                try await client.call(
                    "logSet",
                    [
                        "workout_id": workoutId, "exercise_instance_id": instanceId, "set_id": setId, "weight_kg": 60, "reps": 5,
                        "idempotency_key": key,
                    ],
                    token: token)
            }
            let failed = try await logSet(sets[0], key: "l1")
            #expect(failed.errorCode == "INTERNAL", "\(failed.json)")
            writer.beforeEachCommit(nil)
            let refused = try await logSet(sets[1], key: "l2")
            #expect(refused.errorCode == "INTERNAL", "a later write is refused too: \(refused.json)")
            let ready = try await client.get("/ready")
            #expect(ready.status != .ok, "not ready: \(String(buffer: ready.body))")

            let active = try await client.call("getActiveWorkout", token: token)
            #expect(active.status == .ok, "reads go on: \(active.json)")
            let reps = ((active.data["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]])?.map { $0["reps"] as? Int }
            #expect(reps?[1] == nil, "the refused write did not run: \(active.json)")
        }
    }
}
