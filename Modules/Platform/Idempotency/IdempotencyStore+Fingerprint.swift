import Crypto
import Foundation

extension IdempotencyStore {
    /// The fingerprint a repeated request must match: SHA-256 of the operation and the request's canonical
    /// JSON (sorted keys, a negative zero written as 0), the same for the same request whatever the client's key
    /// order or spacing, and whether it wrote a weight of 0 as `0` or `-0` (both are stored as 0).
    public static func requestFingerprint(operation: String, request: some Encodable) throws -> String {
        var hash = SHA256()
        hash.update(data: Array(operation.utf8))
        hash.update(data: [UInt8(ascii: "\n")])
        hash.update(data: withoutNegativeZeros(try JSONCoding.bytes(request)))
        return hash.finalize().hexString
    }

    /// `json` with the sign of every number that is zero (`-0`, `-0.0`, `-0e3`) dropped; strings are left as
    /// they are. `json` is the encoder's output: valid JSON, so a number outside a string starts with `-` or a digit.
    static func withoutNegativeZeros(_ json: [UInt8]) -> [UInt8] {
        guard json.contains(UInt8(ascii: "-")) else { return json }
        var result: [UInt8] = []
        result.reserveCapacity(json.count)
        var index = 0
        var inString = false
        while index < json.count {
            let byte = json[index]
            if inString {
                result.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < json.count {
                    result.append(json[index + 1])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true }
            guard byte == UInt8(ascii: "-") else {
                result.append(byte)
                index += 1
                continue
            }
            // A number: its mantissa (before any exponent) decides whether it is zero.
            var end = index + 1
            var zero = true
            var inExponent = false
            while end < json.count {
                let c = json[end]
                if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                    inExponent = true
                } else if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") {
                    if !inExponent { zero = false }
                } else if c != UInt8(ascii: "0") && c != UInt8(ascii: ".") && c != UInt8(ascii: "+") && c != UInt8(ascii: "-") {
                    break
                }
                end += 1
            }
            result.append(contentsOf: json[(zero ? index + 1 : index)..<end])
            index = end
        }
        return result
    }
}
