import Foundation
import Platform
import PovverClient
import Testing

/// The client sends null for a nil the document requires (`RequiredNulls`): its list of such fields is the
/// document's, read here from the client's view of `openapi.json`, so a new one cannot be missed.
@Suite struct RequiredNullsTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Clients/PovverClient/openapi.json")

    @Test func theClientsListIsEveryRequiredNullableFieldOfARequestBody() throws {
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: Self.document))
        var found = Set<RequiredNulls.Field>()
        for (_, item) in Self.object(document["paths"]) {
            for (_, operation) in Self.object(item) {
                guard let id = operation["operationId"]?.stringValue,
                    let body = operation["requestBody"]?["content"]?["application/json"]?["schema"]
                else { continue }
                Self.collect(Self.resolved(body, in: document), operation: id, array: nil, op: nil, in: document, into: &found)
            }
        }
        #expect(!found.isEmpty)
        #expect(found == RequiredNulls.fields)
    }

    static func object(_ value: JSONValue?) -> [(String, JSONValue)] {
        if case .object(let object)? = value { return object.sorted { $0.key < $1.key } }
        return []
    }

    static func resolved(_ schema: JSONValue, in document: JSONValue) -> JSONValue {
        guard let ref = schema["$ref"]?.stringValue, let name = ref.split(separator: "/").last else { return schema }
        return document["components"]?["schemas"]?[String(name)] ?? schema
    }

    static func isNullable(_ schema: JSONValue) -> Bool {
        if schema["type"]?.arrayValue?.contains("null") == true { return true }
        return ["anyOf", "oneOf"].contains { schema[$0]?.arrayValue?.contains { $0["type"] == "null" } == true }
    }

    /// Required nullable fields of `schema`: of the body itself, or of the objects of one of its arrays (with the `op`
    /// constant of a union's member).
    static func collect(
        _ schema: JSONValue, operation: String, array: String?, op: String?, in document: JSONValue,
        into found: inout Set<RequiredNulls.Field>
    ) {
        for key in ["oneOf", "anyOf", "allOf"] {
            for member in schema[key]?.arrayValue ?? [] {
                let member = resolved(member, in: document)
                collect(
                    member, operation: operation, array: array, op: member["properties"]?["op"]?["const"]?.stringValue ?? op, in: document,
                    into: &found)
            }
        }
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        for (name, property) in object(schema["properties"]) {
            let property = resolved(property, in: document)
            if required.contains(name), isNullable(property) {
                found.insert(RequiredNulls.Field(operation: operation, array: array, op: op, name: name))
            }
            if array == nil, let items = property["items"] {
                collect(resolved(items, in: document), operation: operation, array: name, op: nil, in: document, into: &found)
            }
        }
    }
}
