import ServiceLifecycle
import Synchronization

/// Lets a producer wake a polling loop early. `wait(upTo:)` returns when rung, after the interval, or when
/// the service is shutting down.
public final class Doorbell: Sendable {
    public init() {}

    private let rung = Mutex(false)

    public func ring() { rung.withLock { $0 = true } }

    public func wait(upTo interval: Duration) async {
        let step = Duration.milliseconds(20)
        var waited = Duration.zero
        while waited < interval {
            if rung.withLock({ value -> Bool in
                let was = value
                value = false
                return was
            }) { return }
            if Task.isShuttingDownGracefully || Task.isCancelled { return }
            try? await Task.sleep(for: step)
            waited += step
        }
    }
}
