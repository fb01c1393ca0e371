import Synchronization

/// Runs bodies that share a key one at a time, in arrival order, within this process; bodies under
/// different keys run freely.
///
/// For writers that would otherwise queue on one database row lock while each holds a pooled connection:
/// a burst of writes to one row then takes every connection and starves the rest of the process (and the
/// writers at the back wait out the pool's timeout). Queued here, they hold one connection at a time. The
/// database lock stays the guarantee across processes; this only decides who in this process asks for it.
///
/// A waiter is not woken by cancellation: it runs when its turn comes (the body may check for it).
public final class KeyedExclusion: Sendable {
    private struct Lane {
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Keys whose body is running, each with the waiters queued behind it.
    private let lanes = Mutex<[String: Lane]>([:])

    public init() {}

    /// Runs `body` once no earlier body under `key` is running.
    public func run<R: Sendable>(_ key: String, _ body: () async throws -> R) async throws -> R {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    /// Keys with a body running (for tests and metrics).
    public var busyKeys: Int { lanes.withLock { $0.count } }

    /// Bodies queued behind the one running under `key`.
    public func waiting(_ key: String) -> Int { lanes.withLock { $0[key]?.waiters.count ?? 0 } }

    private func acquire(_ key: String) async {
        let mustWait = lanes.withLock { lanes -> Bool in
            if lanes[key] == nil {
                lanes[key] = Lane()
                return false
            }
            return true
        }
        guard mustWait else { return }
        await withCheckedContinuation { continuation in
            let runNow = lanes.withLock { lanes -> Bool in
                // The holder may have left between the two locks.
                if lanes[key] == nil {
                    lanes[key] = Lane()
                    return true
                }
                lanes[key]?.waiters.append(continuation)
                return false
            }
            if runNow { continuation.resume() }
        }
    }

    /// Hands the key to the first waiter (which now holds it), or frees it.
    private func release(_ key: String) {
        let next = lanes.withLock { lanes -> CheckedContinuation<Void, Never>? in
            guard var lane = lanes[key] else { return nil }
            if lane.waiters.isEmpty {
                lanes[key] = nil
                return nil
            }
            let first = lane.waiters.removeFirst()
            lanes[key] = lane
            return first
        }
        next?.resume()
    }
}
