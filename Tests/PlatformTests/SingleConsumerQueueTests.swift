import TestSupport
import Testing

@testable import Platform

@Suite struct SingleConsumerQueueTests {
    /// A parked consumer wakes for what is appended; it takes what it chooses and the rest waits for the next
    /// take. Closing refuses new elements, lets the consumer drain what is left, then ends it.
    @Test func aParkedConsumerWakesTakesAndDrainsAfterClose() async throws {
        let queue = SingleConsumerQueue<Int>()
        let consumer = Task { () -> [[Int]] in
            var takes: [[Int]] = []
            while let taken = await queue.next({ items -> [Int] in
                let first = Array(items.prefix(2))
                items.removeFirst(first.count)
                return first
            }) {
                takes.append(taken)
            }
            return takes
        }
        // Let the consumer park on the empty queue before anything comes.
        try await Task.sleep(for: .milliseconds(20))
        #expect(queue.append(1))
        // Waits for the wake-up rather than a fixed time: on a busy machine (tests run in parallel on two cores)
        // the consumer may take longer than any short sleep to be scheduled.
        try await eventually("the parked consumer woke and took it") { queue.count == 0 }
        for value in 2...6 { #expect(queue.append(value)) }
        queue.close()
        #expect(!queue.append(7), "closed: refused")
        let takes = await consumer.value
        #expect(takes.flatMap { $0 } == [1, 2, 3, 4, 5, 6], "everything queued before the close was taken, in order")
        #expect(takes.allSatisfy { $0.count <= 2 })
    }
}
