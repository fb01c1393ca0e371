import Foundation

/// A signed-in user's tokens, as a session store keeps them.
public struct Session: Codable, Equatable, Sendable {
    /// The user's id (the access token's subject).
    public var userId: String
    public var email: String
    /// The short-lived ES256 access token sent as `Authorization: Bearer`.
    public var accessToken: String
    /// When the access token stops working (by the device's clock, from `expires_in`).
    public var accessTokenExpiresAt: Date
    /// The rotating refresh token: it works once (docs/auth.md "Sessions").
    public var refreshToken: String

    public init(userId: String, email: String, accessToken: String, accessTokenExpiresAt: Date, refreshToken: String) {
        self.userId = userId
        self.email = email
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
    }

    /// When a token answered at `now` with `expiresIn` seconds stops working, in whole seconds (so a session reads
    /// back from a store exactly as it was kept).
    static func expiry(_ now: Date, _ expiresIn: Int) -> Date {
        Date(timeIntervalSince1970: (now.timeIntervalSince1970 + TimeInterval(expiresIn)).rounded(.down))
    }
}
