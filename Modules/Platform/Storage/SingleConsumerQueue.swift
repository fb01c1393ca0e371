import Synchronization

/// A queue drained by one consumer task: producers append and wake the consumer if it is parked; the consumer
/// takes what it chooses, or parks until something comes. Closing wakes it, and it drains what is left before
/// it is told to stop. `SQLiteWriteQueue` (writes for the writer) is built on it.
final class SingleConsumerQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        /// The consumer, parked while nothing is queued: resumed with true for work, false to stop.
        var parked: UnsafeContinuation<Bool, Never>?
        var closed = false
    }

    private let state = Mutex(State())

    init() {}

    /// Queues `element` and wakes the consumer; false (nothing queued) once closed.
    func append(_ element: Element) -> Bool {
        let (accepted, parked) = state.withLock { state -> (Bool, UnsafeContinuation<Bool, Never>?) in
            guard !state.closed else { return (false, nil) }
            state.items.append(element)
            defer { state.parked = nil }
            return (true, state.parked)
        }
        parked?.resume(returning: true)
        return accepted
    }

    var count: Int { state.withLock { $0.items.count } }

    /// Refuses further elements and wakes the consumer, which takes what is left and then gets nil.
    func close() {
        let parked = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
            state.closed = true
            defer { state.parked = nil }
            return state.parked
        }
        parked?.resume(returning: false)
    }

    /// For the consumer only: what `take` takes out of the queued elements, waiting while none are queued; nil once
    /// closed and drained. `take` runs under the queue's lock and must take something from a non-empty queue.
    func next<T: Sendable>(_ take: (inout [Element]) -> T) async -> T? {
        while true {
            let taken = state.withLock { state -> T? in state.items.isEmpty ? nil : take(&state.items) }
            if let taken { return taken }
            let more = await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
                let now = state.withLock { state -> Bool? in
                    if !state.items.isEmpty { return true }
                    if state.closed { return false }
                    state.parked = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
            if !more { return nil }
        }
    }
}
