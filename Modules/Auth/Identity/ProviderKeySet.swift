import AsyncHTTPClient
import Contracts
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A sign-in provider's public keys (its JWKS), fetched over HTTPS and kept for as long as the provider's
/// `Cache-Control: max-age` allows. A token signed with a key id not in the cached set makes one early refetch
/// (the provider rotated its keys), at most once per `refetchInterval` so forged key ids cannot make the server
/// hammer the provider. Concurrent callers share one fetch.
///
/// Outages: the last good set is kept. An answer with no usable key (an empty `keys`, only keys this server cannot
/// use) is a failed fetch, never a replacement. A failed fetch is remembered for `failureBackoff`: meanwhile sign-ins
/// use the cached set, or fail at once, instead of each waiting on a provider that hangs.
actor ProviderKeySet {
    struct Keys {
        let collection: JWTKeyCollection
        /// Key id → the algorithm the key is for (from the JWK's `alg`, else implied by its type and curve).
        let algorithms: [String: String]
        let fetchedAt: ContinuousClock.Instant
        let maxAge: Duration
    }

    let url: String
    let client: HTTPClient
    let logger: Logger
    let refetchInterval: Duration
    let failureBackoff: Duration
    private var keys: Keys?
    private var inFlight: Task<Keys, any Error>?
    private var lastForcedFetch: ContinuousClock.Instant?
    private var lastFailure: (at: ContinuousClock.Instant, error: any Error)?

    init(
        url: String, client: HTTPClient, logger: Logger, refetchInterval: Duration = .seconds(30), failureBackoff: Duration = .seconds(10)
    ) {
        self.url = url
        self.client = client
        self.logger = logger
        self.refetchInterval = refetchInterval
        self.failureBackoff = failureBackoff
    }

    /// The keys to verify a token signed with `kid`: the cached set while fresh and holding `kid`, else a
    /// refetched one. Throws `UNAVAILABLE`-style errors only for network failures with nothing cached.
    func keys(for kid: String) async throws -> Keys {
        let now = ContinuousClock.now
        if let keys, now - keys.fetchedAt < keys.maxAge {
            if keys.algorithms[kid] != nil { return keys }
            if let lastForcedFetch, now - lastForcedFetch < refetchInterval { return keys }
            lastForcedFetch = now
        }
        // A fetch that just failed is not tried again for a few seconds: the cached set, or the same failure at once.
        if let lastFailure, now - lastFailure.at < failureBackoff {
            if let usable = usableDuringOutage(now) { return usable }
            throw lastFailure.error
        }
        do {
            let fetched = try await fetch()
            keys = fetched
            lastFailure = nil
            return fetched
        } catch {
            lastFailure = (now, error)
            logger.warning(
                "provider key set fetch failed", metadata: ["event": "jwks_fetch_failed", "url": "\(url)", "error": "\(error)"])
            if let usable = usableDuringOutage(now) { return usable }
            throw error
        }
    }

    /// The cached set while recent enough to keep using through a provider outage (a day past its max-age).
    private func usableDuringOutage(_ now: ContinuousClock.Instant) -> Keys? {
        guard let keys, now - keys.fetchedAt < keys.maxAge + .seconds(24 * 3600) else { return nil }
        return keys
    }

    private func fetch() async throws -> Keys {
        if let inFlight { return try await inFlight.value }
        let task = Task { [url, client] in try await Self.download(url: url, client: client) }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value
    }

    /// The seeds' network-error sentence: the provider's keys could not be had (the API has no 503 code).
    static let unreachable = "Network error. Please check your connection and try again."

    private static func download(url: String, client: HTTPClient) async throws -> Keys {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await client.execute(request, timeout: .seconds(10))
            body = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw ServiceError(.failedPrecondition, Self.unreachable, details: ["reason": "key set unreachable"])
        }
        guard response.status == .ok else {
            throw ServiceError(.failedPrecondition, Self.unreachable, details: ["reason": "key set status \(response.status.code)"])
        }
        let jwks: JWKS
        do {
            jwks = try JSONDecoder().decode(JWKS.self, from: Data(buffer: body))
        } catch {
            throw ServiceError(.failedPrecondition, Self.unreachable, details: ["reason": "key set unreadable"])
        }
        let collection = JWTKeyCollection()
        var algorithms: [String: String] = [:]
        for jwk in jwks.keys {
            guard let kid = jwk.keyIdentifier?.string, let algorithm = Self.algorithm(of: jwk) else { continue }
            var pinned = jwk
            pinned.algorithm = JWK.Algorithm(rawValue: algorithm)
            do {
                try await collection.add(jwk: pinned)
                algorithms[kid] = algorithm
            } catch {
                continue  // a key this server cannot use is skipped, never trusted
            }
        }
        // An answer with no key to verify with would lock every sign-in out: it never replaces the keys at hand.
        guard !algorithms.isEmpty else {
            throw ServiceError(.failedPrecondition, Self.unreachable, details: ["reason": "key set holds no usable key"])
        }
        return Keys(
            collection: collection, algorithms: algorithms, fetchedAt: .now,
            maxAge: .seconds(Self.maxAge(response.headers["Cache-Control"].first) ?? 3600))
    }

    /// Signature algorithms a provider key may be for. Never `none`, HMAC or an encryption algorithm.
    static let signatureAlgorithms: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"]

    /// The JWK's algorithm: its `alg`, else what its key type implies; nil for anything not a signature key.
    static func algorithm(of jwk: JWK) -> String? {
        let algorithm: String?
        if let alg = jwk.algorithm?.rawValue {
            algorithm = alg
        } else {
            switch (jwk.keyType.rawValue, jwk.curve?.rawValue) {
            case ("RSA", _): algorithm = "RS256"
            case ("EC", "P-256"): algorithm = "ES256"
            case ("EC", "P-384"): algorithm = "ES384"
            case ("EC", "P-521"): algorithm = "ES512"
            default: algorithm = nil
            }
        }
        return algorithm.flatMap { signatureAlgorithms.contains($0) ? $0 : nil }
    }

    /// `max-age` in seconds from a `Cache-Control` value, bounded to 1 minute … 1 day; nil when absent or
    /// `no-store`/`no-cache` (then the default applies).
    static func maxAge(_ header: String?) -> Int? {
        guard let header else { return nil }
        for directive in header.split(separator: ",") {
            let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "max-age",
                let seconds = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))
            {
                return min(max(seconds, 60), 86_400)
            }
        }
        return nil
    }
}
