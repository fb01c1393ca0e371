import Foundation
import Platform

/// Auth's own settings (`POVVER_SIGNING_KEY_FILE`, `POVVER_ACCESS_TOKEN_TTL_SECONDS`, `POVVER_BCRYPT_COST`,
/// `POVVER_RECENT_LOGIN_SECONDS`, `POVVER_RATE_LIMITS`, `POVVER_GOOGLE_*`, `POVVER_APPLE_*`), read from the
/// environment. A bad value throws `INVALID_ARGUMENT` naming the variable.
public struct AuthSettings: Sendable {
    public var signingKeyFile: String
    public var accessTokenTTL: Int
    public var bcryptCost: Int
    public var recentLoginSeconds: Int
    /// How long after a refresh the same refresh token may be presented again and get the same successor
    /// (`POVVER_REFRESH_GRACE_SECONDS`, 30; 0: never).
    public var refreshGraceSeconds: Int
    /// Sign-in and sign-up attempt limits: off only where a gateway in front limits instead, or for load tests.
    public var rateLimitsEnabled: Bool
    public var identityProviders: IdentityProviderSettings
    /// Sign in with Apple's client secret, when all three of its variables are set (none: Apple tokens are not kept).
    public var appleClientSecret: AppleClientSecretSettings?

    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment)
        signingKeyFile = reader.value("POVVER_SIGNING_KEY_FILE") ?? "./povver-signing-key.pem"
        accessTokenTTL = try reader.integer("POVVER_ACCESS_TOKEN_TTL_SECONDS", default: 900, range: 900...3600)
        bcryptCost = try reader.integer("POVVER_BCRYPT_COST", default: 12, range: 4...16)
        recentLoginSeconds = try reader.integer("POVVER_RECENT_LOGIN_SECONDS", default: 300, range: 1...86_400)
        refreshGraceSeconds = try reader.integer("POVVER_REFRESH_GRACE_SECONDS", default: 30, range: 0...300)
        rateLimitsEnabled = try reader.choice("POVVER_RATE_LIMITS", default: "on", allowed: ["on", "off"]) == "on"
        identityProviders = IdentityProviderSettings(
            googleClientIDs: reader.list("POVVER_GOOGLE_CLIENT_IDS"),
            googleJWKSURL: reader.value("POVVER_GOOGLE_JWKS_URL") ?? "https://www.googleapis.com/oauth2/v3/certs",
            appleClientIDs: reader.list("POVVER_APPLE_CLIENT_IDS"),
            appleJWKSURL: reader.value("POVVER_APPLE_JWKS_URL") ?? "https://appleid.apple.com/auth/keys")
        appleClientSecret = try Self.appleClientSecret(reader)
    }

    static func appleClientSecret(_ reader: EnvironmentReader) throws -> AppleClientSecretSettings? {
        let teamID = reader.value("POVVER_APPLE_TEAM_ID")
        let keyID = reader.value("POVVER_APPLE_KEY_ID")
        let file = reader.value("POVVER_APPLE_PRIVATE_KEY_FILE")
        guard teamID != nil || keyID != nil || file != nil else { return nil }
        guard let teamID, let keyID, let file else {
            throw EnvironmentReader.invalid(
                "POVVER_APPLE_TEAM_ID", "POVVER_APPLE_TEAM_ID, POVVER_APPLE_KEY_ID and POVVER_APPLE_PRIVATE_KEY_FILE go together.")
        }
        guard let pem = FileManager.default.contents(atPath: file).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw EnvironmentReader.invalid("POVVER_APPLE_PRIVATE_KEY_FILE", "Cannot read POVVER_APPLE_PRIVATE_KEY_FILE at \(file).")
        }
        return AppleClientSecretSettings(
            teamID: teamID, keyID: keyID, privateKeyPEM: pem,
            authBaseURL: reader.value("POVVER_APPLE_AUTH_BASE_URL") ?? "https://appleid.apple.com")
    }
}
