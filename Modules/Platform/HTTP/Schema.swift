/// Builders for the JSON Schema fragments the OpenAPI document is made of. The same schema also tells how
/// a GET endpoint's query string is typed.
public enum Schema {
    public static let string: JSONValue = ["type": "string"]
    public static let integer: JSONValue = ["type": "integer"]
    public static let number: JSONValue = ["type": "number"]
    public static let boolean: JSONValue = ["type": "boolean"]
    public static let timestamp: JSONValue = ["type": "string", "format": "date-time"]
    public static let empty: JSONValue = object([:])
    /// Any JSON value.
    public static let any: JSONValue = [:]

    public static func string(format: String? = nil, minLength: Int? = nil, maxLength: Int? = nil, description: String? = nil) -> JSONValue
    {
        var schema: [String: JSONValue] = ["type": "string"]
        if let format { schema["format"] = .string(format) }
        if let minLength { schema["minLength"] = .int(minLength) }
        if let maxLength { schema["maxLength"] = .int(maxLength) }
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    public static func integer(minimum: Int? = nil, maximum: Int? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "integer"]
        if let minimum { schema["minimum"] = .int(minimum) }
        if let maximum { schema["maximum"] = .int(maximum) }
        return .object(schema)
    }

    public static func enumeration(_ values: [String]) -> JSONValue {
        ["type": "string", "enum": .array(values.map(JSONValue.string))]
    }

    public static func array(_ items: JSONValue) -> JSONValue {
        ["type": "array", "items": items]
    }

    public static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema, let type = object["type"] else { return schema }
        object["type"] = .array([type, "null"])
        return .object(object)
    }

    public static func object(_ properties: [String: JSONValue], required: [String] = []) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required.sorted().map(JSONValue.string)) }
        return .object(schema)
    }

    /// An object some of whose fields are also read under another name (`aliases`: name → legacy name, e.g.
    /// `workout_id` → `workoutId`): the legacy name is listed beside the name, and a required field is required
    /// under one of its names (`allOf` of `anyOf`s of `required`).
    public static func object(_ properties: [String: JSONValue], required: [String] = [], aliases: [String: String]) -> JSONValue {
        var properties = properties
        var plain = required
        var either: [JSONValue] = []
        for (name, alias) in aliases.sorted(by: { $0.key < $1.key }) {
            if properties[alias] == nil, case .object(var schema)? = properties[name] {
                schema["description"] = .string("legacy name of \(name); either one is accepted (both only with the same value)")
                properties[alias] = .object(schema)
            }
            if let index = plain.firstIndex(of: name) {
                plain.remove(at: index)
                either.append(["anyOf": [["required": [.string(name)]], ["required": [.string(alias)]]]])
            }
        }
        guard case .object(var schema) = object(properties, required: plain) else { preconditionFailure("an object schema") }
        if !either.isEmpty { schema["allOf"] = .array(either) }
        return .object(schema)
    }

    /// The JSON type a property of an object schema declares ("integer", "boolean", …), if any.
    static func propertyType(_ schema: JSONValue?, _ name: String) -> String? {
        guard let type = schema?["properties"]?[name]?["type"] else { return nil }
        switch type {
        case .string(let value): return value
        case .array(let values): return values.compactMap(\.stringValue).first { $0 != "null" }
        default: return nil
        }
    }
}
