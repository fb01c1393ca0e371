import AsyncHTTPClient
import Contracts
import Crypto
import Foundation
import JWTKit
import Logging
import Platform
import SQLKit

/// The sign-in providers, by their Firebase-style ids.
public enum IdentityProvider: String, Sendable, CaseIterable, Codable {
    case google = "google.com"
    case apple = "apple.com"

    /// The provider's name as users know it ("This Google account is already linked …").
    public var displayName: String {
        switch self {
        case .google: "Google"
        case .apple: "Apple"
        }
    }

    /// The exact issuers the provider signs with.
    var issuers: Set<String> {
        switch self {
        case .google: ["accounts.google.com", "https://accounts.google.com"]
        case .apple: ["https://appleid.apple.com"]
        }
    }

    static func parse(_ text: String, field: String = "provider") throws -> IdentityProvider {
        guard let provider = IdentityProvider(rawValue: text) else {
            throw ServiceError.invalidArgument(field: field, reason: "must be google.com or apple.com")
        }
        return provider
    }
}

/// Where each provider's keys are and which audiences (client ids) this server accepts.
public struct IdentityProviderSettings: Sendable {
    public var googleClientIDs: [String]
    public var googleJWKSURL: String
    public var appleClientIDs: [String]
    public var appleJWKSURL: String
    /// Allowed clock difference for `exp` and `iat`.
    public var leeway: TimeInterval

    public init(googleClientIDs: [String], googleJWKSURL: String, appleClientIDs: [String], appleJWKSURL: String, leeway: TimeInterval = 60)
    {
        self.googleClientIDs = googleClientIDs
        self.googleJWKSURL = googleJWKSURL
        self.appleClientIDs = appleClientIDs
        self.appleJWKSURL = appleJWKSURL
        self.leeway = leeway
    }
}

/// Who a provider says signed in.
struct VerifiedIdentity: Sendable, Equatable {
    var provider: IdentityProvider
    /// The provider's stable user id (`sub`).
    var subject: String
    var email: String?
    var emailVerified: Bool
    var isPrivateEmail: Bool
    var name: String?
    /// The configured client id the token was issued to (Apple's token exchange needs it).
    var audience: String = ""
}

/// The claims of a Google or Apple ID token. Signature checks are JWTKit's; every claim check is done by
/// `ProviderTokenVerifier` so none depends on a library default.
struct ProviderClaims: JWTPayload {
    var iss: String
    var aud: AudienceClaim
    var exp: Double
    var iat: Double
    var sub: String
    var email: String?
    var emailVerified: FlexibleBool?
    var isPrivateEmail: FlexibleBool?
    var nonce: String?
    var name: String?

    enum CodingKeys: String, CodingKey {
        case iss, aud, exp, iat, sub, email, nonce, name
        case emailVerified = "email_verified"
        case isPrivateEmail = "is_private_email"
    }

    func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// `true`/`false` as a JSON boolean or as the strings Apple sometimes sends.
struct FlexibleBool: Codable, Sendable, Equatable {
    var value: Bool

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            value = flag
        } else {
            let text = try container.decode(String.self).lowercased()
            guard text == "true" || text == "false" else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a boolean")
            }
            value = text == "true"
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// Verifies Google and Apple ID tokens: a signature by a key of the provider's current key set with the
/// algorithm that key is for (never `none` or HMAC), the exact issuer, an audience among the configured client
/// ids (a provider with none configured accepts nothing), `exp` and `iat` within the leeway, and for Apple a
/// `nonce` equal to the hex SHA-256 of the client's raw nonce, usable once.
struct ProviderTokenVerifier: Sendable {
    let settings: IdentityProviderSettings
    let database: Database
    let clock: any WallClock
    let google: ProviderKeySet
    let apple: ProviderKeySet

    init(settings: IdentityProviderSettings, database: Database, clock: any WallClock, client: HTTPClient, logger: Logger) {
        self.settings = settings
        self.database = database
        self.clock = clock
        self.google = ProviderKeySet(url: settings.googleJWKSURL, client: client, logger: logger)
        self.apple = ProviderKeySet(url: settings.appleJWKSURL, client: client, logger: logger)
    }

    static func rejected(_ reason: String) -> ServiceError {
        ServiceError(.invalidCredential, details: ["reason": reason])
    }

    func verify(_ provider: IdentityProvider, idToken: String, rawNonce: String?) async throws -> VerifiedIdentity {
        let audiences = provider == .google ? settings.googleClientIDs : settings.appleClientIDs
        guard !audiences.isEmpty else {
            throw ServiceError(
                .failedPrecondition, "Sign in with \(provider.displayName) is not available on this server.",
                details: ["provider": provider.rawValue])
        }
        guard idToken.utf8.count <= 8192 else { throw Self.rejected("token too long") }
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Data(base64URLEncoded: String(parts[0])),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { throw Self.rejected("malformed token") }
        guard let alg = header.alg, alg != "none", !alg.uppercased().hasPrefix("HS") else { throw Self.rejected("algorithm not allowed") }
        guard let kid = header.kid, !kid.isEmpty else { throw Self.rejected("no key id") }

        let keys = try await (provider == .google ? google : apple).keys(for: kid)
        guard let expected = keys.algorithms[kid] else { throw Self.rejected("unknown key") }
        guard expected == alg else { throw Self.rejected("algorithm does not match the key") }
        let claims: ProviderClaims
        do {
            claims = try await keys.collection.verify(idToken, as: ProviderClaims.self)
        } catch {
            throw Self.rejected("bad signature")
        }

        guard provider.issuers.contains(claims.iss) else { throw Self.rejected("wrong issuer") }
        guard claims.aud.value.contains(where: { audiences.contains($0) }) else { throw Self.rejected("wrong audience") }
        let now = clock.now().timeIntervalSince1970
        guard claims.exp + settings.leeway > now else { throw Self.rejected("expired") }
        guard claims.iat - settings.leeway <= now else { throw Self.rejected("issued in the future") }
        guard !claims.sub.isEmpty, claims.sub.utf8.count <= 255 else { throw Self.rejected("no subject") }

        if provider == .apple {
            guard let rawNonce, !rawNonce.isEmpty else {
                throw ServiceError.invalidArgument(field: "raw_nonce", reason: "required for Sign in with Apple")
            }
            let expectedNonce = SHA256.hash(data: Data(rawNonce.utf8)).hexString
            guard let nonce = claims.nonce, nonce.lowercased() == expectedNonce else { throw Self.rejected("bad nonce") }
        }
        if let nonce = claims.nonce {
            try await spend(nonce: nonce, provider: provider, until: claims.exp + settings.leeway)
        }
        let email = claims.email.flatMap { try? Validation.normalizedEmail($0) }
        return VerifiedIdentity(
            provider: provider, subject: claims.sub, email: email, emailVerified: claims.emailVerified?.value ?? false,
            isPrivateEmail: claims.isPrivateEmail?.value ?? false, name: claims.name,
            audience: claims.aud.value.first(where: { audiences.contains($0) }) ?? "")
    }

    /// Records a token's nonce as used; a second use is a replay.
    private func spend(nonce: String, provider: IdentityProvider, until expiry: Double) async throws {
        let digest = SHA256.hash(data: Data("\(provider.rawValue)\n\(nonce)".utf8)).hexString
        let now = clock.now().millisecondsSince1970
        let inserted = try await database.transaction { tx in
            try await tx.sql.raw("DELETE FROM auth_used_nonces WHERE expires_at < \(bind: now)").run()
            return try await tx.sql.raw(
                """
                INSERT INTO auth_used_nonces (nonce_hash, expires_at) VALUES (\(bind: digest), \(bind: Int64(saturating: expiry * 1000)))
                ON CONFLICT (nonce_hash) DO NOTHING RETURNING nonce_hash
                """
            ).all()
        }
        guard !inserted.isEmpty else { throw Self.rejected("nonce already used") }
    }

    private struct Header: Decodable {
        var alg: String?
        var kid: String?
    }
}
