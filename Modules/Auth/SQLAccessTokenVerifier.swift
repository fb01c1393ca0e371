import Contracts
import Foundation
import Platform
import SQLKit

/// Auth's `AccessTokenVerifier`: a valid signature, issuer, audience and expiry, and a session that is still
/// open on an account that still exists — so signing out, a detected refresh-token replay or account deletion
/// cut access at once, not when the token expires. A session seen open is trusted for one second
/// (`SessionStatusCache`); revocations in this process bypass that at once.
public struct SQLAccessTokenVerifier: AccessTokenVerifier {
    let tokens: AccessTokens
    let database: Database
    let sessions: SessionStatusCache

    public func verify(accessToken: String) async throws -> Principal {
        let principal = try await tokens.verify(accessToken)
        if let sessionId = principal.sessionId, sessions.isKnownOpen(sessionId: sessionId, userId: principal.userId) {
            return principal
        }
        guard let sessionId = principal.sessionId,
            let row = try await database.sql.raw(
                """
                SELECT s.revoked_at, u.status FROM auth_sessions s JOIN auth_users u ON u.id = s.user_id
                WHERE s.id = \(bind: sessionId) AND s.user_id = \(bind: principal.userId)
                """
            ).first(),
            try row.decode(column: "revoked_at", as: Int64?.self) == nil,
            let status = AccountStatus(rawValue: try row.decode(column: "status", as: String.self)), status != .deleting
        else {
            throw ServiceError(.unauthenticated, "Your session has ended. Please sign in again.")
        }
        guard status == .active else {
            // Not cached: the account may be confirmed or cancelled any moment.
            var unconfirmed = principal
            unconfirmed.isConfirmed = false
            return unconfirmed
        }
        sessions.rememberOpen(sessionId: sessionId, userId: principal.userId)
        return principal
    }
}
