import Auth
import Contracts
import Fakes
import Platform
import TestSupport

/// Auth alone, composed from its definition on a fresh database of one engine, with a fake clock (no server, no
/// background sender).
enum AuthTesting {
    static func with(_ engine: SQLEngine, _ body: (Database, FakeWallClock, AuthModule) async throws -> Void) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock()
            let composition = try await TestComposition.build(
                AuthModule.definition(environment: ["POVVER_BCRYPT_COST": "4"], signingKey: .generate()), neighbours: [],
                platform: TestComposition.platform(db, clock: clock))
            try await body(db, clock, try composition.module(AuthModule.self))
        }
    }
}
