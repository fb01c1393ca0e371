import Contracts
import Foundation
import Synchronization

/// The system time moved forward by what a test advanced, every reading at least a millisecond after the one before
/// (so two writes never share a millisecond timestamp). For a whole server whose background loops must keep real
/// time while a test jumps days ahead; a unit under test takes `FakeWallClock` (Fakes) and `ManualClock` instead.
public final class ShiftedClock: WallClock {
    private let state = Mutex((offset: 0.0, last: Date.distantPast))

    public init() {}

    public func now() -> Date {
        state.withLock { state in
            state.last = max(Date().addingTimeInterval(state.offset), state.last.addingTimeInterval(0.001))
            return state.last
        }
    }

    /// Moves every later reading `seconds` ahead.
    public func advance(by seconds: TimeInterval) { state.withLock { $0.offset += seconds } }
}
