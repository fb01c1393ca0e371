/// Per-server settings endpoints need while answering.
public struct EndpointSettings: Sendable {
    public var maxBodyBytes: Int
    /// Proxies whose `X-Forwarded-For` names the client (`CallContext.clientAddress`).
    public var trustedProxies: TrustedProxies

    public init(maxBodyBytes: Int = 1024 * 1024, trustedProxies: TrustedProxies = .none) {
        self.maxBodyBytes = maxBodyBytes
        self.trustedProxies = trustedProxies
    }
}
