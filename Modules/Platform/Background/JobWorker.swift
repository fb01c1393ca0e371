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
        case .timedOut(let limit): "ran past its time limit of \(Int(exactly: limit).map { "\($0)" } ?? "\(limit)") s"
        }
    }
}

/// Runs queued jobs: claims one at a time, each for its kind's lease, runs its handler while renewing the lease,
/// and completes or fails it. Every `watchdogInterval` it re-queues expired leases, also while a job is in hand.
/// A `Service`: on graceful shutdown it finishes the job in hand and stops.
///
/// Its waits (renewal beats, time limits, a renewal's time to answer, polls, the watchdog's loop) run on the
/// injected duration clock; when a lease expires is the queue's wall clock's to say, as for every worker.
public final class JobWorker: Service, Sendable {
    public let name: String
    private let queue: JobQueue
    private let definitions: [String: JobDefinition]
    private let pollInterval: Duration
    private let watchdogInterval: TimeInterval
    /// How long a handler that has not stopped after its time limit, or after its lease was lost, is waited for.
    let stuckGrace: TimeInterval
    private let logger: Logger
    private let metrics: ServerMetrics?
    private let clock: any Clock<Duration>
    private let stopwatch: Stopwatch
    private let doorbell: Doorbell
    private let watchdogBell: Doorbell
    private let lastWatchdog = Mutex<Date?>(nil)

    public init(
        name: String, queue: JobQueue, definitions: [JobDefinition], pollInterval: Duration = .milliseconds(500),
        watchdogInterval: TimeInterval = 30, stuckGrace: TimeInterval = 60, clock: any Clock<Duration> = ContinuousClock(), logger: Logger,
        metrics: ServerMetrics? = nil
    ) {
        self.clock = clock
        self.stopwatch = Stopwatch(clock)
        self.doorbell = Doorbell(clock: clock)
        self.watchdogBell = Doorbell(clock: clock)
        self.stuckGrace = stuckGrace
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
        let start = stopwatch.elapsed
        do {
            try await runHoldingLease(job, definition)
        } catch is CancellationError where Task.isCancelled {
            // This worker was stopped (a shutdown cut short), not the job: it goes back to the queue as it was,
            // without using up an attempt.
            let released = try await queue.release(job)
            metrics?.recordJob(kind: job.kind, outcome: released ? "released" : "lease_lost", duration: stopwatch.elapsed - start)
            logger.info("job released", metadata: ["event": "job_released", "job_id": "\(job.id)", "kind": "\(job.kind)"])
            return true
        } catch {
            let recorded = try await queue.fail(job, error: String(describing: error), retry: definition.retry)
            let outcome = !recorded ? "lease_lost" : job.attempt >= job.maxAttempts ? "failed" : "retried"
            metrics?.recordJob(kind: job.kind, outcome: outcome, duration: stopwatch.elapsed - start)
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
        let completed = await Bookkeeping.retriedBriefly(clock: clock, { try await queue.complete(job) }) { error in
            logger.error(
                "job done but not recorded",
                metadata: ["event": "job_complete_failed", "job_id": "\(job.id)", "kind": "\(job.kind)", "error": "\(error)"])
        }
        let outcome = completed.map { $0 ? "completed" : "lease_lost" } ?? "unrecorded"
        metrics?.recordJob(kind: job.kind, outcome: outcome, duration: stopwatch.elapsed - start)
        logger.debug(
            "job finished", metadata: ["event": "job_completed", "job_id": "\(job.id)", "kind": "\(job.kind)", "outcome": "\(outcome)"])
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
            await watchdogBell.wait(upTo: .milliseconds(Int64(saturating: max(watchdogInterval, 0.01) * 1000)))
        }
    }

    /// Runs the handler while renewing the job's lease every third of it. Returns when the handler succeeded
    /// (its work is then recorded as done, which the queue refuses should another worker hold the job). Throws the
    /// handler's error, or why the attempt was cut short: `JobAttemptEnded.timedOut` (cancelled at its time limit)
    /// or `.leaseLost` (cancelled when the lease could no longer be kept).
    ///
    /// The lease is renewed until the handler has returned, also after its time limit or a cancellation of this
    /// task: a handler slow to stop must not find its job handed to another worker meanwhile. A handler still
    /// running `stuckGrace` after its time limit, or after its lease was lost, is given up on: it is left running
    /// on its own, the attempt ends, and the worker goes on with other jobs.
    private func runHoldingLease(_ job: LeasedJob, _ definition: JobDefinition) async throws {
        // All unstructured: the keeper cancels the handler alone, and a cancellation of this task (a shutdown cut
        // short) reaches the handler but not the keeper, which goes on renewing until the handler returns (the
        // watcher tells it). Task-local values, such as the graceful shutdown, are inherited.
        let handler = Task { try await definition.handler(job) }
        let ended = AttemptEnd()
        let keeper = Task { await self.holdLease(job, definition, handler: handler, ended: ended, clock: self.clock) }
        Task {
            _ = await handler.result
            keeper.cancel()
        }
        let gaveUp = await withTaskCancellationHandler {
            await keeper.value
        } onCancel: {
            handler.cancel()
        }
        if gaveUp { throw ended.reason ?? JobAttemptEnded.timedOut(definition.timeout) }
        if case .failure(let error) = await handler.result { throw ended.reason ?? error }
    }

    /// Renews the lease every third of it until cancelled (once the handler has returned), and returns false then.
    /// At the time limit it cancels the handler and goes on renewing. When the lease can no longer be kept (a
    /// renewal finds the job taken, or the last renewal is about to run out while a renewal failed or has not
    /// answered) it cancels the handler and stops renewing. Returns true, giving the handler up, when it is still
    /// running `stuckGrace` after either.
    private func holdLease<C: Clock<Duration>>(
        _ job: LeasedJob, _ definition: JobDefinition, handler: Task<Void, any Error>, ended: AttemptEnd, clock: C
    ) async -> Bool {
        let deadline = clock.now.advanced(by: .milliseconds(Int64(saturating: definition.timeout * 1000)))
        let grace = Duration.milliseconds(Int64(saturating: stuckGrace * 1000))
        var givenUp = deadline.advanced(by: grace)
        let beatSeconds = max(definition.lease / 3, 0.01)
        let beat = Duration.milliseconds(Int64(saturating: beatSeconds * 1000))
        var heldUntil = job.leaseExpiresAt
        var renewing = true
        while true {
            let timedOut = ended.reason != nil
            do {
                try await Task.sleep(until: min(clock.now.advanced(by: beat), timedOut ? givenUp : deadline), clock: clock)
            } catch {
                return false  // the handler returned
            }
            if !timedOut, clock.now >= deadline {
                ended.reason = .timedOut(definition.timeout)
                handler.cancel()
            }
            if clock.now >= givenUp {
                logger.error(
                    "job handler did not stop; the attempt ends without it",
                    metadata: [
                        "event": "job_handler_stuck", "job_id": "\(job.id)", "kind": "\(job.kind)", "timeout": "\(definition.timeout)",
                    ])
                return true
            }
            guard renewing else { continue }
            // A renewal that does not answer (a silent connection, a lock held elsewhere) is given up as a failed
            // one is: a beat before the lease runs out (with less than two beats of it left, once half of what is
            // left has passed), so the handler is told to stop before another worker may take the job. With none
            // left by this clock, the renewal gets a beat to say so.
            let remaining = heldUntil.timeIntervalSince(queue.clock.now())
            let answerBy = remaining > 0 ? max(remaining - beatSeconds, remaining / 2) : beatSeconds
            let renewal = Task { [queue] in try await queue.renew(job, lease: definition.lease) }
            switch await Self.answer(of: renewal, within: answerBy, on: clock) {
            case .answered(.success(let renewed?)):
                heldUntil = renewed.leaseExpiresAt
                continue
            case .answered(.success(nil)):
                break  // the job was taken
            case .answered(.failure(let error)):
                if Task.isCancelled { return false }
                logger.warning(
                    "job lease not renewed",
                    metadata: ["event": "job_lease_renewal_failed", "job_id": "\(job.id)", "kind": "\(job.kind)", "error": "\(error)"])
                // Stop before the last renewal runs out: past it, another worker may take the job.
                guard queue.clock.now().addingTimeInterval(beatSeconds) >= heldUntil else { continue }
            case .cancelled:
                return false  // the handler returned
            case .late:
                logger.warning(
                    "job lease renewal did not answer in time",
                    metadata: ["event": "job_lease_renewal_stuck", "job_id": "\(job.id)", "kind": "\(job.kind)", "waited": "\(answerBy)"])
            }
            ended.reason = .leaseLost
            handler.cancel()
            renewing = false
            givenUp = min(givenUp, clock.now.advanced(by: grace))
        }
    }

    /// How a renewal ended, as the keeper waited for it.
    private enum Renewal {
        case answered(Result<LeasedJob?, any Error>)
        /// It had not answered within the time given; it goes on by itself.
        case late
        /// The keeper was cancelled (its handler returned) while it waited.
        case cancelled
    }

    /// Waits for `renewal` at most `seconds` on `clock`, or until this task is cancelled. A database call cannot be
    /// interrupted, so a renewal that is late is left to finish (or hang) on its own.
    private static func answer(
        of renewal: Task<LeasedJob?, any Error>, within seconds: TimeInterval, on clock: some Clock<Duration>
    ) async -> Renewal {
        let outcome = Mutex<(continuation: CheckedContinuation<Renewal, Never>?, ended: Renewal?)>((nil, nil))
        let settle: @Sendable (Renewal) -> Void = { result in
            let waiting = outcome.withLock { state -> CheckedContinuation<Renewal, Never>? in
                guard state.ended == nil else { return nil }
                state.ended = result
                defer { state.continuation = nil }
                return state.continuation
            }
            waiting?.resume(returning: result)
        }
        let timer = Task {
            try? await clock.sleep(for: .milliseconds(Int64(saturating: max(seconds, 0) * 1000)))
            settle(.late)
        }
        Task { settle(.answered(await renewal.result)) }  // ends with the renewal
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let settled = outcome.withLock { state -> Renewal? in
                    if let ended = state.ended { return ended }
                    state.continuation = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        } onCancel: {
            settle(.cancelled)
        }
        timer.cancel()
        return result
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
