import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverClient
import TestSupport
import Testing

/// A field an endpoint does not know is refused, at every depth, naming it, and changes nothing; the document
/// says so (`additionalProperties: false` on every object of a request).
@Suite struct UnknownFieldsTests {
    /// The issue's case: a template set sent with the active workout's `weight_kg` was stored without its weight and
    /// answered 200.
    @Test(arguments: TestDatabases.engines)
    func aTemplateSetWithTheActiveWorkoutsFieldNameIsRefused(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("fields@example.com")
            let api = client.api(token)
            // A field the document does not declare: the generated client cannot send it, so the body is written as JSON.
            let refused = try await client.send(
                "createTemplate",
                ["name": "Push", "exercises": [["exercise_id": "Barbell_Squat", "sets": [["target_reps": 5, "weight_kg": 100]]]]],
                token: token)
            #expect(
                refused.code == "INVALID_ARGUMENT"
                    && refused.body["error"]?["details"]?["field"]?.stringValue == "exercises[0].sets[0].weight_kg", "\(refused.body)")
            #expect(try await api.getTemplates(body: .json(.init())).ok.body.json.data.items.isEmpty)
            // The legacy `userId` is declared (and ignored).
            _ = try await api.createTemplate(
                body: .json(
                    .init(
                        exercises: [.init(exerciseId: "Barbell_Squat", sets: [.init(targetReps: 5, targetWeightKg: 100)])],
                        name: "Push", legacyUserId: "ignored"))
            ).ok
        }
    }

    /// Every operation the document names, by POST with a body and by GET with a query, refuses a field nobody
    /// declared before doing anything else.
    @Test func everyOperationRefusesAFieldItDoesNotKnow() async throws {
        try await TestServer.with(.sqlite) { _, client in
            let token = try await client.newUser("every-field@example.com")
            let bytes = try await client.get("/openapi.json").body
            let document = try JSONCoding.makeDecoder().decode(JSONValue.self, from: Data(bytes.readableBytesView))
            guard case .object(let paths)? = document["paths"] else {
                Issue.record("no paths")
                return
            }
            var checked = 0
            for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
                guard case .object(let methods) = item else { continue }
                for (method, operation) in methods {
                    let post = method == "post"
                    guard post ? operation["requestBody"] != nil : operation["parameters"]?.arrayValue?.isEmpty == false else { continue }
                    var headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]
                    headers[.accept] = "application/json"
                    let response =
                        post
                        ? try await client.execute(
                            uri: path, method: .post, headers: headers, body: ByteBuffer(string: #"{"zz_unknown": 1}"#))
                        : try await client.execute(uri: path + "?zz_unknown=1", method: .get, headers: headers)
                    let json = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView))
                    let error = json?["error"]
                    #expect(
                        error?["code"] == "INVALID_ARGUMENT" && error?["details"]?["field"] == "zz_unknown",
                        "\(method) \(path): \(String(buffer: response.body))")
                    checked += 1
                }
            }
            #expect(checked > 60)
        }
    }

    @Test func theDocumentClosesEveryObjectOfARequest() async throws {
        try await TestServer.with(.sqlite) { _, client in
            let bytes = try await client.get("/openapi.json").body
            let document = try JSONCoding.makeDecoder().decode(JSONValue.self, from: Data(bytes.readableBytesView))
            var open: [String] = []
            func walk(_ schema: JSONValue, at place: String) {
                guard case .object(let object) = schema else { return }
                let isObject = object["type"] == "object" || object["type"]?.arrayValue?.contains("object") == true
                if isObject, object["properties"] != nil, object["additionalProperties"] != false, object["additionalProperties"] != true {
                    open.append(place)
                }
                if case .object(let properties)? = object["properties"] {
                    for (name, property) in properties { walk(property, at: "\(place).\(name)") }
                }
                if let items = object["items"] { walk(items, at: "\(place)[]") }
                for key in ["anyOf", "oneOf", "allOf"] {
                    for (index, part) in (object[key]?.arrayValue ?? []).enumerated() { walk(part, at: "\(place).\(key)[\(index)]") }
                }
            }
            if case .object(let paths)? = document["paths"] {
                for (path, item) in paths {
                    if let schema = item["post"]?["requestBody"]?["content"]?["application/json"]?["schema"] { walk(schema, at: path) }
                }
            }
            #expect(open.isEmpty, "\(open)")
        }
    }
}
