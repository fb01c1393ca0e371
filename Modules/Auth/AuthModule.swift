import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOPosix
import Platform

/// Auth plugged in: accounts, sessions, tokens, profiles, devices.
public struct AuthModule: Sendable {
    public let service: AuthService
    public let tokens: AccessTokens
    public let verifier: SQLAccessTokenVerifier
    public let accounts: SQLAccountDirectory
    public let eraser: AuthUserDataEraser
    public let outbox: MailOutbox
    public let mailSender: MailSender

    public init(
        database: Database, signingKey: SigningKey, accessTokenLifetime: TimeInterval, bcryptCost: Int,
        clock: any WallClock, ids: any IDGenerator, rateLimits: Bool = true, recentLoginSeconds: Int = 300, refreshGraceSeconds: Int = 30,
        identityProviders: IdentityProviderSettings? = nil, mail: MailSettings = MailSettings(transport: nil),
        appleClientSecret: AppleClientSecretSettings? = nil, http: HTTPClient, threadPool: NIOThreadPool,
        timer: any Clock<Duration> = ContinuousClock(), logger: Logger = Logger(label: "auth")
    ) async throws {
        let tokens = await AccessTokens(signingKey: signingKey, lifetime: accessTokenLifetime, clock: clock, ids: ids)
        let statusCache = SessionStatusCache(clock: timer)
        self.tokens = tokens
        let identity = identityProviders.map {
            ProviderTokenVerifier(settings: $0, database: database, clock: clock, client: http, logger: logger)
        }
        let outbox = MailOutbox(database: database, clock: clock, ids: ids, from: mail.from)
        self.outbox = outbox
        self.mailSender = MailSender(
            outbox: outbox, transport: mail.transport ?? LogMailTransport(logger: logger), clock: timer, logger: logger)
        let apple = try await appleClientSecret.asyncMap { try await AppleTokenClient(settings: $0, client: http, clock: clock) }
        self.service = AuthService(
            database: database, tokens: tokens, hasher: PasswordHasher(cost: bcryptCost, threadPool: threadPool), clock: clock, ids: ids,
            statusCache: statusCache,
            rateLimits: rateLimits, identity: identity, recentLoginWindow: TimeInterval(recentLoginSeconds), outbox: outbox, apple: apple,
            sealer: TokenSealer(signingKey: signingKey), refreshGrace: TimeInterval(refreshGraceSeconds), logger: logger)
        self.verifier = SQLAccessTokenVerifier(tokens: tokens, database: database, sessions: statusCache)
        self.accounts = SQLAccountDirectory(database: database)
        self.eraser = AuthUserDataEraser(database: database, statusCache: statusCache)
    }

    public static let migrations = AuthMigrations.all

    public var plugin: ModulePlugin {
        ModulePlugin(
            name: ModuleName.auth, migrations: Self.migrations,
            endpoints: AuthEndpoints.make(service: service, signingKey: tokens.signingKey) + AuthEndpoints.identity(service: service),
            services: [
                service.unconfirmedAccountPurger, CredentialRetention(database: service.database, clock: service.clock).purger, mailSender,
            ],
            eraser: eraser)
    }

    /// The account-deletion jobs (`AccountDeletion.jobs`), given the modules composed with Auth (the composition
    /// collects them): a deletion erases those here and waits for every other module with tables to confirm.
    public func deletionJobs(erasers: UserDataErasers) -> [JobDefinition] {
        AccountDeletion.jobs(service: service, own: eraser, erasers: erasers)
    }
}

/// Which transport delivers email and the sender address (`POVVER_MAIL_TRANSPORT`, `POVVER_MAIL_FROM`).
public struct MailSettings: Sendable {
    /// nil: the `log` transport.
    public var transport: (any MailTransport)?
    public var from: String

    public init(transport: (any MailTransport)?, from: String = "Povver <no-reply@povver.localhost>") {
        self.transport = transport
        self.from = from
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
