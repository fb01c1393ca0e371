import ServiceLifecycle
import Synchronization

/// Lets a producer wake a waiting loop early. `wait(upTo:)` returns when rung, after the interval (on the bell's
/// clock), or when the task is cancelled or the service is shutting down.
///
/// A ring while nobody waits is kept for the next `wait`, which then returns at once; a ring while loops wait
/// wakes them all. A waiting loop is parked, not polling: an idle process is not woken until there is work or
/// the interval is over.
public final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiting: [ObjectIdentifier: Waiter] = [:]
    }

    private let state = Mutex(State())
    private let clock: any Clock<Duration>

    /// A bell whose waits time their interval on `clock` (tests pass one they advance by hand).
    public init(clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
    }

    public func ring() {
        let woken = state.withLock { state -> [Waiter] in
            guard !state.waiting.isEmpty else {
                state.rung = true
                return []
            }
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in woken { waiter.wake() }
    }

    /// Loops waiting now (tests line a ring up behind a wait with it).
    var waiting: Int { state.withLock { $0.waiting.count } }

    public func wait(upTo interval: Duration) async {
        let waiter = Waiter()
        let key = ObjectIdentifier(waiter)
        let rung = state.withLock { state -> Bool in
            if state.rung {
                state.rung = false
                return true
            }
            state.waiting[key] = waiter
            return false
        }
        if rung { return }
        defer { state.withLock { _ = $0.waiting.removeValue(forKey: key) } }
        // Each handler runs at once if its event has already happened.
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { [clock] in
                        try? await clock.sleep(for: interval)
                        waiter.wake()
                    }
                    await waiter.park()
                    group.cancelAll()
                }
            } onCancel: {
                waiter.wake()
            }
        } onGracefulShutdown: {
            waiter.wake()
        }
    }
}

/// One `wait`: parked until the first `wake`, whichever comes first of the ring, the interval, cancellation and
/// shutdown; a wake before it parked lets it through at once, later wakes do nothing.
private final class Waiter: Sendable {
    private struct State {
        var parked: UnsafeContinuation<Void, Never>?
        var woken = false
    }

    private let state = Mutex(State())

    func park() async {
        // Unsafe continuation: resumed exactly once, here if woken before parking, else by the first `wake`.
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let woken = state.withLock { state -> Bool in
                if state.woken { return true }
                state.parked = continuation
                return false
            }
            if woken { continuation.resume() }
        }
    }

    func wake() {
        let parked = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard !state.woken else { return nil }
            state.woken = true
            defer { state.parked = nil }
            return state.parked
        }
        parked?.resume()
    }
}
