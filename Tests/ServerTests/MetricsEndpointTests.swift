import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import OpenAPIRuntime
import Platform
import PovverClient
import TestSupport
import Testing

/// `/metrics` as the server answers it: to this machine only by default, to the token's bearer when
/// `POVVER_METRICS_TOKEN` is set (it used to answer anyone).
@Suite struct MetricsEndpointTests {
    /// The exposition `/metrics` answered to `token` (or with `headers`).
    static func scrape(_ client: any TestClientProtocol, token: String? = nil, headers: HTTPFields = [:]) async throws -> String {
        try await String(collecting: client.api(token, headers: headers).metrics().ok.body.plainText, upTo: 1 << 22)
    }

    @Test func withoutATokenOnlyThisMachineIsAnswered() async throws {
        try await TestServer.with(.sqlite, live: true) { _, client in
            _ = try await client.api().health().ok
            #expect(try await Self.scrape(client).contains("povver_http_requests_total"))
            let relayed = try #require(
                await refused { try await client.api(headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.7"]).metrics() })
            #expect(relayed.status == 403 && relayed.code == "PERMISSION_DENIED", "a proxy here relaying someone else")
        }
        try await TestServer.with(.sqlite) { _, client in
            let unknown = try #require(await refused { try await client.api().metrics() })
            #expect(unknown.status == 403 && !"\(unknown)".contains("povver_"), "a peer that is not this machine")
        }
    }

    @Test func withATokenOnlyItsBearerIsAnswered() async throws {
        let token = "scrape-token-0123456789abcdef"
        try await TestServer.with(.sqlite, environment: ["POVVER_METRICS_TOKEN": token], live: true) { _, client in
            _ = try await client.api().health().ok
            let bare = try #require(await refused { try await client.api().metrics() })
            #expect(bare.status == 401 && bare.code == "UNAUTHENTICATED", "even from this machine")
            #expect(try #require(await refused { try await client.api(token + "x").metrics() }).status == 401)
            #expect(try await Self.scrape(client, token: token).contains("povver_http_requests_total"))
        }
    }
}
