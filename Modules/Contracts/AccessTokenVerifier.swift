import Foundation

/// Who a verified request acts for.
public struct Principal: Sendable, Equatable {
    /// The user the request acts for; on the Bearer lane it comes from the verified token only.
    public var userId: String
    /// When the user last proved who they are (the token's `auth_time`).
    public var authTime: Date
    /// The session (refresh-token family) the access token belongs to; nil on the service lane.
    public var sessionId: String?
    /// When the credential stops being valid.
    public var expiresAt: Date
    /// False for an account a Google or Apple sign-in created and the user has not confirmed yet: such a
    /// principal may only confirm, cancel or sign out (everything else is `ACCOUNT_NOT_CONFIRMED`).
    public var isConfirmed: Bool

    public init(userId: String, authTime: Date, sessionId: String?, expiresAt: Date, isConfirmed: Bool = true) {
        self.userId = userId
        self.authTime = authTime
        self.sessionId = sessionId
        self.expiresAt = expiresAt
        self.isConfirmed = isConfirmed
    }
}

/// Verifies access tokens presented on the Bearer lane. Provided by Auth, consumed by Platform's middleware.
public protocol AccessTokenVerifier: Sendable {
    /// The principal a valid access token stands for.
    /// Throws `ServiceError(.unauthenticated)` when the token is malformed, badly signed, expired, or its session
    /// was revoked or its account is gone; never any other error for a bad token.
    func verify(accessToken: String) async throws -> Principal
}
