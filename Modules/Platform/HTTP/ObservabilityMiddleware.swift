import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id (a sane incoming `X-Request-Id`, or a new one), puts it in the logger and the
/// response, and records latency and outcome per endpoint in the metrics registry.
public struct ObservabilityMiddleware: RouterMiddleware {
    public typealias Context = APIRequestContext
    static let requestIDHeader = HTTPField.Name("X-Request-Id")!

    let metrics: ServerMetrics
    let ids: any IDGenerator

    public init(metrics: ServerMetrics, ids: any IDGenerator) {
        self.metrics = metrics
        self.ids = ids
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

    private static func acceptable(_ value: String) -> String? {
        guard (1...64).contains(value.count),
            value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") })
        else { return nil }
        return value
    }
}
