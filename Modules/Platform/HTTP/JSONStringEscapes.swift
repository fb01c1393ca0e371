import Foundation

/// The escapes inside a JSON text's strings that the decoders would trip on, found in one pass over the bytes.
///
/// - A lone UTF-16 surrogate escape (`\ud800` with no low half after it, or a low half alone) is valid JSON
///   syntax (RFC 8259 §8.2 leaves its meaning open) but names no Unicode character, and Foundation's decoder
///   refuses the whole body for it. It is read as U+FFFD REPLACEMENT CHARACTER, as Go's `encoding/json` does:
///   the request is served, and the text holds the character that says something was unreadable.
/// - A NUL (`\u0000`, or a raw 0 byte) is reported, for the caller to refuse.
enum JSONStringEscapes {
    struct Scan {
        /// The text with every lone surrogate escape replaced by `\ufffd` (same length), or nil when it has none.
        var repaired: Data?
        var holdsNUL: Bool
    }

    /// One pass over `data`. Bytes outside strings are not judged: malformed JSON is the decoder's to report.
    static func scan(_ data: Data) -> Scan {
        var repaired: [UInt8]?
        var holdsNUL = false
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var inString = false
            var index = 0
            while index < count {
                let byte = bytes[index]
                if byte == 0 { holdsNUL = true }
                guard inString else {
                    if byte == UInt8(ascii: "\"") { inString = true }
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    inString = false
                    index += 1
                    continue
                }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                guard let unit = codeUnit(bytes, at: index) else {
                    index += 2  // a one-character escape (or a malformed \u, the decoder's to report)
                    continue
                }
                if unit == 0 { holdsNUL = true }
                if (0xD800...0xDBFF).contains(unit), let next = codeUnit(bytes, at: index + 6), (0xDC00...0xDFFF).contains(next) {
                    index += 12  // a surrogate pair: one character
                    continue
                }
                if (0xD800...0xDFFF).contains(unit) {
                    var copy = repaired ?? Array(bytes)
                    for (offset, character) in "fffd".utf8.enumerated() { copy[index + 2 + offset] = character }
                    repaired = copy
                }
                index += 6
            }
        }
        return Scan(repaired: repaired.map { Data($0) }, holdsNUL: holdsNUL)
    }

    /// The UTF-16 code unit of the `\uXXXX` escape starting at `index`, or nil when there is none there.
    private static func codeUnit(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16? {
        guard index + 5 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
        var unit: UInt16 = 0
        for offset in 2...5 {
            guard let digit = hexDigit(bytes[index + offset]) else { return nil }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
