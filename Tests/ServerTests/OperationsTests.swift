import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import Testing
import TestSupport

@Suite struct OperationsTests {
    /// Every route the router serves is in `/openapi.json`, and every documented path and method is served.
    @Test func openAPIDocumentMatchesTheRouter() async throws {
        try await TestServer.with(.sqlite) { server, client in
            let response = try await client.get("/openapi.json")
            #expect(response.status == .ok)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var documented = Set<String>()
            for (path, operations) in paths {
                for method in operations.keys { documented.insert("\(method.uppercased()) \(path)") }
            }
            let served = Set(server.router.routes.map { "\($0.method.rawValue) \($0.path.description.hasPrefix("/") ? "" : "/")\($0.path)" })
            #expect(served.subtracting(documented).isEmpty, "routes missing from the document: \(served.subtracting(documented).sorted())")
            #expect(documented.subtracting(served).isEmpty, "documented routes that do not exist: \(documented.subtracting(served).sorted())")
            for name in ["signUp", "signIn", "refreshToken", "signOut", "getAccount", "getUser", "updateUser", "registerDevice"] {
                #expect(paths["/\(name)"]?["post"] != nil, "\(name) is documented")
            }
            for path in ["/health", "/ready", "/metrics", "/openapi.json", "/.well-known/jwks.json"] {
                #expect(paths[path]?["get"] != nil, "\(path) is documented")
            }
        }
    }

    @Test func healthReadyAndMetrics() async throws {
        try await TestServer.with(.sqlite) { _, client in
            #expect(try await client.get("/health").status == .ok)
            let ready = try await client.get("/ready")
            #expect(ready.status == .ok)
            #expect(String(buffer: ready.body).contains("ready"))
            _ = try await client.call("signIn", ["email": "x@y.co", "password": "secret1"])
            let metrics = String(buffer: try await client.get("/metrics").body)
            #expect(metrics.contains(#"endpoint="/signIn""#))
        }
    }
}
