import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// Gives every request an id (a sane incoming `X-Request-Id`, or a new one), puts it in the logger and the
/// response, and records latency and outcome per endpoint in the metrics registry.
///
/// The first request that carries `X-Forwarded-For` from a peer that is not a trusted proxy is logged as a warning
/// (`untrusted_forwarding`), once per process: behind a load balancer without `POVVER_TRUSTED_PROXIES`, every user
/// shares the balancer's address and its rate limits.
public struct ObservabilityMiddleware: RouterMiddleware {
    public typealias Context = APIRequestContext
    // cannot trap: a header name spelled here is a valid token
    static let requestIDHeader = HTTPField.Name("X-Request-Id")!

    let metrics: ServerMetrics
    let ids: any IDGenerator
    let trustedProxies: TrustedProxies
    let forwardingWarned = WarnedOnce()

    /// `trustedProxies`: nil trusts none.
    public init(metrics: ServerMetrics, ids: any IDGenerator, trustedProxies: TrustedProxies? = nil) {
        self.metrics = metrics
        self.ids = ids
        self.trustedProxies = trustedProxies ?? TrustedProxies(networks: [])
    }

    public func handle(
        _ request: Request, context: APIRequestContext,
        next: (Request, APIRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        let incoming = request.headers[Self.requestIDHeader]
        let requestID = incoming.flatMap(Self.acceptable) ?? ids.makeID()
        context.requestID = requestID
        context.logger[metadataKey: "request_id"] = .string(requestID)
        if request.headers[.xForwardedFor] != nil { warnIfUntrusted(peer: context.remoteAddress?.ipAddress, logger: context.logger) }
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = Envelope.failure(ErrorMapper.serviceError(for: error, logger: context.logger))
        }
        response.headers[Self.requestIDHeader] = requestID
        let endpoint = context.endpointPath ?? "unmatched"
        metrics.record(
            endpoint: endpoint, method: request.method.rawValue, status: Int(response.status.code), duration: ContinuousClock.now - start)
        return response
    }

    /// Logs once that a peer the settings do not trust sends `X-Forwarded-For`.
    func warnIfUntrusted(peer: String?, logger: Logger) {
        if let address = peer.flatMap({ IPAddress($0) }), trustedProxies.contains(address) { return }
        guard forwardingWarned.first() else { return }
        logger.warning(
            "requests arrive with X-Forwarded-For from a peer that is not a trusted proxy: if a load balancer is in front, set POVVER_TRUSTED_PROXIES to its addresses, or every user shares its rate limits",
            metadata: ["event": "untrusted_forwarding", "peer": .string(peer ?? "unknown")])
    }

    private static func acceptable(_ value: String) -> String? {
        guard (1...64).contains(value.count),
            value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") })
        else { return nil }
        return value
    }
}

/// True the first time it is asked, then false.
final class WarnedOnce: Sendable {
    private let warned = Mutex(false)

    func first() -> Bool {
        warned.withLock { warned in
            defer { warned = true }
            return !warned
        }
    }
}
