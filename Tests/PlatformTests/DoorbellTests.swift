import Contracts
@testable import Platform
import ServiceLifecycleTestKit
import Testing

/// The bell's waits are parked, so each test bounds them from above with a long interval: a wait that returns
/// well before it was woken by what the test did, not by the interval.
@Suite struct DoorbellTests {
    static let long = Duration.seconds(60)

    /// How long `wait(upTo: long)` took once `wake` ran while it waited.
    static func waitWoken(_ bell: Doorbell, by wake: () -> Void) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let waiting = Task { await bell.wait(upTo: long) }
        try await waitUntil { bell.waiting == 1 }
        wake()
        await waiting.value
        return clock.now - start
    }

    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw ServiceError(.internalError, "nothing came to wait") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test func aRingWakesTheWaitAndIsUsedUpByIt() async throws {
        let bell = Doorbell()
        let took = try await Self.waitWoken(bell) { bell.ring() }
        #expect(took < .seconds(30))
        #expect(bell.waiting == 0)
        // The ring woke that wait; it is not kept for the next one, which waits its whole interval.
        let clock = ContinuousClock()
        let start = clock.now
        await bell.wait(upTo: .milliseconds(50))
        #expect(clock.now - start >= .milliseconds(50))
    }

    @Test func aRingWhileNobodyWaitsIsKeptForTheNextWait() async throws {
        let bell = Doorbell()
        bell.ring()
        bell.ring()
        let clock = ContinuousClock()
        let start = clock.now
        await bell.wait(upTo: Self.long)
        #expect(clock.now - start < .seconds(30))
        // Two rings before it are one: the wait after that one waits.
        let second = clock.now
        await bell.wait(upTo: .milliseconds(50))
        #expect(clock.now - second >= .milliseconds(50))
    }

    @Test func withoutARingTheWaitEndsAfterItsInterval() async throws {
        let bell = Doorbell()
        let clock = ContinuousClock()
        let start = clock.now
        await bell.wait(upTo: .milliseconds(80))
        let took = clock.now - start
        #expect(took >= .milliseconds(80))
        #expect(took < .seconds(30))
        #expect(bell.waiting == 0)
    }

    @Test func aRingWakesEveryLoopWaiting() async throws {
        let bell = Doorbell()
        let clock = ContinuousClock()
        let start = clock.now
        let first = Task { await bell.wait(upTo: Self.long) }
        let second = Task { await bell.wait(upTo: Self.long) }
        try await Self.waitUntil { bell.waiting == 2 }
        bell.ring()
        await first.value
        await second.value
        #expect(clock.now - start < .seconds(30))
        #expect(bell.waiting == 0)
    }

    @Test func cancellingTheTaskEndsItsWait() async throws {
        let bell = Doorbell()
        let waiting = Task { await bell.wait(upTo: Self.long) }
        try await Self.waitUntil { bell.waiting == 1 }
        let clock = ContinuousClock()
        let start = clock.now
        waiting.cancel()
        await waiting.value
        #expect(clock.now - start < .seconds(30))
        #expect(bell.waiting == 0)
        // A task cancelled before it waits does not wait at all.
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await bell.wait(upTo: Self.long)
        }
        await cancelled.value
        #expect(clock.now - start < .seconds(30))
    }

    @Test func gracefulShutdownEndsTheWait() async throws {
        let bell = Doorbell()
        let clock = ContinuousClock()
        try await testGracefulShutdown { trigger in
            let start = clock.now
            let waiting = Task { await bell.wait(upTo: Self.long) }
            try await Self.waitUntil { bell.waiting == 1 }
            trigger.triggerGracefulShutdown()
            await waiting.value
            #expect(clock.now - start < .seconds(30))
            // Once shutting down, a wait returns at once.
            await bell.wait(upTo: Self.long)
            #expect(clock.now - start < .seconds(30))
        }
    }
}
