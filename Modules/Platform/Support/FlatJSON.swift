/// A strict reader of flat JSON objects (`{"key": scalar, …}`), for the request bodies of the hottest endpoints:
/// it answers only when the whole text is valid JSON made of one object with distinct keys whose values are
/// strings, numbers, booleans or null. Anything else (nesting, a duplicate key, an escape it does not know,
/// a malformed number) gives nil, and the caller decodes with `JSONDecoder`, which also words every error.
public struct FlatJSONObject: Sendable {
    public enum Value: Sendable, Equatable {
        case string(String)
        /// The number as written (validated against JSON's grammar).
        case number(String)
        case bool(Bool)
        case null
    }

    /// The members in the order written (keys are distinct). Bodies are small: a key is found by comparing,
    /// which costs less than hashing every key into a dictionary.
    public let values: [Member]

    /// One `"key": value` of the object (a struct, not a tuple: an array of tuples looks its type up at run
    /// time on every use).
    public struct Member: Sendable {
        public let key: String
        public let value: Value
    }

    /// The most members read; a larger object gives nil (and is decoded as usual).
    public static let maxMembers = 32

    public subscript(key: String) -> Value? {
        for member in values where member.key == key { return member.value }
        return nil
    }

    /// The string under `key`; nil when missing or not a string.
    public func string(_ key: String) -> String? {
        if case .string(let text) = self[key] { return text }
        return nil
    }

    /// A whole number written as digits only (as JSON integers are), when it fits in `Int`.
    public func integer(_ key: String) -> Int? {
        guard case .number(let text) = self[key], !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else { return nil }
        return Int(text)
    }

    public func double(_ key: String) -> Double? {
        guard case .number(let text) = self[key], let value = Double(text), value.isFinite else { return nil }
        return value
    }

    public init?(_ bytes: some Collection<UInt8>) {
        let parsed: [Member]? =
            bytes.withContiguousStorageIfAvailable { buffer in
                var reader = Reader(bytes: buffer)
                return reader.object()
            }
            ?? {
                let copy = Array(bytes)
                return copy.withUnsafeBufferPointer { buffer in
                    var reader = Reader(bytes: buffer)
                    return reader.object()
                }
            }()
        guard let parsed else { return nil }
        values = parsed
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func object() -> [Member]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var result: [Member] = []
            result.reserveCapacity(8)
            skipSpace()
            if take(UInt8(ascii: "}")) { return finished(result) }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard let value = value(), result.count < FlatJSONObject.maxMembers, !result.contains(where: { $0.key == key }) else {
                    return nil
                }
                result.append(Member(key: key, value: value))
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                return finished(result)
            }
        }

        private mutating func finished(_ result: [Member]) -> [Member]? {
            skipSpace()
            return index == bytes.count ? result : nil
        }

        private mutating func value() -> Value? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number().map { .number($0) }
            }
        }

        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            // Most strings hold no escape: they are taken as they stand.
            var end = index
            var ascii = true
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
                ascii = ascii && bytes[end] < 0x80
                end += 1
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[index..<end])
                // ASCII is valid UTF-8 as it stands (and `String(validating:)` costs a generic lookup per call).
                let text = ascii ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
                index = end + 1
                return text
            }
            var text: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(validating: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "u"):
                        // Only characters outside the surrogate range; pairs are left to JSONDecoder.
                        guard let code = hex4(), !(0xD800...0xDFFF).contains(code), let scalar = Unicode.Scalar(code) else { return nil }
                        text.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                case 0..<0x20: return nil
                default: text.append(byte)
                }
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var code: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): code = code << 4 | UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): code = code << 4 | UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): code = code << 4 | UInt32(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
            }
            return code
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        private mutating func number() -> String? {
            let start = index
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                // A leading zero stands alone.
            } else {
                guard digits() > 0, bytes[start] != UInt8(ascii: "0") else { return nil }
            }
            if take(UInt8(ascii: ".")) {
                guard digits() > 0 else { return nil }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() > 0 else { return nil }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        private mutating func digits() -> Int {
            var count = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                index += 1
                count += 1
            }
            return count
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard index + length <= bytes.count else { return false }
            for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += length
            return true
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}

/// An endpoint input that can be read from a flat JSON object without `JSONDecoder` (nil: decode as usual).
/// It must give exactly what its `Decodable` conformance gives whenever it gives anything.
public protocol FlatJSONDecodable {
    init?(flat: FlatJSONObject)
}
