import Contracts
import Hummingbird
import NIOCore

/// The request context of every route: who is calling (set by the auth lanes) and the request id.
public struct APIRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `AuthLaneMiddleware` on authenticated routes.
    public var principal: Principal?
    /// Set by `ObservabilityMiddleware`.
    public var requestID: String = ""
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// Bodies are collected by the endpoint layer against the configured limit; this is the hard ceiling.
    public var maxUploadSize: Int { 16 * 1024 * 1024 }
}
