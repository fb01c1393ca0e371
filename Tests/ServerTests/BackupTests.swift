import Auth
import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
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
            let api = client.api(access)
            let workoutId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "start", name: "Backup"))).ok.body.json.data
                .id
            workout.withLock { $0 = workoutId }
            let added = try await api.addExercise(
                body: .json(.init(exerciseId: "Barbell_Squat", idempotencyKey: "add", sets: 30, workoutId: workoutId))
            ).ok.body.json.data
            let exercise = try #require(added.exercises.first)
            let (instance, sets) = (exercise.instanceId, exercise.sets.map(\.id))
            let acknowledged = Mutex<[String]>([])
            let (progress, reached) = AsyncStream<Void>.makeStream()
            let load = Task {
                for (index, set) in sets.enumerated() {
                    let reply = try await api.logSet(
                        body: .json(
                            .init(
                                exerciseInstanceId: instance, idempotencyKey: "set-\(index)", reps: 5, setId: set, weightKg: 100,
                                workoutId: workoutId)))
                    guard case .ok = reply else { continue }
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
            let active = try #require(
                try await client.api(token.withLock { $0 }).getActiveWorkout(body: .json(.init())).ok.body.json.data)
            #expect(active.id == workout.withLock { $0 })
            let logged = Set((active.exercises.first?.sets ?? []).filter { $0.reps != nil }.map(\.id))
            let before = acknowledgedBefore.withLock { $0 }
            #expect(before.count >= 10 && before.isSubset(of: logged), "missing: \(before.subtracting(logged))")
        }
    }
}
