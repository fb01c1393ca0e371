import Contracts
import Foundation
import Platform
import Recommendations
import Synchronization

/// `povver-recommendations`: the analyst's operations on a composition with Recommendations (the server's
/// database). One method per subcommand, each returning the text to print.
public struct RecommendationsTool: Sendable {
    let module: RecommendationsModule
    let platform: PlatformServices

    /// Works on `composition`, which must hold Recommendations (the CLI's `AdminComposition`, or a test's).
    public init(composition: Composition) throws {
        self.module = try composition.module(RecommendationsModule.self)
        self.platform = composition.platform
    }

    /// A worker for the analyst's jobs only (event deliveries stay with the servers' workers), named for the logs.
    public func worker(name: String) -> JobWorker {
        JobWorker(
            name: name, queue: platform.jobs, definitions: module.jobDefinitions, clock: platform.timer, logger: platform.logger,
            metrics: platform.metrics)
    }

    /// Runs the analyst's due jobs until none is left, then answers how many ran.
    public func drain(name: String) async throws -> String {
        let worker = worker(name: name)
        var ran = 0
        while try await worker.runOnce() { ran += 1 }
        return "\(name): ran \(ran) jobs\n"
    }

    /// One scheduler pass now: the daily briefs and weekly reviews due in each user's time zone.
    public func schedule(progress: ProgressReport? = nil) async throws -> String {
        let seen = Mutex(0)
        let queued = try await module.schedule { _ in
            let count = seen.withLock {
                $0 += 1
                return $0
            }
            progress?.update(count, of: count)
        }
        progress?.finish()
        return "scheduler: \(seen.withLock { $0 }) users looked at, \(queued) jobs queued\n"
    }

    /// Queues the analysis of the user's last `months` months (idempotent).
    public func backfill(userId: String, months: Int, progress: ProgressReport? = nil) async throws -> String {
        let result = try await module.backfill(userId: userId, months: months) { workouts, _ in
            progress?.update(workouts, of: workouts)
        }
        progress?.finish()
        return
            "backfill \(userId), \(months) months: \(result.workouts) workouts, \(result.weeks) weeks, \(result.queued) jobs queued (\(result.workouts + result.weeks - result.queued) were queued before)\n"
    }

    /// The analyst's jobs, most recently changed first.
    public func jobs(status: String?, userId: String?, limit: Int) async throws -> String {
        let wanted = try status.map { text -> JobStatus in
            guard let status = JobStatus(rawValue: text) else {
                throw ServiceError.invalidArgument(field: "status", reason: "must be queued, leased, done or failed")
            }
            return status
        }
        let jobs = try await platform.jobs.jobs(kindPrefix: "recommendations.", status: wanted, userId: userId, limit: limit)
        return TextTable.render(
            ["id", "kind", "status", "attempts", "run at", "last error"],
            jobs.map { job in
                [
                    job.id, String(job.kind.dropFirst("recommendations.".count)), job.status.rawValue, "\(job.attempts)/\(job.maxAttempts)",
                    job.runAt.rfc3339, job.lastError.map { String($0.prefix(60)) } ?? "-",
                ]
            })
    }

    /// Queues a failed job again from its first attempt.
    public func retry(id: String) async throws -> String {
        guard let job = try await platform.jobs.job(id: id), job.kind.hasPrefix("recommendations.") else {
            throw ServiceError(.notFound, "No analyst job \(id).")
        }
        guard try await platform.jobs.retry(id: id) else {
            throw ServiceError(.failedPrecondition, "Job \(id) is \(job.status.rawValue), not failed: nothing to retry.")
        }
        return "queued \(id) again\n"
    }

    /// The expiry sweep now.
    public func sweep() async throws -> String {
        let (expired, removed) = try await module.sweep()
        return "expired \(expired) recommendations, removed \(removed) analysis notes\n"
    }
}
