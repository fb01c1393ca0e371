import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `null` for a field the document requires but allows to be null, when the Swift value is nil.
///
/// The generator makes such a field optional and leaves a nil out of the body (swift-openapi-generator issue 934),
/// so "clear the active routine" (`setActiveRoutine` with `routine_id: null`) would go as `{}`, which the server
/// refuses as a missing field. A required field that is absent can only mean null, so this middleware writes it
/// back. `fields` is the document's list of such fields (the tests check it against `openapi.json`).
public struct RequiredNulls: ClientMiddleware {
    /// Where a required, nullable field sits in an operation's body.
    public struct Field: Hashable, Sendable {
        /// The operation.
        public let operation: String
        /// The array of objects the field is in (`ops`), or nil for the body itself.
        public let array: String?
        /// In an array of a union, the `op` of the objects that have the field (`set_field`).
        public let op: String?
        /// The field.
        public let name: String

        public init(operation: String, array: String? = nil, op: String? = nil, name: String) {
            (self.operation, self.array, self.op, self.name) = (operation, array, op, name)
        }
    }

    /// Every required, nullable field of a request body in the document.
    public static let fields: Set<Field> = [
        Field(operation: "setActiveRoutine", name: "routine_id"),
        Field(operation: "patchActiveWorkout", array: "ops", op: "set_field", name: "value"),
    ]

    /// Bodies are small; a larger one is sent as it is.
    static let bodyLimit = 1 << 20

    public init() {}

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let fields = Self.fields.filter { $0.operation == operationID }
        guard !fields.isEmpty, let body else { return try await next(request, body, baseURL) }
        let bytes = try await [UInt8](collecting: body, upTo: Self.bodyLimit)
        guard case .object(var object) = try? JSONDecoder().decode(JSONContent.self, from: Data(bytes)) else {
            return try await next(request, HTTPBody(bytes), baseURL)
        }
        for field in fields { Self.fill(field, in: &object) }
        let filled = try JSONEncoder().encode(JSONContent.object(object))
        var request = request
        request.headerFields[.contentLength] = nil
        return try await next(request, HTTPBody(filled), baseURL)
    }

    static func fill(_ field: Field, in object: inout [String: JSONContent]) {
        guard let array = field.array else {
            if object[field.name] == nil { object[field.name] = .null }
            return
        }
        guard case .array(var items) = object[array] else { return }
        for index in items.indices {
            guard case .object(var item) = items[index], field.op.map({ item["op"] == .string($0) }) ?? true else { continue }
            if item[field.name] == nil { item[field.name] = .null }
            items[index] = .object(item)
        }
        object[array] = .array(items)
    }
}
