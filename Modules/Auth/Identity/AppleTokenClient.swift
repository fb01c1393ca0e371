import AsyncHTTPClient
import Contracts
import Crypto
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Platform

/// Sign in with Apple's server-to-server settings: the team, the key and the `/auth/token` and `/auth/revoke`
/// base URL (`POVVER_APPLE_TEAM_ID`, `POVVER_APPLE_KEY_ID`, `POVVER_APPLE_PRIVATE_KEY_FILE`,
/// `POVVER_APPLE_AUTH_BASE_URL`).
public struct AppleClientSecretSettings: Sendable {
    public var teamID: String
    public var keyID: String
    /// The `.p8` key Apple issued (PEM, EC P-256).
    public var privateKeyPEM: String
    public var authBaseURL: String

    public init(teamID: String, keyID: String, privateKeyPEM: String, authBaseURL: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
        self.authBaseURL = authBaseURL
    }
}

/// The claims of Apple's client secret (an ES256 JWT signed with the team's key).
struct AppleClientSecretClaims: JWTPayload {
    var iss: IssuerClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var aud: AudienceClaim
    var sub: SubjectClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Talks to Apple's token endpoints: swaps a sign-in `authorization_code` (valid five minutes) for a refresh
/// token, and revokes that token when the account is deleted (App Store guideline 5.1.1(v)).
public struct AppleTokenClient: Sendable {
    let settings: AppleClientSecretSettings
    let keys: JWTKeyCollection
    let client: HTTPClient
    let clock: any WallClock

    public init(settings: AppleClientSecretSettings, client: HTTPClient, clock: any WallClock) async throws {
        self.settings = settings
        self.client = client
        self.clock = clock
        let keys = JWTKeyCollection()
        do {
            await keys.add(ecdsa: try ES256PrivateKey(pem: settings.privateKeyPEM), kid: JWKIdentifier(string: settings.keyID))
        } catch {
            throw ServiceError(.invalidArgument, "POVVER_APPLE_PRIVATE_KEY_FILE is not an EC P-256 private key in PEM form.")
        }
        self.keys = keys
    }

    /// A client secret for `clientID`, valid five minutes.
    func clientSecret(clientID: String) async throws -> String {
        let now = clock.now()
        let claims = AppleClientSecretClaims(
            iss: .init(value: settings.teamID), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(300)),
            aud: .init(value: ["https://appleid.apple.com"]), sub: .init(value: clientID))
        return try await keys.sign(claims, kid: JWKIdentifier(string: settings.keyID))
    }

    /// Swaps an authorization code for a refresh token.
    func exchange(code: String, clientID: String) async throws -> String {
        struct Answer: Decodable { var refresh_token: String? }
        let body = try await post(
            "/auth/token",
            form: [
                "client_id": clientID, "client_secret": try await clientSecret(clientID: clientID), "code": code,
                "grant_type": "authorization_code",
            ])
        guard let token = try? JSONDecoder().decode(Answer.self, from: body).refresh_token, !token.isEmpty else {
            throw ServiceError(.invalidCredential, details: ["reason": "Apple returned no refresh token"])
        }
        return token
    }

    /// Revokes a refresh token. Apple answers 200 for a token already revoked.
    func revoke(refreshToken: String, clientID: String) async throws {
        _ = try await post(
            "/auth/revoke",
            form: [
                "client_id": clientID, "client_secret": try await clientSecret(clientID: clientID), "token": refreshToken,
                "token_type_hint": "refresh_token",
            ])
    }

    private func post(_ path: String, form: KeyValuePairs<String, String>) async throws -> Data {
        var request = HTTPClientRequest(url: settings.authBaseURL.trimmingSuffix("/") + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: Self.formEncode(form)))
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await client.execute(request, timeout: .seconds(15))
            body = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw AppleEndpointError(description: "Apple \(path) unreachable: \(error)", rejected: false)
        }
        guard response.status == .ok else {
            throw AppleEndpointError(
                description: "Apple \(path) answered \(response.status.code)", rejected: (400..<500).contains(Int(response.status.code)))
        }
        return Data(buffer: body)
    }

    static func formEncode(_ pairs: KeyValuePairs<String, String>) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { key, value in
            "\(key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}

/// Apple's endpoint failed: `rejected` when it refused the request (4xx), else unreachable or broken.
struct AppleEndpointError: Error, CustomStringConvertible {
    var description: String
    var rejected: Bool
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

/// Seals Apple refresh tokens at rest with AES-GCM under a key derived (HKDF-SHA256) from the server's signing
/// key, so a copy of the database alone does not reveal them.
struct TokenSealer: Sendable {
    let key: SymmetricKey

    init(signingKey: SigningKey) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(signingKey.privateKey.pemRepresentation.utf8)),
            salt: Data("povver".utf8), info: Data("apple-refresh-token-v1".utf8), outputByteCount: 32)
    }

    func seal(_ text: String) throws -> String {
        guard let combined = try AES.GCM.seal(Data(text.utf8), using: key).combined else {
            throw ServiceError(.internalError)
        }
        return combined.base64URLEncoded()
    }

    func open(_ sealed: String) throws -> String {
        guard let data = Data(base64URLEncoded: sealed) else { throw ServiceError(.internalError) }
        let opened = try AES.GCM.open(AES.GCM.SealedBox(combined: data), using: key)
        return String(decoding: opened, as: UTF8.self)
    }
}
