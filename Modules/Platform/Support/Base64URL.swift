import Foundation

/// Base64url without padding (RFC 4648 §5, as JWTs, JWKs and opaque cursors use it).
///
/// Translated byte by byte: `String.replacingOccurrences` goes through NSString on Linux and cost most of an App
/// Store JWS check (a header carries three certificates).
extension Data {
    public func base64URLEncoded() -> String {
        var bytes = Array(base64EncodedData())
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "+"): bytes[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): bytes[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads base64url with or without padding; nil when it is not base64url.
    public init?(base64URLEncoded text: String) {
        self.init(base64URLEncodedBytes: ArraySlice(text.utf8))
    }

    /// Reads base64url text given as its bytes (a slice of a larger buffer, e.g. one part of a JWS).
    public init?(base64URLEncodedBytes text: ArraySlice<UInt8>) {
        var bytes = [UInt8](repeating: UInt8(ascii: "="), count: (text.count + 3) / 4 * 4)
        let valid = text.withUnsafeBufferPointer { source in
            bytes.withUnsafeMutableBufferPointer { target in
                for index in 0..<source.count {
                    switch source[index] {
                    case UInt8(ascii: "-"): target[index] = UInt8(ascii: "+")
                    case UInt8(ascii: "_"): target[index] = UInt8(ascii: "/")
                    case UInt8(ascii: "+"), UInt8(ascii: "/"): return false
                    case let byte: target[index] = byte
                    }
                }
                return true
            }
        }
        guard valid else { return nil }
        self.init(base64Encoded: Data(bytes))
    }
}
