import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import Platform

/// Auth plugged in: accounts, sessions, tokens, profiles, devices.
public struct AuthModule: Sendable {
    public let service: AuthService
    public let tokens: AccessTokens
    public let verifier: SQLAccessTokenVerifier
    public let accounts: SQLAccountDirectory
    public let eraser: AuthUserDataEraser

    public init(
        database: Database, signingKey: SigningKey, accessTokenLifetime: TimeInterval, bcryptCost: Int,
        clock: any WallClock, ids: any IDGenerator, rateLimits: Bool = true, recentLoginSeconds: Int = 300,
        identityProviders: IdentityProviderSettings? = nil, logger: Logger = Logger(label: "auth")
    ) async {
        let tokens = await AccessTokens(signingKey: signingKey, lifetime: accessTokenLifetime, clock: clock, ids: ids)
        let statusCache = SessionStatusCache()
        self.tokens = tokens
        let identity = identityProviders.map {
            ProviderTokenVerifier(settings: $0, database: database, clock: clock, client: HTTPClient.shared, logger: logger)
        }
        self.service = AuthService(
            database: database, tokens: tokens, hasher: PasswordHasher(cost: bcryptCost), clock: clock, ids: ids, statusCache: statusCache,
            rateLimits: rateLimits, identity: identity, recentLoginWindow: TimeInterval(recentLoginSeconds))
        self.verifier = SQLAccessTokenVerifier(tokens: tokens, database: database, sessions: statusCache)
        self.accounts = SQLAccountDirectory(database: database)
        self.eraser = AuthUserDataEraser(database: database, statusCache: statusCache)
    }

    public static let migrations = AuthMigrations.all

    public var plugin: ModulePlugin {
        ModulePlugin(
            name: "auth", migrations: Self.migrations,
            endpoints: AuthEndpoints.make(service: service, signingKey: tokens.signingKey) + AuthEndpoints.identity(service: service),
            services: [UnconfirmedAccountPurger(service: service)], eraser: eraser)
    }
}
