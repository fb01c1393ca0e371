/// Builders for the JSON Schema fragments the OpenAPI document is made of. The same schema also tells how
/// a GET endpoint's query string is typed.
public enum Schema {
    public static let string: JSONValue = ["type": "string"]
    /// A whole number the server reads as a 64-bit integer.
    public static let integer: JSONValue = integer()
    public static let number: JSONValue = ["type": "number"]
    public static let boolean: JSONValue = ["type": "boolean"]
    public static let timestamp: JSONValue = ["type": "string", "format": "date-time"]
    public static let empty: JSONValue = object([:])
    /// Any JSON value.
    public static let any: JSONValue = [:]
    /// An object holding fields of any names (a product event's `params`): the one kind of object a request may
    /// send fields in that its schema does not list (`KnownFields`).
    public static let freeform: JSONValue = ["type": "object", "additionalProperties": true]
    /// An IANA time zone name (`Europe/Berlin`): one of `TimeZoneNames.known`, listed once in the document's
    /// `components.schemas.TimeZone`.
    public static let timeZone: JSONValue = ["$ref": "#/components/schemas/TimeZone"]

    /// A day, `YYYY-MM-DD`, that exists (`CivilCalendar.day(ofText:)`): the pattern spells out the month lengths
    /// and leap years, as `format` alone is only an annotation in OpenAPI 3.1.
    public static let date: JSONValue = [
        "type": "string", "format": "date",
        "pattern": .string(
            "^(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))"
                + "|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)$"),
    ]

    /// An idempotency key (`IdempotencyStore.checkKey`): 1 to 128 code points.
    public static let idempotencyKey: JSONValue = string(
        minLength: 1, maxLength: 128, description: "client-generated; a retry with the same key returns the first answer")

    /// The characters a name is trimmed of (Swift's `whitespacesAndNewlines`), spelled out so every regular
    /// expression engine reads the class the same way.
    static let blankCharacters = #"\t\n\u000b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"#

    /// A name: at most `maxLength` code points, with at least one character that is not blank (a name is
    /// stored trimmed, and a blank one is refused).
    public static func name(maxLength: Int) -> JSONValue {
        ["type": "string", "minLength": 1, "maxLength": .int(maxLength), "pattern": .string("[^\(blankCharacters)]")]
    }

    public static func string(format: String? = nil, minLength: Int? = nil, maxLength: Int? = nil, description: String? = nil) -> JSONValue
    {
        var schema: [String: JSONValue] = ["type": "string"]
        if let format { schema["format"] = .string(format) }
        if let minLength { schema["minLength"] = .int(minLength) }
        if let maxLength { schema["maxLength"] = .int(maxLength) }
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    public static func integer(minimum: Int = Int.min, maximum: Int = Int.max) -> JSONValue {
        ["type": "integer", "minimum": .int(minimum), "maximum": .int(maximum)]
    }

    /// The schema with a description (a legacy name's, which keeps its field's constraints).
    public static func described(_ schema: JSONValue, _ description: String) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        object["description"] = .string(description)
        return .object(object)
    }

    public static func enumeration(_ values: [String]) -> JSONValue {
        ["type": "string", "enum": .array(values.map(JSONValue.string))]
    }

    public static func array(_ items: JSONValue, minItems: Int? = nil, maxItems: Int? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "array", "items": items]
        if let minItems { schema["minItems"] = .int(minItems) }
        if let maxItems { schema["maxItems"] = .int(maxItems) }
        return .object(schema)
    }

    /// The schema, or `null`. An optional field sent as `null` is read as not sent, so every property an
    /// object does not require is declared this way (`object`).
    public static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema, !object.isEmpty else { return schema }
        switch object["type"] {
        case .string(let type)?:
            object["type"] = .array([.string(type), "null"])
        case .array(let types)? where !types.contains("null"):
            object["type"] = .array(types + ["null"])
        case .array?:
            break
        default:
            if case .array(let alternatives)? = object["anyOf"], alternatives.contains(["type": "null"]) { return schema }
            return ["anyOf": [schema, ["type": "null"]]]
        }
        if case .array(let values)? = object["enum"], !values.contains(.null) { object["enum"] = .array(values + [.null]) }
        return .object(object)
    }

    public static func object(_ properties: [String: JSONValue], required: [String] = []) -> JSONValue {
        let needed = Set(required)
        var declared = properties
        for (name, property) in properties where !needed.contains(name) { declared[name] = nullable(property) }
        var schema: [String: JSONValue] = ["type": "object", "properties": .object(declared)]
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
                either.append(["anyOf": [sent(name), sent(alias)]])
            }
        }
        // cannot trap: schemas are built at start from the declarations of the code
        guard case .object(var schema) = object(properties, required: plain) else { preconditionFailure("an object schema") }
        if !either.isEmpty { schema["allOf"] = .array(either) }
        return .object(schema)
    }

    /// `schema` (an object) taking no property it does not list (`additionalProperties: false`).
    public static func closed(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        object["additionalProperties"] = false
        return .object(object)
    }

    /// `schema` (an object) with at least one of `names` sent, not null.
    public static func requiringOne(of names: [String], in schema: JSONValue) -> JSONValue {
        // cannot trap: schemas are built at start from the declarations of the code
        guard case .object(var object) = schema else { preconditionFailure("an object schema") }
        object["allOf"] = .array((object["allOf"]?.arrayValue ?? []) + [["anyOf": .array(names.map(sent))]])
        return .object(object)
    }

    /// A patch's body (`object` with the fields to change both at the top level and inside a `changes` object):
    /// the changes come one way or the other, never both, and name at least one field (null is not sent).
    public static func patch(_ schema: JSONValue) -> JSONValue {
        // cannot trap: schemas are built at start from the declarations of the code
        guard case .object(var object) = schema, case .object(var properties)? = object["properties"],
            case .object(var nested)? = properties["changes"], case .object(let fields)? = nested["properties"]
        else { preconditionFailure("a patch schema has a changes object") }
        let anyField: JSONValue = ["anyOf": .array(fields.keys.sorted().map(sent))]
        nested["anyOf"] = anyField["anyOf"]
        nested["type"] = "object"
        properties["changes"] = .object(nested)
        object["properties"] = .object(properties)
        let conditions: [JSONValue] = [
            ["not": ["allOf": [["required": ["changes"]], anyField]]],
            ["anyOf": [anyField, ["required": ["changes"]]]],
        ]
        object["allOf"] = .array((object["allOf"]?.arrayValue ?? []) + conditions)
        return .object(object)
    }

    /// "`name` is sent, and not as null" (a field sent as null reads as not sent).
    public static func sent(_ name: String) -> JSONValue {
        ["required": [.string(name)], "properties": [name: ["not": ["type": "null"]]]]
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
