import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import TestSupport
import Testing

/// `/metrics` as the server answers it: to this machine only by default, to the token's bearer when
/// `POVVER_METRICS_TOKEN` is set (it used to answer anyone).
@Suite struct MetricsEndpointTests {
    static func code(_ response: TestResponse) -> String? {
        let json = try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return (json?["error"] as? [String: Any])?["code"] as? String
    }

    @Test func withoutATokenOnlyThisMachineIsAnswered() async throws {
        try await TestServer.with(.sqlite, live: true) { _, client in
            _ = try await client.get("/health")
            let local = try await client.get("/metrics")
            #expect(local.status == .ok && String(buffer: local.body).contains("povver_http_requests_total"))
            let relayed = try await client.execute(
                uri: "/metrics", method: .get, headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.7"])
            #expect(relayed.status == .forbidden && Self.code(relayed) == "PERMISSION_DENIED", "a proxy here relaying someone else")
        }
        try await TestServer.with(.sqlite) { _, client in
            let unknown = try await client.get("/metrics")
            #expect(unknown.status == .forbidden && !String(buffer: unknown.body).contains("povver_"), "a peer that is not this machine")
        }
    }

    @Test func withATokenOnlyItsBearerIsAnswered() async throws {
        let token = "scrape-token-0123456789abcdef"
        try await TestServer.with(.sqlite, environment: ["POVVER_METRICS_TOKEN": token], live: true) { _, client in
            _ = try await client.get("/health")
            let bare = try await client.get("/metrics")
            #expect(bare.status == .unauthorized && Self.code(bare) == "UNAUTHENTICATED", "even from this machine")
            #expect(try await client.get("/metrics", token: token + "x").status == .unauthorized)
            let scraped = try await client.get("/metrics", token: token)
            #expect(scraped.status == .ok && String(buffer: scraped.body).contains("povver_http_requests_total"))
        }
    }
}
