import Contracts
import Foundation

/// The fields a request may carry, at every depth, read off its schema: a field the endpoint does not know (a
/// template set sent with `weight_kg`, which the template calls `target_weight_kg`) is `INVALID_ARGUMENT` naming
/// it, instead of being dropped while the request is answered 200.
///
/// Every name a schema lists is known, legacy aliases included; a schema that says nothing of its shape
/// (`Schema.any`) or an object open to more (`Schema.freeform`) takes anything. Of a `oneOf`/`anyOf` of objects, a field any alternative
/// lists is known. `userId` / `user_id` are known at the top level of every request (a string or null) and ignored
/// there, as the API has always said (the user comes from the credentials). The OpenAPI document declares the same:
/// `additionalProperties: false` on every object of a request (`OpenAPIDocument`).
///
/// The check walks the body's bytes once, reading keys only; a body that is not well-formed JSON is left to the
/// decoder, whose error says what is wrong.
public struct KnownFields: Sendable {
    indirect enum Node: Sendable, Equatable {
        /// Anything: no schema, a scalar, or an object open to any field.
        case any
        case object([String: Node])
        case array(Node)
        /// A string or null, nothing else (the ignored `userId` / `user_id`).
        case text
    }

    /// Names every request takes at its top level and ignores.
    public static let ignoredAtTop: Set<String> = ["userId", "user_id"]

    let root: Node

    /// The known fields of a request `schema` (a `$ref` is taken as anything: only scalars are referred to).
    public init(schema: JSONValue?) {
        guard let schema else {
            root = .any
            return
        }
        switch Self.node(schema) {
        case .object(var fields):
            for name in Self.ignoredAtTop where fields[name] == nil { fields[name] = .text }
            root = .object(fields)
        case let other: root = other
        }
    }

    /// Throws `INVALID_ARGUMENT` naming the first field `json` holds that its schema does not list.
    public func check(_ json: Data) throws {
        guard root != .any else { return }
        try json.withUnsafeBytes { raw in
            var walker = Walker(bytes: raw.bindMemory(to: UInt8.self))
            try walker.value(root, path: "")
        }
    }

    // MARK: Reading the schema

    static func node(_ schema: JSONValue) -> Node {
        guard case .object(let object) = schema else { return .any }
        var types = Set<String>()
        switch object["type"] {
        case .string(let type)?: types.insert(type)
        case .array(let list)?: types.formUnion(list.compactMap(\.stringValue))
        default: break
        }
        let alternatives = (object["anyOf"]?.arrayValue ?? []) + (object["oneOf"]?.arrayValue ?? [])
        // An alternative that is a bare description takes anything, so the whole does.
        if alternatives.contains(where: isAnything) { return .any }
        var fields: [String: Node]?
        var items: Node?
        func merge(_ node: Node) {
            switch node {
            case .object(let more): fields = (fields ?? [:]).merging(more) { first, second in merged(first, second) }
            case .array(let element): items = items.map { merged($0, element) } ?? element
            case .any, .text: break
            }
        }
        if types.contains("object") {
            // An object listing its properties takes only those, unless it says it takes more.
            guard case .object(let properties)? = object["properties"], object["additionalProperties"] ?? false == false else {
                return .any
            }
            merge(.object(properties.mapValues(node)))
        }
        if types.contains("array"), let element = object["items"] { merge(.array(node(element))) }
        // Alternatives of a type of their own (`oneOf` the ops of a patch, a nullable `anyOf`); the untyped ones are
        // conditions on the fields listed beside them (`allOf` of `anyOf`s of `required`).
        for alternative in alternatives where alternative["type"] != nil || alternative["anyOf"] != nil || alternative["oneOf"] != nil {
            if alternative["type"] == "null" { continue }
            let node = node(alternative)
            if node == .any { return .any }
            merge(node)
        }
        if let fields { return .object(fields) }
        if let items { return .array(items) }
        return .any
    }

    /// A schema with nothing to say of a value's shape (`["description": …]`, `{}`).
    static func isAnything(_ schema: JSONValue) -> Bool {
        guard case .object(let object) = schema else { return false }
        return object.keys.allSatisfy { ["description", "title", "deprecated", "examples"].contains($0) }
    }

    static func merged(_ first: Node, _ second: Node) -> Node {
        switch (first, second) {
        case (.object(let a), .object(let b)): .object(a.merging(b) { merged($0, $1) })
        case (.array(let a), .array(let b)): .array(merged(a, b))
        default: .any
        }
    }

    // MARK: Walking the body

    struct Walker {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        /// Stops the walk where the text is not JSON; the decoder reports it.
        struct Malformed: Error {}

        mutating func value(_ node: Node, path: String) throws {
            do {
                try read(node, path: path)
            } catch is Malformed {
                return
            }
        }

        mutating func read(_ node: Node, path: String) throws {
            skipSpace()
            guard index < bytes.count else { throw Malformed() }
            if node == .text, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "n") {
                throw ServiceError(
                    .invalidArgument, "The field '\(path)' must be a string.", details: ["field": path, "reason": "expected string"])
            }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                skipSpace()
                if peek(UInt8(ascii: "}")) { return }
                while true {
                    skipSpace()
                    let key = try string()
                    let child = path.isEmpty ? key : "\(path).\(key)"
                    var next = Node.any
                    if case .object(let fields) = node {
                        guard let known = fields[key] else {
                            throw ServiceError(
                                .invalidArgument, "The field '\(child)' is not part of this request.",
                                details: ["field": child, "reason": "unknown field"])
                        }
                        next = known
                    }
                    skipSpace()
                    guard peek(UInt8(ascii: ":")) else { throw Malformed() }
                    try read(next, path: child)
                    skipSpace()
                    if peek(UInt8(ascii: ",")) { continue }
                    if peek(UInt8(ascii: "}")) { return }
                    throw Malformed()
                }
            case UInt8(ascii: "["):
                index += 1
                skipSpace()
                if peek(UInt8(ascii: "]")) { return }
                var position = 0
                while true {
                    let element: Node
                    if case .array(let items) = node { element = items } else { element = .any }
                    try read(element, path: "\(path)[\(position)]")
                    position += 1
                    skipSpace()
                    if peek(UInt8(ascii: ",")) { continue }
                    if peek(UInt8(ascii: "]")) { return }
                    throw Malformed()
                }
            case UInt8(ascii: "\""):
                _ = try string()
            default:
                // A number, true, false or null: up to the next delimiter.
                while index < bytes.count, !Self.delimiters.contains(bytes[index]) { index += 1 }
            }
        }

        static let delimiters: Set<UInt8> = [
            UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
            UInt8(ascii: "\t"),
        ]

        /// A string's text (escapes decoded by Foundation, as the decoder will); the index past its closing quote.
        mutating func string() throws -> String {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Malformed() }
            let start = index
            index += 1
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    let range = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(index - 1)])
                    guard escaped else { return String(decoding: range, as: UTF8.self) }
                    let quoted = Data(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    guard let text = try? JSONDecoder().decode(String.self, from: quoted) else { throw Malformed() }
                    return text
                }
                index += 1
            }
            throw Malformed()
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func peek(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
    }
}
