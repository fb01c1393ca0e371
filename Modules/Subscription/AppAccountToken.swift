import Crypto
import Foundation

/// The `appAccountToken` a user's purchases carry: UUID version 5 (RFC 9562 §5.5, formerly RFC 4122 §4.3) of the
/// user id in the DNS namespace, as the iOS app computes it (docs/product.md "Subscription"), lowercased.
public enum AppAccountToken {
    /// `6ba7b810-9dad-11d1-80b4-00c04fd430c8`.
    static let dnsNamespace: [UInt8] = [0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]

    public static func forUser(_ userId: String) -> String {
        uuidV5(namespace: dnsNamespace, name: Array(userId.utf8))
    }

    /// SHA-1 of namespace ‖ name, the first 16 bytes with the version (5) and variant (10xx) bits set.
    static func uuidV5(namespace: [UInt8], name: [UInt8]) -> String {
        var bytes = Array(Insecure.SHA1.hash(data: namespace + name).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append("-") }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
