import Foundation

/// Writes JSON byte for byte as `JSONCoding.makeEncoder()` does (sorted keys, slashes unescaped, doubles
/// without a trailing `.0`, RFC 3339 dates with milliseconds), without going through `Encoder`: for the
/// answers and request fingerprints of the hottest endpoints, where a `JSONEncoder` pass costs more than the
/// database work. The caller writes keys in sorted order; `JSONWriterTests` hold each writer to the encoder's
/// output.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
    }

    public mutating func endObject() { bytes.append(UInt8(ascii: "}")) }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
    }

    public mutating func endArray() { bytes.append(UInt8(ascii: "]")) }

    /// An object key (the caller keeps keys sorted, as the encoder does). The value follows.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        // Most strings (ids, names) need no escape: copied in one go.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let digits: StaticString = "0123456789abcdef"
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                digits.withUTF8Buffer { digits in
                    bytes.append(digits[Int(byte >> 4)])
                    bytes.append(digits[Int(byte & 0x0F)])
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func int(_ value: Int) {
        separate()
        digits(of: value)
    }

    /// An integer's decimal digits, written straight into the bytes (no `String` in between).
    private mutating func digits(of value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var reversed:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &reversed) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// As the encoder writes a `Double`: its shortest description, a whole number without `.0`.
    /// Not-finite values are not JSON: they are written `null`, as a JavaScript engine writes them, never a trap.
    public mutating func double(_ value: Double) {
        separate()
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        // A whole number below 2^53 (weights, volumes) is written as its digits, as its description would be
        // without the ".0"; minus zero keeps its sign, as the encoder writes it ("-0").
        if value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992, !(value == 0 && value.sign == .minus) {
            digits(of: Int(value))
            return
        }
        let text = value.description
        if text.hasSuffix(".0") {
            bytes.append(contentsOf: text.utf8.dropLast(2))
        } else {
            bytes.append(contentsOf: text.utf8)
        }
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    /// A timestamp as the API writes it (RFC 3339, UTC, milliseconds): `Date.rfc3339`, digit by digit.
    public mutating func date(_ value: Date) {
        let (parts, millis) = value.utcParts
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year) else { return string(value.rfc3339) }
        separate()
        bytes.append(UInt8(ascii: "\""))
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        bytes.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        bytes.append(UInt8(ascii: "."))
        digits(millis, 3)
        bytes.append(UInt8(ascii: "Z"))
        bytes.append(UInt8(ascii: "\""))
    }

    /// `value` (not negative) in `width` digits, zeros in front.
    private mutating func digits(_ value: Int, _ width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))  // cannot trap: one decimal digit
            rest %= divisor
            divisor /= 10
        }
    }

    public mutating func int(_ value: Int?) {
        if let value { int(value) } else { null() }
    }

    public mutating func double(_ value: Double?) {
        if let value { double(value) } else { null() }
    }

    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func date(_ value: Date?) {
        if let value { date(value) } else { null() }
    }

    public mutating func value(_ value: some JSONWritable) {
        value.write(to: &self)
    }

    /// A comma before a value that follows another in an object or array.
    private mutating func separate() {
        guard let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "["), last != UInt8(ascii: ":") else { return }
        bytes.append(UInt8(ascii: ","))
    }
}

/// A value that writes itself with `JSONWriter`, exactly as its `Encodable` conformance encodes it with
/// `JSONCoding.makeEncoder()`.
public protocol JSONWritable {
    func write(to writer: inout JSONWriter)
}

extension JSONWritable {
    /// The value's JSON.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.bytes
    }
}
