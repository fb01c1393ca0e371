import Contracts
import Synchronization

/// The coach's streams one user may have open at once in this process (`POVVER_COACH_MAX_STREAMS_PER_USER`, 2),
/// over every conversation and lane: one user cannot hold the model, or the process, for everyone else by opening
/// streams in parallel. A stream beyond is refused with `RATE_LIMITED` (`details.limit`) before it opens, as the
/// error envelope (429 with `Retry-After`), which a client handles as any refused call; a slot is given back when its
/// stream ends, however it ends.
///
/// Each replica counts its own streams: behind a load balancer a user may hold `limit` streams on each replica.
final class UserStreamLimit: Sendable {
    let limit: Int
    private let open = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// A slot for one more of `userId`'s streams; throws `RATE_LIMITED` when the user has `limit` open already.
    func take(userId: String) throws -> Slot {
        let taken = open.withLock { open in
            let current = open[userId, default: 0]
            guard current < limit else { return false }
            open[userId] = current + 1
            return true
        }
        guard taken else {
            throw ServiceError(
                .rateLimited,
                "You already have \(limit) answers from the coach on their way. Please wait for one to finish, then try again.",
                details: ["limit": "\(limit)", "retry_after_seconds": "5"])
        }
        return Slot(limit: self, userId: userId)
    }

    /// The streams `userId` has open now.
    func count(userId: String) -> Int {
        open.withLock { $0[userId, default: 0] }
    }

    fileprivate func give(back userId: String) {
        open.withLock { open in
            let left = open[userId, default: 0] - 1
            open[userId] = left > 0 ? left : nil
        }
    }

    /// One open stream's place under the limit, given back once by `release()`, whoever calls it first.
    final class Slot: Sendable {
        private let limit: UserStreamLimit
        private let userId: String
        private let released = Mutex(false)

        fileprivate init(limit: UserStreamLimit, userId: String) {
            self.limit = limit
            self.userId = userId
        }

        func release() {
            let first = released.withLock { released in
                defer { released = true }
                return !released
            }
            if first { limit.give(back: userId) }
        }

        deinit { release() }
    }
}
