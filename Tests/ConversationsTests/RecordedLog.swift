import Logging
import Synchronization

/// A logger whose messages a test reads back (with their metadata and the logger's own, `request_id` among them).
final class RecordedLog: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    let entries = Mutex<[Entry]>([])

    /// A logger writing here, carrying `request_id` as the HTTP layer's request logger does.
    func logger(requestId: String? = nil) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(log: self) }
        logger.logLevel = .trace
        if let requestId { logger[metadataKey: "request_id"] = .string(requestId) }
        return logger
    }

    /// The entries whose `event` is `event`.
    func events(_ event: String) -> [Entry] {
        entries.withLock { $0.filter { $0.metadata["event"] == .string(event) } }
    }

    /// Everything logged, as one text (to look for what must or must not be there).
    var text: String {
        entries.withLock { $0.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n") }
    }

    struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            log.entries.withLock { $0.append(Entry(level: event.level, message: "\(event.message)", metadata: merged)) }
        }
    }
}
