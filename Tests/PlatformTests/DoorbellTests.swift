import Contracts
import ServiceLifecycleTestKit
import TestSupport
import Testing

@testable import Platform

/// The bell's interval runs on a manual clock: a wait that ends while the clock stands still was ended by what
/// the test did (a ring, a cancellation, a shutdown), not by its interval, and one that ends only once the clock
/// reached its interval waited all of it.
@Suite struct DoorbellTests {
    static let long = Duration.seconds(60)

    /// Starts `wait(upTo:)` and returns once it is parked (its interval's sleep begun).
    static func parkedWait(_ bell: Doorbell, on clock: ManualClock, upTo interval: Duration = long) async throws -> Task<Void, Never> {
        let waiting = Task { await bell.wait(upTo: interval) }
        try await eventually("the wait parked") { bell.waiting == 1 && clock.sleepers.count == 1 }
        return waiting
    }

    /// Checks that `waiting` goes on until the clock reaches `interval` past now, and ends then.
    static func expectWaitsOut(_ waiting: Task<Void, Never>, _ interval: Duration, on clock: ManualClock) async throws {
        let end = clock.now.advanced(by: interval)
        #expect(clock.sleepers.map(\.deadline) == [end])
        clock.advance(by: interval - .milliseconds(1))
        #expect(clock.sleepers.map(\.deadline) == [end], "still waiting a millisecond before its interval is over")
        clock.advance(by: .milliseconds(1))
        try await finished(waiting, "the wait ended with its interval")
    }

    @Test func aRingWakesTheWaitAndIsUsedUpByIt() async throws {
        let clock = ManualClock()
        let bell = Doorbell(clock: clock)
        let waiting = try await Self.parkedWait(bell, on: clock)
        bell.ring()
        try await finished(waiting, "the ring woke the wait")
        #expect(bell.waiting == 0)
        try await eventually("the interval's sleep ended with it") { clock.sleepers.isEmpty }
        // The ring woke that wait; it is not kept for the next one, which waits its whole interval.
        let next = try await Self.parkedWait(bell, on: clock, upTo: .milliseconds(50))
        try await Self.expectWaitsOut(next, .milliseconds(50), on: clock)
    }

    @Test func aRingWhileNobodyWaitsIsKeptForTheNextWait() async throws {
        let clock = ManualClock()
        let bell = Doorbell(clock: clock)
        bell.ring()
        bell.ring()
        try await finished(Task { await bell.wait(upTo: Self.long) }, "the kept ring let the wait through")
        // Two rings before it are one: the wait after that one waits.
        let next = try await Self.parkedWait(bell, on: clock, upTo: .milliseconds(50))
        try await Self.expectWaitsOut(next, .milliseconds(50), on: clock)
    }

    @Test func withoutARingTheWaitEndsAfterItsInterval() async throws {
        let clock = ManualClock()
        let bell = Doorbell(clock: clock)
        let waiting = try await Self.parkedWait(bell, on: clock, upTo: .milliseconds(80))
        try await Self.expectWaitsOut(waiting, .milliseconds(80), on: clock)
        #expect(bell.waiting == 0)
    }

    @Test func aRingWakesEveryLoopWaiting() async throws {
        let clock = ManualClock()
        let bell = Doorbell(clock: clock)
        let first = Task { await bell.wait(upTo: Self.long) }
        let second = Task { await bell.wait(upTo: Self.long) }
        try await eventually("both waits parked") { bell.waiting == 2 && clock.sleepers.count == 2 }
        bell.ring()
        try await finished(first)
        try await finished(second)
        #expect(bell.waiting == 0)
    }

    @Test func cancellingTheTaskEndsItsWait() async throws {
        let clock = ManualClock()
        let bell = Doorbell(clock: clock)
        let waiting = try await Self.parkedWait(bell, on: clock)
        waiting.cancel()
        try await finished(waiting, "the cancellation ended the wait")
        #expect(bell.waiting == 0)
        // A task cancelled before it waits does not wait at all.
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await bell.wait(upTo: Self.long)
        }
        try await finished(cancelled, "a cancelled task did not wait")
    }

    @Test func gracefulShutdownEndsTheWait() async throws {
        let clock = ManualClock()
        let bell = Doorbell(clock: clock)
        try await testGracefulShutdown { trigger in
            let waiting = Task { await bell.wait(upTo: Self.long) }
            try await eventually("the wait parked") { bell.waiting == 1 && clock.sleepers.count == 1 }
            trigger.triggerGracefulShutdown()
            try await finished(waiting, "the shutdown ended the wait")
            // Once shutting down, a wait returns at once.
            try await finished(Task { await bell.wait(upTo: Self.long) }, "a wait while shutting down returned")
        }
    }
}
