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
}
