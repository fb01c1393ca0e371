import Contracts
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// How one kind of job runs.
public struct JobDefinition: Sendable {
    public var kind: String
    /// How long a claim holds without renewal (seconds): a job whose worker died runs again this long after the
    /// worker's last renewal. While the handler runs, its worker renews the lease every third of it.
    public var lease: TimeInterval
    /// The longest one attempt may run (seconds): then its handler is cancelled, and the attempt counts as failed
    /// unless the handler still finishes its work. The worker keeps the lease until the handler has returned.
    public var timeout: TimeInterval
    public var retry: RetryPolicy
    public var handler: @Sendable (LeasedJob) async throws -> Void

    public init(
        kind: String, lease: TimeInterval = 60, timeout: TimeInterval = 900, retry: RetryPolicy = RetryPolicy(base: 5, cap: 300),
        handler: @escaping @Sendable (LeasedJob) async throws -> Void
    ) {
        self.kind = kind
        self.lease = lease
        self.timeout = timeout
        self.retry = retry
        self.handler = handler
    }
}

/// Why an attempt ended before its handler did, as its lease keeper saw it.
final class AttemptEnd: Sendable {
    private let value = Mutex<JobAttemptEnded?>(nil)

    var reason: JobAttemptEnded? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

/// Why an attempt ended before its handler did.
enum JobAttemptEnded: Error, CustomStringConvertible {
    /// A renewal found the job no longer held by this attempt (the lease had expired and the job was re-queued).
    case leaseLost
    case timedOut(TimeInterval)

    var description: String {
        switch self {
        case .leaseLost: "the lease was lost"
        case .timedOut(let limit): "ran past its time limit of \(limit.rounded() == limit ? "\(Int(limit))" : "\(limit)") s"
        }
    }
}

/// Runs queued jobs: claims one at a time, each for its kind's lease, runs its handler while renewing the lease,
/// and completes or fails it. Every `watchdogInterval` it re-queues expired leases, also while a job is in hand.
/// A `Service`: on graceful shutdown it finishes the job in hand and stops.
public final class JobWorker: Service, Sendable {
    public let name: String
    private let queue: JobQueue
    private let definitions: [String: JobDefinition]
    private let pollInterval: Duration
    private let watchdogInterval: TimeInterval
    private let logger: Logger
    private let metrics: ServerMetrics?
    private let doorbell = Doorbell()
    private let watchdogBell = Doorbell()
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
        guard let job = try await queue.claim(worker: name, leases: definitions.mapValues(\.lease)) else { return false }
        guard let definition = definitions[job.kind] else { return true }
        let start = ContinuousClock.now
        do {
            try await runHoldingLease(job, definition)
        } catch {
            let recorded = try await queue.fail(job, error: String(describing: error), retry: definition.retry)
            let outcome = !recorded ? "lease_lost" : job.attempt >= job.maxAttempts ? "failed" : "retried"
            metrics?.recordJob(kind: job.kind, outcome: outcome, duration: ContinuousClock.now - start)
            logger.warning(
                "job attempt failed",
                metadata: [
                    "event": "job_failed", "job_id": "\(job.id)", "kind": "\(job.kind)", "attempt": "\(job.attempt)",
                    "max_attempts": "\(job.maxAttempts)", "outcome": "\(outcome)", "error": "\(error)",
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
        // The watchdog has a loop of its own: a long job in hand must not keep this worker from re-queueing the
        // jobs of workers that died (with one replica, nobody else would).
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.watchdogLoop() }
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
            group.cancelAll()
        }
    }

    private func watchdogLoop() async {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await watchdogIfDue()
            } catch {
                logger.error("job watchdog error", metadata: ["event": "job_watchdog_error", "error": "\(error)"])
            }
            await watchdogBell.wait(upTo: .milliseconds(Int64(max(watchdogInterval, 0.01) * 1000)))
        }
    }

    /// Runs the handler while renewing the job's lease every third of it. Returns when the handler succeeded
    /// (its work is then recorded as done, which the queue refuses should another worker hold the job). Throws the
    /// handler's error, or why the attempt was cut short: `JobAttemptEnded.timedOut` (cancelled at its time limit)
    /// or `.leaseLost` (cancelled when the lease could no longer be kept).
    ///
    /// The lease is renewed until the handler has returned, also after its time limit or a cancellation of this
    /// task: a handler slow to stop must not find its job handed to another worker meanwhile. Only a handler
    /// still running `stuckGrace` after its time limit is given up on: its lease is left to expire.
    private func runHoldingLease(_ job: LeasedJob, _ definition: JobDefinition) async throws {
        // Both unstructured: the keeper cancels the handler alone, and a cancellation of this task (a shutdown cut
        // short) reaches the handler below but not the keeper, which goes on renewing until the handler returns.
        // Task-local values, such as the graceful shutdown, are inherited.
        let handler = Task { try await definition.handler(job) }
        let ended = AttemptEnd()
        let keeper = Task { await self.holdLease(job, definition, handler: handler, ended: ended) }
        let result = await withTaskCancellationHandler {
            await handler.result
        } onCancel: {
            handler.cancel()
        }
        keeper.cancel()
        await keeper.value
        if case .failure(let error) = result { throw ended.reason ?? error }
    }

    /// How long after its time limit a handler that has not stopped keeps its lease.
    static let stuckGrace: TimeInterval = 60

    /// Renews the lease every third of it until cancelled (once the handler has returned). At the time limit it
    /// cancels the handler and goes on renewing, for `stuckGrace` at most. When the lease can no longer be kept (a
    /// renewal finds the job taken, or the database could not be reached and the last renewal is about to run
    /// out) it cancels the handler and stops.
    private func holdLease(
        _ job: LeasedJob, _ definition: JobDefinition, handler: Task<Void, any Error>, ended: AttemptEnd
    ) async {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(definition.timeout * 1000))
        let givenUp = deadline + .milliseconds(Int64(Self.stuckGrace * 1000))
        let beatSeconds = max(definition.lease / 3, 0.01)
        let beat = Duration.milliseconds(Int64(beatSeconds * 1000))
        var heldUntil = job.leaseExpiresAt
        func lose() {
            ended.reason = .leaseLost
            handler.cancel()
        }
        while true {
            let timedOut = ended.reason != nil
            do {
                try await Task.sleep(until: timedOut ? clock.now + beat : min(clock.now + beat, deadline), clock: clock)
            } catch {
                return  // the handler returned
            }
            if !timedOut, clock.now >= deadline {
                ended.reason = .timedOut(definition.timeout)
                handler.cancel()
            }
            if clock.now >= givenUp {
                logger.error(
                    "job handler did not stop after its time limit; its lease is left to expire",
                    metadata: ["event": "job_handler_stuck", "job_id": "\(job.id)", "kind": "\(job.kind)", "timeout": "\(definition.timeout)"])
                return
            }
            do {
                guard let renewed = try await queue.renew(job, lease: definition.lease) else { return lose() }
                heldUntil = renewed.leaseExpiresAt
            } catch {
                if Task.isCancelled { return }
                logger.warning(
                    "job lease not renewed",
                    metadata: ["event": "job_lease_renewal_failed", "job_id": "\(job.id)", "kind": "\(job.kind)", "error": "\(error)"])
                // Stop before the last renewal runs out: past it, another worker may take the job.
                if queue.clock.now().addingTimeInterval(beatSeconds) >= heldUntil { return lose() }
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
