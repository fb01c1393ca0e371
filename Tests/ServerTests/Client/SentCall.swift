import Foundation
import Platform

/// A call made ready to send: its operation, its body as it goes on the wire (for a test that reads back what it
/// sent, or shows it in a failure), and the call, on the generated client.
///
///     SentCall("getTemplate", Operations.GetTemplate.Input.Body.JsonPayload(templateId: id)) { try await api.getTemplate(body: .json($0)) }
struct SentCall: Sendable, CustomStringConvertible {
    let name: String
    let body: JSONValue
    let send: @Sendable () async throws -> Void

    init<Body: Encodable & Sendable, Output: Sendable>(
        _ name: String, _ body: Body, _ send: @escaping @Sendable (Body) async throws -> Output
    ) throws {
        self.name = name
        self.body = try JSONValue(encoding: body)
        self.send = { _ = try await send(body) }
    }

    var description: String { "\(name) \(body)" }
}
