import Contracts
import Fakes
import Foundation
import Platform
import Synchronization
import Testing
import TestSupport

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
            let workers = (1...2).map { JobWorker(name: "worker-\($0)", queue: queue, definitions: [definition], logger: TestDatabases.logger) }
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
}
