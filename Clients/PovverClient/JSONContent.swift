import Foundation

/// Any JSON value, re-encoded as it was read (an integer stays an integer): a card's free-form content
/// (`analysis_summary`, `suggestion`, `text`) as the server sent it, or a request body `RequiredNulls` completes.
public enum JSONContent: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONContent])
    case object([String: JSONContent])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONContent].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONContent].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value under `key` of an object, nil otherwise.
    public subscript(key: String) -> JSONContent? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    /// The text of a string, nil otherwise.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
