import Auth
import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverModules
import Synchronization
import TestSupport
import Testing

/// `povver-server backup FILE` while a server logs sets: a server started on the copy has every set acknowledged
/// before the backup began.
@Suite struct BackupTests {
    @Test func aBackupTakenDuringALoggingLoadRestoresEveryAcknowledgedWrite() async throws {
        let location = try await TestDatabases.makeLocation(.sqlite)
        guard case .sqliteFile(let path) = location else { throw ServiceError(.internalError, "not a file") }
        let backupPath = path + ".backup.sqlite"
        defer {
            for file in [path, backupPath] {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            }
        }
        var config = try AppConfig.fromEnvironment(["POVVER_BCRYPT_COST": "4"])
        config.database = location
        let key = SigningKey.generate()
        let server = try await PovverServer.build(
            config: config, modules: try PovverModules.definitions(environment: config.environment, signingKey: key),
            logger: TestDatabases.logger)
        let token = Mutex("")
        let workout = Mutex("")
        let acknowledgedBefore = Mutex<Set<String>>([])
        try await server.application().test(.router) { client in
            let access = try await client.newUser("backup@example.com")
            token.withLock { $0 = access }
            let started = try await client.call("startActiveWorkout", ["name": "Backup", "idempotency_key": "start"], token: access)
            let workoutId = try #require(started.data["id"] as? String)
            workout.withLock { $0 = workoutId }
            let added = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": "Barbell_Squat", "sets": 30, "idempotency_key": "add"],
                token: access)
            #expect(added.status == .ok, "\(added.json)")
            let (instance, sets) = try WorkoutsHTTP.exercise(added.data)
            let acknowledged = Mutex<[String]>([])
            let (progress, reached) = AsyncStream<Void>.makeStream()
            let load = Task {
                for (index, set) in sets.enumerated() {
                    let reply = try await client.call(
                        "logSet",
                        [
                            "workout_id": workoutId, "exercise_instance_id": instance, "set_id": set, "weight_kg": 100, "reps": 5,
                            "idempotency_key": "set-\(index)",
                        ], token: access)
                    guard reply.status == .ok else { continue }
                    let count = acknowledged.withLock {
                        $0.append(set)
                        return $0.count
                    }
                    if count == 10 { reached.yield() }
                }
                reached.finish()
            }
            for await _ in progress { break }
            acknowledgedBefore.withLock { $0 = Set(acknowledged.withLock { $0 }) }
            // The server's own binary, as an operator runs it, beside the serving process.
            let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("povver-server").path
            let backup = try ChildProcess(["/usr/bin/env", "POVVER_DATABASE_URL=sqlite://\(path)", binary, "backup", backupPath])
            try await eventually("the backup exited") { !backup.isRunning }
            #expect(backup.waitUntilExit() == 0)
            try await load.value
            #expect(acknowledged.withLock { $0.count } == 30, "the load went on during the backup")
            let again = try ChildProcess(["/usr/bin/env", "POVVER_DATABASE_URL=sqlite://\(path)", binary, "backup", backupPath])
            try await eventually("the second backup exited") { !again.isRunning }
            #expect(again.waitUntilExit() == 65, "an existing file is never overwritten")
        }
        // The documented restore: a server started on the copy.
        var restored = config
        restored.database = .sqliteFile(path: backupPath)
        let second = try await PovverServer.build(
            config: restored, modules: try PovverModules.definitions(environment: restored.environment, signingKey: key),
            logger: TestDatabases.logger)
        try await second.application().test(.router) { client in
            #expect(try await client.get("/ready").status == .ok)
            let active = try await client.call("getActiveWorkout", [:], token: token.withLock { $0 })
            #expect(active.data["id"] as? String == workout.withLock { $0 }, "\(active.json)")
            let logged = Set(
                ((active.data["exercises"] as? [[String: Any]])?.first?["sets"] as? [[String: Any]] ?? []).filter { $0["reps"] is Int }
                    .compactMap { $0["id"] as? String })
            let before = acknowledgedBefore.withLock { $0 }
            #expect(before.count >= 10 && before.isSubset(of: logged), "missing: \(before.subtracting(logged))")
        }
    }
}
