import Foundation

extension Date {
    /// Milliseconds since 1970: how every timestamp column stores time (portable across both engines).
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(ms) / 1000)
    }

    /// RFC 3339 in UTC with milliseconds, as every API timestamp is written.
    public var rfc3339: String {
        // Rounded to whole milliseconds first, so formatting a parsed timestamp gives the same text back.
        let milliseconds = millisecondsSince1970
        let (seconds, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (wholeSeconds, millis) = remainder < 0 ? (seconds - 1, remainder + 1000) : (seconds, remainder)
        let base = Date.ISO8601FormatStyle().format(Date(timeIntervalSince1970: TimeInterval(wholeSeconds)))
        return String(base.dropLast()) + "." + String(String(millis + 1000).dropFirst()) + "Z"
    }

    /// Parses an RFC 3339 timestamp with or without fractional seconds.
    public init?(rfc3339 string: String) {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string) {
            self = date
        } else if let date = try? Date.ISO8601FormatStyle().parse(string) {
            self = date
        } else {
            return nil
        }
    }
}
