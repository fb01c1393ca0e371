import Contracts
import Foundation
import Hummingbird
import Logging
import NIOCore
import Platform
import PovverModules
import ProcessComposition
import SQLKit
import ServiceLifecycle
import UnixSignals

/// Everything a running server is made of, built by `PovverServer.build` and handed to `run` or to tests: the
/// composed modules, their routes behind the auth lanes, and the background services.
public struct PovverServer: Sendable {
    public let config: AppConfig
    public let composition: Composition
    public let endpoints: [Endpoint]
    /// The OpenAPI document `/openapi.json` serves: every documented route of `endpoints`.
    public let openAPIDocument: JSONValue
    public let jobs: JobQueue
    public let worker: JobWorker
    public let dispatcher: OutboxDispatcher
    /// Deletes delivered events and finished jobs once they expire.
    public let retention: BackgroundRetention
    let lanes: AuthLaneMiddleware

    public var database: Database { composition.platform.database }
    public var metrics: ServerMetrics { composition.platform.metrics }
    public var logger: Logger { composition.platform.logger }
    public var plugins: [ModulePlugin] { composition.plugins }
    /// Platform's eraser and every composed module's, as account deletion runs them.
    public var erasers: [any UserDataEraser] { composition.erasers.all }

    /// What the server itself consumes: its auth lanes verify tokens and check that service-lane users exist.
    public static let consumes: (consumer: String, contracts: [AnyContractKey]) = (
        "the HTTP server's auth lanes", [Contract.accessTokenVerifier.erased, Contract.accountDirectory.erased]
    )

    /// Opens the database and composes `modules` (default: those `POVVER_MODULES` names, every module when unset)
    /// with their routes and the background services. A test passes its own list, substitutes included.
    public static func build(
        config: AppConfig, modules: [ModuleDefinition]? = nil, logger: Logger, clock: any WallClock = SystemClock(),
        ids: any IDGenerator = RandomIDGenerator()
    ) async throws -> PovverServer {
        let definitions = try modules ?? PovverModules.definitions(config.modules, environment: config.environment)
        // Nothing is opened for a composition that cannot work.
        _ = try Composition.order(definitions, rootConsumes: Self.consumes)
        let database = try await Database.open(
            config.database, maxConnectionsPerEventLoop: config.databasePoolSize, poolTimeout: config.databasePoolTimeout, logger: logger)
        do {
            let platform = try PlatformServices.forProcess(config: config, database: database, logger: logger, clock: clock, ids: ids)
            let composition = try await Composition.build(definitions, platform: platform, rootConsumes: Self.consumes)
            return try PovverServer(config: config, composition: composition)
        } catch {
            await database.shutdown()
            throw error
        }
    }

    init(config: AppConfig, composition: Composition) throws {
        let platform = composition.platform
        let database = platform.database
        let worker = JobWorker(
            name: "worker-\(platform.ids.makeID())", queue: platform.jobs, definitions: composition.jobs, clock: platform.timer,
            logger: platform.logger, metrics: platform.metrics)
        let migrations = composition.migrations
        let migrator = Migrator(database: database, logger: platform.logger)
        let operations = OperationsEndpoints.make(
            ready: {
                guard database.acceptsWrites, (try? await database.sql.raw("SELECT 1").run()) != nil else { return false }
                return (try? await migrator.isUpToDate(migrations)) ?? false
            }, metrics: platform.metrics, metricsAccess: config.metricsAccess)
        let served = operations + composition.endpoints
        self.config = config
        self.composition = composition
        let openAPI = OperationsEndpoints.openAPI(describing: served)
        self.endpoints = served + [openAPI.endpoint]
        self.openAPIDocument = openAPI.document
        self.jobs = platform.jobs
        self.worker = worker
        self.dispatcher = OutboxDispatcher(
            database: database, queue: platform.jobs, handlers: composition.eventHandlers, clock: platform.timer, logger: platform.logger,
            metrics: platform.metrics, onDispatched: { worker.wake() })
        self.retention = BackgroundRetention(database: database, clock: platform.clock, durationClock: platform.timer)
        self.lanes = AuthLaneMiddleware(
            verifier: try composition.require(Contract.accessTokenVerifier, by: Self.consumes.consumer),
            accounts: try composition.require(Contract.accountDirectory, by: Self.consumes.consumer),
            serviceKeys: ServiceKeySet(keys: config.serviceAPIKeys))
    }

    /// The router: every served route behind the auth lanes; any other path answers the `NOT_FOUND` envelope.
    public var router: Router<APIRequestContext> {
        APIRouter.build(
            endpoints: endpoints, lanes: lanes, metrics: metrics, ids: composition.platform.ids,
            settings: EndpointSettings(maxBodyBytes: config.maxBodyBytes, trustedProxies: config.trustedProxies))
    }

    /// The HTTP application with the background services in its service group: the database closes last,
    /// after the server stopped taking requests and the workers drained. Each connection gets its read and write
    /// deadlines (`RequestReadDeadline`, `ResponseWriteDeadline`).
    public func application() -> some ApplicationProtocol {
        let readTimeout = TimeAmount(config.httpReadTimeout)
        let writeTimeout = TimeAmount(config.httpWriteTimeout)
        return Application(
            router: router,
            server: .http1(
                configuration: .init(additionalChannelHandlers: [
                    RequestReadDeadline(timeout: readTimeout), ResponseWriteDeadline(timeout: writeTimeout),
                ])),
            configuration: .init(address: .hostname(config.host, port: config.port), serverName: "povver"),
            services: [DatabaseCloser(database: database), dispatcher, worker, retention.purger] + composition.services,
            onServerRunning: { [logger, config, plugins] channel in
                logger.info(
                    "server started",
                    metadata: [
                        "event": "server_started", "address": "\(channel.localAddress?.description ?? config.host)",
                        "database": "\(config.database.engine.rawValue)", "modules": "\(plugins.map(\.name).joined(separator: ","))",
                    ])
            },
            logger: logger)
    }

    /// Prepares every module (their caches), then serves until SIGTERM or SIGINT and shuts down gracefully:
    /// for at most `shutdownGrace`, after which what is still running is cancelled (an orchestrator's kill, about
    /// 30 s after its SIGTERM, would otherwise cut the shutdown off wherever it stood).
    public func run() async throws {
        await prepare()
        var configuration = ServiceGroupConfiguration(
            services: [application()], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = Self.shutdownGrace
        try await ServiceGroup(configuration: configuration).run()
    }

    /// How long a graceful shutdown may take before what remains is cancelled.
    public static let shutdownGrace: Duration = .seconds(25)

    /// Each module's work before serving (the exercise catalog's search index, for one).
    public func prepare() async {
        for plugin in plugins { await plugin.prepare() }
    }
}

/// Keeps the database open while the service group runs and closes it on shutdown.
struct DatabaseCloser: Service {
    let database: Database

    func run() async throws {
        try? await gracefulShutdown()
        await database.shutdown()
    }
}
