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
                // A field also read under a legacy name is required under one of them (`allOf` of `anyOf`s): the body is
                // sent once with the names, once with the legacy names.
                let options = Self.mentionsAlternatives(schema) ? [0, 1] : [0]
                for option in options {
                    let token = try await client.newUser("schema-\(checked)-\(option)@example.com")
                    let body = Self.placeholder(schema, option: option) as? [String: Any] ?? [:]
                    let reply = try await client.call(String(path.dropFirst()), body, token: token)
                    if reply.errorCode == "INVALID_ARGUMENT", reply.errorDetails?["reason"] as? String == "missing" {
                        Issue.record("\(path) requires '\(reply.errorDetails?["field"] ?? "?")', which its schema does not list: \(body.keys.sorted())")
                    }
                }
                checked += 1
            }
            #expect(checked >= 40, "request schemas checked: \(checked)")
        }
    }

    /// A value its schema accepts: an object with its required properties (of alternatives, `anyOf`, the one at
    /// `option`), the first of an enum, the minimum.
    static func placeholder(_ schema: [String: Any], option: Int = 0) -> Any {
        if let values = schema["enum"] as? [Any], let first = values.first { return first }
        switch schema["type"] as? String {
        case "object":
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            var required = schema["required"] as? [String] ?? []
            for group in schema["allOf"] as? [[String: Any]] ?? [] {
                let alternatives = group["anyOf"] as? [[String: Any]] ?? []
                guard !alternatives.isEmpty else { continue }
                required += alternatives[min(option, alternatives.count - 1)]["required"] as? [String] ?? []
            }
            var object: [String: Any] = [:]
            for name in required { object[name] = placeholder(properties[name] ?? [:], option: option) }
            return object
        case "array": return []
        case "integer": return schema["minimum"] as? Int ?? 1
        case "number": return schema["minimum"] as? Double ?? 1
        case "boolean": return true
        default: return String(repeating: "x", count: max(1, schema["minLength"] as? Int ?? 1))
        }
    }

    static func mentionsAlternatives(_ schema: [String: Any]) -> Bool {
        (try? JSONSerialization.data(withJSONObject: schema)).map { String(decoding: $0, as: UTF8.self).contains("anyOf") } ?? false
    }

    /// The document says what the endpoints read and answer: legacy names beside the names (one of the two
    /// required), required query parameters, and targets a template answers as null.
    @Test func openAPIDocumentNamesLegacyFieldsAndNulls() async throws {
        try await TestServer.with(.sqlite) { _, client in
            let response = try await client.get("/openapi.json")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            func requestSchema(_ name: String) -> [String: Any]? {
                let post = paths["/\(name)"]?["post"] as? [String: Any]
                let content = (post?["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                return (content?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
            }
            func alternatives(_ schema: [String: Any]?) -> Set<[String]> {
                Set((schema?["allOf"] as? [[String: Any]] ?? []).map { group in
                    (group["anyOf"] as? [[String: Any]] ?? []).flatMap { $0["required"] as? [String] ?? [] }
                })
            }
            let logSet = try #require(requestSchema("logSet"))
            let logSetProperties = logSet["properties"] as? [String: Any] ?? [:]
            #expect(logSetProperties["weight"] != nil && logSetProperties["workoutId"] != nil)
            #expect(alternatives(logSet) == [["weight_kg", "weight"], ["workout_id", "workoutId"]])
            #expect(!((logSet["required"] as? [String] ?? []).contains("weight_kg")))
            #expect(alternatives(requestSchema("createRoutine")) == [["template_ids", "templateIds"]])
            let patchOp = try #require(
                ((requestSchema("patchActiveWorkout")?["properties"] as? [String: Any])?["ops"] as? [String: Any])?["items"] as? [String: Any])
            let fields = ((patchOp["properties"] as? [String: Any])?["field"] as? [String: Any])?["enum"] as? [String] ?? []
            #expect(fields.contains("weight") && fields.contains("weight_kg"))

            let getWorkout = try #require(paths["/getWorkout"]?["get"] as? [String: Any])
            let parameters = getWorkout["parameters"] as? [[String: Any]] ?? []
            #expect(parameters.first { $0["name"] as? String == "workout_id" }?["required"] as? Bool == true)

            func dig(_ value: Any?, _ keys: String...) -> Any? {
                keys.reduce(value) { ($0 as? [String: Any])?[$1] }
            }
            let templateSet = dig(
                paths["/getTemplate"]?["post"], "responses", "200", "content", "application/json", "schema", "properties", "data", "properties",
                "exercises", "items", "properties", "sets", "items", "properties")
            for target in ["target_reps", "target_rir"] {
                #expect(dig(templateSet, target, "type") as? [String] == ["integer", "null"], "\(target)")
            }
            #expect(dig(templateSet, "target_weight_kg", "type") as? [String] == ["number", "null"])
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
