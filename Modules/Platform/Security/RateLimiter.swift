import Contracts
import Crypto
import Foundation
import SQLKit

/// A limit: at most `limit` attempts per `window` seconds for one key.
public struct RateLimit: Sendable, Equatable {
    public var name: String
    public var limit: Int
    public var window: TimeInterval

    public init(name: String, limit: Int, window: TimeInterval) {
        self.name = name
        self.limit = limit
        self.window = window
    }
}

/// Fixed-window attempt counters in the database, so every replica counts together. Keys (emails, client
/// addresses) are stored only as SHA-256 digests.
public struct RateLimiter: Sendable {
    let database: Database
    let clock: any WallClock

    public init(database: Database, clock: any WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Counts one attempt for `key` under `rule` (`weight` of them: a batch counts its items). Throws
    /// `RATE_LIMITED` once the window holds more than the limit; the attempt is counted either way, so hammering
    /// never resets the window.
    public func hit(_ rule: RateLimit, key: String, weight: Int = 1) async throws {
        if try await record(rule, key: key, weight: weight) > rule.limit { throw refusal(rule) }
    }

    /// Counts one attempt (`weight` of them) for `key` under `rule` without refusing it (a failure counted once it
    /// is known). Answers the window's count.
    @discardableResult
    public func record(_ rule: RateLimit, key: String, weight: Int = 1) async throws -> Int {
        let weight = max(1, weight)
        let window = Int64(saturating: clock.now().timeIntervalSince1970 / rule.window)
        let bucket = Self.bucket(rule, key: key)
        // When the window ends, in milliseconds: the counter is of no use after it (`BackgroundRetention` purges it).
        let expiresAt = Int64(saturating: (Double(window + 1) * rule.window * 1000).rounded(.up))
        return try await database.transaction { tx in
            try await tx.sql.raw(
                """
                INSERT INTO platform_rate_limits (bucket, window_start, hits, expires_at)
                VALUES (\(bind: bucket), \(bind: window), \(bind: weight), \(bind: expiresAt))
                ON CONFLICT (bucket) DO UPDATE SET
                    hits = CASE WHEN platform_rate_limits.window_start = excluded.window_start
                        THEN platform_rate_limits.hits + excluded.hits ELSE excluded.hits END,
                    window_start = excluded.window_start, expires_at = excluded.expires_at
                RETURNING hits
                """
            ).first(decodingColumn: "hits", as: Int.self) ?? weight
        }
    }

    /// Forgets what was counted for each key under its rule (a success that makes earlier failures moot).
    public func reset(_ counters: [(rule: RateLimit, key: String)]) async throws {
        let buckets = counters.map { Self.bucket($0.rule, key: $0.key) }
        guard !buckets.isEmpty else { return }
        try await database.transaction { tx in
            try await tx.sql.raw("DELETE FROM platform_rate_limits WHERE bucket IN (\(binds: buckets))").run()
        }
    }

    /// The attempts counted for `key` in `rule`'s current window, counting none.
    public func count(_ rule: RateLimit, key: String) async throws -> Int {
        let window = Int64(saturating: clock.now().timeIntervalSince1970 / rule.window)
        let row = try await database.sql.raw(
            "SELECT window_start, hits FROM platform_rate_limits WHERE bucket = \(bind: Self.bucket(rule, key: key))"
        ).first()
        guard let row, try row.decode(column: "window_start", as: Int64.self) == window else { return 0 }
        return try row.decode(column: "hits", as: Int.self)
    }

    /// The `RATE_LIMITED` error of `rule`, saying when its current window ends.
    public func refusal(_ rule: RateLimit) -> ServiceError {
        let now = clock.now().timeIntervalSince1970
        let window = (now / rule.window).rounded(.down)
        let retryAfter = Int(saturating: ((window + 1) * rule.window - now).rounded(.up))
        return ServiceError(
            .rateLimited, "Too many attempts. Please wait \(Self.describe(seconds: retryAfter)) and try again.",
            details: ["retry_after_seconds": "\(max(1, retryAfter))"])
    }

    static func bucket(_ rule: RateLimit, key: String) -> String {
        "\(rule.name):" + SHA256.hash(data: Data(key.utf8)).hexString
    }

    static func describe(seconds: Int) -> String {
        seconds < 90 ? "a minute" : "\((seconds + 59) / 60) minutes"
    }
}
