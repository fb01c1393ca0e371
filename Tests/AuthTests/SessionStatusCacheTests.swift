@testable import Auth
import Foundation
import Testing

@Suite struct SessionStatusCacheTests {
    @Test func openSessionsAreRememberedBriefly() async throws {
        let cache = SessionStatusCache(lifetime: .seconds(2))
        #expect(!cache.isKnownOpen(sessionId: "s1", userId: "u1"))
        cache.rememberOpen(sessionId: "s1", userId: "u1")
        #expect(cache.isKnownOpen(sessionId: "s1", userId: "u1"))
        #expect(!cache.isKnownOpen(sessionId: "s1", userId: "u2"), "a session belongs to one user")
        try await Task.sleep(for: .milliseconds(2200))
        #expect(!cache.isKnownOpen(sessionId: "s1", userId: "u1"), "expired entries send the check back to the database")
    }

    @Test func revocationsHereTakeEffectAtOnce() {
        let cache = SessionStatusCache()
        cache.rememberOpen(sessionId: "s1", userId: "u1")
        cache.rememberOpen(sessionId: "s2", userId: "u1")
        cache.rememberOpen(sessionId: "s3", userId: "u2")
        cache.revoke(sessionId: "s1")
        #expect(!cache.isKnownOpen(sessionId: "s1", userId: "u1"))
        cache.rememberOpen(sessionId: "s1", userId: "u1")
        #expect(!cache.isKnownOpen(sessionId: "s1", userId: "u1"), "a stale 'open' read racing the revocation is not cached")
        cache.revoke(userId: "u1")
        #expect(!cache.isKnownOpen(sessionId: "s2", userId: "u1"))
        #expect(cache.isKnownOpen(sessionId: "s3", userId: "u2"))
    }
}
