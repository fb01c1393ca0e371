import Foundation

extension Date {
    /// Milliseconds since 1970: how every timestamp column stores time (portable across both engines). A date
    /// beyond what 64 bits of milliseconds hold (about 292 million years) is clamped, never a trap.
    public var millisecondsSince1970: Int64 { Int64(saturating: (timeIntervalSince1970 * 1000).rounded()) }

    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(ms) / 1000)
    }

    /// RFC 3339 in UTC with milliseconds, as every API timestamp is written. Rounded to whole milliseconds,
    /// so formatting a parsed timestamp gives the same text back.
    public var rfc3339: String {
        let (parts, millis) = utcParts
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = Int(parts.tm_year) + 1900
        let yearText = year >= 1000 ? "\(year)" : String(repeating: "0", count: 4 - "\(max(0, year))".count) + "\(max(0, year))"
        let millisText = millis < 10 ? "00\(millis)" : (millis < 100 ? "0\(millis)" : "\(millis)")
        return
            "\(yearText)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millisText)Z"
    }

    /// The UTC calendar fields of the whole second and the milliseconds past it (`rfc3339` and `JSONWriter`).
    var utcParts: (tm, millis: Int) {
        let milliseconds = millisecondsSince1970
        var seconds = time_t(milliseconds / 1000)
        var millis = Int(milliseconds % 1000)
        if millis < 0 {
            millis += 1000
            seconds -= 1
        }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (parts, millis)
    }

    /// Parses an RFC 3339 timestamp (`Z` or an offset, with or without fractional seconds).
    public init?(rfc3339 string: String) {
        if let fast = Date.parseCanonicalRFC3339(string) {
            self = fast
        } else if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string) {
            self = date
        } else if let date = try? Date.ISO8601FormatStyle().parse(string) {
            self = date
        } else {
            return nil
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`, the form this server writes, without a formatter.
    private static func parseCanonicalRFC3339(_ string: String) -> Date? {
        let bytes = Array(string.utf8)
        guard bytes.count == 20 || (bytes.count >= 22 && bytes.count <= 30 && bytes[19] == UInt8(ascii: ".")),
            bytes.last == UInt8(ascii: "Z"),
            bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day), hour < 24,
            minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            guard let digits = number(20..<(bytes.count - 1)) else { return nil }
            fraction = Double(digits) / pow(10, Double(bytes.count - 21))
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }
}
