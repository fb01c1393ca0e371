import Foundation
import TestSupport
import Testing

@testable import Auth

@Suite struct SessionStatusCacheTests {
    @Test func openSessionsAreRememberedBriefly() {
        let clock = ManualClock()
        let cache = SessionStatusCache(lifetime: .seconds(2), clock: clock)
        #expect(!cache.isKnownOpen(sessionId: "s1", userId: "u1"))
        cache.rememberOpen(sessionId: "s1", userId: "u1")
        #expect(cache.isKnownOpen(sessionId: "s1", userId: "u1"))
        #expect(!cache.isKnownOpen(sessionId: "s1", userId: "u2"), "a session belongs to one user")
        clock.advance(by: .milliseconds(1999))
        #expect(cache.isKnownOpen(sessionId: "s1", userId: "u1"), "remembered for its whole lifetime")
        clock.advance(by: .milliseconds(1))
        #expect(!cache.isKnownOpen(sessionId: "s1", userId: "u1"), "expired entries send the check back to the database")
    }

    /// A revocation here keeps the session from being cached as open for ten lifetimes (a stale read racing it),
    /// and no longer.
    @Test func aRevocationIsRememberedForTenLifetimes() {
        let clock = ManualClock()
        let cache = SessionStatusCache(lifetime: .seconds(1), clock: clock)
        cache.revoke(sessionId: "s1")
        clock.advance(by: .milliseconds(9999))
        cache.rememberOpen(sessionId: "s1", userId: "u1")
        #expect(!cache.isKnownOpen(sessionId: "s1", userId: "u1"))
        clock.advance(by: .milliseconds(1))
        cache.rememberOpen(sessionId: "s1", userId: "u1")
        #expect(cache.isKnownOpen(sessionId: "s1", userId: "u1"))
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
