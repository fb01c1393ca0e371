import Foundation
import OpenAPIRuntime

/// Timestamps as the server writes them: RFC 3339 in UTC with milliseconds (`2026-01-05T07:30:00.000Z`); reading
/// also takes one without fractional seconds or with an offset. The runtime's default transcoder reads only whole
/// seconds, so every answer with a timestamp would fail to decode with it.
public struct RFC3339DateTranscoder: DateTranscoder {
    public init() {}

    /// The server's own form, with milliseconds.
    public func encode(_ date: Date) throws -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    public func decode(_ text: String) throws -> Date {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(text) is not an RFC 3339 timestamp"))
    }
}

extension Configuration {
    /// The configuration a Povver client uses: RFC 3339 timestamps with milliseconds, compact JSON.
    public static var povver: Configuration {
        Configuration(dateTranscoder: RFC3339DateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])
    }
}
