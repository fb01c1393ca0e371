import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

/// Delivered events and finished jobs expire (`BackgroundRetention`), so the outbox and the job queue do not grow
/// by a few rows per completed workout forever; work still to do is never touched.
@Suite struct BackgroundRetentionTests {
    static func events(_ db: Database) async throws -> [String] {
        try await db.sql.raw("SELECT id FROM platform_outbox ORDER BY id").all(decodingColumn: "id", as: String.self)
    }

    static func jobs(_ db: Database) async throws -> [String] {
        try await db.sql.raw("SELECT id FROM platform_jobs ORDER BY id").all(decodingColumn: "id", as: String.self)
    }

    static func publish(_ id: String, _ db: Database) async throws {
        try await db.transaction { tx in try await tx.publish(SetLogged(setId: id), id: id, occurredAt: Date()) }
    }

    /// Enqueues a job (of a kind of its own) and runs one attempt of it to the given end (`nil`: left queued).
    static func job(_ id: String, ending: JobStatus?, queue: JobQueue) async throws {
        try await queue.enqueue(NewJob(id: id, kind: "test.\(id)", maxAttempts: 1))
        guard let ending else { return }
        let leased = try #require(try await queue.claim(worker: "w", kinds: ["test.\(id)"], lease: 60))
        #expect(leased.id == id)
        switch ending {
        case .done: #expect(try await queue.complete(leased))
        case .failed: #expect(try await queue.fail(leased, error: "broken", retry: RetryPolicy(base: 1, cap: 1)))
        case .leased, .queued: break
        }
    }

    @Test(arguments: TestDatabases.engines)
    func deliveredEventsAndFinishedJobsExpireAndPendingWorkStays(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock()
            let queue = JobQueue(database: db, clock: clock)
            let dispatcher = OutboxDispatcher(database: db, queue: queue, handlers: [], logger: TestDatabases.logger)
            let retention = BackgroundRetention(database: db, clock: clock)

            // Eight days ago: three events dispatched, one left pending; jobs done, failed, leased and queued.
            for id in ["e-old-1", "e-old-2", "e-old-3"] { try await Self.publish(id, db) }
            #expect(try await dispatcher.dispatchPending() == 3)
            try await Self.publish("e-pending", db)
            try await Self.job("j-done-old", ending: .done, queue: queue)
            try await Self.job("j-failed-old", ending: .failed, queue: queue)
            try await Self.job("j-leased-old", ending: .leased, queue: queue)
            try await Self.job("j-queued-old", ending: nil, queue: queue)
            clock.advance(by: 2 * 86_400)
            // Six days ago: a dispatched event and a done job, both still young.
            try await Self.publish("e-young", db)
            try await db.sql.raw(
                "UPDATE platform_outbox SET dispatched_at = \(bind: clock.now().millisecondsSince1970) WHERE id = 'e-young'"
            ).run()
            try await Self.job("j-done-young", ending: .done, queue: queue)
            clock.advance(by: 6 * 86_400)

            let removed = try await retention.purgeExpired(chunk: 2)
            #expect(removed.events == 3, "two chunks: 2, then 1")
            #expect(removed.jobs == 1, "only the old done job; the failed one is kept 30 days")
            #expect(try await Self.events(db) == ["e-pending", "e-young"])
            #expect(try await Self.jobs(db) == ["j-done-young", "j-failed-old", "j-leased-old", "j-queued-old"])
            let again = try await retention.purgeExpired()
            #expect(again.events == 0 && again.jobs == 0)

            // A month on: the failed job goes, and so do the young ones now expired; what is still to do stays.
            clock.advance(by: 23 * 86_400)
            let later = try await retention.purgeExpired()
            #expect(later.events == 1 && later.jobs == 2)
            #expect(try await Self.events(db) == ["e-pending"])
            #expect(try await Self.jobs(db) == ["j-leased-old", "j-queued-old"])
            // The pending event is still dispatched as usual.
            #expect(try await dispatcher.dispatchPending() == 1)
        }
    }

    /// The purger runs at start and then every ten minutes on its clock.
    @Test(arguments: TestDatabases.engines)
    func thePurgerRunsAtStartAndEveryTenMinutes(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let wall = FakeWallClock()
            let clock = ManualClock()
            let queue = JobQueue(database: db, clock: wall)
            let retention = BackgroundRetention(database: db, clock: wall, durationClock: clock)
            try await Self.job("j-first", ending: .done, queue: queue)
            wall.advance(by: BackgroundRetention.period + 1)
            let running = Task { try await retention.purger.run() }
            try await eventually("purged at start, then waiting") { try await Self.jobs(db).isEmpty && clock.sleepers.count == 1 }

            try await Self.job("j-second", ending: .done, queue: queue)
            wall.advance(by: BackgroundRetention.period + 1)
            clock.advance(by: .seconds(599))
            #expect(try await Self.jobs(db) == ["j-second"], "not purged again before ten minutes")
            clock.advance(by: .seconds(1))
            try await eventually("purged again ten minutes on") { try await Self.jobs(db).isEmpty && clock.sleepers.count == 1 }
            running.cancel()
            try await finished(running)
        }
    }
}
