import Foundation
import HTTPTypes

/// The machine-readable form of the HTTP contract, built from the same `Endpoint` values the router serves.
public enum OpenAPIDocument {
    public static func make(endpoints allEndpoints: [Endpoint], title: String = "Povver Server", version: String = "1.0.0") -> JSONValue {
        let endpoints = allEndpoints.filter(\.documented)
        var paths: [String: JSONValue] = [:]
        let served = Dictionary(endpoints.map { ($0.name, $0) }) { first, _ in first }
        for endpoint in endpoints {
            var operations: [String: JSONValue] = [:]
            for method in endpoint.methods {
                operations[method.rawValue.lowercased()] = operation(endpoint, method: method.rawValue, served: served)
            }
            paths[endpoint.path] = .object(operations)
        }
        let errorSchema = Schema.object(
            [
                "success": ["type": "boolean", "enum": [false]],
                "error": Schema.object(
                    [
                        "code": Schema.string, "message": Schema.string,
                        "details": ["type": "object", "additionalProperties": Schema.string],
                    ], required: ["code", "message"]),
            ], required: ["success", "error"])
        return [
            "openapi": "3.1.0",
            "info": [
                "title": .string(title), "version": .string(version),
                "description": .string(
                    "Every request body is a JSON object; an optional field may be sent as null, which reads as not sent (or as a clear, where the operation says so). No string or key of a request may hold the NUL character (U+0000): such a request is INVALID_ARGUMENT. A lone UTF-16 surrogate escape is read as U+FFFD. A method a path does not take is 405 METHOD_NOT_ALLOWED with an Allow header."
                ),
            ],
            "paths": .object(paths),
            "components": [
                "schemas": ["Error": errorSchema, "TimeZone": Schema.enumeration(TimeZoneNames.known)],
                "securitySchemes": [
                    "bearer": ["type": "http", "scheme": "bearer", "bearerFormat": "JWT"],
                    "serviceKey": ["type": "apiKey", "in": "header", "name": "X-API-Key"],
                ],
            ],
        ]
    }

    /// `document` as the repository's `openapi.json` holds it: pretty-printed with sorted keys and unescaped slashes,
    /// ending in a newline, so one document is always the same bytes and a change to it reads as a diff.
    public static func stableText(_ document: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// An endpoint's operation id for `method`: its name, suffixed with the method when it takes several.
    private static func operationID(_ endpoint: Endpoint, method: String) -> String {
        endpoint.methods.count > 1 ? "\(endpoint.name)_\(method.lowercased())" : endpoint.name
    }

    private static func operation(_ endpoint: Endpoint, method: String, served: [String: Endpoint]) -> JSONValue {
        var operation: [String: JSONValue] = [
            "operationId": .string(operationID(endpoint, method: method)),
            "summary": .string(endpoint.summary),
            "tags": [.string(endpoint.tag)],
        ]
        switch endpoint.access {
        case .open: break
        case .user: operation["security"] = [["bearer": []], ["serviceKey": []]]
        case .account, .unconfirmedUser: operation["security"] = [["bearer": []]]
        }
        if let schema = endpoint.requestSchema {
            if method == "GET" {
                var parameters: [JSONValue] = []
                if case .object(let properties)? = schema["properties"] {
                    var required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                    // A field required under one of several names (`allOf` of `anyOf`s): a query names it by its
                    // first name, which is then required; the other (legacy) names are left out of the query.
                    var unlisted: Set<String> = []
                    for condition in schema["allOf"]?.arrayValue ?? [] {
                        let names = (condition["anyOf"]?.arrayValue ?? []).compactMap { $0["required"]?.arrayValue?.first?.stringValue }
                        guard let first = names.first else { continue }
                        required.insert(first)
                        unlisted.formUnion(names.dropFirst())
                    }
                    for (key, property) in properties.sorted(by: { $0.key < $1.key }) where !unlisted.contains(key) {
                        var parameter: [String: JSONValue] = ["name": .string(key), "in": "query", "schema": closed(property)]
                        if required.contains(key) { parameter["required"] = true }
                        parameters.append(.object(parameter))
                    }
                }
                operation["parameters"] = .array(parameters)
            } else {
                // No body reads as `{}`: it may be left out only when `{}` is a valid input.
                let needsFields = schema["required"] != nil || schema["allOf"] != nil
                operation["requestBody"] = [
                    "required": .bool(needsFields), "content": ["application/json": ["schema": body(schema)]],
                ]
            }
        }
        let success: JSONValue =
            endpoint.enveloped
            ? Schema.object(
                ["success": ["type": "boolean", "enum": [true]], "data": endpoint.responseSchema], required: ["success", "data"])
            : endpoint.responseSchema
        var answer: [String: JSONValue] = [
            "description": "Success", "content": .object([endpoint.responseContentType: ["schema": success]]),
        ]
        // A link to an endpoint this server does not serve (a module left out) is left out with it. A target is
        // called by POST with the body; one that also reads by GET, by GET with the same fields in the query when
        // each is a single value.
        var links: [String: JSONValue] = [:]
        for link in endpoint.links {
            guard let target = served[link.target] else { continue }
            let name = links[link.target] == nil ? link.target : "\(link.target)_\(links.count)"
            links[name] = ["operationId": .string(operationID(target, method: "POST")), "requestBody": .object(link.body)]
            if target.methods.contains(.get), link.body.values.allSatisfy({ $0.stringValue != nil }) {
                links["\(name)_get"] = [
                    "operationId": .string(operationID(target, method: "GET")),
                    "parameters": .object(Dictionary(uniqueKeysWithValues: link.body.map { ("query.\($0.key)", $0.value) })),
                ]
            }
        }
        if !links.isEmpty { answer["links"] = .object(links) }
        operation["responses"] = [
            "200": .object(answer),
            "default": [
                "description": "Failure envelope", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]],
            ],
        ]
        return .object(operation)
    }

    /// A request body's schema as the server reads it (`KnownFields`): every object takes only the fields it lists,
    /// and the top level also takes `userId` / `user_id`, which the server ignores.
    static func body(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = closed(schema), case .object(var properties)? = object["properties"] else { return closed(schema) }
        for name in KnownFields.ignoredAtTop.sorted() where properties[name] == nil {
            properties[name] = [
                "type": ["string", "null"], "description": "ignored: the user comes from the credentials", "deprecated": true,
            ]
        }
        object["properties"] = .object(properties)
        return .object(object)
    }

    /// `schema` with `additionalProperties: false` on every object that lists its properties and says nothing of
    /// others (the conditions of an `allOf`, which have no type, are left as they are).
    static func closed(_ schema: JSONValue) -> JSONValue {
        switch schema {
        case .object(var object):
            for (key, value) in object {
                switch key {
                case "properties":
                    if case .object(let properties) = value { object[key] = .object(properties.mapValues(closed)) }
                case "items", "not": object[key] = closed(value)
                case "anyOf", "oneOf", "allOf": object[key] = .array((value.arrayValue ?? []).map(closed))
                default: break
                }
            }
            let isObject = object["type"] == "object" || object["type"]?.arrayValue?.contains("object") == true
            if isObject, object["properties"] != nil, object["additionalProperties"] == nil { object["additionalProperties"] = false }
            return .object(object)
        default: return schema
        }
    }
}
