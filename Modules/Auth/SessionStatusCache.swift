import Foundation
import Platform
import Synchronization

/// Remembers for one second that a session was seen open, so a burst of requests costs one database check
/// instead of one each. Revocations made in this process take effect at once (a tombstone makes the session
/// bypass the cache); those made by another replica within the cache's one second.
final class SessionStatusCache: Sendable {
    private struct State {
        var open: [String: (userId: String, seenAt: Duration)] = [:]
        var revokedSessions: [String: Duration] = [:]
        var revokedUsers: [String: Duration] = [:]
    }

    private let state = Mutex(State())
    let lifetime: Duration
    private let tombstoneLifetime: Duration
    private let limit = 100_000
    /// Reads the clock the lifetimes are measured on; what the cache keeps are its readings.
    private let stopwatch: Stopwatch

    init(lifetime: Duration = .seconds(1), clock: any Clock<Duration> = ContinuousClock()) {
        self.lifetime = lifetime
        self.tombstoneLifetime = lifetime * 10
        self.stopwatch = Stopwatch(clock)
    }

    /// Whether the session was seen open within the lifetime and not revoked here since.
    func isKnownOpen(sessionId: String, userId: String) -> Bool {
        let now = stopwatch.elapsed
        return state.withLock { state in
            guard let entry = state.open[sessionId], entry.userId == userId, now - entry.seenAt < lifetime else { return false }
            return !isRevoked(state, sessionId: sessionId, userId: userId, now: now)
        }
    }

    /// Records that the database showed the session open (ignored while a revocation is recent).
    func rememberOpen(sessionId: String, userId: String) {
        let now = stopwatch.elapsed
        state.withLock { state in
            guard !isRevoked(state, sessionId: sessionId, userId: userId, now: now) else { return }
            if state.open.count >= limit { state.open = state.open.filter { now - $0.value.seenAt < lifetime } }
            state.open[sessionId] = (userId, now)
        }
    }

    func revoke(sessionId: String) {
        let now = stopwatch.elapsed
        state.withLock { state in
            state.open[sessionId] = nil
            state.revokedSessions[sessionId] = now
            prune(&state, now: now)
        }
    }

    func revoke(userId: String) {
        let now = stopwatch.elapsed
        state.withLock { state in
            state.open = state.open.filter { $0.value.userId != userId }
            state.revokedUsers[userId] = now
            prune(&state, now: now)
        }
    }

    private func isRevoked(_ state: State, sessionId: String, userId: String, now: Duration) -> Bool {
        if let at = state.revokedSessions[sessionId], now - at < tombstoneLifetime { return true }
        if let at = state.revokedUsers[userId], now - at < tombstoneLifetime { return true }
        return false
    }

    private func prune(_ state: inout State, now: Duration) {
        if state.revokedSessions.count > 10_000 {
            state.revokedSessions = state.revokedSessions.filter { now - $0.value < tombstoneLifetime }
        }
        if state.revokedUsers.count > 10_000 { state.revokedUsers = state.revokedUsers.filter { now - $0.value < tombstoneLifetime } }
    }
}
