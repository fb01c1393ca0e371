import Contracts
import Foundation
import Synchronization

/// A clock that only moves when a test moves it.
public final class FakeWallClock: WallClock {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        self.current = Mutex(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    /// Moves time forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}

/// Predictable ids: `prefix-1`, `prefix-2`, …
public final class SequentialIDGenerator: IDGenerator {
    private let counter = Mutex(0)
    private let prefix: String

    public init(prefix: String = "id") { self.prefix = prefix }

    public func makeID() -> String {
        let n = counter.withLock { value -> Int in
            value += 1
            return value
        }
        return "\(prefix)-\(n)"
    }
}
