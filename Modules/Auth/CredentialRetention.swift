import Contracts
import Foundation
import Logging
import Platform

/// Keeps the credential tables bounded: every refresh, sign-out and emailed code leaves a row behind.
///
/// - A refresh token goes once it has expired, used or not: presenting it is refused either way, and reuse detection
///   only matters while it could still be accepted.
/// - A revoked session goes `revokedSessionPeriod` (30 days) after its revocation, with its refresh tokens (the
///   foreign key cascades); access tokens naming it expired long before.
/// - A session never revoked goes once it has expired: its last refresh token, issued when it was last used, has
///   expired (`SessionStore.refreshLifetime`, 30 days, after `last_used_at`), so nothing can renew it, and every
///   access token it issued expired long before.
/// - A one-time code goes once it has expired, used or not.
/// - A sent email (it may hold a code, and an address) goes `sentMailPeriod` (30 days) after it was sent; one still
///   pending or being retried stays.
///
/// Each chunk is one short transaction; on PostgreSQL, replicas purging at once take different rows (`SKIP LOCKED`).
struct CredentialRetention: Sendable {
    static let revokedSessionPeriod: TimeInterval = 30 * 86_400
    static let sentMailPeriod: TimeInterval = 30 * 86_400
    static let chunk = 1_000

    let database: Database
    let clock: any WallClock

    static let deleteExpiredRefreshTokens = FixedSQL.deleteOldest(from: "auth_refresh_tokens", key: "token_hash", before: "expires_at")
    static let deleteRevokedSessions = FixedSQL.deleteOldest(from: "auth_sessions", key: "id", before: "revoked_at")
    static let deleteExpiredSessions = FixedSQL.deleteOldest(from: "auth_sessions", key: "id", before: "last_used_at")
    static let deleteExpiredCodes = FixedSQL.deleteOldest(from: "auth_codes", key: "code_hash", before: "expires_at")
    static let deleteSentMail = FixedSQL.deleteOldest(from: "auth_mail_outbox", key: "id", before: "sent_at")

    /// Deletes what expired, `chunk` rows per transaction; answers how many of each went.
    func purgeExpired(chunk: Int = Self.chunk) async throws -> (refreshTokens: Int, sessions: Int, codes: Int, mail: Int) {
        let now = clock.now()
        let nowMs = now.millisecondsSince1970
        let tokens = try await database.deleteInChunks(Self.deleteExpiredRefreshTokens(SQLValue(nowMs), SQLValue(chunk)))
        let revoked = try await database.deleteInChunks(
            Self.deleteRevokedSessions(SQLValue(now.addingTimeInterval(-Self.revokedSessionPeriod).millisecondsSince1970), SQLValue(chunk)))
        let expired = try await database.deleteInChunks(
            Self.deleteExpiredSessions(
                SQLValue(now.addingTimeInterval(-SessionStore.refreshLifetime).millisecondsSince1970), SQLValue(chunk)))
        let sessions = revoked + expired
        let codes = try await database.deleteInChunks(Self.deleteExpiredCodes(SQLValue(nowMs), SQLValue(chunk)))
        let mail = try await database.deleteInChunks(
            Self.deleteSentMail(SQLValue(now.addingTimeInterval(-Self.sentMailPeriod).millisecondsSince1970), SQLValue(chunk)))
        return (tokens, sessions, codes, mail)
    }

    /// Purges at start and then every ten minutes; stops with the server.
    var purger: PeriodicTask {
        PeriodicTask.purge(
            name: "credentials_purge", logger: Logger(label: "auth.retention"),
            message: "expired refresh tokens, expired and old revoked sessions, expired codes and month-old sent mail removed"
        ) { [self] in
            let removed = try await purgeExpired()
            return removed.refreshTokens + removed.sessions + removed.codes + removed.mail
        }
    }
}
