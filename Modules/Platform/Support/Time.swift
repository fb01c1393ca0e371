import Foundation

extension Date {
    /// Milliseconds since 1970: how every timestamp column stores time (portable across both engines).
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(ms) / 1000)
    }

    /// RFC 3339 in UTC with milliseconds, as every API timestamp is written.
    public var rfc3339: String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(self)
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
