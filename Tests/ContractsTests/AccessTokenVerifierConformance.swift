import AsyncHTTPClient
import Auth
import Contracts
import Fakes
import Foundation
import NIOPosix
import Platform
import SQLKit
import TestSupport
import Testing

/// What a conformance run needs besides the verifier: valid tokens, and a way to end a session.
struct TokenFixture: Sendable {
    struct Issued: Sendable {
        var token: String
        var userId: String
        var sessionId: String
    }
    var clock: FakeWallClock
    var lifetime: TimeInterval
    var issue: @Sendable (_ label: String) async throws -> Issued
    var revoke: @Sendable (_ sessionId: String) async throws -> Void
}

func expectUnauthenticated(_ verifier: some AccessTokenVerifier, _ token: String, _ why: String) async {
    do {
        _ = try await verifier.verify(accessToken: token)
        Issue.record("accepted \(why)")
    } catch let error as ServiceError {
        #expect(error.code == .unauthenticated, "\(why)")
    } catch {
        Issue.record("\(why): threw \(error) instead of UNAUTHENTICATED")
    }
}

/// The `AccessTokenVerifier` contract, for any implementation.
func accessTokenVerifierConformance(_ verifier: some AccessTokenVerifier, fixture: TokenFixture) async throws {
    let a = try await fixture.issue("a")
    let principal = try await verifier.verify(accessToken: a.token)
    #expect(principal.userId == a.userId)
    #expect(principal.sessionId == a.sessionId)
    #expect(principal.expiresAt > fixture.clock.now())
    #expect(abs(principal.authTime.timeIntervalSince(fixture.clock.now())) < 2)

    for (bad, why) in [("", "an empty token"), ("garbage", "garbage"), (a.token + "x", "a tampered token"), ("a.b.c", "three junk parts")] {
        await expectUnauthenticated(verifier, bad, why)
    }

    let b = try await fixture.issue("b")
    try await fixture.revoke(b.sessionId)
    await expectUnauthenticated(verifier, b.token, "a token of a revoked session")
    #expect(try await verifier.verify(accessToken: a.token).userId == a.userId, "revoking one session leaves others")

    fixture.clock.advance(by: fixture.lifetime + 1)
    await expectUnauthenticated(verifier, a.token, "an expired token")
}

@Suite struct AccessTokenVerifierConformanceTests {
    @Test func fake() async throws {
        let clock = FakeWallClock()
        let verifier = FakeAccessTokenVerifier(clock: clock)
        let fixture = TokenFixture(
            clock: clock, lifetime: 900,
            issue: { label in
                let session = "s-\(label)"
                return .init(
                    token: await verifier.issue(userId: "u-\(label)", sessionId: session, lifetime: 900), userId: "u-\(label)",
                    sessionId: session)
            },
            revoke: { session in await verifier.revoke(sessionId: session) })
        try await accessTokenVerifierConformance(verifier, fixture: fixture)
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("auth", AuthModule.migrations)]) { db in
            let clock = FakeWallClock()
            let auth = try await AuthModule(
                database: db, signingKey: .generate(), accessTokenLifetime: 900, bcryptCost: 4, clock: clock, ids: RandomIDGenerator(),
                http: .shared, threadPool: .singleton)
            let fixture = TokenFixture(
                clock: clock, lifetime: 900,
                issue: { label in
                    let result = try await auth.service.signUp(email: "\(label)@example.com", password: "secret1", name: nil, timeZone: nil)
                    let session = try await db.sql.raw("SELECT id FROM auth_sessions WHERE user_id = \(bind: result.user.id)")
                        .first(decodingColumn: "id", as: String.self)
                    return .init(token: result.tokens.accessToken, userId: result.user.id, sessionId: try #require(session))
                },
                revoke: { session in
                    try await db.transaction { tx in
                        try await tx.sql.raw("UPDATE auth_sessions SET revoked_at = 1 WHERE id = \(bind: session)").run()
                    }
                })
            try await accessTokenVerifierConformance(auth.verifier, fixture: fixture)
        }
    }
}
