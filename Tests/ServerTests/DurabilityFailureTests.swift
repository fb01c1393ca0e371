import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PovverApp
import PovverClient
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
            let api = client.api(token)
            let workoutId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s", name: "Disk"))).ok.body.json.data.id
            let bench = try await api.addExercise(
                body: .json(.init(exerciseId: WorkoutsFlowTests.bench, idempotencyKey: "a", sets: 2, workoutId: workoutId))
            ).ok.body.json.data.exercise(at: 0)
            let (sets, instanceId) = (bench.setIds, bench.instanceId)
            #expect(try await client.get("/ready").status == .ok)

            let writer = try #require(server.database.sqliteWriter)
            writer.beforeEachCommit { throw SQLiteError(code: 1034, message: "disk I/O error") }  // SQLITE_IOERR_FSYNC
            @Sendable func logSet(_ setId: String, key: String) async throws -> Operations.LogSet.Output {
                try await api.logSet(
                    body: .json(
                        .init(
                            exerciseInstanceId: instanceId, idempotencyKey: key, reps: 5, setId: setId, weightKg: 60, workoutId: workoutId))
                )
            }
            let failed = try #require(await refused { try await logSet(sets[0], key: "l1") })
            #expect(failed.code == "INTERNAL", "\(failed)")
            writer.beforeEachCommit(nil)
            let refusal = try #require(await refused { try await logSet(sets[1], key: "l2") })
            #expect(refusal.code == "INTERNAL", "a later write is refused too: \(refusal)")
            let ready = try await client.get("/ready")
            #expect(ready.status != .ok, "not ready: \(String(buffer: ready.body))")

            let active = try await api.activeWorkout()  // reads go on
            let reps = active.exercises.first?.sets.map(\.reps)
            #expect(reps?.count == 2 && reps?[1] == nil, "the refused write did not run: \(active)")
        }
    }
}
