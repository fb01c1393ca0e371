import Logging
import ServiceLifecycle

/// Housekeeping run at start and then every `interval` until the server shuts down gracefully (a module's
/// purge of expired rows, for example). A run that fails is logged as `<name>_failed` and the next run comes on
/// time. Every replica runs its own, so the work must be safe to run concurrently.
public struct PeriodicTask: Service {
    public let name: String
    public let interval: Duration
    /// The clock the interval is waited out on.
    let clock: any Clock<Duration>
    private let logger: Logger
    private let work: @Sendable () async throws -> Void

    public init(
        name: String, interval: Duration, clock: any Clock<Duration> = ContinuousClock(), logger: Logger,
        work: @escaping @Sendable () async throws -> Void
    ) {
        self.name = name
        self.interval = interval
        self.clock = clock
        self.logger = logger
        self.work = work
    }

    /// A purge: `work` deletes what expired and returns how many rows; a run that removed any logs `message`
    /// with the count as `<name>d`.
    public static func purge(
        name: String, interval: Duration = .seconds(600), clock: any Clock<Duration> = ContinuousClock(), logger: Logger,
        message: Logger.Message, _ work: @escaping @Sendable () async throws -> Int
    ) -> PeriodicTask {
        PeriodicTask(name: name, interval: interval, clock: clock, logger: logger) {
            let removed = try await work()
            if removed > 0 { logger.info(message, metadata: ["event": "\(name)d", "count": "\(removed)"]) }
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await work()
                } catch {
                    logger.error("periodic task failed", metadata: ["event": "\(name)_failed", "task": "\(name)", "error": "\(error)"])
                }
                try? await clock.sleep(for: interval)
            }
        }
    }
}
