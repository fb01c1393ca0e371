import Auth
import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Auth

/// Spent credentials expire (`CredentialRetention`): refresh tokens once expired (used or not), revoked sessions a
/// month after their revocation, sessions nobody revoked once their last refresh token expired, one-time codes once
/// expired, sent mail a month after sending; a live session and its live token, and mail not sent yet, stay.
@Suite struct CredentialRetentionTests {
    static func count(_ table: String, _ db: Database) async throws -> Int {
        try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first(decodingColumn: "n", as: Int.self) ?? 0
    }

    @Test(arguments: TestDatabases.engines)
    func spentCredentialsGoAndLiveOnesStay(engine: SQLEngine) async throws {
        try await AuthTesting.with(engine) { db, clock, auth in
            let signedUp = try await auth.service.signUp(email: "keep@example.com", password: "password-1", name: nil, timeZone: nil)
            let rotated = try await auth.service.refresh(refreshToken: signedUp.tokens.refreshToken)
            clock.advance(by: 1)
            _ = try await auth.service.signIn(email: "keep@example.com", password: "password-1", timeZone: nil)
            try await auth.service.sendPasswordReset(email: "keep@example.com")
            // The second session (the newer) is signed out now.
            let second = try #require(
                try await db.sql.raw("SELECT id FROM auth_sessions ORDER BY created_at DESC LIMIT 1").first(
                    decodingColumn: "id", as: String.self))
            try await db.sql.raw(
                "UPDATE auth_sessions SET revoked_at = \(bind: clock.now().millisecondsSince1970), revoke_reason = 'sign_out' WHERE id = \(bind: second)"
            ).run()
            let retention = CredentialRetention(database: db, clock: clock)
            #expect(try await Self.count("auth_refresh_tokens", db) == 3)
            #expect(try await Self.count("auth_sessions", db) == 2)
            let codes = try await Self.count("auth_codes", db)
            #expect(codes >= 1)

            // The reset mail was sent now; the sign-up's (if any) is still pending.
            let mails = try await Self.count("auth_mail_outbox", db)
            #expect(mails >= 1)
            try await db.sql.raw(
                """
                UPDATE auth_mail_outbox SET status = 'sent', sent_at = \(bind: clock.now().millisecondsSince1970)
                WHERE kind = \(bind: "password_reset")
                """
            ).run()
            let sent =
                try await db.sql.raw("SELECT COUNT(*) AS n FROM auth_mail_outbox WHERE sent_at IS NOT NULL")
                .first(decodingColumn: "n", as: Int.self) ?? 0
            #expect(sent == 1, "the reset mail is the one sent")

            let now = try await retention.purgeExpired(chunk: 1)
            #expect(now.refreshTokens == 0 && now.sessions == 0 && now.codes == 0 && now.mail == 0, "nothing has expired yet")

            // Two days on: the codes (hours) have expired; tokens (30 days) and the fresh revocation stay.
            clock.advance(by: 2 * 86_400)
            let later = try await retention.purgeExpired(chunk: 1)
            #expect(later.codes == codes && later.refreshTokens == 0 && later.sessions == 0)
            #expect(try await Self.count("auth_codes", db) == 0)

            // A month and a day on: every token issued then has expired; the revoked session goes with its tokens, and
            // the other, never refreshed since, has expired with its last token.
            clock.advance(by: 29 * 86_400)
            let month = try await retention.purgeExpired(chunk: 1)
            #expect(month.refreshTokens == 3 && month.sessions == 2 && month.mail == 1, "\(month)")
            #expect(try await Self.count("auth_mail_outbox", db) == mails - 1, "mail not sent stays")
            #expect(try await Self.count("auth_sessions", db) == 0)
            await #expect(throws: ServiceError.self, "an expired token is refused whether kept or purged") {
                _ = try await auth.service.refresh(refreshToken: rotated.refreshToken)
            }
        }
    }

    /// A session nobody revoked goes once it has expired: its last refresh token, issued at its last use, is past its
    /// 30 days, so nothing can renew it (it used to stay for good). One refreshed within the month stays and renews.
    @Test(arguments: TestDatabases.engines)
    func anExpiredSessionGoesAndOneInUseStays(engine: SQLEngine) async throws {
        try await AuthTesting.with(engine) { db, clock, auth in
            let abandoned = try await auth.service.signUp(email: "two@example.com", password: "password-1", name: nil, timeZone: nil)
            let used = try await auth.service.signIn(email: "two@example.com", password: "password-1", timeZone: nil)
            let retention = CredentialRetention(database: db, clock: clock)
            clock.advance(by: 20 * 86_400)
            let renewed = try await auth.service.refresh(refreshToken: used.tokens.refreshToken)
            clock.advance(by: 10 * 86_400 - 1)
            #expect(try await retention.purgeExpired().sessions == 0, "a second before the first session's last token expires")
            clock.advance(by: 2)
            #expect(try await retention.purgeExpired().sessions == 1)
            #expect(try await Self.count("auth_sessions", db) == 1)
            await #expect(throws: ServiceError.self, "the expired session is gone") {
                _ = try await auth.service.refresh(refreshToken: abandoned.tokens.refreshToken)
            }
            _ = try await auth.service.refresh(refreshToken: renewed.refreshToken)
        }
    }
}
