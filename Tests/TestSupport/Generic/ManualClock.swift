import Fakes
import Synchronization

/// A duration clock that moves only when a test moves it (`advance`). Sleepers whose deadline the clock reaches
/// are woken, earliest first; a cancelled sleep ends at once with `CancellationError`. A `FakeWallClock` given to
/// it moves along, so the dates a service records (a lease's expiry) and the time it sleeps by agree.
///
/// `sleepers` shows who waits and until when: a test waits for a loop to reach its sleep before moving time,
/// instead of sleeping in real time and hoping it got there.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        /// Time since the clock was made.
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// A sleep in progress.
    public struct Sleeper: Sendable, Equatable {
        public var deadline: Instant
        /// The task that sleeps: the same for every sleep of one task (a loop's sleep after sleep).
        public var task: Int
        /// Sleeps are numbered in the order they began.
        public var number: Int
    }

    private struct State {
        var now = Instant(offset: .zero)
        var count = 0
        var sleeping: [Int: (sleeper: Sleeper, continuation: CheckedContinuation<Void, any Error>)] = [:]
        /// Sleeps cancelled before they were registered.
        var cancelledEarly: Set<Int> = []
    }

    private let state = Mutex(State())
    private let wall: FakeWallClock?

    /// A clock at zero; `wall`, if given, moves forward with it.
    public init(moving wall: FakeWallClock? = nil) {
        self.wall = wall
    }

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// The sleeps in progress, earliest deadline first.
    public var sleepers: [Sleeper] {
        state.withLock { $0.sleeping.values.map(\.sleeper) }.sorted { ($0.deadline, $0.number) < ($1.deadline, $1.number) }
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let task = withUnsafeCurrentTask { $0?.hashValue } ?? 0
        let number = state.withLock { state in
            defer { state.count += 1 }
            return state.count
        }
        defer { _ = state.withLock { $0.cancelledEarly.remove(number) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelledEarly.contains(number) { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleeping[number] = (Sleeper(deadline: deadline, task: task, number: number), continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeping = state.withLock { state in
                guard let entry = state.sleeping.removeValue(forKey: number) else {
                    state.cancelledEarly.insert(number)
                    return nil as CheckedContinuation<Void, any Error>?
                }
                return entry.continuation
            }
            sleeping?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` (and the wall clock with it), then wakes every sleeper whose deadline
    /// has come, earliest first. Those woken see the new time.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "time does not go back")
        let woken = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            wall?.advance(by: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            let due = state.sleeping.values.filter { $0.sleeper.deadline <= state.now }
                .sorted { ($0.sleeper.deadline, $0.sleeper.number) < ($1.sleeper.deadline, $1.sleeper.number) }
            for entry in due { state.sleeping[entry.sleeper.number] = nil }
            return due.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Moves time forward to `instant` (see `advance(by:)`).
    public func advance(to instant: Instant) {
        advance(by: now.duration(to: instant))
    }
}
