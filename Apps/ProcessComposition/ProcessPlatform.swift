import AsyncHTTPClient
import Contracts
import Logging
import NIOPosix
import Platform

extension PlatformServices {
    /// The platform pieces of one process: its database, the process's HTTP client and thread pool (the one place
    /// that takes them), mail as `config` says, a fresh metrics registry.
    public static func forProcess(
        config: AppConfig, database: Database, logger: Logger, clock: any WallClock = SystemClock(),
        ids: any IDGenerator = RandomIDGenerator()
    ) throws -> PlatformServices {
        PlatformServices(
            database: database, clock: clock, ids: ids, logger: logger, metrics: ServerMetrics(), http: HTTPClient.shared,
            threadPool: NIOThreadPool.singleton, mail: try MailService.configured(config, logger: logger))
    }
}
