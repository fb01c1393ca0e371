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

    /// A purge logs `<name>d` with the count when it removed rows, and nothing when it removed none.
    @Test func aPurgeLogsWhatItRemoved() async throws {
        let records = LogRecords()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .info
        let removals = Mutex([3, 0])
        let purge = PeriodicTask.purge(name: "test_purge", interval: .milliseconds(5), logger: logger, message: "rows removed") {
            removals.withLock { $0.isEmpty ? 0 : $0.removeFirst() }
        }
        let running = Task { try await purge.run() }
        let deadline = ContinuousClock.now + .seconds(10)
        while removals.withLock({ !$0.isEmpty }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        running.cancel()
        try await running.value
        let logged = records.entries.withLock { $0 }
        #expect(logged.count == 1)
        #expect(logged.first?.0 == "rows removed")
        #expect(logged.first?.1["event"] == "test_purged" && logged.first?.1["count"] == "3")
    }
}

/// Every message logged, with its metadata.
final class LogRecords: Sendable {
    let entries = Mutex<[(String, Logger.Metadata)]>([])
}

struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.entries.withLock { $0.append(("\(event.message)", event.metadata ?? [:])) }
    }
}
