import AsyncHTTPClient
import Auth
import Contracts
import Fakes
import NIOPosix
import Platform
import TestSupport

/// Auth alone on a fresh database of one engine, with a fake clock (no server, no background sender).
enum AuthTesting {
    static func with(_ engine: SQLEngine, _ body: (Database, FakeWallClock, AuthModule) async throws -> Void) async throws {
        try await TestDatabases.with(engine, migrate: [("auth", AuthModule.migrations)]) { db in
            let clock = FakeWallClock()
            let auth = try await AuthModule(
                database: db, signingKey: .generate(), accessTokenLifetime: 900, bcryptCost: 4, clock: clock, ids: RandomIDGenerator(),
                http: .shared, threadPool: .singleton)
            try await body(db, clock, auth)
        }
    }
}
