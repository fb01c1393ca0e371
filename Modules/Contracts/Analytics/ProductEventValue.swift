import Foundation

/// One parameter value of a product event: the JSON scalars the taxonomy types its parameters with. Encoded as
/// the bare JSON value (`"chat"`, `12`, `41.5`, `true`). As in JSON, a number is its value: `.int(45)` equals
/// `.number(45)` (a stored `45.0` reads back as `45`).
public enum ProductEventValue: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        }
    }

    public static func == (lhs: ProductEventValue, rhs: ProductEventValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let left), .string(let right)): left == right
        case (.bool(let left), .bool(let right)): left == right
        case (.int(let left), .int(let right)): left == right
        case (.int, .number), (.number, .int), (.number, .number): lhs.numberValue == rhs.numberValue
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value): hasher.combine(value)
        case .bool(let value): hasher.combine(value)
        case .int, .number: hasher.combine(numberValue)
        }
    }

    /// The value as a number, when it is one.
    public var numberValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .string(let value): value
        case .int(let value): "\(value)"
        case .number(let value): "\(value)"
        case .bool(let value): "\(value)"
        }
    }
}
