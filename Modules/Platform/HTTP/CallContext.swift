import Contracts
import Logging
import NIOCore

/// What a handler knows about the call besides its input.
public struct CallContext: Sendable {
    /// Who is calling; nil on open endpoints.
    public var principal: Principal?
    public var requestID: String
    public var logger: Logger
    /// Who the client is for rate limits, when known: its IPv4 address, or its IPv6 /64 network; behind trusted
    /// proxies, the address they forwarded (`ClientAddress`). Worked out only when asked for.
    public var clientAddress: String? {
        switch client {
        case .text(let text): text
        case .socket(let address, let forwardedFor, let trusted):
            ClientAddress.key(peer: address?.ipAddress, forwardedFor: forwardedFor, trusted: trusted)
        }
    }

    private enum Client: Sendable {
        case text(String?)
        case socket(SocketAddress?, forwardedFor: String?, trusted: TrustedProxies)
    }

    private let client: Client

    public init(principal: Principal?, requestID: String, logger: Logger, clientAddress: String?) {
        self.principal = principal
        self.requestID = requestID
        self.logger = logger
        self.client = .text(clientAddress)
    }

    init(
        principal: Principal?, requestID: String, logger: Logger, remoteAddress: SocketAddress?, forwardedFor: String?,
        trusted: TrustedProxies
    ) {
        self.principal = principal
        self.requestID = requestID
        self.logger = logger
        self.client = .socket(remoteAddress, forwardedFor: forwardedFor, trusted: trusted)
    }

    /// The authenticated user's id. Throws `UNAUTHENTICATED` on an open endpoint.
    public func userId() throws -> String {
        guard let principal else { throw ServiceError(.unauthenticated) }
        return principal.userId
    }
}
