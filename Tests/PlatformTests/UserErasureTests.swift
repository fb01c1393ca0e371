import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

/// Erasing a user in every module with tables, each in a process that composes it (`UserErasure`).
@Suite struct UserErasureTests {
    /// A module with a table of users' rows, as the migrations table records it.
    static func module(_ name: String) -> (module: String, migrations: [Migration]) {
        (name, [Migration(version: 1, name: "rows") { _ in ["CREATE TABLE \(name)_rows (user_id TEXT NOT NULL)"] }])
    }

    static func erasureRows(_ db: Database) async throws -> Int {
        try await db.sql.raw("SELECT COUNT(*) AS n FROM platform_erasures").first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Modules with tables that this process does not compose are left to a job of their own kind, which only a
    /// worker composing the module claims; the last confirmation makes the waiting deletion due at once.
    @Test(arguments: TestDatabases.engines)
    func aModuleComposedElsewhereErasesThereAndItsConfirmationWakesTheDeletion(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [Self.module("alpha"), Self.module("beta")]) { db in
            let clock = FakeWallClock()
            let queue = JobQueue(database: db, clock: clock)
            let erasure = UserErasure(queue: queue)
            let alpha = FakeUserDataEraser(module: "alpha")
            let beta = FakeUserDataEraser(module: "beta")
            for eraser in [alpha, beta] {
                await eraser.store(userId: "user-42", record: "r")
                await eraser.store(userId: "bystander", record: "r")
            }
            let later = clock.now().addingTimeInterval(3600)
            try await queue.enqueue(NewJob(id: "deletion", kind: "test.deletion", runAt: later))
            let here = UserDataErasers([alpha])

            let waiting = try await erasure.run(
                pass: 1, ticket: "t1", userId: "user-42", waitingJob: "deletion", here: here, excluding: [])
            #expect(waiting == ["beta"])
            #expect(await alpha.recordCount(userId: "user-42") == 0, "erased where it is composed")
            #expect(await beta.recordCount(userId: "user-42") == 1)
            let job = try #require(try await queue.job(id: "platform.erase:t1:1:beta"))
            #expect(job.kind == UserErasure.jobKind(module: "beta") && job.status == .queued)
            let payload = try await db.sql.raw("SELECT payload FROM platform_jobs WHERE id = 'platform.erase:t1:1:beta'")
                .first(decodingColumn: "payload", as: String.self)
            #expect(payload?.contains("user-42") == false, "the job names the ticket, not the user")
            #expect(try await queue.job(id: "platform.erase:t1:1:alpha") == nil, "no job for a module erased here")

            // This process's worker has no such kind: the job waits for a process composing beta.
            let hereWorker = JobWorker(
                name: "here", queue: queue, definitions: UserErasure.jobs(modules: here.modules, queue: queue), logger: TestDatabases.logger
            )
            try await hereWorker.drain()
            #expect(try await queue.job(id: "platform.erase:t1:1:beta")?.status == .queued)
            #expect(try await queue.job(id: "deletion")?.runAt == later)

            let elsewhere = JobWorker(
                name: "elsewhere", queue: queue,
                definitions: UserErasure.jobs(modules: [ModuleEraser(module: "beta", eraser: beta)], queue: queue),
                logger: TestDatabases.logger)
            try await elsewhere.drain()
            #expect(await beta.recordCount(userId: "user-42") == 0)
            #expect(await beta.recordCount(userId: "bystander") == 1)
            #expect(await alpha.recordCount(userId: "bystander") == 1)
            #expect(try await queue.job(id: "platform.erase:t1:1:beta")?.status == .done)
            #expect(try await queue.job(id: "deletion")?.runAt == clock.now(), "the last confirmation makes the deletion due")

            // Asked again, the pass is complete and nothing is erased twice.
            #expect(
                try await erasure.run(pass: 1, ticket: "t1", userId: "user-42", waitingJob: "deletion", here: here, excluding: []).isEmpty)
            #expect(await alpha.erasedUsers == ["user-42"])
            #expect(await beta.erasedUsers == ["user-42"])
            try await db.transaction { tx in try await erasure.forget(ticket: "t1", in: tx) }
            #expect(try await Self.erasureRows(db) == 0)
            // A job run again after its pass was forgotten does nothing.
            try await db.sql.raw("UPDATE platform_jobs SET status = 'queued' WHERE id = 'platform.erase:t1:1:beta'").run()
            try await elsewhere.drain()
            #expect(await beta.erasedUsers == ["user-42"])
        }
    }

    /// A module whose tables appear while a pass waits joins it; the caller's own module takes no part; a module's
    /// job that failed for good is queued again by the next attempt of the pass.
    @Test(arguments: TestDatabases.engines)
    func aModuleAddedLaterJoinsThePassAndAFailedErasureIsQueuedAgain(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [Self.module("owner"), Self.module("beta")]) { db in
            let queue = JobQueue(database: db, clock: FakeWallClock())
            let erasure = UserErasure(queue: queue)
            let owner = FakeUserDataEraser(module: "owner")
            let here = UserDataErasers([owner])
            func run() async throws -> [String] {
                try await erasure.run(pass: 1, ticket: "t2", userId: "user-7", waitingJob: "deletion", here: here, excluding: ["owner"])
            }
            #expect(try await run() == ["beta"])
            #expect(await owner.erasedUsers.isEmpty, "the caller erases its own module itself")

            try await Migrator(database: db, logger: TestDatabases.logger).migrate([Self.module("gamma")])
            #expect(try await run() == ["beta", "gamma"])
            #expect(try await queue.job(id: "platform.erase:t2:1:gamma")?.kind == "platform.erase:gamma")

            try await db.sql.raw("UPDATE platform_jobs SET status = 'failed', attempts = 60 WHERE id = 'platform.erase:t2:1:beta'").run()
            #expect(try await run() == ["beta", "gamma"])
            let requeued = try #require(try await queue.job(id: "platform.erase:t2:1:beta"))
            #expect(requeued.status == .queued && requeued.attempts == 0)
        }
    }
}
