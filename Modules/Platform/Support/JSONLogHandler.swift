import Foundation
import Logging
import Synchronization

/// One JSON object per line: `ts`, `level`, `logger`, `message`, then the metadata (an `event` field names the
/// seeds' structured events). Used when stdout is not a terminal.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let sink: @Sendable (String) -> Void

    public init(label: String, sink: @escaping @Sendable (String) -> Void = JSONLogHandler.standardOutput) {
        self.label = label
        self.sink = sink
    }

    public static let standardOutput: @Sendable (String) -> Void = { line in
        let data = Data((line + "\n").utf8)
        stdoutLock.withLock { _ in FileHandle.standardOutput.write(data) }
    }
    private static let stdoutLock = Mutex(())

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: Any] = [
            "ts": Date().rfc3339, "level": event.level.rawValue, "logger": label, "message": "\(event.message)",
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged { fields[key] = Self.plain(value) }
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return
        }
        sink(String(decoding: data, as: UTF8.self))
    }

    static func plain(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(plain)
        case .dictionary(let dictionary): dictionary.mapValues(plain)
        }
    }
}
