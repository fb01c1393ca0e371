import AsyncHTTPClient
import Contracts
import Logging
import NIOPosix

/// The shared pieces every module is built from. The composition root makes them once per process (tests make
/// their own); no module reaches for a process-wide singleton instead.
public struct PlatformServices: Sendable {
    public let database: Database
    public let clock: any WallClock
    /// What background work waits on (leases, polls, intervals); tests pass a manual clock.
    public let timer: any Clock<Duration>
    public let ids: any IDGenerator
    public let logger: Logger
    public let metrics: ServerMetrics
    /// Outgoing HTTP (identity providers' key sets, Apple's token endpoints). The coach's model has a client of its own.
    public let http: HTTPClient
    /// Blocking work kept off the request threads (password hashing).
    public let threadPool: NIOThreadPool
    /// Outgoing email: the configured transport and sender.
    public let mail: MailService
    /// The durable job queue on `database`.
    public let jobs: JobQueue

    public init(
        database: Database, clock: any WallClock, ids: any IDGenerator, logger: Logger, metrics: ServerMetrics, http: HTTPClient,
        threadPool: NIOThreadPool, mail: MailService, timer: any Clock<Duration> = ContinuousClock()
    ) {
        self.database = database
        self.clock = clock
        self.timer = timer
        self.ids = ids
        self.logger = logger
        self.metrics = metrics
        self.http = http
        self.threadPool = threadPool
        self.mail = mail
        self.jobs = JobQueue(database: database, clock: clock)
    }
}

/// Which transport delivers email, and the sender of every message (`POVVER_MAIL_TRANSPORT`, `POVVER_MAIL_FROM`).
public struct MailService: Sendable {
    public let transport: any MailTransport
    public let from: String

    public init(transport: any MailTransport, from: String) {
        self.transport = transport
        self.from = from
    }

    /// The transport `config` names: SMTP, or the log (development: messages stay readable in the outbox).
    public static func configured(_ config: AppConfig, logger: Logger) throws -> MailService {
        let transport: any MailTransport = try config.smtp.map { try SMTPMailTransport(settings: $0) } ?? LogMailTransport(logger: logger)
        return MailService(transport: transport, from: config.mailFrom)
    }
}
