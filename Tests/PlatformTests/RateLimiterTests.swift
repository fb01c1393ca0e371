import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@Suite struct RateLimiterTests {
    @Test(arguments: TestDatabases.engines)
    func limitsPerKeyAndWindow(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock(Date(timeIntervalSince1970: 1_800_000_000))
            let limiter = RateLimiter(database: db, clock: clock)
            let rule = RateLimit(name: "test", limit: 3, window: 60)
            for _ in 0..<3 { try await limiter.hit(rule, key: "ada@example.com") }
            do {
                try await limiter.hit(rule, key: "ada@example.com")
                Issue.record("the fourth attempt passed")
            } catch let error as ServiceError {
                #expect(error.code == .rateLimited)
                #expect(Int(error.details["retry_after_seconds"] ?? "") == 60)
            }
            try await limiter.hit(rule, key: "grace@example.com")  // other keys are counted apart
            clock.advance(by: 60)
            try await limiter.hit(rule, key: "ada@example.com")  // a new window
            let buckets = try await db.sql.raw("SELECT bucket FROM platform_rate_limits").all(decodingColumn: "bucket", as: String.self)
            #expect(buckets.count == 2)
            #expect(buckets.allSatisfy { !$0.contains("@") }, "keys are stored as digests")
        }
    }

    /// Failures counted after the fact: `record` never refuses, `count` reads the window without counting, and a
    /// new window starts from nothing.
    @Test(arguments: TestDatabases.engines)
    func recordAndCountWithoutRefusing(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock(Date(timeIntervalSince1970: 1_800_000_000))
            let limiter = RateLimiter(database: db, clock: clock)
            let rule = RateLimit(name: "failures", limit: 2, window: 60)
            #expect(try await limiter.count(rule, key: "k") == 0)
            for expected in 1...4 {
                let counted = try await limiter.record(rule, key: "k")
                #expect(counted == expected)
            }
            #expect(try await limiter.count(rule, key: "k") == 4)
            #expect(try await limiter.count(rule, key: "k") == 4, "reading counts nothing")
            #expect(limiter.refusal(rule).code == .rateLimited && limiter.refusal(rule).details["retry_after_seconds"] == "60")
            clock.advance(by: 60)
            #expect(try await limiter.count(rule, key: "k") == 0, "a new window")
        }
    }

    /// A counter goes once its window is over (one row per distinct key would otherwise stay forever); a counter
    /// still counting stays, and counts on.
    @Test(arguments: TestDatabases.engines)
    func countersExpireWithTheirWindow(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock(Date(timeIntervalSince1970: 1_800_000_000))
            let limiter = RateLimiter(database: db, clock: clock)
            let retention = BackgroundRetention(database: db, clock: clock)
            let minute = RateLimit(name: "minute", limit: 2, window: 60)
            let hour = RateLimit(name: "hour", limit: 2, window: 3600)
            for index in 0..<5 { try await limiter.hit(minute, key: "address-\(index)") }
            try await limiter.hit(hour, key: "ada@example.com")
            try await limiter.hit(hour, key: "ada@example.com")
            #expect(try await retention.purgeExpired(chunk: 2).rateLimits == 0, "every window still open")
            clock.advance(by: 61)
            #expect(try await retention.purgeExpired(chunk: 2).rateLimits == 5, "the minute's five, in chunks of two")
            let left = try await db.sql.raw("SELECT COUNT(*) AS n FROM platform_rate_limits").first(decodingColumn: "n", as: Int.self)
            #expect(left == 1)
            await #expect(throws: ServiceError.self, "the hour's counter still counts") {
                try await limiter.hit(hour, key: "ada@example.com")
            }
        }
    }
}
