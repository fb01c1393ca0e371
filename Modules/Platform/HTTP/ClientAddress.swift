import Contracts
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An IP address as its bytes: 4 for IPv4, 16 for IPv6. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what
/// a dual-stack socket reports for an IPv4 client) is its IPv4 address.
struct IPAddress: Equatable, Sendable {
    let bytes: [UInt8]

    /// Parses an address as written in a socket address or an `X-Forwarded-For` entry: IPv4 (`192.0.2.1`,
    /// optionally with `:port`) or IPv6 (`2001:db8::1`, or bracketed with an optional port: `[2001:db8::1]:443`).
    /// With `allowingPort` false only the bare address is taken.
    init?(_ written: some StringProtocol, allowingPort: Bool = true) {
        var text = written.trimmingCharacters(in: .whitespaces)
        if !allowingPort {
            // Nothing to strip.
        } else if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCII) && Int(rest.dropFirst()) != nil) else {
                return nil
            }
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            guard Int(text[text.index(after: colon)...]) != nil else { return nil }
            text = String(text[..<colon])  // IPv4 with a port
        }
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        bytes = all[0..<10].allSatisfy { $0 == 0 } && all[10] == 0xFF && all[11] == 0xFF ? Array(all[12...]) : all
    }

    /// The key rate limits count under: an IPv4 address as written, an IPv6 address by its /64 network (one
    /// host usually holds a whole /64 and may take any address in it).
    var rateLimitKey: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var network = in6_addr()
        withUnsafeMutableBytes(of: &network) { raw in
            for index in 0..<8 { raw[index] = bytes[index] }
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &network, &buffer, socklen_t(buffer.count)) != nil else {
            return bytes[0..<8].map { String($0, radix: 16) }.joined(separator: ".") + "/64"
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/64"
    }
}

/// The proxies in front of the server (`POVVER_TRUSTED_PROXIES`): addresses and networks whose
/// `X-Forwarded-For` is believed. None by default: the client is the socket's peer, and the header is ignored
/// (anyone could send it).
public struct TrustedProxies: Sendable, Equatable {
    struct Network: Sendable, Equatable {
        let address: IPAddress
        let prefix: Int

        func contains(_ candidate: IPAddress) -> Bool {
            guard candidate.bytes.count == address.bytes.count else { return false }
            var left = prefix
            for (a, b) in zip(address.bytes, candidate.bytes) where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if a & mask != b & mask { return false }
                left -= bits
            }
            return true
        }
    }

    let networks: [Network]

    public static let none = TrustedProxies(networks: [])

    init(networks: [Network]) {
        self.networks = networks
    }

    /// Parses addresses and CIDR networks (`10.0.0.0/8`, `192.0.2.7`, `fd00::/8`); `field` names the setting in
    /// the error a malformed entry gets.
    public init(parsing entries: [String], field: String = "POVVER_TRUSTED_PROXIES") throws {
        networks = try entries.map { entry in
            let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = IPAddress(parts[0], allowingPort: false) else {
                throw ServiceError(
                    .invalidArgument, "\(field) must list IP addresses or networks such as 10.0.0.0/8; '\(entry)' is neither.",
                    details: ["field": field])
            }
            let width = address.bytes.count * 8
            // An IPv4-mapped IPv6 network (`::ffff:10.0.0.0/104`) is the IPv4 network it maps.
            let mapped = address.bytes.count == 4 && parts[0].contains(":")
            var prefix = width
            if parts.count == 2 {
                let range = mapped ? 96...128 : 0...width
                guard let written = Int(parts[1]), range.contains(written) else {
                    throw ServiceError(
                        .invalidArgument,
                        "\(field): the prefix length of '\(entry)' must be from \(range.lowerBound) to \(range.upperBound).",
                        details: ["field": field])
                }
                prefix = mapped ? written - 96 : written
            }
            return Network(address: address, prefix: prefix)
        }
    }

    public var isEmpty: Bool { networks.isEmpty }

    func contains(_ address: IPAddress) -> Bool {
        networks.contains { $0.contains(address) }
    }
}

/// Who the client is, for rate limits.
enum ClientAddress {
    /// The rate-limit key of the client: the socket's `peer`, unless the peer is a trusted proxy; then the
    /// `X-Forwarded-For` entries are read from the right (each proxy appends the address it was reached from),
    /// passing over trusted proxies, and the first other address is the client. Entries left of it are whatever
    /// the client wrote and are never believed. When every entry is a trusted proxy the leftmost one is the client;
    /// an unreadable entry (a proxy that does not append a plain address) stops the walk at the peer.
    static func key(peer: String?, forwardedFor: String?, trusted: TrustedProxies) -> String? {
        guard let peer else { return nil }
        guard let peerAddress = IPAddress(peer) else { return peer }
        guard !trusted.isEmpty, trusted.contains(peerAddress), let forwardedFor else { return peerAddress.rateLimitKey }
        var client = peerAddress
        for entry in forwardedFor.split(separator: ",").reversed() {
            guard let hop = IPAddress(entry) else { return peerAddress.rateLimitKey }
            client = hop
            if !trusted.contains(hop) { break }
        }
        return client.rateLimitKey
    }
}
