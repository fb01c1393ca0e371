import Contracts
import Foundation
import Platform
import SQLKit

/// One account as operators see it (`povver-auth users`).
public struct AdminUserSummary: Sendable, Equatable {
    public var id: String
    public var email: String
    public var status: String
    public var originalProvider: String
    public var providers: [String]
    public var createdAt: Date
    public var lastSignInAt: Date?
    public var openSessions: Int
}

extension AuthService {
    /// Accounts, newest first; `email` filters by exact (normalised) address.
    public func adminUsers(limit: Int = 50, email: String? = nil) async throws -> [AdminUserSummary] {
        let filter: SQLQueryString = try email.map { "WHERE u.email_normalized = \(bind: try Validation.normalizedEmail($0))" } ?? ""
        let rows = try await database.sql.raw(
            """
            SELECT u.id, u.email, u.status, u.original_provider, u.created_at, u.last_sign_in_at,
                   (SELECT COUNT(*) FROM auth_sessions s WHERE s.user_id = u.id AND s.revoked_at IS NULL) AS open_sessions
            FROM auth_users u \(filter) ORDER BY u.created_at DESC, u.id LIMIT \(literal: max(1, min(limit, 10_000)))
            """
        ).all()
        var result: [AdminUserSummary] = []
        for row in rows {
            let id = try row.decode(column: "id", as: String.self)
            result.append(
                AdminUserSummary(
                    id: id, email: try row.decode(column: "email", as: String.self),
                    status: try row.decode(column: "status", as: String.self),
                    originalProvider: try row.decode(column: "original_provider", as: String.self),
                    providers: try await providers(userId: id).map(\.providerId),
                    createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
                    lastSignInAt: try row.decode(column: "last_sign_in_at", as: Int64?.self).map { Date(millisecondsSince1970: $0) },
                    openSessions: try row.decode(column: "open_sessions", as: Int.self)))
        }
        return result
    }

    /// One account by id, or nil.
    public func adminUser(id: String) async throws -> AdminUserSummary? {
        guard
            let email = try await database.sql.raw("SELECT email FROM auth_users WHERE id = \(bind: id)").first(
                decodingColumn: "email", as: String.self)
        else { return nil }
        return try await adminUsers(limit: 1, email: email).first
    }

    /// Ends every session of `userId` (refresh tokens stop working; access tokens within a second) and every
    /// unused one-time code. Returns how many sessions were open.
    @discardableResult
    public func revokeAllSessions(userId: String, reason: String = "operator") async throws -> Int {
        let sessions = self.sessions
        return try await database.transaction { [self] tx in
            try await lockAccount(userId, in: tx)
            let open =
                try await tx.sql.raw(
                    "SELECT COUNT(*) AS n FROM auth_sessions WHERE user_id = \(bind: userId) AND revoked_at IS NULL"
                ).first(decodingColumn: "n", as: Int.self) ?? 0
            try await sessions.revokeAll(userId: userId, reason: reason, in: tx)
            try await Self.discardCodes(userId: userId, in: tx)
            return open
        }
    }
}
