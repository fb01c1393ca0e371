import Contracts
import Fakes
import Foundation
import SQLKit
import Synchronization
import TestSupport
import Testing

@testable import Platform

struct SetLogged: DomainEvent, Equatable {
    static let eventType = "test.set_logged"
    var setId: String
    var userId = "u-outbox"
}

@Suite struct OutboxTests {
    /// A handler that records what it saw; idempotent by event id as every handler must be.
    final class Recorder: Sendable {
        let seen = Mutex<[String]>([])
        let calls = Mutex(0)

        func handler(name: String = "recorder") -> EventHandler {
            .on(SetLogged.self, name: name) { event, stored in
                self.calls.withLock { $0 += 1 }
                self.seen.withLock { seen in
                    if !seen.contains(stored.id) { seen.append(stored.id) }
                }
                _ = event
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func committedEventReachesEverySubscriber(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let queue = JobQueue(database: db, clock: SystemClock())
            let first = Recorder()
            let second = Recorder()
            let handlers = [first.handler(name: "first"), second.handler(name: "second")]
            let dispatcher = OutboxDispatcher(database: db, queue: queue, handlers: handlers, logger: TestDatabases.logger)
            let worker = JobWorker(
                name: "w", queue: queue, definitions: OutboxDispatcher.deliveryJobs(handlers: handlers, logger: TestDatabases.logger),
                logger: TestDatabases.logger)

            try await db.transaction { tx in
                try await tx.publish(SetLogged(setId: "s1"), id: "e1", occurredAt: Date())
            }
            #expect(try await dispatcher.dispatchPending() == 1)
            try await worker.drain()
            #expect(first.seen.withLock { $0 } == ["e1"])
            #expect(second.seen.withLock { $0 } == ["e1"])
            #expect(try await dispatcher.dispatchPending() == 0, "dispatched once")
        }
    }

    /// The outbox's lag (commit to fan-out) and the events fanned out, as Prometheus series.
    @Test(arguments: TestDatabases.engines)
    func dispatchRecordsTheOutboxLag(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock()
            let metrics = ServerMetrics()
            let queue = JobQueue(database: db, clock: clock)
            let dispatcher = OutboxDispatcher(
                database: db, queue: queue, handlers: [Recorder().handler()], logger: TestDatabases.logger, metrics: metrics)
            try await db.transaction { tx in
                try await tx.publish(SetLogged(setId: "s1"), id: "e1", occurredAt: clock.now())
            }
            clock.advance(by: 3)
            #expect(try await dispatcher.dispatchPending() == 1)
            let exposition = metrics.exposition()
            #expect(exposition.contains("povver_outbox_events_dispatched_total{type=\"\(SetLogged.eventType)\"} 1"), "\(exposition)")
            #expect(exposition.contains("povver_outbox_lag_seconds_count 1"), "\(exposition)")
            #expect(exposition.contains("povver_outbox_lag_seconds_sum 3.0"), "\(exposition)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func rolledBackTransactionPublishesNothing(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let queue = JobQueue(database: db, clock: SystemClock())
            let recorder = Recorder()
            let dispatcher = OutboxDispatcher(database: db, queue: queue, handlers: [recorder.handler()], logger: TestDatabases.logger)
            await #expect(throws: ServiceError.self) {
                try await db.transaction { tx in
                    try await tx.publish(SetLogged(setId: "s1"), id: "e1", occurredAt: Date())
                    throw ServiceError(.conflict)
                }
            }
            let pending = try await dispatcher.dispatchPending()
            #expect(pending == 0)
        }
    }

    /// The process dies after the transaction committed and before anything was delivered; a new process on
    /// the same database delivers the event.
    @Test(arguments: TestDatabases.engines)
    func eventSurvivesCrashBetweenCommitAndDelivery(engine: SQLEngine) async throws {
        let location = try await TestDatabases.makeLocation(engine)
        defer { Task { try? await TestDatabases.dispose(location) } }

        let before = try await Database.open(location, logger: TestDatabases.logger)
        try await Migrator(database: before, logger: TestDatabases.logger).migrate([Migrator.platformMigrations])
        try await before.transaction { tx in
            try await tx.publish(SetLogged(setId: "s9"), id: "e-crash", occurredAt: Date())
        }
        await before.shutdown()  // the crash: no dispatcher ever ran

        let after = try await Database.open(location, logger: TestDatabases.logger)
        let recorder = Recorder()
        let handlers = [recorder.handler()]
        let queue = JobQueue(database: after, clock: SystemClock())
        let dispatcher = OutboxDispatcher(database: after, queue: queue, handlers: handlers, logger: TestDatabases.logger)
        let worker = JobWorker(
            name: "w2", queue: queue, definitions: OutboxDispatcher.deliveryJobs(handlers: handlers, logger: TestDatabases.logger),
            logger: TestDatabases.logger)
        try await dispatcher.dispatchPending()
        try await worker.drain()
        #expect(recorder.seen.withLock { $0 } == ["e-crash"])
        await after.shutdown()
        try await TestDatabases.dispose(location)
    }

    /// The handler ran but the process died before the delivery was marked done: the lease expires, the
    /// delivery runs again, and the idempotent handler's effect stays single.
    @Test(arguments: TestDatabases.engines)
    func deliveryIsRetriedAfterCrashMidHandler(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock()
            let queue = JobQueue(database: db, clock: clock)
            let recorder = Recorder()
            let handlers = [recorder.handler()]
            let dispatcher = OutboxDispatcher(database: db, queue: queue, handlers: handlers, logger: TestDatabases.logger)
            try await db.transaction { tx in
                try await tx.publish(SetLogged(setId: "s1"), id: "e1", occurredAt: Date())
            }
            try await dispatcher.dispatchPending()
            // A worker claims the delivery, runs the handler, and dies before completing it.
            let definitions = OutboxDispatcher.deliveryJobs(handlers: handlers, logger: TestDatabases.logger)
            let delivery = try #require(try await queue.claim(worker: "doomed", kinds: definitions.map(\.kind), lease: 60))
            try await #require(definitions.first { $0.kind == delivery.kind }).handler(delivery)
            clock.advance(by: 61)
            let worker = JobWorker(
                name: "survivor", queue: queue,
                definitions: OutboxDispatcher.deliveryJobs(handlers: handlers, logger: TestDatabases.logger),
                logger: TestDatabases.logger)
            try await worker.drain()
            #expect(recorder.calls.withLock { $0 } == 2, "delivered at least once: here twice")
            #expect(recorder.seen.withLock { $0 } == ["e1"], "the idempotent handler applied it once")
            #expect(try await queue.complete(delivery) == false)
        }
    }

    static func status(_ job: String, in db: Database) async throws -> String? {
        try await db.sql.raw("SELECT status FROM platform_jobs WHERE id = \(bind: job)").first(decodingColumn: "status", as: String.self)
    }

    /// While two versions run side by side (a rolling deploy), a worker without a handler never takes the
    /// deliveries to it: they wait for a worker that has it, instead of being completed undelivered. A delivery
    /// queued under the former shared kind for a handler this process lacks is retried, never marked done.
    @Test(arguments: TestDatabases.engines)
    func aWorkerWithoutTheHandlerLeavesItsDeliveries(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let queue = JobQueue(database: db, clock: SystemClock())
            let old = Recorder()
            let added = Recorder()
            let handlers = [old.handler(name: "old"), added.handler(name: "added")]
            let dispatcher = OutboxDispatcher(database: db, queue: queue, handlers: handlers, logger: TestDatabases.logger)
            try await db.transaction { tx in try await tx.publish(SetLogged(setId: "s1"), id: "e1", occurredAt: Date()) }
            #expect(try await dispatcher.dispatchPending() == 1)
            let previous = JobWorker(
                name: "previous", queue: queue,
                definitions: OutboxDispatcher.deliveryJobs(handlers: [handlers[0]], logger: TestDatabases.logger),
                logger: TestDatabases.logger)
            try await previous.drain()
            #expect(old.seen.withLock { $0 } == ["e1"])
            #expect(try await Self.status("event:e1:added", in: db) == "queued", "left for a worker that has the handler")
            let current = JobWorker(
                name: "current", queue: queue, definitions: OutboxDispatcher.deliveryJobs(handlers: handlers, logger: TestDatabases.logger),
                logger: TestDatabases.logger)
            try await current.drain()
            #expect(added.seen.withLock { $0 } == ["e1"])
            #expect(try await Self.status("event:e1:added", in: db) == "done")

            // The former shared kind, naming a handler this process does not have.
            let stored = StoredEvent(id: "e2", type: SetLogged.eventType, payload: #"{"set_id":"s2","user_id":"u"}"#, occurredAt: Date())
            let payload = try JSONCoding.encodeToString(OutboxDispatcher.Delivery(handler: "elsewhere", event: stored))
            try await db.transaction { tx in
                try await queue.enqueue(
                    NewJob(id: "event:e2:elsewhere", kind: OutboxDispatcher.deliveryJobKind, payload: payload, maxAttempts: 10), in: tx)
            }
            #expect(try await current.runOnce())
            #expect(try await Self.status("event:e2:elsewhere", in: db) == "queued", "retried later, not completed")
        }
    }

    /// An event reaches the handlers every running version registered, not only the dispatching replica's own:
    /// an older replica still queues the deliveries of a handler only the newer one has (which only it claims). A
    /// registration not renewed for a week is forgotten.
    @Test(arguments: TestDatabases.engines)
    func anEventReachesTheHandlersOtherReplicasRegistered(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock()
            let queue = JobQueue(database: db, clock: clock)
            let old = Recorder()
            let added = Recorder()
            let older = OutboxDispatcher(database: db, queue: queue, handlers: [old.handler(name: "old")], logger: TestDatabases.logger)
            let newerHandlers = [old.handler(name: "old"), added.handler(name: "added")]
            let newer = OutboxDispatcher(database: db, queue: queue, handlers: newerHandlers, logger: TestDatabases.logger)
            try await older.registerHandlers()
            try await newer.registerHandlers()
            try await db.transaction { tx in try await tx.publish(SetLogged(setId: "s1"), id: "e1", occurredAt: Date()) }
            #expect(try await older.dispatchPending() == 1)
            #expect(try await Self.status("event:e1:added", in: db) == "queued")
            let worker = JobWorker(
                name: "newer", queue: queue,
                definitions: OutboxDispatcher.deliveryJobs(handlers: newerHandlers, logger: TestDatabases.logger),
                logger: TestDatabases.logger)
            try await worker.drain()
            #expect(old.seen.withLock { $0 } == ["e1"])
            #expect(added.seen.withLock { $0 } == ["e1"])

            clock.advance(by: OutboxDispatcher.registrationLifetime + 1)
            try await older.registerHandlers()
            try await db.transaction { tx in try await tx.publish(SetLogged(setId: "s2"), id: "e2", occurredAt: Date()) }
            #expect(try await older.dispatchPending() == 1)
            #expect(try await Self.status("event:e2:old", in: db) == "queued")
            #expect(try await Self.status("event:e2:added", in: db) == nil, "the newer version left a week ago")
        }
    }

    /// A handler removed from the code: once no replica has registered it for a week, its queued deliveries are
    /// failed (visible, re-queueable) at the next registration, not left queued for a worker that never comes.
    /// Deliveries to handlers still registered, and one in a worker's hands, are left alone.
    @Test(arguments: TestDatabases.engines)
    func deliveriesToARetiredHandlerEndFailed(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock()
            let queue = JobQueue(database: db, clock: clock)
            let kept = Recorder()
            let former = OutboxDispatcher(
                database: db, queue: queue, handlers: [kept.handler(name: "kept"), kept.handler(name: "removed")],
                logger: TestDatabases.logger)
            let current = OutboxDispatcher(database: db, queue: queue, handlers: [kept.handler(name: "kept")], logger: TestDatabases.logger)
            try await former.registerHandlers()
            for index in 0..<3 {
                try await db.transaction { tx in try await tx.publish(SetLogged(setId: "s\(index)"), id: "e\(index)", occurredAt: Date()) }
            }
            #expect(try await former.dispatchPending() == 3)
            _ = try #require(
                try await queue.claim(worker: "busy", kinds: [OutboxDispatcher.deliveryJobKind(handler: "removed")], lease: 30 * 24 * 3600))

            clock.advance(by: OutboxDispatcher.registrationLifetime - 60)
            try await current.registerHandlers()
            #expect(try await Self.status("event:e1:removed", in: db) == "queued", "registered less than a week ago")

            clock.advance(by: 120)
            try await current.registerHandlers()
            let failed = try #require(try await queue.job(id: "event:e1:removed"))
            #expect(failed.status == .failed)
            #expect(failed.lastError == "no running version has this event handler")
            #expect(try await Self.status("event:e2:removed", in: db) == "failed")
            #expect(try await Self.status("event:e0:removed", in: db) == "leased", "a worker has it")
            for index in 0..<3 { #expect(try await Self.status("event:e\(index):kept", in: db) == "queued") }
        }
    }

    /// Every committed event reaches each handler, once (batches of two, five events, two handlers).
    @Test(arguments: TestDatabases.engines)
    func everyEventReachesEachHandlerOnce(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let queue = JobQueue(database: db, clock: SystemClock())
            let recorder = Recorder()
            let other = Recorder()
            let handlers = [recorder.handler(), other.handler(name: "other")]
            let dispatcher = OutboxDispatcher(database: db, queue: queue, handlers: handlers, logger: TestDatabases.logger)
            for index in 0..<5 {
                try await db.transaction { tx in
                    try await tx.publish(SetLogged(setId: "s\(index)"), id: "e\(index)", occurredAt: Date())
                }
            }
            #expect(try await dispatcher.dispatchPending(batchSize: 2) == 5)
            let worker = JobWorker(
                name: "w", queue: queue, definitions: OutboxDispatcher.deliveryJobs(handlers: handlers, logger: TestDatabases.logger),
                logger: TestDatabases.logger)
            try await worker.drain()
            #expect(recorder.seen.withLock { $0 }.sorted() == (0..<5).map { "e\($0)" })
            #expect(recorder.calls.withLock { $0 } == 5)
            #expect(other.seen.withLock { $0 }.sorted() == (0..<5).map { "e\($0)" })
            #expect(other.calls.withLock { $0 } == 5)
        }
    }

    /// The dispatcher's loop waits between polls on its clock: a commit that publishes wakes it at once, without
    /// the clock moving, and it registers its handlers again once an hour has passed on that clock.
    @Test(arguments: TestDatabases.engines)
    func theDispatcherWakesForACommitAndRegistersHourly(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let wall = FakeWallClock()
            let clock = ManualClock(moving: wall)
            let queue = JobQueue(database: db, clock: wall)
            let recorder = Recorder()
            let dispatcher = OutboxDispatcher(
                database: db, queue: queue, handlers: [recorder.handler()], pollInterval: .seconds(3600), clock: clock,
                logger: TestDatabases.logger)
            let seenAt = { @Sendable () async throws -> Int64? in
                try await db.sql.raw("SELECT seen_at FROM platform_event_handlers WHERE name = 'recorder'").first(
                    decodingColumn: "seen_at", as: Int64.self)
            }
            let running = Task { try await dispatcher.run() }
            try await eventually("registered, and waiting") { clock.sleepers.count == 1 }
            let registered = wall.now().millisecondsSince1970
            #expect(try await seenAt() == registered)

            try await db.transaction { tx in try await tx.publish(SetLogged(setId: "s1"), id: "e1", occurredAt: Date()) }
            try await eventually("dispatched at the commit") { try await Self.status("event:e1:recorder", in: db) == "queued" }
            try await eventually("waiting again") { clock.sleepers.count == 1 }
            #expect(clock.now == ManualClock.Instant(offset: .zero))

            clock.advance(by: .seconds(3599))
            #expect(try await seenAt() == registered, "not registered again within the hour")
            clock.advance(by: .seconds(1))
            let hourLater = wall.now().millisecondsSince1970
            try await eventually("registered again an hour on") { try await seenAt() == hourLater }
            running.cancel()
            try await finished(running)
        }
    }
}
