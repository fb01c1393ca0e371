import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

extension RateLimiterTests {
    /// A batch counts its items: a weighted hit adds its weight to the window, and is refused (and still counted)
    /// once the window holds more than the limit.
    @Test(arguments: TestDatabases.engines)
    func aWeightedHitCountsItsWeight(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let clock = FakeWallClock(Date(timeIntervalSince1970: 1_800_000_000))
            let limiter = RateLimiter(database: db, clock: clock)
            let rule = RateLimit(name: "batches", limit: 150, window: 3600)
            try await limiter.hit(rule, key: "u", weight: 100)
            #expect(try await limiter.count(rule, key: "u") == 100)
            let error = await #expect(throws: ServiceError.self) { try await limiter.hit(rule, key: "u", weight: 60) }
            #expect(error?.code == .rateLimited)
            #expect(try await limiter.count(rule, key: "u") == 160)
            try await limiter.hit(rule, key: "v", weight: 0)
            #expect(try await limiter.count(rule, key: "v") == 1, "an empty batch still counts as one attempt")
            clock.advance(by: 3600)
            try await limiter.hit(rule, key: "u", weight: 150)
            #expect(try await limiter.count(rule, key: "u") == 150, "a new window starts from the batch")
        }
    }
}
