import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import Synchronization
import TestSupport
import Testing

@Suite struct JobQueueTests {
    @Test(arguments: TestDatabases.engines)
    func enqueueIsIdempotentByID(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let queue = JobQueue(database: db, clock: FakeWallClock())
            #expect(try await queue.enqueue(NewJob(id: "post-workout:u1:w1", kind: "k", payload: #"{"a":1}"#)))
            #expect(try await queue.enqueue(NewJob(id: "post-workout:u1:w1", kind: "k", payload: #"{"a":2}"#)) == false)
            let claimed = try #require(try await queue.claim(worker: "w", kinds: ["k"], lease: 60))
            #expect(claimed.payload == #"{"a":1}"#)
            #expect(try await queue.claim(worker: "w", kinds: ["k"], lease: 60) == nil)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func failedAttemptsBackOffExponentiallyThenFail(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock()
            let queue = JobQueue(database: db, clock: clock)
            let policy = RetryPolicy(base: 300, cap: 1800)
            try await queue.enqueue(NewJob(id: "j", kind: "k", maxAttempts: 3))

            let first = try #require(try await queue.claim(worker: "w", kinds: ["k"], lease: 60))
            #expect(first.attempt == 1)
            #expect(try await queue.fail(first, error: "boom", retry: policy))
            #expect(try await queue.claim(worker: "w", kinds: ["k"], lease: 60) == nil, "not due before the backoff")
            clock.advance(by: 299)
            #expect(try await queue.claim(worker: "w", kinds: ["k"], lease: 60) == nil)
            clock.advance(by: 1)
            let second = try #require(try await queue.claim(worker: "w", kinds: ["k"], lease: 60))
            #expect(second.attempt == 2)
            try await queue.fail(second, error: "boom", retry: policy)
            clock.advance(by: 599)
            #expect(try await queue.claim(worker: "w", kinds: ["k"], lease: 60) == nil, "second backoff is doubled")
            clock.advance(by: 1)
            let third = try #require(try await queue.claim(worker: "w", kinds: ["k"], lease: 60))
            try await queue.fail(third, error: "still broken", retry: policy)

            let record = try #require(try await queue.job(id: "j"))
            #expect(record.status == .failed)
            #expect(record.attempts == 3)
            #expect(record.lastError == "still broken")
            clock.advance(by: 100_000)
            #expect(try await queue.claim(worker: "w", kinds: ["k"], lease: 60) == nil)
        }
    }

    @Test func retryPolicyDoublesAndCaps() {
        let policy = RetryPolicy(base: 300, cap: 1800)
        #expect(policy.delay(afterAttempt: 1) == 300)
        #expect(policy.delay(afterAttempt: 2) == 600)
        #expect(policy.delay(afterAttempt: 3) == 1200)
        #expect(policy.delay(afterAttempt: 4) == 1800)
        #expect(policy.delay(afterAttempt: 40) == 1800)
    }

    @Test(arguments: TestDatabases.engines)
    func watchdogRequeuesExpiredLeaseAndOldHolderCannotComplete(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock()
            let queue = JobQueue(database: db, clock: clock)
            try await queue.enqueue(NewJob(id: "j", kind: "k", maxAttempts: 5))
            let stuck = try #require(try await queue.claim(worker: "dead-worker", kinds: ["k"], lease: 30))
            #expect(try await queue.requeueExpiredLeases() == 0, "lease still valid")
            clock.advance(by: 31)
            #expect(try await queue.requeueExpiredLeases() == 1)
            let retaken = try #require(try await queue.claim(worker: "live-worker", kinds: ["k"], lease: 30))
            #expect(retaken.attempt == 2)
            #expect(try await queue.complete(stuck) == false, "the expired holder's completion is refused")
            #expect(try await queue.complete(retaken))
            #expect(try await queue.job(id: "j")?.status == .done)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func twoConcurrentWorkersNeverCompleteAJobTwice(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let queue = JobQueue(database: db, clock: SystemClock())
            let jobCount = 120
            for index in 0..<jobCount { try await queue.enqueue(NewJob(id: "job-\(index)", kind: "count")) }
            let runs = Mutex<[String: Int]>([:])
            let definition = JobDefinition(kind: "count", lease: 120) { job in
                runs.withLock { $0[job.id, default: 0] += 1 }
            }
            let workers = (1...2).map {
                JobWorker(name: "worker-\($0)", queue: queue, definitions: [definition], logger: TestDatabases.logger)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in workers { group.addTask { try await worker.drain() } }
                try await group.waitForAll()
            }
            let counts = runs.withLock { $0 }
            #expect(counts.count == jobCount)
            #expect(counts.values.allSatisfy { $0 == 1 })
            for index in [0, jobCount / 2, jobCount - 1] {
                #expect(try await queue.job(id: "job-\(index)")?.status == .done)
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func workerRetriesAFailingHandlerUntilItSucceeds(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock()
            let queue = JobQueue(database: db, clock: clock)
            let attempts = Mutex(0)
            let definition = JobDefinition(kind: "flaky", retry: RetryPolicy(base: 10, cap: 10)) { _ in
                let attempt = attempts.withLock { value -> Int in
                    value += 1
                    return value
                }
                if attempt < 3 { throw ServiceError(.internalError, "transient") }
            }
            let metrics = ServerMetrics()
            let worker = JobWorker(name: "w", queue: queue, definitions: [definition], logger: TestDatabases.logger, metrics: metrics)
            try await queue.enqueue(NewJob(id: "f", kind: "flaky", maxAttempts: 5))
            #expect(try await worker.runOnce())
            #expect(try await worker.runOnce() == false, "waiting out the backoff")
            clock.advance(by: 10)
            #expect(try await worker.runOnce())
            clock.advance(by: 10)
            #expect(try await worker.runOnce())
            #expect(attempts.withLock { $0 } == 3)
            #expect(try await queue.job(id: "f")?.status == .done)
            let exposition = metrics.exposition()
            #expect(exposition.contains(#"povver_jobs_total{kind="flaky",outcome="retried"} 2"#))
            #expect(exposition.contains(#"povver_jobs_total{kind="flaky",outcome="completed"} 1"#))
        }
    }

    @Test(arguments: TestDatabases.engines)
    func eachKindIsLeasedForItsOwnTime(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock()
            let queue = JobQueue(database: db, clock: clock)
            let leased = Mutex<[String: TimeInterval]>([:])
            let record: @Sendable (LeasedJob) async throws -> Void = { job in
                leased.withLock { $0[job.kind] = job.leaseExpiresAt.timeIntervalSince(clock.now()) }
            }
            let worker = JobWorker(
                name: "w", queue: queue,
                definitions: [
                    JobDefinition(kind: "short", lease: 30, handler: record), JobDefinition(kind: "long", lease: 600, handler: record),
                ],
                logger: TestDatabases.logger)
            try await queue.enqueue(NewJob(id: "s", kind: "short"))
            try await queue.enqueue(NewJob(id: "l", kind: "long"))
            try await worker.drain()
            #expect(leased.withLock { $0 } == ["short": 30, "long": 600])

            // A worker that died holding one job of each kind: the short one is free again after its own lease.
            try await queue.enqueue(NewJob(id: "s2", kind: "short"))
            try await queue.enqueue(NewJob(id: "l2", kind: "long"))
            let first = try #require(try await queue.claim(worker: "dead", leases: ["short": 30, "long": 600]))
            let second = try #require(try await queue.claim(worker: "dead", leases: ["short": 30, "long": 600]))
            #expect(
                Set([first.leaseExpiresAt, second.leaseExpiresAt]) == [
                    clock.now().addingTimeInterval(30), clock.now().addingTimeInterval(600),
                ])
            clock.advance(by: 31)
            #expect(try await queue.requeueExpiredLeases() == 1)
            #expect(try await queue.job(id: "s2")?.status == .queued)
            #expect(try await queue.job(id: "l2")?.status == .leased)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aJobRunningPastItsLeaseKeepsItWhileItRuns(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let wall = FakeWallClock()
            let clock = ManualClock(moving: wall)
            let queue = JobQueue(database: db, clock: wall)
            let runs = Mutex(0)
            let release = WriteQueueTests.Latch()
            defer { release.open() }
            let definition = JobDefinition(kind: "slow", lease: 9) { _ in
                runs.withLock { $0 += 1 }
                await release.wait()
            }
            let worker = JobWorker(name: "holder", queue: queue, definitions: [definition], clock: clock, logger: TestDatabases.logger)
            try await queue.enqueue(NewJob(id: "slow", kind: "slow"))
            let running = Task { try await worker.runOnce() }
            let keeper = try await LeaseKeeper.ofTheJobInHand(on: clock) { runs.withLock { $0 } == 1 }
            // Another replica's watchdog and worker, every second for well over two leases: the job is never theirs.
            let taken = try await keeper.othersTryToTake(kind: "slow", for: 25, queue: queue)
            release.open()
            #expect(try await finished(running))
            #expect(taken == nil, "the lease was renewed while the handler ran")
            #expect(runs.withLock { $0 } == 1)
            let record = try #require(try await queue.job(id: "slow"))
            #expect(record.status == .done)
            #expect(record.attempts == 1)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func anAttemptPastItsTimeLimitIsCancelledAndRetried(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let wall = FakeWallClock()
            let clock = ManualClock(moving: wall)
            let queue = JobQueue(database: db, clock: wall)
            let started = Mutex(false)
            let cancelled = Mutex(false)
            let definition = JobDefinition(kind: "stuck", lease: 60, timeout: 0.3) { _ in
                started.withLock { $0 = true }
                do {
                    try await workUntilCancelled()
                } catch {
                    cancelled.withLock { $0 = Task.isCancelled }
                    throw error
                }
            }
            let metrics = ServerMetrics()
            let worker = JobWorker(
                name: "w", queue: queue, definitions: [definition], clock: clock, logger: TestDatabases.logger, metrics: metrics)
            try await queue.enqueue(NewJob(id: "stuck", kind: "stuck", maxAttempts: 3))
            let running = Task { try await worker.runOnce() }
            _ = try await LeaseKeeper.ofTheJobInHand(on: clock) { started.withLock { $0 } }
            clock.advance(by: .milliseconds(299))
            #expect(!cancelled.withLock { $0 }, "not cancelled before its time limit")
            clock.advance(by: .milliseconds(1))
            #expect(try await finished(running, "the attempt ended at its time limit"))
            #expect(cancelled.withLock { $0 })
            let record = try #require(try await queue.job(id: "stuck"))
            #expect(record.status == .queued)
            #expect(record.attempts == 1)
            #expect(record.lastError == "ran past its time limit of 0.3 s")
            #expect(metrics.exposition().contains(#"povver_jobs_total{kind="stuck",outcome="retried"} 1"#))
        }
    }

    /// A handler that does not heed the cancellation at its time limit keeps the job's lease until it returns, so
    /// no other worker runs the job meanwhile; the work it then finishes counts as done.
    @Test(arguments: TestDatabases.engines)
    func aHandlerSlowToStopAtItsTimeLimitKeepsTheLease(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let wall = FakeWallClock()
            let clock = ManualClock(moving: wall)
            let queue = JobQueue(database: db, clock: wall)
            let started = Mutex(false)
            let askedToStop = Mutex(false)
            let release = WriteQueueTests.Latch()
            defer { release.open() }
            let definition = JobDefinition(kind: "deaf", lease: 9, timeout: 0.2) { _ in
                started.withLock { $0 = true }
                // Work that cannot be interrupted, running well past the time limit and the lease.
                await release.wait()
                askedToStop.withLock { $0 = Task.isCancelled }
            }
            let worker = JobWorker(name: "holder", queue: queue, definitions: [definition], clock: clock, logger: TestDatabases.logger)
            try await queue.enqueue(NewJob(id: "deaf", kind: "deaf", maxAttempts: 3))
            let running = Task { try await worker.runOnce() }
            let keeper = try await LeaseKeeper.ofTheJobInHand(on: clock) { started.withLock { $0 } }
            let taken = try await keeper.othersTryToTake(kind: "deaf", for: 25, queue: queue)
            #expect(try await queue.job(id: "deaf")?.status == .leased)
            release.open()
            #expect(try await finished(running))
            #expect(taken == nil, "the lease was renewed until the handler returned")
            #expect(askedToStop.withLock { $0 }, "the handler was cancelled at its time limit")
            let record = try #require(try await queue.job(id: "deaf"))
            #expect(record.status == .done)
            #expect(record.attempts == 1)
        }
    }

    /// A worker cancelled while its handler runs (a shutdown cut short) asks the handler to stop but keeps the
    /// lease until it has: a handler that cannot stop at once finishes its work without another worker taking it.
    @Test(arguments: TestDatabases.engines)
    func aCancelledWorkerKeepsTheLeaseUntilItsHandlerStops(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let wall = FakeWallClock()
            let clock = ManualClock(moving: wall)
            let queue = JobQueue(database: db, clock: wall)
            let started = Mutex(false)
            let release = WriteQueueTests.Latch()
            defer { release.open() }
            let definition = JobDefinition(kind: "busy", lease: 9) { _ in
                started.withLock { $0 = true }
                await release.wait()
            }
            let worker = JobWorker(name: "holder", queue: queue, definitions: [definition], clock: clock, logger: TestDatabases.logger)
            try await queue.enqueue(NewJob(id: "busy", kind: "busy"))
            let running = Task { try await worker.runOnce() }
            let keeper = try await LeaseKeeper.ofTheJobInHand(on: clock) { started.withLock { $0 } }
            running.cancel()
            let taken = try await keeper.othersTryToTake(kind: "busy", for: 25, queue: queue)
            #expect(try await queue.job(id: "busy")?.status == .leased)
            release.open()
            _ = try? await finished(running)
            #expect(taken == nil, "the lease was renewed until the handler returned")
            #expect(try await queue.job(id: "busy")?.status == .done)
        }
    }

    /// A worker stopped while its handler runs (which stops at the cancellation) gives the job back as it was:
    /// queued, due now, the attempt not counted.
    @Test(arguments: TestDatabases.engines)
    func aStoppedWorkerGivesItsJobBack(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let queue = JobQueue(database: db, clock: FakeWallClock())
            let clock = ManualClock()
            let started = Mutex(false)
            let definition = JobDefinition(kind: "k", lease: 60) { _ in
                started.withLock { $0 = true }
                try await workUntilCancelled()
            }
            let metrics = ServerMetrics()
            let worker = JobWorker(
                name: "w", queue: queue, definitions: [definition], clock: clock, logger: TestDatabases.logger, metrics: metrics)
            try await queue.enqueue(NewJob(id: "j", kind: "k", maxAttempts: 1))
            let running = Task { try await worker.runOnce() }
            _ = try await LeaseKeeper.ofTheJobInHand(on: clock) { started.withLock { $0 } }
            running.cancel()
            #expect(try await finished(running))
            let record = try #require(try await queue.job(id: "j"))
            #expect(record.status == .queued, "its only attempt was not used up")
            #expect(record.attempts == 0)
            #expect(metrics.exposition().contains(#"povver_jobs_total{kind="k",outcome="released"} 1"#))
            #expect(try await queue.claim(worker: "next", kinds: ["k"], lease: 60) != nil)
        }
    }

    /// A handler that ignores its cancellation for good is given up on a grace period after its time limit: the
    /// attempt ends (recorded as timed out) and the worker is free again, the handler left running on its own.
    @Test(arguments: TestDatabases.engines)
    func aHandlerThatNeverStopsIsGivenUp(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let wall = FakeWallClock()
            let clock = ManualClock(moving: wall)
            let queue = JobQueue(database: db, clock: wall)
            let started = Mutex(false)
            let release = WriteQueueTests.Latch()
            defer { release.open() }  // the handler, left running, ends with the test
            let definition = JobDefinition(kind: "hung", lease: 60, timeout: 0.1) { _ in
                started.withLock { $0 = true }
                await release.wait()
            }
            let worker = JobWorker(
                name: "w", queue: queue, definitions: [definition], stuckGrace: 0.5, clock: clock, logger: TestDatabases.logger)
            try await queue.enqueue(NewJob(id: "hung", kind: "hung", maxAttempts: 3))
            let running = Task { try await worker.runOnce() }
            let keeper = try await LeaseKeeper.ofTheJobInHand(on: clock) { started.withLock { $0 } }
            // At the time limit the handler is cancelled (and does not stop); the keeper then waits out the grace.
            clock.advance(by: .milliseconds(100))
            _ = try await keeper.sleepsAgain()
            clock.advance(by: .milliseconds(499))
            _ = try await keeper.sleepsAgain()
            #expect(try await queue.job(id: "hung")?.status == .leased, "not given up before the grace is over")
            clock.advance(by: .milliseconds(1))
            #expect(try await finished(running, "the attempt ended without its handler"))
            let record = try #require(try await queue.job(id: "hung"))
            #expect(record.status == .queued)
            #expect(record.lastError == "ran past its time limit of 0.1 s")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aLostLeaseCancelsTheHandler(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let wall = FakeWallClock()
            let clock = ManualClock(moving: wall)
            let queue = JobQueue(database: db, clock: wall)
            let (job, running, metrics) = try await SleepingJob.start(queue: queue, lease: 60, clock: clock)
            // The worker stalled past its lease (its clock stood still while the rest of the system's went on), and
            // another took the job.
            wall.advance(by: 61)
            #expect(try await queue.requeueExpiredLeases() == 1)
            let other = try #require(try await queue.claim(worker: "other", kinds: ["k"], lease: 60))
            #expect(job.cancelledAt == nil)
            // Its next renewal, a beat on, finds the job taken.
            clock.advance(by: .seconds(20))
            #expect(try await finished(running))
            #expect(job.cancelledAt != nil, "the first holder's handler was cancelled at its next renewal")
            #expect(metrics.exposition().contains(#"povver_jobs_total{kind="k",outcome="lease_lost"} 1"#))
            #expect(try await queue.complete(other))
            #expect(try await queue.job(id: "j")?.status == .done)
        }
    }

    /// A renewal that hangs (the database holds it: a silent connection, a long lock) does not hold the lease
    /// keeper: a beat before the lease would run out the handler is cancelled, while the renewal still waits,
    /// so it has stopped before another worker could be given the job.
    @Test(arguments: TestDatabases.engines)
    func aHungRenewalCancelsTheHandlerBeforeTheLeaseRunsOut(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let wall = FakeWallClock()
            let clock = ManualClock(moving: wall)
            let queue = JobQueue(database: db, clock: wall)
            // Renewed every 4 s.
            let (job, running, metrics) = try await SleepingJob.start(queue: queue, lease: 12, clock: clock)
            let keeper = try #require(clock.sleepers.first)
            let expiry = Date(
                millisecondsSince1970: try #require(
                    try await db.sql.raw("SELECT lease_expires_at FROM platform_jobs WHERE id = 'j'").first(
                        decodingColumn: "lease_expires_at", as: Int64.self)))
            // Another transaction takes the job's row and holds it (SQLite: the writer, PostgreSQL: the row's lock),
            // so the next renewal waits.
            let latch = WriteQueueTests.Latch()
            defer { latch.open() }  // a failed expectation must not leave the database held
            let held = Mutex(false)
            let holder = Task {
                try await db.transaction { tx in
                    try await tx.sql.raw("UPDATE platform_jobs SET updated_at = updated_at WHERE id = 'j'").run()
                    held.withLock { $0 = true }
                    await latch.wait()
                }
            }
            try await eventually("the row is held") { held.withLock { $0 } }
            clock.advance(by: .seconds(4))
            // The keeper waits for the renewal's answer; only the time it gives it sleeps.
            try await eventually("the renewal's time to answer began") {
                let sleepers = clock.sleepers
                return sleepers.count == 1 && sleepers[0].task != keeper.task
            }
            #expect(job.cancelledAt == nil)
            let answerBy = try #require(clock.sleepers.first).deadline
            clock.advance(to: answerBy)
            try await eventually("the handler was cancelled while the renewal hung") { job.cancelledAt != nil }
            let cancelled = try #require(job.cancelledAt)
            #expect(cancelled < expiry, "cancelled at \(cancelled), before the lease ran out at \(expiry)")
            latch.open()
            try await holder.value
            #expect(try await finished(running))
            #expect(metrics.exposition().contains(#"povver_jobs_total{kind="k",outcome="retried"} 1"#), "\(metrics.exposition())")
            let record = try #require(try await queue.job(id: "j"))
            #expect(record.status == .queued)
            #expect(record.lastError == "the lease was lost")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theWatchdogRunsWhileAJobIsInHand(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let wall = FakeWallClock()
            let clock = ManualClock(moving: wall)
            let queue = JobQueue(database: db, clock: wall)
            let release = WriteQueueTests.Latch()
            defer { release.open() }
            let started = Mutex(false)
            let definition = JobDefinition(kind: "long", lease: 60) { _ in
                started.withLock { $0 = true }
                await release.wait()
            }
            // A job another worker held when it died.
            try await queue.enqueue(NewJob(id: "orphan", kind: "other"))
            _ = try #require(try await queue.claim(worker: "dead", kinds: ["other"], lease: 30))
            try await queue.enqueue(NewJob(id: "long", kind: "long"))
            let worker = JobWorker(
                name: "w", queue: queue, definitions: [definition], watchdogInterval: 30, clock: clock, logger: TestDatabases.logger)
            let running = Task { try await worker.run() }
            // The worker holds its own job (its keeper sleeps) and its watchdog waits for its next round.
            try await eventually("the job in hand and the watchdog's wait") { started.withLock { $0 } && clock.sleepers.count == 2 }
            #expect(try await queue.job(id: "orphan")?.status == .leased)
            clock.advance(by: .seconds(31))
            try await eventually("re-queued while the worker's own job was still running") {
                try await queue.job(id: "orphan")?.status == .queued
            }
            #expect(try await queue.job(id: "long")?.status == .leased)
            release.open()
            try await eventually("the job in hand done") { try await queue.job(id: "long")?.status == .done }
            running.cancel()
            try await finished(running)
        }
    }
}

/// Suspends until the task is cancelled, then throws `CancellationError`: a handler that works until stopped.
func workUntilCancelled() async throws {
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    for await _ in stream {}  // ends when the task is cancelled
    continuation.finish()
    throw CancellationError()
}

/// The lease keeper of the one job a worker (on a manual clock) has in hand: tests move time and wait for it to
/// have done what that time asked of it (renewed, cancelled, given up), instead of sleeping through leases.
struct LeaseKeeper {
    let clock: ManualClock
    /// The keeper's task, as the clock sees it: its sleeps are told from the renewals' timers by it.
    let task: Int

    /// Returns once the handler runs (`started`) and the keeper sleeps: then the only task sleeping on `clock`.
    static func ofTheJobInHand(on clock: ManualClock, started: () -> Bool) async throws -> LeaseKeeper {
        try await eventually("the handler runs and its lease keeper sleeps") { started() && clock.sleepers.count == 1 }
        return LeaseKeeper(clock: clock, task: try #require(clock.sleepers.first).task)
    }

    /// Returns once the keeper sleeps (at once if the clock has not reached its wake-up), with its deadline.
    func sleepsAgain() async throws -> ManualClock.Instant {
        try await eventually("the lease keeper sleeps again") { clock.sleepers.contains { $0.task == task } }
        return try #require(clock.sleepers.first { $0.task == task }).deadline
    }

    /// Moves time on a second at a time for `seconds`, and after each second (once the keeper has renewed, if
    /// that second was its beat) lets another replica's watchdog and worker try to take a job of `kind`.
    /// Returns what they took.
    func othersTryToTake(kind: String, for seconds: Int, queue: JobQueue) async throws -> LeasedJob? {
        var taken: LeasedJob?
        for _ in 0..<seconds {
            clock.advance(by: .seconds(1))
            _ = try await sleepsAgain()
            try await queue.requeueExpiredLeases()
            if let job = try await queue.claim(worker: "thief", kinds: [kind], lease: 60) { taken = job }
        }
        return taken
    }
}

/// Job "j" of kind "k", whose handler works until it is cancelled, claimed by a worker on `clock` and running.
final class SleepingJob: Sendable {
    private let started = Mutex(false)
    private let cancelled = Mutex<Date?>(nil)

    /// When (by the queue's clock) the handler saw its cancellation, or nil.
    var cancelledAt: Date? { cancelled.withLock { $0 } }

    /// Enqueues the job and returns once its handler runs and its lease keeper sleeps (the only sleeper on
    /// `clock`), with the worker's `runOnce` and its metrics.
    static func start(queue: JobQueue, lease: TimeInterval, clock: ManualClock) async throws -> (
        SleepingJob, Task<Bool, any Error>, ServerMetrics
    ) {
        let job = SleepingJob()
        let definition = JobDefinition(kind: "k", lease: lease) { _ in
            job.started.withLock { $0 = true }
            do {
                try await workUntilCancelled()
            } catch {
                job.cancelled.withLock { $0 = queue.clock.now() }
                throw error
            }
        }
        let metrics = ServerMetrics()
        let worker = JobWorker(
            name: "w", queue: queue, definitions: [definition], clock: clock, logger: TestDatabases.logger, metrics: metrics)
        try await queue.enqueue(NewJob(id: "j", kind: "k", maxAttempts: 3))
        let running = Task { try await worker.runOnce() }
        _ = try await LeaseKeeper.ofTheJobInHand(on: clock) { job.started.withLock { $0 } }
        return (job, running, metrics)
    }
}
