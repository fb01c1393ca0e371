import Analytics
import Auth
import Contracts
import Conversations
import Foundation
import Hummingbird
import Logging
import Platform
import Recommendations
import SQLKit
import ServiceLifecycle
import UnixSignals
import Subscription
import Workouts

/// Everything a running server is made of, built by `PovverServer.build` and handed to `run` or to tests.
/// Immutable once built (the router is only mutated inside `build`), hence safe to share.
public struct PovverServer: @unchecked Sendable {
    public let config: AppConfig
    public let database: Database
    public let auth: AuthModule
    public let subscription: SubscriptionModule
    public let plugins: [ModulePlugin]
    public let endpoints: [Endpoint]
    public let router: Router<APIRequestContext>
    public let jobs: JobQueue
    public let worker: JobWorker
    public let dispatcher: OutboxDispatcher
    /// Deletes delivered events and finished jobs once they expire.
    public let retention: BackgroundRetention
    public let metrics: ServerMetrics
    public let logger: Logger

    /// Every module's eraser and Platform's, as account deletion runs them.
    public var erasers: [any UserDataEraser] { Self.erasers(database: database, plugins: plugins) }

    static func erasers(database: Database, plugins: [ModulePlugin]) -> [any UserDataEraser] {
        [PlatformUserDataEraser(database: database)] + plugins.map(\.eraser)
    }

    /// The migrations of Platform and every module, in apply order.
    public var migrations: [(module: String, migrations: [Migration])] {
        [Migrator.platformMigrations] + plugins.map { ($0.name, $0.migrations) }
    }

    /// Opens the database, migrates it, and wires every module, the HTTP routes and the background services.
    /// `signingKey` overrides the key file (tests).
    public static func build(
        config: AppConfig, logger: Logger, clock: any WallClock = SystemClock(), ids: any IDGenerator = RandomIDGenerator(),
        signingKey: SigningKey? = nil
    ) async throws -> PovverServer {
        let database = try await Database.open(config.database, logger: logger)
        do {
            return try await build(
                config: config, database: database, logger: logger, clock: clock, ids: ids,
                signingKey: signingKey ?? SigningKey.loadOrCreate(path: config.signingKeyFile))
        } catch {
            await database.shutdown()
            throw error
        }
    }

    static func build(
        config: AppConfig, database: Database, logger: Logger, clock: any WallClock, ids: any IDGenerator, signingKey: SigningKey
    ) async throws -> PovverServer {
        let mailTransport: (any MailTransport)? = try config.smtp.map { try SMTPMailTransport(settings: $0) }
        let appleClientSecret = try Self.appleClientSecret(config)
        let auth = try await AuthModule(
            database: database, signingKey: signingKey, accessTokenLifetime: TimeInterval(config.accessTokenTTL),
            bcryptCost: config.bcryptCost, clock: clock, ids: ids, rateLimits: config.rateLimitsEnabled,
            recentLoginSeconds: config.recentLoginSeconds,
            identityProviders: IdentityProviderSettings(
                googleClientIDs: config.googleClientIDs, googleJWKSURL: config.googleJWKSURL, appleClientIDs: config.appleClientIDs,
                appleJWKSURL: config.appleJWKSURL),
            mail: MailSettings(transport: mailTransport, from: config.mailFrom), appleClientSecret: appleClientSecret,
            logger: logger)
        let metrics = ServerMetrics()
        let subscription = SubscriptionModule(
            database: database, verifier: try SubscriptionModule.verifier(config: config), clock: clock, ids: ids, metrics: metrics, logger: logger)
        let workouts = WorkoutsModule(database: database, clock: clock, ids: ids)
        let plugins = [
            auth.plugin, subscription.plugin, ConversationsModule().plugin, workouts.plugin,
            RecommendationsModule().plugin, AnalyticsModule().plugin,
        ]
        let migrator = Migrator(database: database, logger: logger)
        let allMigrations = [Migrator.platformMigrations] + plugins.map { ($0.name, $0.migrations) }
        try await migrator.migrate(allMigrations)

        let jobs = JobQueue(database: database, clock: clock)
        let handlers = plugins.flatMap(\.eventHandlers)
        // Account deletion runs every module's eraser, and Platform's (events and jobs of the user).
        let erasers = Self.erasers(database: database, plugins: plugins)
        let worker = JobWorker(
            name: "worker-\(ids.makeID())", queue: jobs,
            definitions: plugins.flatMap(\.jobs) + OutboxDispatcher.deliveryJobs(handlers: handlers, logger: logger) + [
                auth.deletionJob(erasers: erasers, logger: logger)
            ],
            logger: logger, metrics: metrics)
        let dispatcher = OutboxDispatcher(
            database: database, queue: jobs, handlers: handlers, logger: logger, onDispatched: { worker.wake() })

        let operations = OperationsEndpoints.make(
            ready: {
                guard database.acceptsWrites, (try? await database.sql.raw("SELECT 1").run()) != nil else { return false }
                return (try? await migrator.isUpToDate(allMigrations)) ?? false
            }, metrics: metrics)
        let served = operations + plugins.flatMap(\.endpoints)
        let endpoints = served + [OperationsEndpoints.openAPI(describing: served)]
        let lanes = AuthLaneMiddleware(
            verifier: auth.verifier, accounts: auth.accounts, serviceKeys: ServiceKeySet(keys: config.serviceAPIKeys))
        let router = APIRouter.build(
            endpoints: endpoints, lanes: lanes, metrics: metrics, ids: ids,
            settings: EndpointSettings(maxBodyBytes: config.maxBodyBytes, trustedProxies: config.trustedProxies))
        return PovverServer(
            config: config, database: database, auth: auth, subscription: subscription, plugins: plugins, endpoints: endpoints, router: router, jobs: jobs,
            worker: worker, dispatcher: dispatcher, retention: BackgroundRetention(database: database, clock: clock), metrics: metrics,
            logger: logger)
    }

    /// The HTTP application with the background services in its service group: the database closes last,
    /// after the server stopped taking requests and the workers drained.
    public func application() -> some ApplicationProtocol {
        Application(
            router: router,
            configuration: .init(address: .hostname(config.host, port: config.port), serverName: "povver"),
            services: [DatabaseCloser(database: database), dispatcher, worker, retention.purger] + plugins.flatMap(\.services),
            onServerRunning: { [logger, config] channel in
                logger.info(
                    "server started",
                    metadata: [
                        "event": "server_started", "address": "\(channel.localAddress?.description ?? config.host)",
                        "database": "\(config.database.engine.rawValue)",
                    ])
            },
            logger: logger)
    }

    /// Sign in with Apple's client-secret settings, when all three are set (none: Apple tokens are not kept).
    static func appleClientSecret(_ config: AppConfig) throws -> AppleClientSecretSettings? {
        let parts = [config.appleTeamID, config.appleKeyID, config.applePrivateKeyFile]
        guard parts.contains(where: { $0 != nil }) else { return nil }
        guard let teamID = config.appleTeamID, let keyID = config.appleKeyID, let file = config.applePrivateKeyFile else {
            throw ServiceError(
                .invalidArgument, "POVVER_APPLE_TEAM_ID, POVVER_APPLE_KEY_ID and POVVER_APPLE_PRIVATE_KEY_FILE go together.",
                details: ["field": "POVVER_APPLE_TEAM_ID"])
        }
        guard let pem = FileManager.default.contents(atPath: file).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw ServiceError(.invalidArgument, "Cannot read POVVER_APPLE_PRIVATE_KEY_FILE at \(file).", details: ["field": "POVVER_APPLE_PRIVATE_KEY_FILE"])
        }
        return AppleClientSecretSettings(teamID: teamID, keyID: keyID, privateKeyPEM: pem, authBaseURL: config.appleAuthBaseURL)
    }

    /// Prepares every module (their caches), then serves until SIGTERM or SIGINT and shuts down gracefully:
    /// for at most `shutdownGrace`, after which what is still running is cancelled (an orchestrator's kill, about
    /// 30 s after its SIGTERM, would otherwise cut the shutdown off wherever it stood).
    public func run() async throws {
        await prepare()
        var configuration = ServiceGroupConfiguration(services: [application()], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
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
