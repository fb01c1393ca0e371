import Contracts
import Platform

/// Checks a tool call's arguments against the tool's JSON Schema before the tool runs, so a model's slip comes
/// back naming the field (`templates[0].exercises[1].sets`) instead of as a decoding error. The schemas the
/// tools declare use: `type` (one or a list with `null`), `properties`, `required`, `items`, `enum`, `minimum` /
/// `maximum` and `minLength` / `maxLength`. Properties the schema does not name are let through (the tool ignores
/// them), as models add them now and then.
enum ToolArgumentCheck {
    static func check(_ value: JSONValue, against schema: JSONValue, at path: String = "") throws {
        let field = path.isEmpty ? "arguments" : path
        if let types = types(of: schema), !types.contains(where: { matches(value, $0) }) {
            throw ServiceError.invalidArgument(field: field, reason: "must be \(types.joined(separator: " or "))")
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) {
            throw ServiceError.invalidArgument(
                field: field, reason: "must be one of \(allowed.compactMap(\.stringValue).joined(separator: ", "))")
        }
        if let number = numeric(value) {
            if let minimum = schema["minimum"].flatMap(numeric), number < minimum {
                throw ServiceError.invalidArgument(field: field, reason: "must be at least \(format(minimum))")
            }
            if let maximum = schema["maximum"].flatMap(numeric), number > maximum {
                throw ServiceError.invalidArgument(field: field, reason: "must be at most \(format(maximum))")
            }
        }
        if case .string(let text) = value {
            if case .int(let minimum)? = schema["minLength"], text.count < minimum {
                throw ServiceError.invalidArgument(field: field, reason: "must be at least \(minimum) characters")
            }
            if case .int(let maximum)? = schema["maxLength"], text.count > maximum {
                throw ServiceError.invalidArgument(field: field, reason: "must be at most \(maximum) characters")
            }
        }
        if case .object(let object) = value {
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil || object[name] == .null {
                throw ServiceError.invalidArgument(field: path.isEmpty ? name : "\(path).\(name)", reason: "is required")
            }
            if case .object(let properties)? = schema["properties"] {
                for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
                    guard let member = object[name], member != .null else { continue }
                    try check(member, against: property, at: path.isEmpty ? name : "\(path).\(name)")
                }
            }
        }
        if case .array(let items) = value, let itemSchema = schema["items"] {
            for (index, item) in items.enumerated() { try check(item, against: itemSchema, at: "\(field)[\(index)]") }
        }
    }

    private static func types(of schema: JSONValue) -> [String]? {
        switch schema["type"] {
        case .string(let type)?: [type]
        case .array(let types)?: types.compactMap(\.stringValue)
        default: nil
        }
    }

    private static func matches(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("object", .object), ("array", .array), ("null", .null): true
        case ("integer", .int): true
        case ("integer", .double(let number)): number == number.rounded()
        case ("number", .int), ("number", .double): true
        default: false
        }
    }

    private static func numeric(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    private static func format(_ number: Double) -> String {
        Int(exactly: number).map { "\($0)" } ?? "\(number)"
    }
}
