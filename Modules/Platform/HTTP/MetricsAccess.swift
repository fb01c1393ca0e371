import Contracts
import HTTPTypes
import NIOCore

/// Who may read `/metrics`, which tells anyone who reads it how busy the server is, which endpoints are called and
/// how they fail.
///
/// - With `POVVER_METRICS_TOKEN` set, a request must bear it (`Authorization: Bearer <token>`, compared in constant
///   time), from wherever it comes: a Prometheus on another host scrapes with `authorization: credentials: <token>`.
/// - Without it, only the machine itself: the socket's peer is a loopback address and the request names no other
///   client (`X-Forwarded-For`, `Forwarded`, `X-Real-IP`, which a proxy in front writes for the client it relays).
///   Everyone else is refused, so a server reachable from outside never shows its metrics to the outside by default.
public struct MetricsAccess: Sendable {
    /// The token's digest; nil: loopback only.
    private let token: ServiceKeySet?

    /// Only the machine itself.
    public static let loopbackOnly = MetricsAccess(keys: nil)

    private init(keys: ServiceKeySet?) {
        self.token = keys
    }

    /// A token (at least 16 visible ASCII characters, no spaces), or loopback only without one. Throws
    /// `INVALID_ARGUMENT` naming `POVVER_METRICS_TOKEN` for a token too short or not usable in a header.
    public init(token: String?) throws {
        guard let token else {
            self = .loopbackOnly
            return
        }
        guard token.utf8.count >= 16, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw EnvironmentReader.invalid(
                "POVVER_METRICS_TOKEN", "POVVER_METRICS_TOKEN must be at least 16 visible ASCII characters (no spaces).")
        }
        self.token = ServiceKeySet(keys: [token])
    }

    /// Whether `/metrics` is served to a request with these `headers` from `peer`; the error to answer otherwise.
    func refusal(headers: HTTPFields, peer: SocketAddress?) -> ServiceError? {
        if let token {
            let presented = headers[.authorization].flatMap { value -> Substring? in
                guard value.count > 7, value.prefix(7).lowercased() == "bearer " else { return nil }
                return value.dropFirst(7)
            }
            guard let presented, token.contains(String(presented)) else {
                return ServiceError(.unauthenticated, "Metrics need the bearer token configured as POVVER_METRICS_TOKEN.")
            }
            return nil
        }
        let forwarded = [HTTPField.Name.xForwardedFor, .forwarded, .xRealIP].contains { headers[$0] != nil }
        guard !forwarded, let peer = peer?.ipAddress.flatMap({ IPAddress($0, allowingPort: false) }), peer.isLoopback else {
            return ServiceError(
                .permissionDenied,
                "Metrics are served only to this machine unless POVVER_METRICS_TOKEN is set (then with that bearer token).")
        }
        return nil
    }
}

extension IPAddress {
    /// 127.0.0.0/8 or ::1 (an IPv4-mapped address is its IPv4 address).
    var isLoopback: Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }
}
