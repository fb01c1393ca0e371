import Contracts
import Crypto
import Foundation
import Platform
import SQLKit

/// Sessions are refresh-token families: every refresh rotates the token inside its session; presenting a
/// used token again revokes the whole session, except within `refreshGrace` of its use while its successor is still
/// unused: then the same successor is answered again (an app waking twice, a retry after a lost answer). The
/// successor is kept sealed with the used token for that.
struct SessionStore: Sendable {
    static let refreshLifetime: TimeInterval = 30 * 24 * 3600

    let clock: any WallClock
    let ids: any IDGenerator
    let statusCache: SessionStatusCache
    let sealer: TokenSealer
    let refreshGrace: TimeInterval

    /// A new random refresh token and its stored digest.
    static func makeRefreshToken() -> (token: String, hash: String) {
        let token = "rt_" + randomToken()
        return (token, digest(token))
    }

    /// 256 random bits, base64url: refresh tokens and one-time codes.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64URLEncoded()
    }

    static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexString
    }

    /// Opens a session for `userId` in `tx` and returns its id and first refresh token.
    func open(userId: String, authTime: Date, in tx: Transaction) async throws -> (sessionId: String, refreshToken: String) {
        let now = clock.now().millisecondsSince1970
        let sessionId = ids.makeID()
        try await tx.sql.raw(
            """
            INSERT INTO auth_sessions (id, user_id, auth_time, created_at, last_used_at)
            VALUES (\(bind: sessionId), \(bind: userId), \(bind: authTime.millisecondsSince1970), \(bind: now), \(bind: now))
            """
        ).run()
        let refresh = try await addRefreshToken(sessionId: sessionId, userId: userId, in: tx)
        return (sessionId, refresh)
    }

    func addRefreshToken(sessionId: String, userId: String, in tx: Transaction, token given: (token: String, hash: String)? = nil)
        async throws -> String
    {
        let now = clock.now()
        let (token, hash) = given ?? Self.makeRefreshToken()
        try await tx.sql.raw(
            """
            INSERT INTO auth_refresh_tokens (token_hash, session_id, user_id, created_at, expires_at)
            VALUES (\(bind: hash), \(bind: sessionId), \(bind: userId), \(bind: now.millisecondsSince1970),
                    \(bind: now.addingTimeInterval(Self.refreshLifetime).millisecondsSince1970))
            """
        ).run()
        return token
    }

    enum RotationOutcome: Sendable {
        case rotated(userId: String, sessionId: String, authTime: Date, refreshToken: String)
        case rejected
        /// A used token came back: the session was revoked (committed) and the caller must refuse.
        case replayed
    }

    /// Swaps a refresh token for a new one in the same session.
    func rotate(_ token: String, in tx: Transaction) async throws -> RotationOutcome {
        let now = clock.now().millisecondsSince1970
        guard
            let row = try await tx.sql.raw(
                """
                SELECT t.session_id, t.user_id, t.used_at, t.expires_at, s.revoked_at, s.auth_time, u.status
                FROM auth_refresh_tokens t
                JOIN auth_sessions s ON s.id = t.session_id
                JOIN auth_users u ON u.id = t.user_id
                WHERE t.token_hash = \(bind: Self.digest(token))
                """
            ).first()
        else { return .rejected }
        let sessionId = try row.decode(column: "session_id", as: String.self)
        let userId = try row.decode(column: "user_id", as: String.self)
        if try row.decode(column: "revoked_at", as: Int64?.self) != nil { return .rejected }
        // A pending account's session refreshes too (the confirmation screen may stay open longer than an access
        // token lives); what its tokens may do is decided where they are checked. A deleting account's never.
        let status = try row.decode(column: "status", as: String.self)
        guard status == AccountStatus.active.rawValue || status == AccountStatus.pending.rawValue else { return .rejected }
        let authTime = Date(millisecondsSince1970: try row.decode(column: "auth_time", as: Int64.self))
        if try row.decode(column: "used_at", as: Int64?.self) != nil {
            return try await reused(token, userId: userId, sessionId: sessionId, authTime: authTime, in: tx)
        }
        if try row.decode(column: "expires_at", as: Int64.self) <= now { return .rejected }
        let next = Self.makeRefreshToken()
        let claimed = try await tx.sql.raw(
            """
            UPDATE auth_refresh_tokens SET used_at = \(bind: now), successor_sealed = \(bind: try sealer.seal(next.token))
            WHERE token_hash = \(bind: Self.digest(token)) AND used_at IS NULL
            RETURNING token_hash
            """
        ).all()
        // Another refresh with this token claimed it first (it waited on the row and now reads it used).
        guard !claimed.isEmpty else { return try await reused(token, userId: userId, sessionId: sessionId, authTime: authTime, in: tx) }
        try await tx.sql.raw("UPDATE auth_sessions SET last_used_at = \(bind: now) WHERE id = \(bind: sessionId)").run()
        _ = try await addRefreshToken(sessionId: sessionId, userId: userId, in: tx, token: next)
        return .rotated(userId: userId, sessionId: sessionId, authTime: authTime, refreshToken: next.token)
    }

    /// A used token presented again: within the grace of its use, while its successor is unused, the same successor;
    /// otherwise the whole session is revoked.
    private func reused(_ token: String, userId: String, sessionId: String, authTime: Date, in tx: Transaction) async throws
        -> RotationOutcome
    {
        let now = clock.now().millisecondsSince1970
        if let row = try await tx.sql.raw(
            "SELECT used_at, successor_sealed FROM auth_refresh_tokens WHERE token_hash = \(bind: Self.digest(token))"
        ).first(),
            let usedAt = try row.decode(column: "used_at", as: Int64?.self),
            Double(now - usedAt) <= refreshGrace * 1000,
            let sealed = try row.decode(column: "successor_sealed", as: String?.self),
            let successor = try? sealer.open(sealed),
            try await tx.sql.raw(
                "SELECT token_hash FROM auth_refresh_tokens WHERE token_hash = \(bind: Self.digest(successor)) AND used_at IS NULL"
            ).first() != nil
        {
            return .rotated(userId: userId, sessionId: sessionId, authTime: authTime, refreshToken: successor)
        }
        try await revoke(sessionId: sessionId, reason: "refresh_token_reuse", in: tx)
        return .replayed
    }

    func revoke(sessionId: String, reason: String, in tx: Transaction) async throws {
        statusCache.revoke(sessionId: sessionId)
        try await tx.sql.raw(
            """
            UPDATE auth_sessions SET revoked_at = \(bind: clock.now().millisecondsSince1970), revoke_reason = \(bind: reason)
            WHERE id = \(bind: sessionId) AND revoked_at IS NULL
            """
        ).run()
    }

    func revokeAll(userId: String, reason: String, in tx: Transaction) async throws {
        statusCache.revoke(userId: userId)
        try await tx.sql.raw(
            """
            UPDATE auth_sessions SET revoked_at = \(bind: clock.now().millisecondsSince1970), revoke_reason = \(bind: reason)
            WHERE user_id = \(bind: userId) AND revoked_at IS NULL
            """
        ).run()
    }

    /// The session a refresh token belongs to, if it belongs to `userId`.
    func sessionId(ofRefreshToken token: String, userId: String, in tx: Transaction) async throws -> String? {
        try await tx.sql.raw(
            "SELECT session_id FROM auth_refresh_tokens WHERE token_hash = \(bind: Self.digest(token)) AND user_id = \(bind: userId)"
        ).first(decodingColumn: "session_id", as: String.self)
    }
}

/// Where an account stands.
enum AccountStatus: String {
    case active
    /// Created by a Google or Apple sign-in and not confirmed yet: may only confirm, cancel or sign out.
    case pending
    /// Deletion started: nothing may sign in any more.
    case deleting
}
