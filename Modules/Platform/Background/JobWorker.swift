import Contracts
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// How one kind of job runs.
public struct JobDefinition: Sendable {
    public var kind: String
    public var lease: TimeInterval
    public var retry: RetryPolicy
    public var handler: @Sendable (LeasedJob) async throws -> Void

    public init(
        kind: String, lease: TimeInterval = 60, retry: RetryPolicy = RetryPolicy(base: 5, cap: 300),
        handler: @escaping @Sendable (LeasedJob) async throws -> Void
    ) {
        self.kind = kind
        self.lease = lease
        self.retry = retry
        self.handler = handler
    }
}

/// Runs queued jobs: claims one at a time, runs its handler, completes or fails it; every `watchdogInterval`
/// it re-queues expired leases. A `Service`: on graceful shutdown it finishes the job in hand and stops.
public final class JobWorker: Service, Sendable {
    public let name: String
    private let queue: JobQueue
    private let definitions: [String: JobDefinition]
    private let pollInterval: Duration
    private let watchdogInterval: TimeInterval
    private let logger: Logger
    private let metrics: ServerMetrics?
    private let doorbell = Doorbell()
    private let lastWatchdog = Mutex<Date?>(nil)

    public init(
        name: String, queue: JobQueue, definitions: [JobDefinition], pollInterval: Duration = .milliseconds(500),
        watchdogInterval: TimeInterval = 30, logger: Logger, metrics: ServerMetrics? = nil
    ) {
        self.metrics = metrics
        self.name = name
        self.queue = queue
        self.definitions = Dictionary(definitions.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.pollInterval = pollInterval
        self.watchdogInterval = watchdogInterval
        self.logger = logger
    }

    /// Wakes the worker now instead of at its next poll.
    public func wake() { doorbell.ring() }

    /// Runs at most one job. Returns false when nothing was due.
    @discardableResult
    public func runOnce() async throws -> Bool {
        try await watchdogIfDue()
        let kinds = Array(definitions.keys).sorted()
        let maxLease = definitions.values.map(\.lease).max() ?? 60
        guard let job = try await queue.claim(worker: name, kinds: kinds, lease: maxLease) else { return false }
        guard let definition = definitions[job.kind] else { return true }
        let start = ContinuousClock.now
        do {
            try await definition.handler(job)
        } catch {
            try await queue.fail(job, error: String(describing: error), retry: definition.retry)
            let outcome = job.attempt >= job.maxAttempts ? "failed" : "retried"
            metrics?.recordJob(kind: job.kind, outcome: outcome, duration: ContinuousClock.now - start)
            logger.warning(
                "job attempt failed",
                metadata: [
                    "event": "job_failed", "job_id": "\(job.id)", "kind": "\(job.kind)", "attempt": "\(job.attempt)",
                    "max_attempts": "\(job.maxAttempts)", "error": "\(error)",
                ])
            return true
        }
        // The work is done (`Bookkeeping`): should recording it fail, the job stays leased and runs again once the
        // lease expires (on its last attempt the watchdog then marks it failed, as for a worker that died).
        let completed = await Bookkeeping.retriedBriefly({ try await queue.complete(job) }) { error in
            logger.error(
                "job done but not recorded",
                metadata: ["event": "job_complete_failed", "job_id": "\(job.id)", "kind": "\(job.kind)", "error": "\(error)"])
        }
        let outcome = completed.map { $0 ? "completed" : "lease_lost" } ?? "unrecorded"
        metrics?.recordJob(kind: job.kind, outcome: outcome, duration: ContinuousClock.now - start)
        logger.debug("job finished", metadata: ["event": "job_completed", "job_id": "\(job.id)", "kind": "\(job.kind)", "outcome": "\(outcome)"])
        return true
    }

    /// Runs jobs until none is due (tests and CLIs).
    public func drain(limit: Int = 10_000) async throws {
        var count = 0
        while count < limit, try await runOnce() { count += 1 }
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            var didWork = false
            do {
                didWork = try await runOnce()
            } catch {
                logger.error("job worker error", metadata: ["event": "job_worker_error", "error": "\(error)"])
            }
            if !didWork {
                await doorbell.wait(upTo: pollInterval)
            }
        }
    }

    private func watchdogIfDue() async throws {
        let now = queue.clock.now()
        let due = lastWatchdog.withLock { last -> Bool in
            if let last, now.timeIntervalSince(last) < watchdogInterval { return false }
            last = now
            return true
        }
        if due {
            let count = try await queue.requeueExpiredLeases()
            if count > 0 {
                logger.warning("expired leases re-queued", metadata: ["event": "job_leases_requeued", "count": "\(count)"])
            }
        }
    }
}
