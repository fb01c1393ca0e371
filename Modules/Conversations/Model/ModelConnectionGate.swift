import Contracts
import Synchronization

/// The model's connections, counted: at most `limit` completions talk to the model at once (the HTTP client's pool
/// holds as many connections), and a turn that finds them all busy waits its turn for at most a short while, measured
/// on the injected clock, then is told the coach is busy instead of queueing without end. Waiters are served in the
/// order they came.
///
/// Without it, a turn queued inside the HTTP client's pool has its first-chunk timeout running while it waits: a
/// busy model looks like a dead one, and one user's parallel streams hold everyone else in the queue.
final class ModelConnectionGate: Sendable {
    let limit: Int

    private enum Outcome {
        case granted, timedOut, cancelled
    }

    private struct Waiter {
        var number: Int
        var continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State {
        var inUse = 0
        var waiters: [Waiter] = []
        var count = 0
        /// Waits between their number and their place in the queue: nil, or how they ended before they got there.
        var arriving: [Int: Outcome?] = [:]
    }

    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The connections in use now.
    var inUse: Int { state.withLock { $0.inUse } }
    /// The turns waiting for one.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// A permit to talk to the model (return it with `release()`), waiting at most `wait` on `clock` when every
    /// connection is busy. Throws `UNAVAILABLE` ("the coach is busy") once the wait is over, `CancellationError` when
    /// the turn is cancelled while it waits.
    func acquire(waiting wait: Duration, on clock: any Clock<Duration>) async throws {
        let queued: Int? = try state.withLock { state in
            if state.inUse < limit {
                state.inUse += 1
                return nil
            }
            guard wait > .zero else { throw Self.busy }
            state.count += 1
            state.arriving[state.count] = .some(nil)
            return state.count
        }
        guard let number = queued else { return }
        let timer = Task {
            try await clock.sleep(for: wait)
            expire(number, as: .timedOut)
        }
        defer { timer.cancel() }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let immediate: Outcome? = state.withLock { state in
                    if case .some(.some(let ended)) = state.arriving.removeValue(forKey: number) { return ended }  // now queued or served
                    if state.inUse < limit {
                        state.inUse += 1
                        return .granted
                    }
                    state.waiters.append(Waiter(number: number, continuation: continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            expire(number, as: .cancelled)
        }
        switch outcome {
        case .granted: return
        case .cancelled: throw CancellationError()
        case .timedOut: throw Self.busy
        }
    }

    /// Gives a permit back: to the turn that has waited longest, or to the pool.
    func release() {
        let next: Waiter? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.inUse = max(0, state.inUse - 1)
                return nil
            }
            return state.waiters.removeFirst()  // the permit passes on: inUse stays
        }
        next?.continuation.resume(returning: .granted)
    }

    /// Ends a wait that is still queued, or that is about to be (a wait already granted keeps its permit).
    private func expire(_ number: Int, as outcome: Outcome) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.number == number }) else {
                if case .some(nil) = state.arriving[number] { state.arriving[number] = .some(outcome) }
                return nil
            }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: outcome)
    }

    /// What a turn that found every connection busy for too long is told.
    static let busy = ServiceError(
        .unavailable, "The coach is busy right now. Please try again in a moment.", details: ["retry_after_seconds": "5"])
}
