import Platform
import Synchronization
import Testing

/// Bodies under one key run one at a time and in the order they queued; other keys are not held up.
@Suite struct KeyedExclusionTests {
    /// Counts bodies running at once.
    final class Occupancy: Sendable {
        private let state = Mutex((now: 0, most: 0, order: [Int]()))

        func enter(_ index: Int) {
            state.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
                $0.order.append(index)
            }
        }

        func leave() { state.withLock { $0.now -= 1 } }
        var most: Int { state.withLock { $0.most } }
        var order: [Int] { state.withLock { $0.order } }
    }

    @Test func bodiesUnderOneKeyNeverOverlapAndRunInTheOrderTheyQueued() async throws {
        let exclusion = KeyedExclusion()
        let occupancy = Occupancy()
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        // The first body holds the key until the others have queued behind it.
        let first = Task {
            try await exclusion.run("workout") {
                occupancy.enter(0)
                for await _ in gate { break }
                occupancy.leave()
            }
        }
        while exclusion.busyKeys == 0 { await Task.yield() }
        var queued: [Task<Void, any Error>] = []
        for index in 1...20 {
            queued.append(
                Task {
                    try await exclusion.run("workout") {
                        occupancy.enter(index)
                        await Task.yield()
                        occupancy.leave()
                    }
                })
            // Each is queued before the next starts, so the queue's order is known.
            while exclusion.waiting("workout") < index { await Task.yield() }
        }
        open.yield()
        try await first.value
        for task in queued { try await task.value }
        #expect(occupancy.most == 1)
        #expect(occupancy.order == Array(0...20))
        #expect(exclusion.busyKeys == 0)
    }

    @Test func anotherKeyRunsWhileOneIsHeld() async throws {
        let exclusion = KeyedExclusion()
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let held = Task {
            try await exclusion.run("a") { for await _ in gate { break } }
        }
        while exclusion.busyKeys == 0 { await Task.yield() }
        // Would never return if "b" waited for "a".
        let answer = try await exclusion.run("b") { 42 }
        #expect(answer == 42)
        open.yield()
        try await held.value
    }

    @Test func aBodyThatThrowsHandsTheKeyOn() async throws {
        struct Failure: Error {}
        let exclusion = KeyedExclusion()
        await #expect(throws: Failure.self) { try await exclusion.run("k") { throw Failure() } }
        #expect(try await exclusion.run("k") { "next" } == "next")
        #expect(exclusion.busyKeys == 0)
    }
}
