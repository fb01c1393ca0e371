import AsyncHTTPClient
import Auth
import Contracts
import Fakes
import Foundation
import NIOPosix
import Platform
import SQLKit
import Synchronization
import TestSupport
import Testing

/// An eraser that fails on its first call, as if the process died half-way through a deletion.
final class FlakyEraser: UserDataEraser {
    let module = "flaky"
    let calls = Mutex(0)

    func eraseUserData(userId: String) async throws {
        let count = calls.withLock { value -> Int in
            value += 1
            return value
        }
        if count == 1 { throw CocoaError(.fileWriteUnknown) }
    }
}

@Suite struct AccountDeletionTests {
    /// A deletion that fails part-way is retried after its backoff and finishes; meanwhile the account cannot
    /// sign in, and requesting the deletion again does not start a second one.
    @Test(arguments: TestDatabases.engines)
    func deletionFinishesAfterAFailedAttempt(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("auth", AuthModule.migrations)]) { db in
            let clock = FakeWallClock()
            let auth = try await AuthModule(
                database: db, signingKey: .generate(), accessTokenLifetime: 900, bcryptCost: 4, clock: clock, ids: RandomIDGenerator(),
                http: .shared, threadPool: .singleton)
            let user = try await auth.service.signUp(email: "crash@example.com", password: "secret1", name: nil, timeZone: nil)
            let userId = user.user.id
            let flaky = FlakyEraser()
            let queue = JobQueue(database: db, clock: clock)
            let worker = JobWorker(
                name: "w", queue: queue,
                definitions: auth.deletionJobs(erasers: UserDataErasers([auth.eraser, flaky])),
                logger: TestDatabases.logger)
            let jobId = try await auth.service.requestDeletion(userId: userId)
            #expect(try await auth.service.requestDeletion(userId: userId) == jobId, "one deletion per account")
            try await worker.drain()
            #expect(flaky.calls.withLock { $0 } == 1)
            #expect(try await queue.job(id: jobId)?.status == .queued)
            await #expect(throws: ServiceError.self) {
                _ = try await auth.service.signIn(email: "crash@example.com", password: "secret1", timeZone: nil)
            }
            let users = try await db.sql.raw("SELECT COUNT(*) AS n FROM auth_users WHERE id = \(bind: userId)").first(
                decodingColumn: "n", as: Int.self)
            #expect(users == 1, "Auth's eraser runs last, after every other module's")

            // A deletion that used all its attempts starts over when asked for again.
            try await db.sql.raw("UPDATE platform_jobs SET status = 'failed', attempts = 60, finished_at = 0 WHERE id = \(bind: jobId)")
                .run()
            #expect(try await auth.service.requestDeletion(userId: userId) == jobId)
            let requeued = try await queue.job(id: jobId)
            #expect(requeued?.status == .queued && requeued?.attempts == 0, "\(String(describing: requeued))")

            try await worker.drain()
            #expect(flaky.calls.withLock { $0 } == 2)
            #expect(try await queue.job(id: jobId)?.status == .done)
            // The first pass is done; the second one, due later, runs every eraser again and removes the ticket.
            let tickets = try await db.sql.raw("SELECT COUNT(*) AS n FROM auth_deletions WHERE user_id = \(bind: userId)").first(
                decodingColumn: "n", as: Int.self)
            #expect(tickets == 1)
            let secondPass = "\(jobId):second-pass"
            #expect(try await queue.job(id: secondPass)?.status == .queued)
            clock.advance(by: AuthService.deletionSecondPassDelay - 1)
            try await worker.drain()
            #expect(flaky.calls.withLock { $0 } == 2, "not before its time")
            clock.advance(by: 1)
            try await worker.drain()
            #expect(flaky.calls.withLock { $0 } == 3)
            #expect(try await queue.job(id: secondPass)?.status == .done)
            for table in ["auth_users", "auth_sessions", "auth_deletions", "auth_providers"] {
                let column = table == "auth_users" ? "id" : "user_id"
                let n = try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE \(ident: column) = \(bind: userId)")
                    .first(decodingColumn: "n", as: Int.self)
                #expect(n == 0, "\(table)")
            }
            for id in [jobId, secondPass] {
                let payload = try await db.sql.raw("SELECT payload FROM platform_jobs WHERE id = \(bind: id)").first(
                    decodingColumn: "payload", as: String.self)
                #expect(payload?.contains(userId) == false, "the finished job does not name the user")
            }
        }
    }
}

@Suite struct AccountDeletionAcrossModulesTests {
    /// A module with tables that this process does not compose keeps the account from ending until a process
    /// composing it has erased its rows; a deletion queued under the former job kind (an older version) waits too.
    @Test(arguments: TestDatabases.engines)
    func theAccountEndsOnlyOnceEveryModuleWithTablesHasErased(engine: SQLEngine) async throws {
        let workouts: (module: String, migrations: [Migration]) = (
            "workouts", [Migration(version: 1, name: "rows") { _ in ["CREATE TABLE workouts_rows (user_id TEXT NOT NULL)"] }]
        )
        try await TestDatabases.with(engine, migrate: [("auth", AuthModule.migrations), workouts]) { db in
            let clock = FakeWallClock()
            let auth = try await AuthModule(
                database: db, signingKey: .generate(), accessTokenLifetime: 900, bcryptCost: 4, clock: clock, ids: RandomIDGenerator(),
                http: .shared, threadPool: .singleton)
            let userId = try await auth.service.signUp(email: "split@example.com", password: "secret1", name: nil, timeZone: nil).user.id
            let queue = JobQueue(database: db, clock: clock)
            // A process of Auth alone, and one of Workouts alone.
            let authOnly = JobWorker(
                name: "auth", queue: queue, definitions: auth.deletionJobs(erasers: UserDataErasers([auth.eraser])),
                logger: TestDatabases.logger)
            let trainingData = FakeUserDataEraser(module: "workouts")
            await trainingData.store(userId: userId, record: "workout")
            let workoutsOnly = JobWorker(
                name: "workouts", queue: queue,
                definitions: UserErasure.jobs(modules: [ModuleEraser(module: "workouts", eraser: trainingData)], queue: queue),
                logger: TestDatabases.logger)
            func accounts() async throws -> Int {
                try await db.sql.raw("SELECT COUNT(*) AS n FROM auth_users WHERE id = \(bind: userId)").first(
                    decodingColumn: "n", as: Int.self) ?? 0
            }

            let jobId = try await auth.service.requestDeletion(userId: userId)
            // As an older version queued it.
            try await db.sql.raw("UPDATE platform_jobs SET kind = 'auth.delete_account' WHERE id = \(bind: jobId)").run()
            try await authOnly.drain()
            #expect(try await accounts() == 1, "not ended while Workouts has not erased")
            let waiting = try #require(try await queue.job(id: jobId))
            #expect(waiting.status == .queued && waiting.lastError?.contains("waiting for workouts") == true, "\(waiting)")
            #expect(await trainingData.recordCount(userId: userId) == 1)

            try await workoutsOnly.drain()
            #expect(await trainingData.recordCount(userId: userId) == 0)
            try await authOnly.drain()
            #expect(try await accounts() == 0)
            #expect(try await queue.job(id: jobId)?.status == .done)
        }
    }
}
