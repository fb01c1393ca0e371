import Contracts
import Foundation
import JWTKit
import Platform
import Synchronization

/// The claims of a Povver access token.
struct AccessClaims: JWTPayload, Equatable {
    var sub: SubjectClaim
    var iss: IssuerClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var authTime: Int
    var sid: String
    var jti: IDClaim

    enum CodingKeys: String, CodingKey {
        case sub, iss, aud, iat, exp, sid, jti
        case authTime = "auth_time"
    }

    // Time-based checks use the injected clock in `AccessTokens.verify`, not the wall clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Issues and verifies short-lived ES256 access tokens (`kid`, `auth_time`, session id `sid`).
public final class AccessTokens: Sendable {
    static let issuer = "povver"
    static let audience = "povver-api"

    public let signingKey: SigningKey
    public let lifetime: TimeInterval
    private let keys: JWTKeyCollection
    private let clock: any WallClock
    private let ids: any IDGenerator
    private let cache = Mutex<[String: Principal]>([:])
    private let cacheLimit = 20_000

    public init(signingKey: SigningKey, lifetime: TimeInterval, clock: any WallClock, ids: any IDGenerator) async {
        self.signingKey = signingKey
        self.lifetime = lifetime
        self.clock = clock
        self.ids = ids
        self.keys = JWTKeyCollection()
        await keys.add(ecdsa: signingKey.privateKey, kid: JWKIdentifier(string: signingKey.keyID))
    }

    /// A signed access token for a session.
    public func issue(userId: String, sessionId: String, authTime: Date) async throws -> (token: String, expiresIn: Int) {
        let now = clock.now()
        let claims = AccessClaims(
            sub: .init(value: userId), iss: .init(value: Self.issuer), aud: .init(value: [Self.audience]),
            iat: .init(value: now), exp: .init(value: now.addingTimeInterval(lifetime)),
            authTime: Int(saturating: authTime.timeIntervalSince1970), sid: sessionId, jti: .init(value: ids.makeID()))
        let token = try await keys.sign(claims, kid: JWKIdentifier(string: signingKey.keyID))
        return (token, Int(lifetime))
    }

    /// The principal of a token whose signature, issuer, audience and expiry check out. A token's signature is
    /// checked once; later presentations within its lifetime hit a bounded cache.
    public func verify(_ token: String) async throws -> Principal {
        let now = clock.now()
        if let cached = cache.withLock({ $0[token] }) {
            guard cached.expiresAt > now else { throw ServiceError(.unauthenticated, "Your session has expired. Please sign in again.") }
            return cached
        }
        guard token.utf8.count < 4096 else { throw ServiceError(.unauthenticated) }
        let claims: AccessClaims
        do {
            claims = try await keys.verify(token, as: AccessClaims.self)
        } catch {
            throw ServiceError(.unauthenticated)
        }
        guard claims.iss.value == Self.issuer, claims.aud.value.contains(Self.audience) else {
            throw ServiceError(.unauthenticated)
        }
        guard claims.exp.value > now else {
            throw ServiceError(.unauthenticated, "Your session has expired. Please sign in again.")
        }
        let principal = Principal(
            userId: claims.sub.value, authTime: Date(timeIntervalSince1970: TimeInterval(claims.authTime)),
            sessionId: claims.sid, expiresAt: claims.exp.value)
        cache.withLock { cache in
            if cache.count >= cacheLimit {
                cache = cache.filter { $0.value.expiresAt > now }
                if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            }
            cache[token] = principal
        }
        return principal
    }
}
