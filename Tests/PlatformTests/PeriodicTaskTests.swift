import Logging
@testable import Platform
import Synchronization
import Testing

@Suite struct PeriodicTaskTests {
    struct Failure: Error {}

    /// The work runs at start and again every interval; a run that throws does not stop the next; cancelling
    /// ends the task.
    @Test func runsAgainAfterAFailureUntilCancelled() async throws {
        let runs = Mutex(0)
        let task = PeriodicTask(name: "test_task", interval: .milliseconds(5), logger: Logger(label: "test")) {
            let run = runs.withLock { runs in
                runs += 1
                return runs
            }
            if run == 1 { throw Failure() }
        }
        let running = Task { try await task.run() }
        let deadline = ContinuousClock.now + .seconds(10)
        while runs.withLock({ $0 }) < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(runs.withLock { $0 } >= 3)
        running.cancel()
        try await running.value
        let stopped = runs.withLock { $0 }
        try await Task.sleep(for: .milliseconds(30))
        #expect(runs.withLock { $0 } == stopped, "no run after cancellation")
    }
}
