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

    /// Each documented request schema names every field its endpoint requires: a body holding only the
    /// `required` fields (placeholder values) is never refused for a missing one. Each call is a new user's, so
    /// one endpoint's effect (a sign-out, a deletion) cannot turn the next into a plain UNAUTHENTICATED.
    @Test func requestSchemasListEveryRequiredField() async throws {
        try await TestServer.with(.sqlite) { _, client in
            let response = try await client.get("/openapi.json")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var checked = 0
            for (path, operations) in paths.sorted(by: { $0.key < $1.key }) {
                guard let post = operations["post"] as? [String: Any],
                    let body = post["requestBody"] as? [String: Any], let content = body["content"] as? [String: Any],
                    let schema = (content["application/json"] as? [String: Any])?["schema"] as? [String: Any],
                    schema["type"] as? String == "object"
                else { continue }
                let token = try await client.newUser("schema-\(checked)@example.com")
                let reply = try await client.call(String(path.dropFirst()), Self.placeholder(schema) as? [String: Any] ?? [:], token: token)
                if reply.errorCode == "INVALID_ARGUMENT", reply.errorDetails?["reason"] as? String == "missing" {
                    Issue.record("\(path) requires '\(reply.errorDetails?["field"] ?? "?")', which its schema does not list: \(schema["required"] ?? [])")
                }
                checked += 1
            }
            #expect(checked >= 40, "request schemas checked: \(checked)")
        }
    }

    /// A value its schema accepts: an object with its required properties, the first of an enum, the minimum.
    static func placeholder(_ schema: [String: Any]) -> Any {
        if let values = schema["enum"] as? [Any], let first = values.first { return first }
        switch schema["type"] as? String {
        case "object":
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            var object: [String: Any] = [:]
            for name in schema["required"] as? [String] ?? [] { object[name] = placeholder(properties[name] ?? [:]) }
            return object
        case "array": return []
        case "integer": return schema["minimum"] as? Int ?? 1
        case "number": return schema["minimum"] as? Double ?? 1
        case "boolean": return true
        default: return String(repeating: "x", count: max(1, schema["minLength"] as? Int ?? 1))
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
