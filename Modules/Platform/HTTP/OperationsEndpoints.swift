import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/health`, `/ready`, `/metrics` and `/openapi.json`.
public enum OperationsEndpoints {
    /// `/metrics` answers whom `metricsAccess` admits (the machine itself by default) and refuses the rest.
    public static func make(
        ready: @escaping @Sendable () async -> Bool, metrics: ServerMetrics, metricsAccess: MetricsAccess = .loopbackOnly
    ) -> [Endpoint] {
        [
            .get("/health", tag: "Operations", summary: "The process is up.", response: Schema.object(["status": Schema.string])) { _, _ in
                json(#"{"status":"ok"}"#)
            },
            .get(
                "/ready", tag: "Operations", summary: "The database is reachable, every migration is applied and writes are made durable.",
                response: Schema.object(["status": Schema.string])
            ) { _, _ in
                if await ready() { return json(#"{"status":"ready"}"#) }
                return Envelope.failure(
                    ServiceError(
                        .unavailable,
                        "The server is not ready: the database is unreachable, not migrated, or cannot make writes durable.",
                        details: ["retry_after_seconds": "5"]))
            },
            .get(
                "/metrics", tag: "Operations",
                summary: "Prometheus metrics: with POVVER_METRICS_TOKEN set, for its bearer; without, for this machine only.",
                response: Schema.string, contentType: "text/plain"
            ) { request, context in
                if let refusal = metricsAccess.refusal(headers: request.headers, peer: context.remoteAddress) {
                    return Envelope.failure(refusal)
                }
                return Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
            },
        ]
    }

    /// `/openapi.json`, describing `endpoints` and itself, with the document it serves (which `povver-server openapi`
    /// writes out as the repository's `openapi.json`).
    public static func openAPI(describing endpoints: [Endpoint]) -> (endpoint: Endpoint, document: JSONValue) {
        let box = DocumentBox()
        let endpoint = Endpoint.get("/openapi.json", tag: "Operations", summary: "This OpenAPI document.", response: ["type": "object"]) {
            _, _ in
            json(box.text)
        }
        let document = OpenAPIDocument.make(endpoints: endpoints + [endpoint])
        box.text = (try? JSONCoding.encodeToString(document)) ?? "{}"
        return (endpoint, document)
    }

    private final class DocumentBox: @unchecked Sendable {
        // Written once before the endpoint is served, then only read.
        var text = "{}"
    }

    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
