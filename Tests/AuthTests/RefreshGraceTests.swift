import Auth
import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

/// Two refreshes with one token (an app waking up twice, a retry after a lost answer) get the same successor within
/// the grace window; outside it, or once the successor was used, reuse still ends the session.
@Suite struct RefreshGraceTests {
    static func revoked(_ db: Database) async throws -> Int {
        try await db.sql.raw("SELECT COUNT(*) AS n FROM auth_sessions WHERE revoked_at IS NOT NULL").first(
            decodingColumn: "n", as: Int.self)
            ?? 0
    }

    @Test(arguments: TestDatabases.engines)
    func concurrentRefreshesWithOneTokenGetOneSuccessor(engine: SQLEngine) async throws {
        try await AuthTesting.with(engine) { db, clock, auth in
            let service = auth.service
            for round in 0..<5 {
                let signedUp = try await service.signUp(
                    email: "twice-\(round)@example.com", password: "password-1", name: nil, timeZone: nil)
                let token = signedUp.tokens.refreshToken
                // Truly at once: both transactions read the token unused; one claims it, the other finds it claimed.
                async let first = service.refresh(refreshToken: token)
                async let second = service.refresh(refreshToken: token)
                let (a, b) = try await (first, second)
                #expect(a.refreshToken == b.refreshToken, "one successor for both")
                #expect(try await Self.revoked(db) == 0)
                // The successor works on.
                _ = try await service.refresh(refreshToken: a.refreshToken)
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func reuseAfterTheGraceOrAfterTheSuccessorWasUsedEndsTheSession(engine: SQLEngine) async throws {
        try await AuthTesting.with(engine) { db, clock, auth in
            let service = auth.service
            let signedUp = try await service.signUp(email: "late@example.com", password: "password-1", name: nil, timeZone: nil)
            let next = try await service.refresh(refreshToken: signedUp.tokens.refreshToken)
            clock.advance(by: 29)
            #expect(try await service.refresh(refreshToken: signedUp.tokens.refreshToken).refreshToken == next.refreshToken)
            clock.advance(by: 2)
            await #expect(throws: ServiceError.self, "31 s after its use") {
                _ = try await service.refresh(refreshToken: signedUp.tokens.refreshToken)
            }
            #expect(try await Self.revoked(db) == 1)
            await #expect(throws: ServiceError.self, "the whole family ended") {
                _ = try await service.refresh(refreshToken: next.refreshToken)
            }

            let other = try await service.signIn(email: "late@example.com", password: "password-1", timeZone: nil)
            let rotated = try await service.refresh(refreshToken: other.tokens.refreshToken)
            _ = try await service.refresh(refreshToken: rotated.refreshToken)
            await #expect(throws: ServiceError.self, "within the grace, but its successor was used: a replay") {
                _ = try await service.refresh(refreshToken: other.tokens.refreshToken)
            }
            #expect(try await Self.revoked(db) == 2)
        }
    }
}
