import Contracts
import Foundation
import Synchronization

/// The system time, but every reading at least a millisecond after the one before, so two writes never
/// share a (millisecond) timestamp.
final class AlwaysAdvancingClock: WallClock {
    private let last = Mutex(Date.distantPast)

    func now() -> Date {
        last.withLock { last in
            last = max(Date(), last.addingTimeInterval(0.001))
            return last
        }
    }
}
