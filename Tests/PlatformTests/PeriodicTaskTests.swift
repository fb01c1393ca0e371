import Logging
import Synchronization
import TestSupport
import Testing

@testable import Platform

@Suite struct PeriodicTaskTests {
    struct Failure: Error {}

    /// The work runs at start and again every interval, not before; a run that throws does not stop the next;
    /// cancelling ends the task.
    @Test func runsAgainAfterAFailureUntilCancelled() async throws {
        let clock = ManualClock()
        let runs = Mutex(0)
        let task = PeriodicTask(name: "test_task", interval: .seconds(600), clock: clock, logger: Logger(label: "test")) {
            let run = runs.withLock { runs in
                runs += 1
                return runs
            }
            if run == 1 { throw Failure() }
        }
        let running = Task { try await task.run() }
        try await eventually("the first run, then the wait") { runs.withLock { $0 } == 1 && clock.sleepers.count == 1 }
        clock.advance(by: .seconds(599))
        #expect(runs.withLock { $0 } == 1, "not before the interval")
        #expect(clock.sleepers.count == 1)
        clock.advance(by: .seconds(1))
        try await eventually("the run after the failed one") { runs.withLock { $0 } == 2 && clock.sleepers.count == 1 }
        clock.advance(by: .seconds(600))
        try await eventually("the third run") { runs.withLock { $0 } == 3 && clock.sleepers.count == 1 }
        running.cancel()
        try await finished(running)
        #expect(clock.sleepers.isEmpty)
        clock.advance(by: .seconds(6000))
        #expect(runs.withLock { $0 } == 3, "no run after cancellation")
    }

    /// A purge logs `<name>d` with the count when it removed rows, and nothing when it removed none.
    @Test func aPurgeLogsWhatItRemoved() async throws {
        let clock = ManualClock()
        let records = LogRecords()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .info
        let removals = Mutex([3, 0])
        let purge = PeriodicTask.purge(name: "test_purge", clock: clock, logger: logger, message: "rows removed") {
            removals.withLock { $0.isEmpty ? 0 : $0.removeFirst() }
        }
        let running = Task { try await purge.run() }
        try await eventually("the first purge") { removals.withLock { $0.count } == 1 && clock.sleepers.count == 1 }
        #expect(clock.sleepers.first?.deadline == clock.now.advanced(by: .seconds(600)), "ten minutes between purges")
        clock.advance(by: .seconds(600))
        try await eventually("the second purge") { removals.withLock { $0.isEmpty } && clock.sleepers.count == 1 }
        running.cancel()
        try await finished(running)
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
